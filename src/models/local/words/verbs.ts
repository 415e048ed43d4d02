/**
 * Verbs: which words begin a step, and which method each asks for. "Which words mean check"
 * is METHOD_VERBS.check; a new way of saying it is one more phrase there.
 */
import { type Phrases } from './grammar';

/** Verbs a single step may begin with (act.ts refuses a step that begins with none of these or a purpose). */
export const STEP_VERBS: Phrases = [
  'click',
  'press',
  'tap',
  'hit',
  'choose',
  'open',
  'follow',
  'push',
  'activate',
  'select',
  'pick',
  'type',
  'enter',
  'fill',
  'write',
  'input',
  'put',
  'set',
  'check',
  'tick',
  'uncheck',
  'untick',
  'mark',
  'unmark',
  'hover',
  'scroll',
  'focus',
  'clear',
  'double',
  'right',
  'go',
  'visit',
  'navigate',
  'toggle',
  'turn',
  'switch',
  'enable',
  'disable',
  'expand',
  'collapse',
  'submit',
  'empty',
  'erase',
];

/** Verbs that begin a clause of a longer instruction: where the planner may split one sentence into steps. */
export const CLAUSE_VERBS: Phrases = [
  ...['click', 'press', 'hit', 'tap', 'type', 'append', 'enter', 'fill', 'select', 'choose', 'pick', 'check', 'tick', 'uncheck', 'untick', 'open'],
  ...['expand', 'collapse', 'switch', 'go', 'submit', 'save', 'send', 'log', 'sign', 'login', 'set', 'write', 'put', 'input', 'clear', 'hover'],
  ...['scroll', 'toggle', 'mark', 'find', 'search', 'continue', 'confirm', 'accept', 'close', 'dismiss', 'add', 'remove', 'delete', 'focus'],
  ...['drag', 'double-click', 'right-click', 'provide', 'specify', 'use', 'register', 'create', 'navigate', 'visit', 'follow', 'activate'],
  ...['push', 'key', 'paste', 'empty', 'erase', 'unselect', 'deselect', 'turn', 'enable', 'disable', 'agree', 'opt', 'keep', 'leave', 'stay'],
  ...['remember', 'book', 'place', 'order', 'pay', 'buy', 'apply', 'upload', 'attach', 'subscribe', 'start', 'begin', 'retype', 'repeat'],
  ...['re-enter', 'reenter', 'mute', 'unmute', 'play', 'pause', 'stop', 'sort', 'filter', 'rate', 'like', 'share', 'reply', 'wait', 'copy'],
  ...['solve', 'calculate', 'go back'],
];

/** Verbs that begin a second step after a comma or "and" ("..., then click", "... and submit"): one step has one. */
export const NEXT_STEP_VERBS: Phrases = ['click', 'type', 'press', 'select', 'check', 'fill', 'open', 'enter'];
export const AND_STEP_VERBS: Phrases = [...NEXT_STEP_VERBS, 'uncheck', 'submit', 'hover', 'scroll'];

/** Words before the step that ask politely or say when ("please", "now", "could you"). */
export const COURTESY: Phrases = ['please', 'now', 'then', 'kindly', 'can you', 'could you', 'go ahead and', 'i want to', "i'd like to"];

/** What opens a whole instruction before its first step ("please", "first of all,", "I'd like to"). */
export const OPENING_COURTESY: Phrases = [
  'please',
  'kindly',
  'now',
  'first,',
  'first of all,?',
  'can you',
  'could you',
  'would you',
  'will you',
  'go ahead and',
  'i want to',
  "i'd like to",
  'i would like to',
  'i need to',
  'i (?:need|want) you to',
  "i(?:'d| would) like you to",
];
/** What closes a whole instruction after its last step (", please", "thanks"): no part of a value or a target. */
export const CLOSING_COURTESY: Phrases = ['please', 'thanks', 'thank you', 'thx', 'if you can', 'if possible'];
/** Words after which a closing courtesy is what is typed or said ("reply with thanks", "type please"). */
export const COURTESY_AS_VALUE: Phrases = ['with', 'saying', 'say', 'type', 'enter', 'write', 'input', 'word', 'text'];

/**
 * How fast a step is to be done, said after it ("click three times before time runs out"): the step is done at once
 * anyway. Only whole phrases: a word alone ("fast", "in time") may be a value or a field's name.
 */
export const HASTE: Phrases = [
  'before (?:the )?(?:time|timer|clock) runs out',
  'before the (?:timer|time) (?:ends|is up)',
  'as (?:fast|quickly) as (?:you can|possible)',
];
/** What makes an instruction a request put as a question ("Could you forward ...?"). */
export const REQUEST_OPENERS: Phrases = ['can you', 'could you', 'would you', 'will you'];
/** What opens one clause of it ("also click", "and then"). */
export const CLAUSE_OPENERS: Phrases = ['please', 'also', 'now', 'and'];

/** The verbs of each method of one step, each phrase followed by its target. */
export const METHOD_VERBS = {
  /** Text typed as given: "type", "key in" (an instruction that begins so keeps its "'s": "type Tom's"). */
  type: ['type', 'enter', 'write', 'input', 'put', 'key in', 'fill', 'insert', 'paste'],
  /** Text typed into a named field ("type X into Y"). */
  typeInto: ['type', 'enter', 'write', 'input', 'put', 'key in', 'fill in', 'fill', 'insert', 'paste'],
  /** A field set to a value ("set Y to X", "fill Y with X"). */
  setTo: ['fill(?: in| out)?', 'complete', 'set', 'change', 'update'],
  /** A value given alone, which may be a date ("enter today's date"). */
  enter: ['type', 'enter', 'write', 'input', 'put', 'key in', 'fill in', 'insert'],
  /** A key pressed ("press Enter", "hit ctrl+a"). */
  press: ['press', 'hit', 'tap', 'type', 'send'],
  /** An option of a list ("select X from Y"). */
  selectFrom: ['select', 'pick', 'choose', 'set'],
  /** A choice among options, radios or controls ("choose X"). */
  choose: ['select', 'choose', 'pick'],
  clear: ['clear', 'empty', 'erase', 'delete the text in', 'remove the text (?:from|in)'],
  uncheck: ['uncheck', 'untick', 'unmark', 'unselect', 'deselect', 'disable', 'turn off', 'switch off', 'opt out of'],
  check: ['check', 'tick', 'mark', 'enable', 'turn on', 'switch on', 'opt in to', 'opt into'],
  hover: ['hover(?: over| on)?', 'mouse over', 'mouseover', 'point (?:at|to)', 'move (?:the )?(?:mouse|pointer|cursor) (?:over|to|onto)'],
  focus: ['focus(?: on| into| in| to)?', 'put (?:the )?focus (?:on|in|into)', 'give focus to', 'tab to', 'place (?:the )?cursor in(?:to)?'],
  doubleClick: ['double[- ]?click(?: on)?'],
  rightClick: ['right[- ]?click(?: on)?'],
  click: ['click(?: on)?', 'press', 'tap(?: on)?', 'hit', 'follow', 'push', 'activate', 'go to', 'visit', 'navigate to', 'submit'],
  /** What opens or shows a thing, or the control that does ("expand components"). */
  open: ['open', 'toggle', 'expand', 'collapse', 'show'],
  /** Verbs whose object is the thing itself ("open the email from Linus"), never a control beside it. */
  view: ['open', 'view', 'read', 'see', 'show', 'visit', 'launch', 'play', 'watch', 'browse', 'check out'],
  /** Verbs that say how a purpose is carried out ("close the dialog by clicking the x"). */
  byDoing: ['clicking', 'pressing', 'tapping', 'hitting', 'selecting', 'choosing', 'using'],
  /** A click said after its target ("Submit button, please click it"). */
  clickIt: ['click', 'press', 'tap', 'hit', 'select', 'choose'],
  /** Answering what a dialog asks ("answer the dialog with yes"). */
  answer: ['answer', 'respond to', 'reply to'],
  /** Closing a dialog or a panel. */
  close: ['close', 'dismiss', 'exit', 'shut'],
} as const satisfies Record<string, Phrases>;

/** Words that begin a sentence but are no verb: "is", "the", "what" never name a control's purpose. */
export const NOT_VERBS: Phrases = [
  ...['is', 'are', 'was', 'were', 'be', 'the', 'a', 'an', 'i', 'you', 'we', 'it', 'this', 'that', 'there', 'what', 'where', 'how', 'why'],
  ...['when', 'which', 'who', 'my', 'your', 'do', 'does', 'did', 'can', 'should', 'would', 'will'],
];

/** The planner's verbs: a step that types ("enter", "provide", "set"). */
export const ENTRY_VERBS: Phrases = [
  ...['enter', 'type', 'fill in', 'fill out', 'fill', 'input', 'provide', 'put', 'write', 'use', 'key in', 'specify', 'set', 'change'],
  'update',
];
/** A verb spread over a list of targets ("select 1, 5 and 9"). */
export const LIST_VERBS: Phrases = [
  'select',
  'choose',
  'pick',
  'check',
  'tick',
  'mark',
  'click(?: on)?',
  'uncheck',
  'untick',
  'unselect',
  'deselect',
  'press',
  'tap',
];
/** Clicks, as the planner reads them when it repeats a verb over clauses. */
export const CLICK_VERBS: Phrases = ['click', 'press', 'tap', 'hit', 'push'];
/** A click over several targets chosen on the page ("click the numbers in ascending order"). */
export const CLICK_ALL_VERBS: Phrases = ['click', 'press', 'tap', 'select', 'choose', 'hit'];
/** A click on every target that mentions something ("open every link about dogs"). */
export const CLICK_EVERY_VERBS: Phrases = ['click', 'open', 'select', 'check', 'tick', 'press', 'follow', 'visit'];
/** Dragging, or moving something by the mouse. */
export const DRAG_VERBS: Phrases = ['drag', 'move', 'slide', 'pull', 'push', 'shift'];
/** Reading a long text to its end ("read the whole agreement"): scrolling the box that holds it to the bottom. */
export const READ_THROUGH: Phrases = ['read(?: through)?(?: the)? (?:whole|entire|full|complete)', 'read through(?: the)?'];
/** Verbs that state an amount before saying where it goes ("Pay 12,000 (twelve thousand): enter the amount"). */
export const STATING_VERBS: Phrases = ['pay', 'send', 'transfer', 'donate', 'deposit', 'withdraw', 'give'];
/** Verbs that then put that amount into a field. */
export const ENTERING_VERBS: Phrases = ['enter', 'type', 'put', 'fill in', 'input', 'write'];
/** Moving a thing into a place, done by a drag when the instruction says so ("put X in the box by dragging it"). */
export const PLACING_VERBS: Phrases = ['put', 'move', 'place', 'drop', 'bring', 'get'];
/** How an instruction says the move is a drag. */
export const BY_DRAGGING: Phrases = ['by dragging(?: and dropping)?(?: it| them)?', 'by drag and drop', 'with drag and drop', 'using drag and drop'];
/** A slider or a knob set to a value ("move the volume slider to 80"). */
export const SLIDER_VERBS: Phrases = ['move', 'drag', 'slide', 'set', 'put', 'turn', 'adjust', 'change'];

/** Selecting text shown on the page ("highlight the word lanterns", "select the words "morning fog" with the mouse"). */
export const HIGHLIGHT_VERBS: Phrases = ['highlight', 'select', 'mark'];
/** Nouns for a piece of text; "select" and "mark" mean selecting text only with one of these, or a quote. */
export const TEXT_PIECES: Phrases = ['text', 'words?', 'phrase', 'sentence', 'passage', 'letters?', 'characters?'];
/** Where a piece of text is, said without naming a place ("in the paragraph"). */
export const TEXT_PLACES: Phrases = ['paragraph', 'text', 'page', 'story', 'passage', 'article', 'sentence', 'content', 'body'];
/** How a person selects, said after the text ("with the mouse"). */
export const BY_POINTER: Phrases = ['mouse', 'cursor', 'pointer'];
/** Pressing a control and holding it for a time ("hold the button for exactly 3 seconds", "press and hold Record for 2 s"). */
export const HOLD_VERBS: Phrases = ['press and hold', 'press & hold', 'click and hold', 'tap and hold', 'hold down', 'hold', 'keep pressing', 'long[- ]?press'];
/** Said after the target of a hold ("hold the button down", "keep the button pressed"). */
export const HELD_WORDS: Phrases = ['down', 'pressed', 'held down', 'held'];
/** How exact the time of a hold is: "at least" holds a little longer, the others hold the time said. */
export const HOLD_EXACTNESS: Phrases = ['exactly', 'precisely', 'about', 'around', 'roughly', 'just', 'at least'];
/** A target of a hold that is a key, not a control: a key held down is not done. */
export const HELD_KEYS: Phrases = ['key', 'keys', 'space ?bar', 'shift', 'ctrl', 'control', 'alt', 'option', 'command', 'enter', 'escape'];
/** How long a long press with no time said lasts, and how much longer than said "at least" holds. */
export const LONG_PRESS_MS = 1000;
export const AT_LEAST_EXTRA_MS = 250;
