/** Small board games: what they are called, what winning one is asked as, and the marks on the board. */
import { type Phrases } from './grammar';

export const BOARD_GAMES: Phrases = ['tic[- ]?tac[- ]?toe', 'n(?:ou|au)ghts and crosses', "x(?:'?s)? and o(?:'?s)?"];
/** "Win this game", "beat the computer at ...". */
export const GAME_WIN_VERBS: Phrases = ['win', 'win at', 'beat the (?:computer|opponent|ai|bot) (?:at|in)', 'defeat the (?:computer|opponent) (?:at|in)'];
/** How a square shows a cross or a nought. */
export const CROSS_MARKS: Phrases = ['x', '×', '✕', '✖', '✗', '❌'];
export const NOUGHT_MARKS: Phrases = ['o', '○', '◯', '⭕', '⚪'];

/** A maze of doors to find the way out of ("navigate through a series of doors to find the exit", "navigate a simpler maze"). */
export const MAZE_SAID: Phrases = [
  '(?:navigate|go|find your way|make your way) (?:through |across )?(?:a|the) ' +
    '(?:series of doors|(?:[\\w-]+ )?maze(?: with [\\w ]+?)?) to find (?:the|its) (?:exit|way out)',
  'find (?:the|your) (?:exit|way out) (?:of|from|through) (?:a|the) (?:[\\w-]+ )?maze',
];
/** What a maze's doors are called: a control named so (with its number) leads on. */
export const DOOR_NAMES: Phrases = ['door', 'doorway', 'gate'];

/** Towers of Hanoi asked as a task: (1) how many disks, when said. */
export const HANOI_SAID: Phrases = [
  '(?:stack|move) (?:the |all (?:the )?)?(?:(\\d+) )?(?:disks|discs|rings) (?:on|onto|to) (?:the )?(?:rightmost|right|last|third) (?:peg|rod|tower|pole)' +
    '(?: following the rules| in the (?:minimum|fewest|least) (?:number of )?moves)?',
  '(?:solve|complete) (?:the |a )?towers? of hanoi(?: puzzle)?(?: with (\\d+) (?:disks|discs|rings))?',
];
/** What the control that picks a peg is called (one such control under each of three pegs). */
export const PEG_PICKERS: Phrases = ['select', 'selected', 'choose', 'pick'];

/** A river crossing asked as a task: (1) what is taken across ("transport a wolf, goat, and cabbage across the river safely"). */
export const RIVER_SAID: Phrases = [
  '(?:transport|get|take|bring|ferry|move) (?:a |an |the |all )?(.+?) (?:across|over) the river(?: safely)?',
  '(?:help|guide) (?:a |an |the )?(.+?) (?:across|over) the river(?: safely)?',
];
/** A rule of a crossing: (1) what eats (2) what, when they are left alone. */
export const EATS_SAID: Phrases = ['(?:the |a )?([a-z]+) (?:will |would |can |may )?(?:eat|eats|attack|attacks|kill|kills) (?:the |a )?([a-z]+)'];
/** How many a boat carries: (1) the number ("the boat can only carry one item at a time", "up to two items"). */
export const SEATS_SAID: Phrases = ['carry (?:only )?(?:up to |at most )?([a-z]+|\\d+) (?:items?|things?|passengers?|animals?)'];
