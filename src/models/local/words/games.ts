/** Small board games: what they are called, what winning one is asked as, and the marks on the board. */
import { type Phrases } from './grammar';

export const BOARD_GAMES: Phrases = ['tic[- ]?tac[- ]?toe', 'n(?:ou|au)ghts and crosses', "x(?:'?s)? and o(?:'?s)?"];
/** "Win this game", "beat the computer at ...". */
export const GAME_WIN_VERBS: Phrases = ['win', 'win at', 'beat the (?:computer|opponent|ai|bot) (?:at|in)', 'defeat the (?:computer|opponent) (?:at|in)'];
/** How a square shows a cross or a nought. */
export const CROSS_MARKS: Phrases = ['x', '×', '✕', '✖', '✗', '❌'];
export const NOUGHT_MARKS: Phrases = ['o', '○', '◯', '⭕', '⚪'];
