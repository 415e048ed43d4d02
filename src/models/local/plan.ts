/**
 * The built-in model's planner: a compound instruction ("Enter the username "ada" and the
 * password "x" into the text fields and press login") as single steps, each of which the
 * single-step reading in act.ts can ground on the page as it is when that step runs. It reads
 * sequence words and sentences, lists one verb spreads over ("Select 1, 5 and 9"), entry lists
 * in the forms people write them ("first name Ada, last name Lovelace", "Ada as the name",
 * "set the timeout to 60"), "into both fields", "confirm it", logins, menu paths, suggestions,
 * "the 3rd search result" and directions to look ("switch between the tabs to find ...").
 * The page's own field names tell a label from its value; nothing here acts, and what it
 * cannot read stays one step for act to ground or refuse.
 */
import { Refusal } from './act';
import { applyTransform, type Transform } from './refs';
import { isReference, type Comparison } from './text';
import { namedDate } from './values';
import { MONTH_STEMS } from './words/dates';
import { anyOf, either, oneOf, type Phrases } from './words/grammar';
import { MATH_NOUNS, SOLVE_VERBS } from './words/math';
import {
  ALL_TEXT,
  COLOUR_PICKERS,
  COLOUR_VERBS,
  EDITOR_NOUNS,
  RATE_VERBS,
  RATED_THINGS,
  NOT_STYLED_TEXT,
  STEPPERS,
  STYLE_NOUNS,
  STYLE_VERBS,
  TEXT_STYLES,
} from './words/controls';
import {
  BOOK_IT,
  BOOK_VERBS,
  DATE_LEADS,
  FIND_VERBS,
  ONE_WAY,
  PICK_VERBS,
  RESULT_MEASURES,
  RESULT_NOUNS,
  RESULT_ORDERS,
  ROUND_TRIP,
  TRIP_NOUNS,
} from './words/trips';
import type { Trip } from './trips';
import { SORT_STEP, sortFirst, type SortSpec } from './sorting';
import { GAME_STEP, gameFirst } from './boards';
import { hanoiSaid, mazeSaid, riverSaid } from './puzzles';
import { ACROSS, DOWNWARDS, GROWN, RESIZE_VERBS, RESIZED_BOXES, SHRUNK } from './words/places';
import { drawOf, type Draw } from './draws';
import { guessOf, type Guess } from './guessing';
import { mirrorTask, scrollOnly, secretSought, type ScrollWay } from './secrets';
import { CONSENT_MEANS, CONSENT_SERIES, CONSENT_VERBS, CONSENTED, HUMAN_PROOF, WARNED_ACCESS } from './words/consent';
import { BISECTS, CENTRES, CIRCLES_AROUND, COORDINATE_SAID, DRAWN_WITH, LINE_THROUGH, MIDPOINTS, POINT_CLICKS, TARGET_PIXELS } from './words/drawings';
import type { SpotKind } from './geometry';
import cssColours from 'color-name';
import { CODE_BOXES, DASH_ASIDES, DISH_NOUNS, IN_FRAMES, MOVING_MANNER, MOVING_NOUNS, MOVING_WORDS } from './words/controls';
import { describeFile, fileToRemove, type FileSpec } from './shell';
import {
  CLICK_PURPOSES,
  CONTEXT_MENU_OPENERS,
  DIALOG_NOUNS,
  DISMISS_KEYS,
  CAROUSELS,
  DISMISS_VERBS,
  POPUPS,
  POPUP,
  SEARCH_THROUGH_VERBS,
  FOUND_ACTS,
  SCROLL_VERBS,
  UNTIL_FOUND,
  UNTIL_SHOWN,
  FOLDED_PARTS,
  MENU_KINDS,
  MENU_OPEN_VERBS,
  FOLDS,
  PURPOSED_CLICKS,
  HIDDEN_IN,
  LOOK_THROUGH_VERBS,
  LOOK_THROUGH_WAYS,
  SUGGESTED,
  SUGGESTION_LISTS,
  MENU_SEARCHES,
  RIGHT_CLICK_ANYWHERE,
} from './words/menus';
import {
  CONTROL_NOUNS,
  EACH_ITEM_VERBS,
  FIND_ITEM_VERBS,
  ICON_VERBS,
  ITEM_BY,
  ITEM_NOUNS,
  ITEM_OWNERS,
  ITEM_PRONOUNS,
  ITEM_VERB_ALIASES,
  ITEM_VERBS,
  ITEMS,
  ITEMS_BY,
  MARK_STATES,
  MENTION_KINDS,
  ALL_KINDS,
  EVERYTHING,
  MENTIONS,
  NEWEST,
  OPEN_VERBS,
  REPLY_VERBS,
  REPLY_WITH,
  MARK_STAND_INS,
  SEND_ON_VERBS,
  FIND_MESSAGE_VERBS,
  SEND_IT_VERBS,
  DONE_TO_ITEM,
} from './words/messages';
import { PERSON_NAME, RECORD_BOOKS, RECORD_FIELDS } from './words/search';
import { BY_KEYS, KEY_COMBO_NOUNS, KEY_WORDS, MODIFIERS } from './words/keys';
import {
  BY_MEANING,
  CARRYING,
  DOWNWARD,
  LARGEST,
  NUMBER_NOUNS,
  ORDERINGS,
  PARITIES,
  SMALLEST,
  SUPERLATIVES,
  TURN_VERBS,
  TURNED_THINGS,
  UPWARD,
} from './words/orders';
import { CREDENTIAL_NOUNS, FIELD_ALIASES, LOGIN_USER, LOGIN_WORDS, SHOWN_DETAILS, SHOWN_WHERE, SIGN_IN_WORDS } from './words/purposes';
import {
  BY_CLICK_VERBS,
  ANSWER_BUTTON_LEADS,
  BY_STEP_VERBS,
  COUNT_QUESTION_ENDS,
  EACH_LABEL_VALUES,
  FIND_FIRST_VERBS,
  FOUND_PRONOUNS,
  GENERIC_FIELDS,
  OWNER_WORDS,
  PLACE_WORDS,
  REST_OF_SET,
  SHADES,
  STATED_NOUNS,
  VALUE_WORDS,
} from './words/references';
import {
  CLAUSE_OPENERS,
  CLAUSE_VERBS,
  CLICK_ALL_VERBS,
  CLICK_EVERY_VERBS,
  CLICK_VERBS,
  DRAG_VERBS,
  ENTERING_VERBS,
  ENTRY_VERBS,
  LIST_VERBS,
  OPENING_COURTESY,
  REQUEST_OPENERS,
  HASTE,
  CLOSING_COURTESY,
  COURTESY_AS_VALUE,
  STATING_VERBS,
  HOLD_VERBS,
  HELD_WORDS,
  HOLD_EXACTNESS,
  HELD_KEYS,
  LONG_PRESS_MS,
  AT_LEAST_EXTRA_MS,
} from './words/verbs';
import {
  BECOMING_VERBS,
  COMPARISONS,
  CONDITION_WORDS,
  ELSE_WORDS,
  LAST_STEP_WORDS,
  MEASURE_VERBS,
  NOT_AFTER_ONCE,
  OTHER_VALUES,
  READ_VERBS,
  ON_STATES,
  REACHING_VERBS,
  THEN_WORDS,
  WAIT_FOR_WORDS,
  WATCH_WORDS,
  WHEN_DONE,
} from './words/conditions';
import { AFTER_UNITS, COUNT_PHRASE, COUNT_WORDS, MONEY_WORDS, ORDINALS, ordinalOf, ordinalWord, PAUSE_COUNT, PAUSE_UNITS, REPEATS } from './words/numbers';

export interface PlanStep {
  /** One instruction for the single-step engine. */
  say: string;
  /** Other phrasings, tried in order when `say` grounds nowhere (the page may call Login "Sign in"). */
  or?: string[];
  /** The target may be hidden in a collapsed section or another tab: reveal them to look for it. */
  search?: boolean;
  /**
   * After typing, click the suggestion that fits: the one that is (or alone begins with) what
   * was typed (`typed`), or the one the instruction describes ("starts with Ger and ends with ny").
   */
  pick?: { startsWith?: string; endsWith?: string; typed?: boolean; any?: boolean };
  /** "click the 3rd search result": the nth result of the page's results list (1-based; -1 the last), on later result pages if need be. */
  result?: number;
  /** "pick Porto from the suggestions": the shown suggestion that is (or alone begins with) this. */
  suggestion?: string;
  /** A log-in or submit click the instruction implied rather than placed: it goes after the other steps. */
  implied?: boolean;
  /**
   * The value typed is a description of something on the page ("the value of Year of Birth",
   * "the text below"): read it off the page when the step runs (its quoted form in `say` is
   * replaced by what was read), or refuse. Never typed as written.
   */
  ref?: string;
  /** "in all lower case", "reversed": applied to the value read for `ref`. */
  transform?: Transform;
  /** "expand the section below": open the one collapsed section (or look through several for the steps after it). */
  expand?: boolean;
  /** A menu item hovered to open its submenu: if the next item does not show, it is clicked instead. */
  opens?: boolean;
  /** "buy when the price is less than $50": watch the page until the number it names passes the threshold, then act. */
  when?: Condition;
  /** "wait 1 second": a pause of this many milliseconds, nothing else. */
  wait?: number;
  /** With a condition read once: the step taken when it does not hold ("otherwise press No"). */
  otherwise?: string;
  /** A set of targets chosen on the page when the step runs, each clicked in turn (or one picked by a property). */
  each?: Each;
  /** "the email from Alice": open the item (message, post, row) by or about this, by clicking it. */
  openItem?: string;
  /** "Find adventure movies directed by Holt from 1991": the parts of a search, into the form's fields, then its search button. */
  searchForm?: string;
  /**
   * A pointer drag of `target` (words for the single-step reading to ground): by a direction
   * ("left", "all the way to the right"), or to the first or last place among its like siblings
   * ("to the top of the list", "to the 1st position").
   */
  /** A drag by an offset, or to a place in its list: the first, the last, or the nth (1-based). */
  /**
   * `shift`: so many places that way along the item's list or grid ("down by one position", "left by one"); `cell`: a
   * place of a grid by its row and column ("to the top left", "to the center"). Both worked out from where things are then.
   */
  drag?: {
    target: string;
    dx?: number;
    dy?: number;
    to?: 'first' | 'last' | number;
    shift?: { way: 'up' | 'down' | 'left' | 'right'; by: number };
    cell?: { row: 'top' | 'middle' | 'bottom'; col: 'left' | 'middle' | 'right' };
  };
  /** "from Boston to Denver on 12/03": the booking page's search form filled and run. */
  trip?: Trip;
  /** "Find Lynne in the contact book and click her phone number": a field's control in a person's record, on later pages if need be. */
  record?: { who: string; field: string };
  /** The trip result a superlative picks ("the cheapest"), booked with its own control, or only named when `look`. */
  tripResult?: { order?: string; look?: boolean };
  /** "Sort the numbers in increasing order": the page's one movable list, each item moved to its place in turn. */
  sort?: SortSpec;
  /** "Playing as X, win this game of tic-tac-toe": moves on the page's one board until a line of the mark shows. */
  game?: { mark: 'X' | 'O' | 'either' };
  /** "Guess the number between 0-9 and press Submit": guesses typed and sent, halving the range by the page's answers. */
  guess?: Guess;
  /** "Generate a number less than 7": the page's button clicked until the number it shows fits. */
  draw?: Draw;
  /** "Use the terminal below to delete the .gif file": the page's command line lists the files, removes the one, lists again. */
  removeFile?: FileSpec;
  /** "Close the welcome message": the page's dialog (named by `words` when it has several) closed by its control or `key`, then gone. */
  dismiss?: { words: string; key?: 'Escape' };
  /**
   * "Acknowledge the content warning", "prove you're human by agreeing to our terms": the page's one consent box ticked,
   * then its one control that goes on clicked (after a tick only when `press`: the task's end is what the page shows next).
   */
  consent?: { kind: 'warning' | 'terms' | 'human'; press?: boolean; series?: boolean };
  /**
   * "Click on the midpoint between the two points", "the center of the circle", "bisect the angle": that point of the page's
   * drawing, clicked; "draw a line through the dot", "a circle around the point": that stroke drawn.
   */
  spot?: { at: SpotKind; dir?: 'horizontal' | 'vertical' };
  /** "Hold the button for exactly 3 seconds": the control the words name pressed, held this long, then released. */
  hold?: { target: string; ms: number };
  /**
   * "Click the moving target three times": the page's one element that moves, clicked where it is at each moment, `times`
   * times; with no number and a secret to read after it (`untilShown`), until the page shows one (at most 10 clicks).
   */
  moving?: { noun: string; times?: number; untilShown?: boolean };
  /**
   * "Right-click a large, obvious area": the page's one element whose name says it is the place to right-click; with none,
   * the words as said (`said`: "right-click the box" on a page with one box).
   */
  rightClickHere?: { said: string };
  /**
   * "Navigate through the menu bar to find the secret option": the page's menus opened in turn until the item shows; then
   * clicked when the words say so, or the page's secret is what the task ends with.
   */
  menuFind?: { target: string; click?: boolean };
  /** "Close the popup windows": every pop-up closed by its own close control, one at a time, until none is left. */
  dismissAll?: boolean;
  /** "Expand the pie menu below": the page's one control that opens a menu (of that kind), clicked; the next steps look in it. */
  openMenu?: { kind?: string };
  /** "Scroll down the feed until you find X and click it": the page (or the scroll area named `within`) scrolled until X shows. */
  scrollFind?: { target: string; within?: string };
  /** "Go through the carousel to find X and click it": the carousel's Next control until X shows. */
  slideFind?: { target: string };
  /** "Rate it 4 stars": the control named for that many stars, or that star of the page's one row of stars. */
  rate?: { stars: number; of?: number };
  /** "Make the text area wider": the box's resize grip dragged by this much (the box as words for the single-step reading to ground). */
  resize?: { target: string; dx: number; dy: number };
  /** "Drag all circles into the black box": every piece of that kind dragged onto the target, each move checked. */
  dragEach?: { what: string; to: string; rest?: string };
  /**
   * "Order one of each item: A, B", "order 3 items that are vegan": each item's add control ("+") clicked that many times
   * (items of a kind: the first ones of it, one each), then the page's one control that sends the order.
   */
  order?: { items?: string[]; kind?: string; count?: number };
  /** "Transport a wolf, goat, and cabbage across the river safely": crossings worked out from the page's rules, then made. */
  river?: { items: string[] };
  /** "Navigate a maze to find the exit": the page's doors tried in turn, going back from dead ends, until a secret shows. */
  maze?: boolean;
  /** "Stack 3 disks on the rightmost peg": the Towers of Hanoi solved with the page's three peg pickers, one move at a time. */
  hanoi?: { disks?: number };
  /** "Click on the grid coordinate (-2,1)": the cell named so, else the point of a lattice with numbered axes there. */
  coord?: { x: number; y: number };
  /** "... and obtain the password": the secret the steps before it revealed, read off the page (on the page `url` names). */
  secret?: { url?: string; send?: boolean };
  /** "Scroll down to find the password": the page (and its scroll areas) scrolled that way until a secret shows, then read. */
  reveal?: { way: ScrollWay; url?: string };
}

/** How far "drag it left" goes; "all the way" goes to the edge (the drag end stays in the viewport). */
export const DRAG_STEP = 120;
const DRAG_FAR = 4000;

/**
 * "Click the numbers in ascending order", "open all the links that mention cats", "like all posts
 * by Kim", "click the greatest number", "click the odd number".
 */
export interface Each {
  /** Targets named by a number, clicked in this order. */
  order?: 'asc' | 'desc';
  /** Of the targets named by a number, only the one that is: the greatest, the least, the only odd or even one. */
  pick?: 'max' | 'min' | 'odd' | 'even';
  /** The targets may lie face down (cards, tiles): each is turned up by a click to read its number, then the one picked. */
  turn?: boolean;
  /** Targets of these roles whose name mentions this. */
  mention?: string;
  roles?: string[];
  /** Inside each item (post, message, row) by or about this, the control named `verb`. */
  by?: string;
  verb?: string;
  /** Exactly one item is meant ("delete the email from Carol"); when it shows no such control, it is opened first. */
  one?: boolean;
  /** The control used instead of `verb` when the opened item shows none of that name ("star" for "mark as important"). */
  standIn?: string;
  /** This many of the items, the first ones the page shows ("like 2 posts by @ruth"). */
  count?: number;
  /** In each item that shows one number, the control named for what the number is ("mark the numbers as odd or even"). */
  classify?: 'parity';
  /** The tiles whose colour is a shade of this hue ("select all the shades of blue"). */
  shade?: string;
  /** Every control of these roles, once each ("click everything on the page", "click all the buttons"); boxes ticked stay. */
  all?: string[];
}

/** The longest pause an instruction may ask for. */
export const WAIT_MAX_MS = 60_000;

/** A condition on what the page shows: a number against a threshold, or a box that is ticked. */
export interface Condition {
  kind: 'number' | 'checked';
  /** What the number is called on the page ("price"), or the box's name ("the checkbox"). */
  subject: string;
  op: Comparison;
  value: number;
  /** The threshold was written as money ("$50", "50 dollars"): the page's one amount of money may be the number. */
  currency?: boolean;
  /** Read once when the step's turn comes (if/otherwise), rather than watched until it holds. */
  now?: boolean;
  /** The words as the instruction has them, for messages. */
  text: string;
}

/** What the planner knows of the page: the names (labels, placeholders) of its text fields and of its other controls. */
export interface PlanPage {
  fields: string[];
  names: string[];
  /** How many controls of each role the page shows, where the caller counted them. */
  roles?: Record<string, number>;
}

const VERB_AHEAD = `(?=(?:${either(CLAUSE_VERBS)})\\b)`;

const SEQUENCE = [
  // Sentences: "Navigate through the file tree. Find and click ...".
  /(?<=[a-z0-9)\]\u0000\u0001])\.\s+(?=[A-Z\u0000\u0001])/,
  new RegExp(`(?<=[a-z0-9)\\]\\u0000\\u0001])\\.\\s+${VERB_AHEAD}`, 'i'),
  /\s*;\s*/i,
  // "Click Submit, it is in the hidden section": a remark about where, split off to be read as one.
  /,\s*(?=(?:it|that|which|they)(?:'s|\s+is|\s+are)\s)/i,
  new RegExp(`,?\\s+(?:and\\s+)?(?:${either([...THEN_WORDS, ...LAST_STEP_WORDS])}),?\\s+`, 'i'),
  new RegExp(`,\\s*(?:and\\s+)?${VERB_AHEAD}`, 'i'),
  new RegExp(`\\s+and\\s+${VERB_AHEAD}`, 'i'),
  // "Scroll the textarea to the bottom of the text hit submit": a last Submit with no "and" before it.
  // (Not a name: "the button labeled press submit".)
  new RegExp(
    `(?<=[a-z0-9])(?<!\\b(?:labell?ed|named|called|says|saying|reads|reading|titled|marked))\\s+` +
      `(?=(?:${either(CLICK_VERBS)})\\s+(?:the\\s+)?submit(?:\\s+button)?$)`,
    'i',
  ),
];

/** Parts kept whole and given back as written: each may hold a comma that must split nothing. */
const AS_WRITTEN = [
  // "(-2,0)", "[a, b]"
  /\([^()\u0000]{0,40}\)/,
  /\[[^[\]\u0000]{0,40}\]/,
  // "1,234.50"
  /(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,])/,
  // "March 3rd, 2024"
  new RegExp(`\\b(?:${either(MONTH_STEMS)})[a-z]*\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,\\s*\\d{4}\\b`),
];
const KEPT_AS_WRITTEN = new RegExp(AS_WRITTEN.map((r) => r.source).join('|'), 'gi');

/**
 * Quoted parts are kept whole: commas and "and" inside them split nothing. So are brackets
 * ("the grid coordinate (-2,0)") and numbers written with separators ("1,234.50"): they share
 * the list of kept parts but come back as written, not quoted.
 */
function protect(s: string): { text: string; quotes: string[] } {
  const quotes: string[] = [];
  const text = s
    .replace(/"([^"]*)"|“([^”]*)”|(?<![\w])'([^']+)'(?=\s|$|[.,;:!?])|‘([^’]*)’/g, (_m, a, b, c, d) => {
      quotes.push(a ?? b ?? c ?? d ?? '');
      return `\u0000${quotes.length - 1}\u0000`;
    })
    .replace(KEPT_AS_WRITTEN, (m) => {
      quotes.push(m);
      return `\u0001${quotes.length - 1}\u0001`;
    });
  return { text, quotes };
}

const unraw = (s: string, quotes: string[]) => s.replace(/\u0001(\d+)\u0001/g, (_m, i) => quotes[Number(i)] ?? '');
/** "click on the grid coordinate (-2,1)": (1) x, (2) y. */
const COORDINATE = new RegExp(`^${COORDINATE_SAID}\\s*\\(\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*\\)(?: (?:on|in) the grid)?\\.?$`, 'i');
const restore = (s: string, quotes: string[]) =>
  unraw(
    s.replace(/\u0000(\d+)\u0000/g, (_m, i) => quoteValue(quotes[Number(i)])),
    quotes,
  );
export const quoteValue = (v: string) => (v.includes('"') ? `“${v}”` : `"${v}"`);
const bare = (s: string, quotes: string[]) =>
  unraw(
    s.replace(/\u0000(\d+)\u0000/g, (_m, i) => quotes[Number(i)]),
    quotes,
  ).trim();

function splitAll(s: string): string[] {
  let parts = [s];
  for (const re of SEQUENCE) parts = parts.flatMap((p) => p.split(re));
  return parts
    .map((p) =>
      p
        .trim()
        .replace(/^(?:and|then|also|finally)\s+/i, '')
        .replace(/[,.]+$/, '')
        .trim(),
    )
    .filter(Boolean);
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9@.\s-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Other names for the button a click step names: the page may call "Log in" "Sign in". */
function buttonAlternatives(say: string): string[] | undefined {
  const m = /^(?:click|press|hit|tap|push|select)(?: on)? (?:the )?(?:"|“)?(log ?in|sign ?in|submit|send|continue|ok|done)(?:"|”)?(?: button)?$/i.exec(say);
  if (!m) return undefined;
  const word = m[1].toLowerCase().replace(/\s+/g, ' ');
  // A button the instruction names keeps its name: only the ways of writing "log in" stand in for
  // each other. "Submit" is never pressed for "Send" (a named control may be hidden, not renamed).
  if (!/^(log ?in|sign ?in)$/.test(word)) return undefined;
  return SIGN_IN_WORDS.filter((w) => w.replace(' ', '') !== word.replace(' ', '')).map((w) => `click the ${w} button`);
}

/**
 * "first name Ada": the longest page field name (or an alias of one) that starts the text,
 * and the rest as the value. Null when no field name starts it.
 */
function labelValue(pair: string, page: PlanPage, quotes: string[]): Entry | null {
  const text = pair.replace(/^(?:the|your|a|an|my)\s+/i, '').trim();
  const lower = norm(bare(text.replace(/\u0000\d+\u0000/g, ' '), quotes));
  const candidates = new Set<string>();
  for (const f of page.fields) {
    const n = norm(f);
    if (n) candidates.add(n);
    // "First name *", "Email address (required)": the words before any punctuation too.
    const head = norm(f.split(/[:*(]/)[0]);
    if (head) candidates.add(head);
  }
  for (const list of Object.values(FIELD_ALIASES)) for (const a of list) candidates.add(a);
  // "the street Rua Augusta" for "Street address", "the zip code 1100" for "ZIP code": a word of
  // one field's name that no other field's name has.
  const count = new Map<string, number>();
  for (const f of page.fields) for (const w of new Set(norm(f).split(' '))) count.set(w, (count.get(w) ?? 0) + 1);
  for (const f of page.fields) {
    const ws = norm(f).split(' ');
    for (const w of ws) if (w.length >= 3 && count.get(w) === 1 && !/^(?:the|your|and|for|with|enter|type|here)$/.test(w)) candidates.add(w);
    if (ws.length >= 3) candidates.add(ws.slice(-2).join(' '));
  }
  let best: string | null = null;
  for (const c of candidates) if ((lower === c || lower.startsWith(`${c} `)) && (!best || c.length > best.length)) best = c;
  if (!best) return null;
  // Cut the label's words off the original text (it may hold quotes).
  const n = best.split(' ').length;
  const tokens = text.split(/\s+/);
  const after = tokens.slice(n).join(' ');
  // "the text below", "the value of Color": where a value is, read off the page, even where a field is called Text or Value.
  if (PLACE_VALUE.test(after) || (/^of\s/i.test(after) && oneOf(VALUE_WORDS).test(best))) return null;
  // "fill the coupon with SAVE20": the value is SAVE20, not "with SAVE20".
  let rest = after.replace(/^(?:of|as|is|to|with|=|:)\s+/i, '').trim();
  if (!rest) return null;
  const quoted = QUOTED.test(rest);
  rest = bare(rest, quotes);
  return { label: best, value: rest, quoted };
}

const ENTRY = new RegExp(`^(?:${either(ENTRY_VERBS)})\\s+`, 'i');
const PLACE_VALUE = new RegExp(`^(?:${either(PLACE_WORDS)})$`, 'i');
const INTO_FIELDS = /\s+(?:in|into|in to|on|to)\s+(?:the\s+)?(?:(?:text|input|form)\s+)?(?:fields?|boxes|inputs|form|textboxes|text boxes|blanks)$/i;
/** "Fill in the shipping form with", "Fill the contact form:": an introduction to a list of entries. */
const FORM_INTRO = /^(?:fill(?:\s+(?:in|out))?|complete)\s+(?:the\s+|this\s+|your\s+)?(?:[\w-]+\s+){0,2}form\s*(?::|with|using)?\s+(?:the\s+)?/i;

interface Entry {
  label: string;
  value: string;
  /** The value was quoted: text as written, even when it reads like a date named by description. */
  quoted?: boolean;
  /** "select Product manager as the role": the value is an option first. */
  choose?: boolean;
}

const QUOTED = /^\u0000\d+\u0000$/;

/** One "label/value" piece of an entry list, in any of the ways people write it; null when it is not one. */
function entryOf(piece: string, verb: string, page: PlanPage, quotes: string[]): Entry | null {
  const p = piece.replace(/^(?:the|your|a|an|my)\s+/i, '').trim();
  const setVerb = /^(?:set|change|update)$/i.test(verb);
  let m: RegExpExecArray | null;
  // "V into L", "V in the L field".
  const q = (raw: string) => QUOTED.test(raw.trim());
  const entry = (label: string, value: string, more: Partial<Entry> = {}): Entry => ({
    label: bare(label, quotes),
    value: bare(value, quotes),
    quoted: q(value),
    ...more,
  });
  if ((m = /^(.+?)\s+(?:into|in|in to|inside)\s+(?:the\s+)?(.+?)(?:\s+(?:field|box|input))?$/i.exec(p)) && !setVerb) return entry(m[2], m[1]);
  // "L: V".
  if ((m = /^([^:\d\u0000][^:\u0000]{0,39}?)\s*:\s+(.+)$/.exec(p))) return entry(m[1], m[2]);
  // "L to V" (set, change, update), "V as the L" (enter, type, select).
  if (setVerb && (m = /^(.+?)\s+(?:to|as|=)\s+(.+)$/i.exec(p))) return entry(m[1], m[2]);
  if ((m = /^(.+?)\s+as\s+(?:the\s+|your\s+|a\s+|an\s+)?(.+)$/i.exec(p))) return entry(m[2], m[1], { choose: /^(?:select|choose|pick)$/i.test(verb) });
  // "first name Ada": a field name of the page, then the value.
  const lv = labelValue(p, page, quotes);
  return lv;
}

const entryStep = (e: Entry): PlanStep => {
  // A date named by description stays words ("enter tomorrow into ..."): the step writes the day as the field takes it.
  const v = !e.quoted && namedDate(e.value) ? e.value : quoteValue(e.value);
  const enter = `enter ${v} into the ${e.label} field`;
  const select = `select ${v} as the ${e.label}`;
  if (v === e.value) return { say: enter };
  return e.choose ? { say: select, or: [enter] } : { say: enter, or: [select] };
};

/**
 * Several entries in one clause: "the username X and the password Y (into the text fields)",
 * "Ada as the name, 03/15/2024 as the date and 2:30 PM as the time", ""5 Elm Road" into
 * Street and "Portland" into City", "set the timeout to 60 and the retries to 5", "First name:
 * Alan, last name: Turing". Null unless every piece reads as an entry.
 */
function entrySteps(clause: string, page: PlanPage, quotes: string[]): PlanStep[] | null {
  let verb = '';
  let body = clause;
  const intro = FORM_INTRO.exec(clause);
  if (intro) {
    verb = 'enter';
    body = clause.slice(intro[0].length);
  } else {
    const m = /^(enter|type|fill in|fill out|fill|input|provide|put|write|use|key in|specify|set|change|update|select|choose|pick)\s+(.+)$/i.exec(clause);
    if (m) {
      verb = m[1];
      body = m[2];
    } else if (!/^[^:\d]{1,40}:\s+\S/.test(clause)) return null;
  }
  body = body.replace(INTO_FIELDS, '').trim();
  const pieces = body.split(/\s*[,;]\s*(?:and\s+)?|\s+and\s+/i).filter(Boolean);
  // One piece: only "the password X", a field's name then its value, needs reading here.
  // "Enter today's date" is a date named by description, not the field "Today's ..." and the value "date".
  if (pieces.length === 1 && namedDate(bare(body, quotes)) && !QUOTED.test(body.trim())) return null;
  if (
    pieces.length === 1 &&
    /^(?:enter|type|input|provide|put|write|use|key in|specify|fill in|fill)$/i.test(verb) &&
    !/\s(?:into|in|as|to|on)\s/i.test(body)
  ) {
    const lv = labelValue(body, page, quotes);
    return lv && lv.value.split(/\s+/).length <= 4 ? [entryStep(lv)] : null;
  }
  if (pieces.length < 2) return null;
  const entries = pieces.map((p) => entryOf(p, verb || 'enter', page, quotes));
  if (entries.some((e) => !e || !e.label || !e.value)) return null;
  return entries.map((e) => entryStep(e!));
}

/** What a value typed into both fields may be called ("the same password"). */
const BOTH_VALUE = 'password|value|text|email|code|word|name';

/** "Enter X into both (text/password) fields": the value into the first and the second of them. */
function bothSteps(clause: string, quotes: string[]): PlanStep[] | null {
  const m = new RegExp(
    `${ENTRY.source}(?:the\\s+)?(?:(?:same\\s+)?(?:${BOTH_VALUE})\\s+)?(.+?)\\s+(?:in|into|in to|on)\\s+both(?:\\s+of)?(?:\\s+the)?\\s*(.*)$`,
    'i',
  ).exec(clause);
  if (!m) return null;
  const value = bare(m[1].replace(/\s+as\s+(?:the|your|a|an)\s+.*$/i, ''), quotes);
  let kind =
    m[2]
      .trim()
      .replace(/s$/i, '')
      .replace(/\s+(?:fields?|boxes?|inputs?)$/i, ' field') || 'text field';
  if (!/field$/i.test(kind)) kind = `${kind} field`;
  if (/^(?:text )?field$/i.test(kind)) kind = 'text field';
  return [{ say: `enter ${quoteValue(value)} into the first ${kind}` }, { say: `enter ${quoteValue(value)} into the second ${kind}` }];
}

/** "Log in as ada with password x": (1) what the user is called, if said, (2) the user, (3) the password. */
const LOGIN_WITH = new RegExp(
  '^(?:log ?in|sign ?in|login|log on|sign on)(?:\\s+to\\s+\\S+)?\\s+(?:with|using|as)\\s+(?:the\\s+|my\\s+)?' +
    `(?:(${either(LOGIN_USER)})\\s+)?(.+?)(?:\\s*,\\s*|\\s+)(?:and\\s+)?` +
    '(?:(?:with|using)\\s+)?(?:the\\s+|my\\s+)?(?:password|pass|passcode)(?:\\s+(?:is|of)|\\s*[:=])?\\s+(.+)$',
  'i',
);

const SHOWN_DETAIL = `(?:${either(SHOWN_DETAILS)})`;
/**
 * "Log in using the provided credentials displayed on the page", "sign in with the username and password shown below":
 * details the page shows, read off it (never typed as the words that describe them).
 */
const LOGIN_SHOWN = new RegExp(
  `^(?:log ?in|sign ?in|login|log on|sign on)(?:\\s+to\\s+\\S+)?\\s+(?:with|using|by using)\\s+(?:the\\s+|your\\s+)?` +
    `(?:${SHOWN_DETAIL}\\s+)?(?:${either(CREDENTIAL_NOUNS)})` +
    `(?:\\s+(?:that\\s+(?:are|is)\\s+)?${SHOWN_DETAIL})?(?:\\s+(?:${either(SHOWN_WHERE)}))?$`,
  'i',
);
/** A user or password that is words about one, not one ("and", "shown on the page"): the clause was misread. */
const NO_DETAIL = new RegExp(`^(?:and|or|the|a|my|your|it|them)$|\\b(?:${either(SHOWN_DETAILS)})\\b|\\b(?:${either(SHOWN_WHERE)})$`, 'i');

/**
 * "Log in as ada with password x", "sign in with email a@b.c and password y", "log me in as
 * Bryce, password is Tr0ub4dor", "log in as tim, password: www1989", "use the credentials
 * jdoe / hunter2 to sign in": the user name, the password, then the log-in button.
 */
function loginSteps(clause: string, quotes: string[]): PlanStep[] | null {
  const c = clause.replace(/\b(log|sign)\s+me\s+(in|on)\b/i, '$1 $2');
  if (!/\b(?:log ?in|sign ?in|login|log on|sign on|credentials)\b/i.test(c)) return null;
  const loginClick: PlanStep = {
    say: 'click the log in button',
    or: LOGIN_WORDS.filter((w) => w !== 'log in').map((w) => `click the ${w} button`),
    implied: true,
  };
  if (LOGIN_SHOWN.test(bare(c, quotes).trim())) {
    // Each read off the page by its label when the step runs ("Username: ada_k"), or the run refuses.
    return [
      { say: 'enter "the value of Username" into the username field', ref: 'the value of Username' },
      { say: 'enter "the value of Password" into the password field', ref: 'the value of Password' },
      loginClick,
    ];
  }
  let user: string | undefined;
  let pass: string | undefined;
  let kind = 'username';
  const slash = /\b(?:as|with|using|credentials)\s+(\S+)\s*\/\s*(\S+)/i.exec(c);
  if (slash) [user, pass] = [slash[1], slash[2]];
  else {
    const m = LOGIN_WITH.exec(c);
    if (!m) return null;
    kind = (m[1] ?? 'username').toLowerCase().replace('user name', 'username').replace('e-mail', 'email');
    if (!m[1] && /@/.test(bare(m[2], quotes))) kind = 'email';
    [user, pass] = [m[2], m[3]];
  }
  user = bare(user, quotes);
  pass = bare(pass.replace(/\s+(?:to|and)\s+(?:log ?in|sign ?in)$/i, ''), quotes);
  if (NO_DETAIL.test(user.trim()) || NO_DETAIL.test(pass.trim())) {
    throw new Refusal('it describes the log-in details instead of giving them, in words the built-in planner does not read');
  }
  const userField = kind === 'email' ? 'email' : 'username';
  const others = (kind === 'email' ? ['username', 'user', 'login'] : ['email', 'user', 'login', 'user id']).map(
    (w) => `enter ${quoteValue(user!)} into the ${w} field`,
  );
  return [
    { say: `enter ${quoteValue(user)} into the ${userField} field`, or: others },
    { say: `enter ${quoteValue(pass)} into the password field` },
    loginClick,
  ];
}

const LIST_VERB = new RegExp(`^(${either(LIST_VERBS)})\\s+(.+)$`, 'i');

/** "Select 1, 5 and 9 (from the list)": the verb for each item, unless the whole object is one name on the page. */
function listSteps(clause: string, page: PlanPage, quotes: string[]): PlanStep[] | null {
  const m = LIST_VERB.exec(clause);
  if (!m) return null;
  let object = m[2];
  const suffix =
    /\s+(?:from|in|on|of)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}(?:list|menu|dropdown|options|checkboxes|boxes|group|section|panel|table|form)$/i.exec(object)?.[0] ??
    '';
  object = object
    .slice(0, object.length - suffix.length)
    .replace(/^(?:the\s+)?(?:options?|items?|checkbox(?:es)?|boxes|entries|values|numbers|words|colou?rs|buttons?)\s+/i, '');
  const items = object
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|&)\s+/i)
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length < 2) return null;
  // "Terms and Conditions" is one checkbox: the whole object names one control.
  const whole = norm(bare(object, quotes));
  if (page.names.some((n) => norm(n) === whole)) return null;
  if (items.some((x) => x.split(/\s+/).length > 5)) return null;
  const verb = m[1].toLowerCase();
  return items.map((x) => ({ say: `${verb} ${/^\u0000\d+\u0000$/.test(x) ? restore(x, quotes) : bare(x, quotes)}${suffix}` }));
}

/** "switch between", "browse through": moving among the places a target may be folded away in. */
const LOOK_THROUGH = `(?:${either(LOOK_THROUGH_VERBS)})\\s+(?:${either(LOOK_THROUGH_WAYS)})`;
const FOLD = `(?:file\\s+)?(?:${either(FOLDS)})`;
/** Directions to look around rather than steps: "switch between the tabs", "expand the sections below". */
const SEARCH_DIRECTION = new RegExp(
  `^(?:${LOOK_THROUGH}\\s+(?:the\\s+|all\\s+(?:the\\s+)?)?${FOLD}` +
    '|(?:expand|open|browse)\\s+(?:the\\s+|all\\s+(?:the\\s+)?)?(?:sections?|panels?|tabs?|items?|headings?)(?:\\s+(?:below|above|on the page|here))?' +
    '|(?:look|search)\\s+(?:around|through the page))$',
  'i',
);

const MAX_INSTRUCTION = 2000;

const CLICK_VERB = new RegExp(`^(${either(CLICK_VERBS)})(?:\\s+on)?\\s+`, 'i');
const STARTS_WITH_VERB = new RegExp(`^(?:${either(CLAUSE_VERBS)})\\b`, 'i');

/** What a clause's entry step types, when it is one ("Set the new password to X" types X). */
function typedValue(say: string): string | null {
  const { text, quotes } = protect(say);
  const m =
    /^(?:enter|type|input|write|put|key in|fill in|fill)\s+(\u0000\d+\u0000|\S+)\s+(?:into|in|as|on)\b/i.exec(text) ??
    /^(?:set|change|update|fill(?:\s+in)?)\s+(?:the\s+)?.+?\s+(?:to|with|as)\s+(\u0000\d+\u0000|.+)$/i.exec(text);
  return m ? bare(m[1], quotes) : null;
}

/** Words that make a clause conditional or repeated: followed only when a reading below settles them. */
// "once the box is ticked" is a condition; "click once more" is not.
const CONDITION = new RegExp(`\\b(?:${either(CONDITION_WORDS)})\\b|\\bonce\\s+(?!(?:${either(NOT_AFTER_ONCE)})\\b)(?=\\S+\\s+\\S)`, 'i');

/** Phrases that make one clause a goal of several steps: superlatives, orderings, "all the X that ...", trips. */
const WHOLE_GOAL = new RegExp(
  [
    `\\b(?:${either(SUPERLATIVES)})\\b`,
    `\\bin\\s+(?:${either(ORDERINGS)})\\s+order\\b`,
    `\\b(?:${either(BY_MEANING)})\\b`,
    '\\b(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?(?:[\\w-]+\\s+){0,2}(?:that|which|who|whose|containing|mentioning|matching|with)\\b',
    '^(?:book|buy|order|reserve|purchase|schedule)\\b.*\\bfrom\\s+\\S+.*\\bto\\s+\\S+',
  ].join('|'),
  'i',
);

/** "Expand the pie menu below", "open the menu": the menu the page opens from one control, as a step. */
const MENU_OPEN = new RegExp(
  `^(?:${either(MENU_OPEN_VERBS)})\\s+(?:the\\s+|this\\s+|that\\s+)?(?:(${either(MENU_KINDS)})\\s+)?menu(?:\\s+(?:below|above|on the page|here))?$`,
  'i',
);

const MENU_KIND = oneOf(MENU_KINDS);

/** "Expand the section below", "open the collapsed panel": open what is folded, as a step. */
const EXPAND_DIRECTION = new RegExp(
  '^(?:expand|open|unfold|show)\\s+(?:the\\s+|this\\s+|that\\s+)?(?:collapsed\\s+|hidden\\s+|folded\\s+)?' +
    `(?:${either(FOLDED_PARTS)})(?:\\s+(?:below|above|on the page|here))?$`,
  'i',
);

const COMPARE = Object.entries(COMPARISONS).map(([op, words]) => [oneOf(words), op] as [RegExp, Condition['op']]);

const OPS = `(${either(Object.values(COMPARISONS).flat())})`;
const SUBJ = `(?:the\\s+)?(.+?)\\s+(?:${either(MEASURE_VERBS)})(?:\\s+(?:to|down to|up to|at|for))?`;
const NUM = `([-+]?[$€£]?\\s?\\d[\\d,]*(?:\\.\\d+)?\\s?(?:[%$€£]|${either(MONEY_WORDS)})?|\\u0001\\d+\\u0001)`;
const STATE = `(?:the\\s+)?(.+?)\\s+(?:${either(BECOMING_VERBS)})\\s+(${either(ON_STATES)})`;

/** A numeric condition from its words; null when they are not one. */
function numeric(subject: string, opWord: string | undefined, num: string, whole: string, quotes: string[]): Condition | null {
  // "reaches 10" with no comparison word: at least that.
  const word = opWord ?? (anyOf(REACHING_VERBS).test(whole) ? 'at least' : 'equal to');
  const op = COMPARE.find(([re]) => re.test(word.trim()))?.[1];
  const n = bare(num, quotes).replace(/[,.]+$/, '');
  const value = Number(n.replace(/(?<=\d),(?=\d{3})/g, '').replace(/[^\d.+-]/g, ''));
  if (!op || !Number.isFinite(value)) return null;
  const subj = bare(subject, quotes);
  return { kind: 'number', subject: subj, op, value, currency: /[$€£]|dollar|euro|pound/i.test(n), text: `${subj} ${word} ${n}` };
}

/**
 * Conditions the built-in agent follows, with the action they hold:
 * - watched until they hold (30 s at most): "Buy VOP stock when the price is less than $50.00",
 *   "Wait until the price drops below $50, then click Buy", "Click Submit once the checkbox is
 *   ticked", "As soon as the Upload complete box gets checked, click Submit";
 * - read once, with what to do otherwise: "If the total is over 100 press Yes otherwise No",
 *   "Press Yes if the total is more than $100, else press No", "Click Yes when the amount due is
 *   above 100, and No when it is not".
 * Null when the instruction has no such condition (any other is refused by CONDITION).
 */
function conditionOf(s: string, quotes: string[]): { action: string; when: Condition; otherwise?: string } | null {
  let m: RegExpExecArray | null;
  const rx = (src: string) => new RegExp(src, 'i');
  // Read once, with an otherwise.
  const ELSE = `(?:${either(ELSE_WORDS)})`;
  // "..., and No when it is not (so)": the otherwise branch's own condition, read as the negation.
  const NOT_SO = "(?:\\s+(?:when|if)\\s+(?:it|that|they)\\s+(?:is|are)(?:\\s+not|n't)(?:\\s+so)?)?";
  if ((m = rx(`^(?:if|when)\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM},?\\s+(?:then\\s+)?(.+?)[,;]?\\s+${ELSE},?\\s+(.+)$`).exec(s))) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: { ...c, now: true }, otherwise: m[5] } : null;
  }
  if (
    (m = rx(
      `^(.+?)\\s+(?:if|when)\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM}[,;]?\\s+(?:${ELSE}|and\\s+(?!.*\\b(?:is|are)\\s+(?!not)\\w))[,;]?\\s*(.+?)${NOT_SO}$`,
    ).exec(s))
  ) {
    const c = numeric(m[2], m[3], m[4], m[0], quotes);
    return c ? { action: m[1], when: { ...c, now: true }, otherwise: m[5] } : null;
  }
  // "Check the total: over 100 means click Yes, anything else means click No".
  if (
    (m = rx(
      `^(?:${either(READ_VERBS)})\\s+(?:the\\s+)?(.+?)\\s*:\\s*(?:if\\s+(?:it\\s+is\\s+)?)?(?:${OPS}\\s+)?${NUM},?\\s+(?:means|then)\\s+(.+?)[,;]?\\s+` +
        `(?:${either(OTHER_VALUES)}),?\\s+(?:means\\s+)?(.+)$`,
    ).exec(s))
  ) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: { ...c, now: true }, otherwise: m[5] } : null;
  }
  // "If ..." alone is read once; "when ..." is watched (below): it may come true later.
  if ((m = rx(`^if\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM},?\\s+(?:then\\s+)?(.+)$`).exec(s))) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: { ...c, now: true } } : null;
  }
  // Watched: a number.
  if ((m = rx(`^(.+?),?\\s+(?:${either([...WATCH_WORDS, 'whenever'])})\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM}$`).exec(s))) {
    const c = numeric(m[2], m[3], m[4], m[0], quotes);
    return c ? { action: m[1], when: c } : null;
  }
  if ((m = rx(`^(?:${either([...WATCH_WORDS, ...WAIT_FOR_WORDS])})\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM},?\\s+(?:and\\s+)?(?:then\\s+)?(.+)$`).exec(s))) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: c } : null;
  }
  // Watched: a box that gets ticked.
  const ticked = (subject: string, action: string, state: string) => ({
    action,
    when: { kind: 'checked' as const, subject: bare(subject, quotes), op: '=' as const, value: 1, text: `${bare(subject, quotes)} ${state}` },
  });
  if ((m = rx(`^(.+?),?\\s+(?:${either([...WATCH_WORDS, 'after'])})\\s+${STATE}$`).exec(s))) return ticked(m[2], m[1], m[3]);
  if ((m = rx(`^(?:${either([...WATCH_WORDS, ...WAIT_FOR_WORDS])})\\s+${STATE},?\\s+(?:and\\s+)?(?:then\\s+)?(.+)$`).exec(s))) return ticked(m[1], m[3], m[2]);
  return null;
}

/** "reply to the email from Alice with Thanks": (1) the verb, (2) who, then (3) the text or (4) whom it goes to. */
const ONE_ITEM = new RegExp(
  `^(${either(ITEM_VERBS)})\\s+(?:the\\s+)?(?:(?:${either(NEWEST)})\\s+)?(?:${either(ITEM_NOUNS)})\\s+(?:${either(ITEM_BY)})\\s+(.+?)` +
    `(?:\\s+(?:${either(REPLY_WITH)})\\s+(.+)|\\s+to\\s+(.+))?$`,
  'i',
);

/** "enter the answer (into the Answer box)", "type your answer", "enter the value of x": (1) where it goes. */
const ENTER_ANSWER = new RegExp(
  '^(?:enter|type|input|write|put|fill in)\\s+(?:it|(?:the|your) (?:answer|result|solution)|the value of [a-z])' +
    '(?:\\s+(?:into|in|inside|on)\\s+(?:the\\s+)?(.+))?$',
  'i',
);

/** Keys held together, a modifier first ("Ctrl+Shift+P", "cmd + k"). */
const COMBO = `(?:${Object.keys(MODIFIERS).join('|')})(?:\\s*\\+\\s*(?:${Object.keys(MODIFIERS).join('|')}))*\\s*\\+\\s*(?:[a-z0-9]|${either(KEY_WORDS)})\\b`;
/** The start of a clause, for rewrites that take a whole one. */
const CLAUSE_START = String.raw`(?<=^|[,;.]\s*|\band\s+|\bthen\s+)`;
/** Where a clause ends, looked at but not taken. */
const AT_CLAUSE_END = String.raw`(?=\s*(?:[,;.]|$|\s+(?:and|then)\b))`;
/**
 * A combination given as the means: "press the key combination Ctrl+Shift+P", "save the document with Ctrl+S", "use
 * Ctrl+K to search" are each "press" it (1). What the keys are for is the page's to do.
 */
const COMBO_STEPS: RegExp[] = [
  new RegExp(`\\b(?:press|hit|use|type|enter)\\s+(?:${either(KEY_COMBO_NOUNS)})\\s+(${COMBO})`, 'gi'),
  new RegExp(
    `${CLAUSE_START}(?!press\\b)[a-z]+\\b[^,;.]*?\\s+(?:${either(BY_KEYS)})\\s+` + `(?:(?:${either(KEY_COMBO_NOUNS)})\\s+)?(${COMBO})${AT_CLAUSE_END}`,
    'gi',
  ),
  new RegExp(`\\b(?:use|press|hit)\\s+(${COMBO})\\s+to\\s+[^,;.]+?${AT_CLAUSE_END}`, 'gi'),
];

/** "Close the welcome message", "press Escape to close the dialog": (1) the key, when it is the means, (2) the dialog's own words. */
const DISMISS = new RegExp(
  `^(?:(?:press|hit|use)\\s+(?:the\\s+)?(${either(DISMISS_KEYS)})(?:\\s+key)?\\s+to\\s+)?(?:${either(DISMISS_VERBS)})\\s+(?:the|this|that)\\s+` +
    `((?:[\\w'-]+\\s+){0,3}?)(?:${either(DIALOG_NOUNS)})$`,
  'i',
);

/** "Acknowledge a simple content warning", "accept the terms of service": (1) what is consented to. */
const CONSENT = new RegExp(
  `^(?:${either(CONSENT_VERBS)})\\s+(?:the|a|an|this|our|their|its|any)\\s+(?:(?:simple|short|following|above|below|site's|page's)\\s+)?` +
    `(${either(CONSENTED)})$`,
  'i',
);
/** "Prove you're human by agreeing to our terms", "quickly prove you're human". */
const HUMAN = new RegExp(`^(?:quickly\\s+|first\\s+)?(?:${either(HUMAN_PROOF)})(?:\\s+(${either(CONSENT_MEANS)}))?$`, 'i');

/** "Access this content at your own risk": past the one warning in front of it. */
const WARNED = new RegExp(`^(?:${either(WARNED_ACCESS)})$`, 'i');
/** "Navigate a series of intimidating warnings and confirmations": consent given stage after stage. */
const SERIES = new RegExp(`^(?:${either(CONSENT_SERIES)})$`, 'i');

/** The consent a clause asks for, as a step; null when it asks for none. */
function consentOf(clause: string): PlanStep | null {
  if (SERIES.test(clause)) return { say: 'go through the warnings one after another', consent: { kind: 'warning', press: true, series: true } };
  if (WARNED.test(clause)) return { say: 'go past the warning to the content', consent: { kind: 'warning', press: true } };
  const c = CONSENT.exec(clause);
  if (c) {
    const kind = /warning|notice|disclaimer/i.test(c[1]!) ? 'warning' : 'terms';
    return { say: `${kind === 'warning' ? 'acknowledge' : 'accept'} the ${c[1]!.toLowerCase()}`, consent: { kind } };
  }
  const h = HUMAN.exec(clause);
  return h ? { say: h[1] ? 'accept the terms to prove a person is here' : 'prove a person is here', consent: { kind: h[1] ? 'terms' : 'human' } } : null;
}

/** "Find and click on the shortest mid-point between the two points": (1) the midpoint, or (2) the centre. */
const SPOT = new RegExp(`^(?:${either(POINT_CLICKS)})\\s+(?:(${either(MIDPOINTS)})|(${either(CENTRES)}))$`, 'i');

const LINE = new RegExp(`^(?:${either(LINE_THROUGH)})$`, 'i');
/** "Click the single target pixel on the screen": the one small square drawn as a box of its own. */
const PIXEL = new RegExp(`^(?:${either(POINT_CLICKS)})\\s+(?:${either(TARGET_PIXELS)})$`, 'i');
/** "Create a line that bisects the angle", "draw a circle around the marked point", said with how the pointer draws or not. */
const BISECT = new RegExp(`^(?:${either(BISECTS)})(?:\\s+(?:${either(DRAWN_WITH)}))?$`, 'i');
const CIRCLE = new RegExp(`^(?:${either(CIRCLES_AROUND)})(?:\\s+(?:${either(DRAWN_WITH)}))?$`, 'i');

/** "... before time runs out (10 seconds)", "... as fast as you can": how fast, not what. */
const HASTE_AFTER = new RegExp(`\\s+(?:${either(HASTE)})(?:\\s*\\u0001\\d+\\u0001|\\s*\\([^)]*\\))?$`, 'i');

/** "Close the annoying popup windows", "dismiss all the pop-ups": every pop-up the page shows, closed in turn. */
const DISMISS_ALL = new RegExp(
  `^(?:${either(DISMISS_VERBS)})\\s+(?:(?:all\\s+(?:of\\s+)?)?(?:the\\s+|these\\s+|those\\s+)?` +
    `(?:(?:annoying|open|many|more|fewer|other|remaining|[0-9]+|two|three|four|five)\\s+){0,3}(?:${either(POPUPS)})` +
    `|(?:every|each)\\s+(?:(?:annoying|open|other|remaining)\\s+)?(?:${either(POPUP)}))$`,
  'i',
);

/**
 * "Rate it 4 stars", "give the product a rating of 3 stars", "leave a 5-star review", "rate it 4 out of 5": (1) the stars,
 * (2) out of how many. A number alone ("set the rating to 4", "give the team 20") is left to the page's own field.
 */
const RATING = new RegExp(
  `^(?:${either(RATE_VERBS)})\\s+(?:(?:${either(RATED_THINGS)})\\s+)*?(\\d{1,2})` +
    `(?:[- ]?stars?(?:\\s+(?:rating|review))?|\\s+out\\s+of\\s+(\\d{1,2})(?:\\s+stars?)?)$`,
  'i',
);

/**
 * "Scroll down the feed until you find Like post 13 and click it", "scroll until Load report appears, then click it":
 * (1) where to scroll, (2)/(3) the target, (4) what is done to it.
 */
const SCROLL_UNTIL = new RegExp(
  `^(?:${either(SCROLL_VERBS)})(?:\\s+(?:the|this)\\s+((?:[\\w'-]+\\s+){0,2}?[\\w'-]+))?\\s+until\\s+` +
    `(?:(?:${either(UNTIL_FOUND)})\\s+(.+?)|(.+?)\\s+(?:${either(UNTIL_SHOWN)}))` +
    `\\s*,?\\s+(?:and\\s+|then\\s+)+(${either(FOUND_ACTS)})(?:\\s+on)?\\s+(?:it|that|them|this)$`,
  'i',
);

/**
 * "Go through the carousel to find the Lighthouse tour and click it", "find Fish market in the slideshow and click it",
 * "click Fish market in the carousel": (1)/(2)/(3) the target. Only a carousel named: a form's Next is never walked.
 */
const SLIDES = `(?:the\\s+)?(?:${either(CAROUSELS)})`;
const SLIDE_FIND = [
  new RegExp(
    `^(?:${either(SEARCH_THROUGH_VERBS)})\\s+through\\s+${SLIDES}\\s+(?:to\\s+find|until\\s+you\\s+(?:find|see)|and\\s+find)\\s+(.+?)` +
      `\\s*,?\\s+(?:and\\s+|then\\s+)+(?:click|open|select)(?:\\s+on)?\\s+(?:it|that)$`,
    'i',
  ),
  new RegExp(`^(?:find|locate)\\s+(.+?)\\s+(?:in|on)\\s+${SLIDES}\\s*,?\\s+(?:and\\s+|then\\s+)+(?:click|open|select)(?:\\s+on)?\\s+(?:it|that)$`, 'i'),
  new RegExp(`^(?:click|open|select)(?:\\s+on)?\\s+(.+?)\\s+(?:in|on)\\s+${SLIDES}$`, 'i'),
];

/** "Open the context menu of photo.png" is a right-click on it. */
const CONTEXT_MENU = new RegExp(`\\b(?:${either(CONTEXT_MENU_OPENERS)})\\s+`, 'gi');
/** "Double-click report.pdf to open it": (1) the click and its target, what it is for left out. */
const PURPOSED = new RegExp(
  `\\b((?:${either(PURPOSED_CLICKS)})\\s+(?:[^,;.]|\\.(?!\\s|$))+?)\\s+(?:${either(CLICK_PURPOSES)})(?=\\s*(?:[,;]|\\.(?:\\s|$)|$|\\s+(?:and|then)\\b))`,
  'gi',
);

/** "Select the following color #8d3b5e with the color picker": (1) the colour, set into the page's colour field. */
const COLOUR_SET = new RegExp(
  `\\b(?:${either(COLOUR_VERBS)})\\s+(?:the\\s+)?(?:following\\s+)?colou?r\\s+(#[0-9a-f]{6}|#[0-9a-f]{3})\\b` +
    `(?:\\s+(?:with|in|using|on|from|into)\\s+the\\s+(?:${either(COLOUR_PICKERS)}))?`,
  'gi',
);

/**
 * "Select red with the color picker": (1) a colour by its CSS name (one to three words, "dark olive green"), set into the
 * page's colour field, the words as said tried when it has none (swatches named Red). Only with the picker named:
 * "select red" alone may be an option called Red.
 */
const COLOUR_NAMED = new RegExp(
  `^(?:${either(COLOUR_VERBS)})\\s+(?:the\\s+)?(?:(?:following\\s+)?colou?r\\s+)?([a-z]+(?:\\s+[a-z]+){0,2})` +
    `\\s+(?:with|in|using|on|from|into)\\s+the\\s+(?:${either(COLOUR_PICKERS)})$`,
  'i',
);
/** "Use the color picker to select blue": the same, the picker said first. */
const PICKER_FIRST = new RegExp(
  `^use\\s+the\\s+(${either(COLOUR_PICKERS)})\\s+to\\s+(${either(COLOUR_VERBS)})\\s+(?:the\\s+)?(?:colou?r\\s+)?([a-z]+(?:\\s+[a-z]+){0,2})$`,
  'i',
);

/**
 * "Enter the 6-digit code 482913", "the code SAVE20 in the promo field": (1) the verb, (2) what the code is called (a
 * code, a PIN, a one-time password), (3) the code as written (digits, capitals and dashes, a digit in it;
 * "48 29 13" in groups), (4) "in the" when the field is named after it. Typed as given, into the field named.
 */
const CODE_GIVEN = new RegExp(
  `\\b(enter|type(?: in)?|input|key in|fill in|put in)\\s+(?:the|a|your)\\s+(${CODE_BOXES[0]})` +
    `\\s+(?:of\\s+|is\\s+)?((?:[A-Z]+-?)?\\d[\\dA-Z]*(?:[ -]\\d+)*)\\b(\\s+(?:in|into|on)\\s+(?:the\\s+)?)?`,
  'gi',
);

/** "Enter the code shown on the page": where it is shown belongs to the value read, not to the field it goes into. (1) the step. */
const SHOWN_ON_PAGE = new RegExp(
  `\\b((?:enter|type|input|fill in)\\s+the\\s+[\\w -]+?\\s+(?:${either(SHOWN_DETAILS)}))\\s+(?:${either(SHOWN_WHERE.filter((w) => w.startsWith('on ')))})\\b`,
  'gi',
);

/** "... with the color picker" at a clause's end: (1) the picker. */
const PICKER_MEANS = new RegExp(`\\s+(?:with|using|in|on|into)\\s+the\\s+((?:${either(COLOUR_PICKERS)}))$`, 'i');

/** "Click the moving target": (1) what the target is called. Clicked where it is at that moment. */
const DISH = either(DISH_NOUNS);
/** "Order one of each item: Garlic bread, Cheese wheel": (1) the items, listed. */
const ORDER_EACH = new RegExp(`^order one of each(?: ${DISH})?(?: of (?:these|the following))?\\s*:\\s*(.+)$`, 'i');
/** "Order 3 items that are vegan": (1) how many, (2) the kind, as the page marks its items. */
const ORDER_KIND = new RegExp(`^order (${COUNT_PHRASE}) (?:${DISH}) that (?:are|is) ([a-z][\\w-]*)$`, 'i');

/** An order of a menu's items, by name or by kind, or null when the clause is not one. */
function orderSaid(clause: string): PlanStep['order'] | null {
  const c = clause.trim().replace(/[.!]+$/, '');
  const each = ORDER_EACH.exec(c);
  if (each) {
    const items = each[1]!
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
      .map((x) => x.trim().replace(/^["“']|["”']$/g, ''))
      .filter(Boolean);
    return items.length ? { items } : null;
  }
  const kind = ORDER_KIND.exec(c);
  if (!kind) return null;
  const count = COUNT_WORDS[kind[1]!.toLowerCase()] ?? Number(kind[1]);
  return count > 0 ? { kind: kind[2]!.toLowerCase(), count } : null;
}

const MOVING = new RegExp(
  `^(?:click|tap|hit|catch|shoot)(?:\\s+on)?\\s+(?:the|a)\\s+(?:(?:${either(MOVING_MANNER)})[\\s-]+)?(?:${either(MOVING_WORDS)})\\s+(${either(MOVING_NOUNS)})$`,
  'i',
);
/** "Right-click a large, obvious area", "use your context menu skills": a right-click on the place the page names for one. */
const RIGHT_ANYWHERE = new RegExp(`^(?:${either(RIGHT_CLICK_ANYWHERE)})$`, 'i');
/** "Navigate through nested iframes to find the hidden button": (1) the control, the page's one of its kind (frames are read as the page). */
const FRAMED = new RegExp(`^(?:${either(IN_FRAMES)})$`, 'i');
/** "Navigate through a menu bar to find the secret option": (1) or (2) the item, looked for through the page's menus. */
const MENU_FIND = new RegExp(`^(?:${either(MENU_SEARCHES)})$`, 'i');
/** "Navigate through the menus to find X and click it": (1) X, looked for through the page's menus and clicked. */
const MENU_FIND_CLICK = new RegExp(
  '\\b(?:navigate|go|look|search|browse|dig) (?:through |in )?(?:the |a |its )?(?:(?:simplified|complex|deeply|nested|top|main)[, ]+)*' +
    '(?:menu ?bar|menus?)(?: and (?:its )?submenus)? to find (.+?)\\s*,?\\s+(?:and\\s+)?(?:then\\s+)?(?:click|select|choose)(?:\\s+on)?\\s+it\\b',
  'i',
);
/** "... - but watch out, it gets faster!": an aside after a dash, dropped. */
const DASH_ASIDE = new RegExp(`\\s+[-–—]+\\s+(?:${either(DASH_ASIDES)})\\b[^.;!?]*[.!]?`, 'gi');

/** A CSS colour name ("DarkOliveGreen", "dark olive green") as six hex digits, or null. */
function colourByName(words: string): string | null {
  const rgb = cssColours[words.toLowerCase().replace(/\s+/g, '')];
  return rgb ? `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}` : null;
}

/** "find the last word in the text area, enter it into the field": (1) what is found, (2) the verb, (3) where it goes and the rest. */
const FOUND_THEN_TYPED = new RegExp(
  `^(?:${either(FIND_FIRST_VERBS)})\\s+(the\\s+.+?)(?:\\s*,\\s*(?:and\\s+)?|\\s+and\\s+)(?:then\\s+)?` +
    `(type|enter|input|write|put|paste|fill\\s+in)\\s+(?:${either(FOUND_PRONOUNS)})\\s+((?:in|into|in to|on)\\s+.+)$`,
  'i',
);

/**
 * "Register the guest Linus by entering his name and clicking Submit": (1) the goal, which ends
 * with the value, (2) the field, (3) the button.
 */
const GOAL_BY_STEPS = new RegExp(
  `^(.+?)\\s+by\\s+(?:${either(BY_STEP_VERBS)})\\s+(?:${either(OWNER_WORDS)})\\s+([\\w -]{1,30}?)` +
    `,?\\s+(?:and|then)\\s+(?:then\\s+)?(?:${either(BY_CLICK_VERBS)})\\s+(?:on\\s+)?(.+)$`,
  'i',
);

/** The steps a goal says it is carried out by: the value it names (quoted, or the capitalised name it ends with) into the field, then the click. */
function goalBySteps(s: string): string | null {
  const m = GOAL_BY_STEPS.exec(s);
  if (!m) return null;
  const [, goal, field, click] = m;
  const quoted = /(\u0000\d+\u0000)$/.exec(goal.trim())?.[1];
  // Unquoted, only a person's name ("the guest Linus") into a name field: "Save the Form by entering the date" names no value.
  const named = /\s(?!(?:the|a|an|this|that|my|your|our|their)\s)[a-z][\w-]*\s((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*){0,2})$/.exec(goal.trim())?.[1];
  const value = quoted ?? (named && /\bname\b/i.test(field) ? quoteValue(named) : null);
  return value ? `enter ${value} into the ${field} field, then click ${click}` : null;
}

/** "mark the email from Alice as important": (1) who, (2) the state its control is named for. */
const MARK_ITEM = new RegExp(
  `^(?:mark|flag|tag|label)\\s+(?:the\\s+)?(?:(?:${either(NEWEST)})\\s+)?(?:${either(ITEM_NOUNS)})\\s+(?:${either(ITEM_BY)})\\s+(.+?)` +
    `\\s+as\\s+(${either(MARK_STATES)})$`,
  'i',
);

/** "Find the email by Lucia and forward that email to Kimberly": (1) the noun, (2) who, (3) what is done to it. */
const FIND_ITEM = new RegExp(
  `^(?:${either(FIND_ITEM_VERBS)})\\s+(?:the\\s+|an?\\s+)?(?:(?:${either(NEWEST)})\\s+)?(${either(ITEM_NOUNS)})\\s+(?:${either(ITEM_BY)})\\s+(.+?)` +
    '(?:\\s*,\\s*(?:and\\s+)?|\\s+and\\s+)(?:then\\s+)?(.+)$',
  'i',
);
/** "click the trash icon (to delete it)": (1) the icon's word. */
const ICON_CLICK = new RegExp(`^(?:${either(CLICK_VERBS)})(?:\\s+on)?\\s+(?:the\\s+|its\\s+)?([\\w-]+)(?:\\s+(?:icon|button|symbol))?(?:\\s+to\\s+.+)?$`, 'i');
/** 'reply "Fusce in."', "reply with the text X" after the message is found: (1) the rest, the reply's text. */
// Only quoted text or text after "with"/"saying" is a reply's text: "reply all" and "reply quickly" are not.
const REPLY_QUOTE = '(?:\\u0000\\d+\\u0000|["“\'][^"”\']+["”\'])';
const REPLY_BARE = new RegExp(`^(?:${either(REPLY_VERBS)})\\s+(?:(?:${either(REPLY_WITH)})\\s+(.+)|(${REPLY_QUOTE}[.!]?))$`, 'i');
/** "forward that email to Kim", "reply to them with ...", "mark it as read": (1) the verb, (2) the rest. */
const ON_IT = new RegExp(`^(${either(ITEM_VERBS)}|mark|tag|label)\\s+(?:${either(ITEM_PRONOUNS)})\\b(.*)$`, 'i');

/** "For the user @jane, click on the Share button": (1) who, (2) what is done. */
const FOR_OWNER = new RegExp(`^for\\s+(?:the\\s+)?(?:${either(ITEM_OWNERS)})\\s+(\\S+(?:\\s+\\S+){0,2}?)\\s*,\\s*(.+)$`, 'i');
const CLICK_ON = `(?:${either(CLICK_VERBS)})(?:\\s+on)?\\s+(?:the\\s+)?(.+?)`;
const CONTROL = `${CLICK_ON}\\s+(?:${either(CONTROL_NOUNS)})`;
/** "click the Like button on all posts by @kim", "click Share on the post from Omar": (1) the control, (2) all, (3) who. */
const CONTROL_ON_ITEM = new RegExp(
  `^${CLICK_ON}(?:\\s+(?:${either(CONTROL_NOUNS)}))?\\s+(?:on|of|for|in|under)\\s+` +
    `(?:(all|every|each|${COUNT_PHRASE})\\s+(?:the\\s+|of\\s+the\\s+)?(?:${either(ITEMS)})|(?:the\\s+)?(?:${either(ITEM_NOUNS)}|item))` +
    `\\s+(?:${either(ITEMS_BY)})\\s+(.+)$`,
  'i',
);
/** "click on the like button of Omar Haddad", "the Share button for @jane": (1) the control, (2) a handle or a capitalised name. */
const CONTROL_OF_OWNER = new RegExp(`^${CONTROL}\\s+(?:of|for|by)\\s+(@[\\w.]+|[A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*){0,2})$`);

/** A sender or author said by name or handle: capitalised words ("Lucia", "Tom Wu") or "@jane". */
const PERSON = '(@[\\w.-]+|[A-Z][\\w-]*(?:\\s+[A-Z][\\w-]*){0,2})';
/** "Lucia's email": (1) who, (2) the noun. */
const OWNED_ITEM = new RegExp(`\\b${PERSON}['’]s\\s+(${either(ITEM_NOUNS)})\\b`, 'g');
/** Whom a message goes to: an address, a handle, or a name of one to three capitalised words. */
const RECIPIENT = "([\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|@[\\w.]+|[A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*){0,2})";
/** "send Kimberly the email from Lucia": (1) to whom, (2) the noun, (3) from whom. */
const SEND_ON = new RegExp(`^(?:${either(SEND_ON_VERBS)})\\s+${RECIPIENT}\\s+(?:the\\s+)?(${either(ITEM_NOUNS)})\\s+(?:from|by|of)\\s+(.+)$`);
/** "send the email from Lucia to Kimberly", "pass the message from Lucia on to Kim": (1) the noun, (2) from whom, (3) to whom. */
const SEND_TO = new RegExp(
  `^(?:${either(SEND_ON_VERBS)})(?:\\s+on)?\\s+(?:the\\s+)?(${either(ITEM_NOUNS)})\\s+(?:from|by|of)\\s+(.+?)(?:\\s+on)?\\s+to\\s+${RECIPIENT}$`,
);
const NOUN = `(?:the\\s+)?(${either(ITEM_NOUNS)})`;
/** "Lyn's emails": (1) who, (2) the noun (said as every one of them). */
const OWNED_ITEMS = new RegExp(`\\b${PERSON}['’]s\\s+(${either(ITEM_NOUNS)})s\\b`, 'g');
/**
 * A message said with what should be done to it ("the email from Lyn should be deleted", "I want the email from Lyn
 * deleted", "... needs to be forwarded to Kim"): (1) the noun, (2) who, (3) what is done, (4) the rest ("to Kim").
 */
const DONE_TO = new RegExp(
  `^(?:i\\s+(?:want|need|would\\s+like)\\s+)?${NOUN}\\s+(?:from|by|of)\\s+${PERSON}\\s+` +
    `(?:(?:should|must|needs\\s+to|has\\s+to|is\\s+to)\\s+be\\s+|to\\s+be\\s+)?(${Object.keys(DONE_TO_ITEM).join('|')})` +
    '(\\s+to\\s+.+|\\s+from\\s+(?:the|my|your)\\s+inbox)?$',
);
/** Other ways to say "forward the NOUN from X to Y" and "reply to the email from X with T", each with how it is said so. */
const SAID_AS_ITEM: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  // "forward to Kimberly the email from Lucia"
  [new RegExp(`^forward\\s+to\\s+${RECIPIENT}\\s+${NOUN}\\s+(?:from|by|of)\\s+(.+)$`), (m) => `forward the ${m[2]} from ${m[3]} to ${m[1]}`],
  // "forward the email Lucia sent to Kimberly", "pass on the message Lucia sent you to Kim"
  [
    new RegExp(`^(?:forward|${either(SEND_ON_VERBS)})(?:\\s+on)?\\s+${NOUN}\\s+${PERSON}\\s+sent(?:\\s+(?:you|me|us))?(?:\\s+on)?\\s+to\\s+${RECIPIENT}$`),
    (m) => `forward the ${m[1]} from ${m[2]} to ${m[3]}`,
  ],
  // "email Kimberly the message Lucia sent"
  [
    new RegExp(`^(?:e-?mail|${either(SEND_ON_VERBS)})\\s+${RECIPIENT}\\s+${NOUN}\\s+${PERSON}\\s+sent(?:\\s+(?:you|me|us))?$`),
    (m) => `forward the ${m[2]} from ${m[3]} to ${m[1]}`,
  ],
  // 'reply "Fusce in." to the email from Jaimie'
  [
    new RegExp(`^(?:${either(REPLY_VERBS)})\\s+(${REPLY_QUOTE})\\s+to\\s+${NOUN}\\s+(?:from|by|of)\\s+${PERSON}$`),
    (m) => `reply to the ${m[2]} from ${m[3]} with ${m[1]}`,
  ],
  // 'write back to Jaimie: "Fusce in."'
  [
    new RegExp(`^(?:write|reply|answer)\\s+back\\s+to\\s+${PERSON}\\s*(?::|,?\\s+(?:${either(REPLY_WITH)}))\\s*(.+)$`),
    (m) => `reply to the email from ${m[1]} with ${m[2]}`,
  ],
  // "delete the message Lyn sent you", "star the email Ilka sent"
  [new RegExp(`^(${either(ITEM_VERBS)})\\s+${NOUN}\\s+${PERSON}\\s+sent(?:\\s+(?:to\\s+)?(?:you|me|us))?$`), (m) => `${m[1]} the ${m[2]} from ${m[3]}`],
  // "add a star to the email from Ilka", "give the email from Ilka a star"
  [
    new RegExp(`^(?:add|put|place|give)\\s+(?:a|the)\\s+(star|flag)\\s+(?:to|on)\\s+${NOUN}\\s+(?:from|by|of)\\s+${PERSON}$`),
    (m) => `${m[1]} the ${m[2]} from ${m[3]}`,
  ],
  [new RegExp(`^give\\s+${NOUN}\\s+(?:from|by|of)\\s+${PERSON}\\s+a\\s+(star|flag)$`), (m) => `${m[3]} the ${m[1]} from ${m[2]}`],
  // 'email Jaimie the message, "Fusce in."', 'send Jaimie a reply saying "Fusce in."': a reply to the one who wrote.
  [
    new RegExp(
      `^(?:e-?mail|send|write)\\s+${PERSON}\\s+(?:the\\s+message|a\\s+(?:reply|response|message|note))` +
        `\\s*(?:[,:]|\\s+(?:${either(REPLY_WITH)}))\\s*(${REPLY_QUOTE})$`,
    ),
    (m) => `reply to the email from ${m[1]} with ${m[2]}`,
  ],
  // 'find Malva's last email and send him the answer, "Ut."': a reply to the one who wrote.
  [
    new RegExp(
      `^(?:please\\s+)?(?:${either(FIND_ITEM_VERBS)})\\s+(?:${PERSON}['’]s\\s+(?:(?:${either(NEWEST)})\\s+)?(?:e-?mail|message|mail)` +
        `|the\\s+(?:(?:${either(NEWEST)})\\s+)?(?:e-?mail|message|mail)\\s+from\\s+${PERSON})` +
        `\\s*,?\\s+(?:and\\s+)?(?:then\\s+)?(?:send|give|write)\\s+(?:him|her|them)\\s+(?:the|an?)\\s+(?:answer|reply|response|message)` +
        `\\s*(?:[,:]|\\s+(?:${either(REPLY_WITH)}))?\\s*(${REPLY_QUOTE})$`,
    ),
    (m) => `reply to the email from ${m[1] ?? m[2]} with ${m[3]}`,
  ],
  // 'respond to Jaimie: "Fusce in."'
  [new RegExp(`^(?:${either(REPLY_VERBS)})\\s+to\\s+${PERSON}\\s*:\\s*(${REPLY_QUOTE})$`), (m) => `reply to the email from ${m[1]} with ${m[2]}`],
  // "send a reply to Jaimie: "Fusce in.""
  [
    new RegExp(`^(?:send|write)\\s+(?:a\\s+|an\\s+)?(?:reply|response|answer)\\s+to\\s+${PERSON}\\s*(?::|,?\\s+(?:${either(REPLY_WITH)}))\\s*(.+)$`),
    (m) => `reply to the email from ${m[1]} with ${m[2]}`,
  ],
];

/** A word with its first letter in either case (a verb that may begin the sentence). */
const anyCase = (w: string) => w.replace(/^([a-z])/, (c) => `[${c.toUpperCase()}${c}]`);
const ON_TO = '(?:\\s+on)?\\s+to\\s+';
const MSG = `(?:[Tt]he\\s+|[Tt]hat\\s+|[Tt]his\\s+)?(${either(ITEM_NOUNS)})`;
/** Who it came from, after the message: "from Lucia", "you got from Lucia", "you received by Lucia". */
const CAME_FROM = `(?:you\\s+(?:got|received)\\s+)?(?:from|by|of)\\s+${PERSON}`;
/** Who sent it, before the verb: "Lucia sent you", "Lucia sent to you". */
const SENT_BY = `(?:(?:that|which)\\s+)?${PERSON}\\s+sent(?:\\s+(?:to\\s+)?(?:you|me|us))?`;
const FIND_FIRST = `(?:${anyCase('please')}\\s+)?(?:${FIND_MESSAGE_VERBS.map(anyCase).join('|')})`;
/** Between finding it and sending it on: a full stop, a comma, "and", "then". */
const AND_THEN = '(?:\\s*[.,;]\\s*|\\s+)(?:[Aa]nd\\s+)?(?:[Tt]hen\\s+)?';
const SEND_IT =
  `(?:${SEND_IT_VERBS.map(anyCase).join('|')})(?:\\s+(?:it|that\\s+(?:e-?mail|message|mail)|the\\s+(?:e-?mail|message|mail)))?` + `${ON_TO}${RECIPIENT}`;
const GIVE = `(?:${['forward', ...SEND_ON_VERBS].map(anyCase).join('|')})(?:\\s+to)?`;
const WANTS = '(?:wants|needs|is\\s+waiting\\s+for|would\\s+like|asked\\s+for)';
const TO_BE_SENT = `to\\s+be\\s+(?:forwarded|sent)${ON_TO}${RECIPIENT}`;
/**
 * A message sent on to someone, as people say it beyond "forward the email from Lucia to Kim" (a sentence may begin with
 * either name): each pattern, and where its noun, sender and recipient are.
 */
const FORWARD_SAID: readonly [RegExp, noun: number, by: number, to: number][] = [
  // "Locate the email by Lucia. Forward that email to Kim", "Look for the email from Lucia and forward to Kim".
  [new RegExp(`^${FIND_FIRST}\\s+${MSG}\\s+(?:from|by|of)\\s+${PERSON}${AND_THEN}${SEND_IT}$`), 1, 2, 3],
  // "Search for the mail Lucia sent you and send it to Kim".
  [new RegExp(`^${FIND_FIRST}\\s+${MSG}\\s+${SENT_BY}${AND_THEN}${SEND_IT}$`), 1, 2, 3],
  // "Get Lucia email and then forward it to Kim".
  [new RegExp(`^${FIND_FIRST}\\s+${PERSON}(?:['’]s)?\\s+(${either(ITEM_NOUNS)})${AND_THEN}${SEND_IT}$`), 2, 1, 3],
  // "Send Kim the email you got from Lucia", "Give Kim the message you received from Lucia", "Forward to Kim the email from Lucia".
  [new RegExp(`^${GIVE}\\s+${RECIPIENT}\\s+${MSG}\\s+${CAME_FROM}$`), 2, 3, 1],
  // "Forward Kim the message Lucia sent you", "Send Kim the information Lucia sent to you".
  [new RegExp(`^${GIVE}\\s+${RECIPIENT}\\s+${MSG}\\s+${SENT_BY}$`), 2, 3, 1],
  // "Kim wants the email you got from Lucia", "Kim is waiting for the email by Lucia".
  [new RegExp(`^${RECIPIENT}\\s+${WANTS}\\s+${MSG}\\s+${CAME_FROM}$`), 2, 3, 1],
  // "Kim wants the email Lucia sent to you".
  [new RegExp(`^${RECIPIENT}\\s+${WANTS}\\s+${MSG}\\s+${SENT_BY}$`), 2, 3, 1],
  // "The mail by Lucia should be forwarded to Kim".
  [new RegExp(`^${MSG}\\s+(?:from|by|of)\\s+${PERSON}\\s+(?:should|must|needs\\s+to|has\\s+to)\\s+be\\s+(?:forwarded|sent)${ON_TO}${RECIPIENT}$`), 1, 2, 3],
  // "Lucia wants his or her message to be sent to Kim".
  [new RegExp(`^${PERSON}\\s+wants\\s+(?:his\\s+or\\s+her|his|her|their)\\s+(${either(ITEM_NOUNS)})\\s+${TO_BE_SENT}$`), 2, 1, 3],
  // "I want the mail by Lucia to be sent to Kim".
  [new RegExp(`^I\\s+(?:want|would\\s+like)\\s+${MSG}\\s+(?:from|by|of)\\s+${PERSON}\\s+${TO_BE_SENT}$`), 1, 2, 3],
  // "Forward email to Kim from Lucia": the recipient before the sender.
  [new RegExp(`^${GIVE}\\s+${MSG}\\s+to\\s+${RECIPIENT}\\s+${CAME_FROM}$`), 1, 3, 2],
  // "Forward all messages from Lucia to Kim": one message, as the item's steps find it (two from Lucia are a refusal there).
  [new RegExp(`^${GIVE}\\s+(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?(${either(ITEM_NOUNS)})s?\\s+${CAME_FROM}${ON_TO}${RECIPIENT}$`), 1, 2, 3],
];
/** A message sent on, said any of those ways, as "forward the email from Lucia to Kim"; null when it is none of them. */
function forwardSaid(text: string): string | null {
  const t = text.replace(/^(?:[Pp]lease\s+)/, '').replace(/(?:[,\s]+please)?[\s.,!]*$/, '');
  for (const [re, noun, by, to] of FORWARD_SAID) {
    const m = re.exec(t);
    if (m) return `forward the ${m[noun]!.toLowerCase()} from ${m[by]} to ${m[to]}`;
  }
  return null;
}

/** "reply to Jaimie with ...": (1) the verb, (2) who, (3) the rest. */
const REPLY_TO_PERSON = new RegExp(`^((?:${either(REPLY_VERBS)})\\s+to)\\s+${PERSON}(\\s+(?:${either(REPLY_WITH)})\\s+.+)$`);

/**
 * "Find the email by X and do Y to it" said as the one clause it is ("forward the email from X
 * to Kim"), and "For the user @jane, click Share" as "click Share for the item by @jane"; the
 * other ways people name one message ("Lucia's email", "send Kim the email from Lucia", "reply
 * to Jaimie with ...") as the same clauses. Null when the sentence is none of them.
 */
function itemFirst(text: string): string | null {
  const sent = forwardSaid(text);
  if (sent) return sent;
  // A sentence's first word is capitalised whatever it is: no sign of a name.
  const lowered = text.replace(/^\w+/, (w) => w.toLowerCase());
  // "Lyn's email should be ...": a name that begins the sentence, before "'s", is a name all the same.
  const named = /^[A-Z][\w-]*['’]s\s/.test(text) ? text : lowered;
  const s = named
    .replace(OWNED_ITEMS, (_m, who: string, noun: string) => `all ${noun}s from ${who}`)
    .replace(OWNED_ITEM, (_m, who: string, noun: string) => `the ${noun} from ${who}`);
  const done = DONE_TO.exec(s);
  if (done) {
    const rest = /^\s+to\s/.test(done[4] ?? '') ? done[4]! : '';
    return forwardSaid(`${DONE_TO_ITEM[done[3]!]} the ${done[1]} from ${done[2]}${rest}`) ?? `${DONE_TO_ITEM[done[3]!]} the ${done[1]} from ${done[2]}${rest}`;
  }
  const send = SEND_ON.exec(s);
  if (send) return `forward the ${send[2]} from ${send[3]} to ${send[1]}`;
  const sendTo = SEND_TO.exec(s);
  if (sendTo) return `forward the ${sendTo[1]} from ${sendTo[2]} to ${sendTo[3]}`;
  for (const [re, said] of SAID_AS_ITEM) {
    const m = re.exec(s);
    if (m) return said(m);
  }
  const reply = REPLY_TO_PERSON.exec(s);
  if (reply) return `${reply[1]} the email from ${reply[2]}${reply[3]}`;
  const owner = FOR_OWNER.exec(s);
  if (owner && new RegExp(`^${CONTROL}$`, 'i').test(owner[2])) return `${owner[2]} for the item by ${owner[1]}`;
  const m = FIND_ITEM.exec(s);
  if (!m) return s === lowered ? null : s;
  const [, noun, by, rest] = m;
  const icon = ICON_CLICK.exec(rest);
  if (icon) {
    const verb = ICON_VERBS[icon[1].toLowerCase()];
    return verb ? `${verb} the ${noun} from ${by}` : null;
  }
  const on = ON_IT.exec(rest);
  // "tag it as important", "label it as important": marked so.
  if (on) return `${/^(?:tag|label)$/i.test(on[1]!) ? 'mark' : on[1]} the ${noun} from ${by}${on[2]}`;
  // "... and reply with "Fusce in."": the reply is to the message found.
  const bare = REPLY_BARE.exec(rest);
  const said = bare?.[1] ?? bare?.[2];
  return said && !/^to\b/i.test(said) ? `reply to the ${noun} from ${by} with ${said}` : null;
}

/**
 * Acting on one message or post named by its sender or author: open it and reply or forward,
 * or use its own control (star, delete, share, like, "Mark as read"), opening it first when the
 * list does not show that control.
 */
function itemSteps(clause: string, quotes: string[]): PlanStep[] | null {
  // A control named on an item ("the Like button on all posts by @kim"): that control, in that item.
  const c = CONTROL_ON_ITEM.exec(clause) ?? CONTROL_OF_OWNER.exec(clause.replace(/^\w+/, (w) => w.toLowerCase()));
  if (c) {
    const verb = bare(c[1], quotes).toLowerCase();
    const many = c.length === 4 && c[2] ? c[2].toLowerCase() : '';
    // "on 2 posts by @ruth": that many of them, in the order the page shows them.
    const count = /^(?:all|every|each)$/.test(many) ? undefined : Number(many) || COUNT_WORDS[many];
    const how = !many ? { one: true } : count === undefined ? {} : { count };
    return [{ say: restore(clause, quotes), each: { verb, by: bare(c[c.length - 1], quotes), ...how } }];
  }
  const mark = MARK_ITEM.exec(clause);
  if (mark) {
    const state = mark[2].toLowerCase().replace(/\s+/g, ' ');
    const standIn = MARK_STAND_INS[state];
    return [{ say: restore(clause, quotes), each: { verb: `mark as ${state}`, by: bare(mark[1], quotes), one: true, ...(standIn ? { standIn } : {}) } }];
  }
  const m = ONE_ITEM.exec(clause);
  if (!m) return null;
  const verb = m[1].toLowerCase().replace(/\s+to$/, '');
  const by = bare(m[2], quotes);
  const say = restore(clause, quotes);
  // A quoted text is the whole text: words after it ("'Thanks!' and star it", "\"ok\" now") are not typed, and not guessed at.
  if (m[3] !== undefined && /^\u0000\d+\u0000/.test(m[3].trim()) && !/^\u0000\d+\u0000$/.test(m[3].trim())) return null;
  const text = m[3] !== undefined ? bare(m[3], quotes) : null;
  const to = m[4] !== undefined ? bare(m[4], quotes) : null;
  const open: PlanStep = { say: `open the item from ${quoteValue(by)}`, openItem: by };
  if (oneOf(REPLY_VERBS).test(verb)) {
    if (text === null) return null;
    const v = quoteValue(text);
    return [
      open,
      { say: 'click reply', or: ['click respond'] },
      {
        say: `enter ${v} into the reply field`,
        or: [`enter ${v} into the message field`, `enter ${v} into the body field`, `enter ${v} into the text area`, `enter ${v} into the text field`],
      },
      { say: 'click send' },
    ];
  }
  if (verb === 'forward') {
    // Only someone a message can go to: "Kimberly to the" is a misreading, never typed.
    if (to === null || !new RegExp(`^${RECIPIENT}$`).test(to)) return null;
    const v = quoteValue(to);
    return [
      open,
      { say: 'click forward' },
      { say: `enter ${v} into the to field`, or: [`enter ${v} into the recipient field`, `enter ${v} into the email field`, `enter ${v} into the text field`] },
      { say: 'click send' },
    ];
  }
  if (oneOf(OPEN_VERBS).test(verb)) return text === null && to === null ? [open] : null;
  if (text !== null || to !== null) return null;
  return [{ say, each: { verb: ITEM_VERB_ALIASES[verb.replace(/\s+/g, ' ')] ?? verb, by, one: true } }];
}

const SLOT = '(?:position|place|spot|slot)';
/** "X to the top of the list", "to the 1st position": (1) what is dragged, (2) which end. */
const DRAG_TO_END = new RegExp(
  `^(.+?)\\s+(?:to|into)\\s+(?:the\\s+)?(top|bottom|beginning|start|end|front|back|(?:1st|first)\\s+${SLOT}|(?:last|final)\\s+${SLOT})` +
    '(?:\\s+of\\s+the\\s+(?:list|column|row|queue|order|stack))?$',
  'i',
);
/** "X to the 3rd position (in the list)": (1) what is dragged, (2) the ordinal. */
const DRAG_TO_NTH = new RegExp(
  `^(.+?)\\s+(?:to|into)\\s+(?:the\\s+)?(\\w+)\\s+${SLOT}(?:\\s+(?:of|in)\\s+the\\s+(?:list|column|row|queue|order|stack))?$`,
  'i',
);
const PLACES = '(\\d{1,2}|one|two|three|four|five)';
const PLACE_NOUN = `(?:${SLOT}|cell)s?`;
/**
 * "X down by one position", "X up 2 places", "X left by one": (1) what, (2) which way, (3) or (4) how many places. A bare
 * "by 20" is a distance, not places ("drag the box right by 20" is 20 px).
 */
const DRAG_SHIFT = new RegExp(
  `^(.+?)\\s+(up|down|left|right)\\s+(?:(?:by\\s+)?${PLACES}\\s+${PLACE_NOUN}|by\\s+(one|two|three|four|five))(?:\\s+in\\s+the\\s+(?:list|grid))?$`,
  'i',
);
/** "X to the top left", "X to the bottom center", "X to the center": (1) what, (2) the row, (3) the column. */
const DRAG_TO_CELL = new RegExp(
  '^(.+?)\\s+to\\s+the\\s+(?:(top|center|centre|middle|bottom)\\s+(left|center|centre|middle|right)|center|centre|middle)(?:\\s+of\\s+the\\s+grid)?$',
  'i',
);
/** "X all the way to the left edge of the box", "X up by 50 px": (1) what, (2) all the way, (3) the direction, (4) how far. */
const DRAG_BY = new RegExp(
  '^(.+?)\\s+(?:(all the way|as far as (?:it|possible|it can go))\\s+)?(?:to(?:wards)?\\s+(?:the\\s+)?|)(left|right|up|down|top|bottom)(?:wards)?' +
    '(?:\\s+(?:side|edge|end))?(?:\\s+of\\s+the\\s+(?:box|area|container|track|page|screen|canvas))?' +
    '(?:\\s+(?:by|about)\\s+(\\d{1,4})\\s*(?:px|pixels)?)?$',
  'i',
);

/** How far a resize drags the grip: growing goes further than shrinking, which must leave the box usable. */
const GROW_BY = 80;
const SHRINK_BY = 30;
const SIZE_WORD = `(${either([...GROWN, ...SHRUNK])})`;
/**
 * "Resize the textarea so that the width is larger than its initial size", "make the text area taller", "enlarge
 * the notes box": (1) or (4) or (6) the box, (2) what is measured, (3) or (5) which way.
 */
const RESIZE = new RegExp(
  [
    `^(?:${either(RESIZE_VERBS)})\\s+(?:the\\s+)?(.+?)\\s+so\\s+(?:that\\s+)?(?:the\\s+|its\\s+)(width|height|size)\\s+is\\s+${SIZE_WORD}\\s+than\\s+` +
      '(?:it\\s+was|(?:its|the)\\s+(?:initial|original|current|starting|first|old)(?:\\s+(?:size|width|height|one|value))?)(?:\\s+(?:was|is))?$',
    `^make\\s+(?:the\\s+)?(.*?\\b(?:${either(RESIZED_BOXES)}))\\s+${SIZE_WORD}(?:\\s+by\\s+(?:dragging|resizing)(?:\\s+(?:it|its\\s+corner))?)?$`,
    `^(enlarge|widen|lengthen|shrink|narrow)\\s+(?:the\\s+)?(.*?\\b(?:${either(RESIZED_BOXES)}))$`,
  ].join('|'),
  'i',
);

/** A resize by the box's grip; null when the clause is not one. */
function resizeOf(clause: string, quotes: string[]): PlanStep['resize'] | null {
  const m = RESIZE.exec(bare(clause, quotes).replace(/[.!]+$/, ''));
  if (!m) return null;
  const [, box1, measure, way1, box2, way2, verb, box3] = m;
  const target = (box1 ?? box2 ?? box3)!;
  const way = (way1 ?? way2 ?? verb)!.toLowerCase();
  const grows = GROWN.includes(way) || /^(?:enlarge|widen|lengthen)$/.test(way);
  // Only a box resizes ("make the text bigger" is a font size, "enlarge the image" a page's own control), and only by a grip.
  const side = measure && measure.toLowerCase() !== 'size' ? measure.toLowerCase() : way;
  const d = grows ? GROW_BY : -SHRINK_BY;
  const across = ACROSS.includes(side);
  const down = DOWNWARDS.includes(side);
  return { target, dx: down && !across ? 0 : d, dy: across && !down ? 0 : d };
}

/** "Drag all circles into the black box", "move every square onto the target": (1) the kind of piece, (2) where to. */
/** The rest of a drag of a set: "(the left box), and everything else into (the right box)". */
const DRAG_REST = new RegExp(`^(.+?),?\\s+and\\s+(?:${either(REST_OF_SET)})\\s+(?:in|into|onto|on|to|inside)\\s+(?:the\\s+)?(.+)$`, 'i');
const DRAG_ALL = new RegExp(
  `^(?:${either(DRAG_VERBS)}|put|place)\\s+(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?([\\w-]+(?:\\s+[\\w-]+)?)` +
    '\\s+(?:in|into|onto|on|to|inside)\\s+(?:the\\s+)?(.+)$',
  'i',
);

/** A drag by a direction or to an end of a list; null when the clause is not one (a drag onto a target is act's). */
function dragOf(clause: string, quotes: string[]): PlanStep['drag'] | null {
  const c = bare(clause, quotes)
    .replace(/[.!]+$/, '')
    .replace(/,?\s+by\s+dragging(?:\s+it)?$/i, '')
    .replace(/^(?:use the mouse to|using the mouse,)\s+/i, '');
  const verb = new RegExp(`^(?:${either(DRAG_VERBS)})\\s+`, 'i');
  if (!verb.test(c)) return null;
  const rest = c.replace(verb, '');
  let m: RegExpExecArray | null;
  // "to the top of the list", "to the 1st position", "to the bottom", "to the end".
  if ((m = DRAG_TO_END.exec(rest)) && /\b(?:list|position|place|spot|slot|column|row|queue|order|stack)\b/i.test(rest)) {
    return { target: m[1], to: /^(?:top|beginning|start|front|1st|first)/i.test(m[2]) ? 'first' : 'last' };
  }
  // "Xyz to the 3rd position".
  if ((m = DRAG_TO_NTH.exec(rest))) {
    const k = ordinalOf(m[2]);
    if (typeof k === 'number' && k >= 2 && k <= 50) return { target: m[1], to: k };
  }
  // "Item 2 down by one position", "Nelly up by 2 places", "Nelly left by one": so many places along its list or grid.
  if ((m = DRAG_SHIFT.exec(rest))) {
    const c = (m[3] ?? m[4])!;
    const n = /^\d+$/.test(c) ? Number(c) : (COUNT_WORDS[c.toLowerCase()] ?? 0);
    if (n >= 1 && n <= 50) return { target: m[1], shift: { way: m[2].toLowerCase() as 'up' | 'down' | 'left' | 'right', by: n } };
  }
  // "Nelly to the top left", "to the center": a place of a grid by its row and column.
  if ((m = DRAG_TO_CELL.exec(rest))) {
    const mid = (w: string | undefined) => (!w || /^(?:center|centre|middle)$/i.test(w) ? 'middle' : w.toLowerCase());
    return { target: m[1], cell: { row: mid(m[2]) as 'top' | 'middle' | 'bottom', col: mid(m[3]) as 'left' | 'middle' | 'right' } };
  }
  // "the circle left", "the ball to the right", "the slider all the way to the left edge of the box", "the box up by 50 px".
  m = DRAG_BY.exec(rest);
  if (!m) return null;
  const dir = m[3].toLowerCase();
  // "to the top" of nothing in particular: the first place among its like siblings when it has them.
  if ((dir === 'top' || dir === 'bottom') && !m[2] && !m[4] && !/\b(?:edge|end|of the)\b/i.test(rest))
    return { target: m[1], to: dir === 'top' ? 'first' : 'last', dy: dir === 'top' ? -DRAG_STEP : DRAG_STEP };
  const far = !!m[2] || /\b(?:edge|end)\b/i.test(rest) || (/^(?:top|bottom)$/.test(dir) && /\bof the\b/i.test(rest));
  const d = m[4] ? Number(m[4]) : far ? DRAG_FAR : DRAG_STEP;
  const dx = dir === 'left' ? -d : dir === 'right' ? d : 0;
  const dy = dir === 'up' || dir === 'top' ? -d : dir === 'down' || dir === 'bottom' ? d : 0;
  return { target: m[1], dx, dy };
}

/** A time said as a count and a unit ("2 seconds", "one minute", "500 ms"), in milliseconds. */
function durationMs(count: string, unit: string): number {
  const n = Number(count) || COUNT_WORDS[count.toLowerCase()] || 1;
  return /^m(?:s|illi)/i.test(unit) ? n : /^min/i.test(unit) ? n * 60_000 : n * 1000;
}

/**
 * "Hold the button for exactly 3 seconds", "press and hold Record for 2 s", "long-press the photo": (1) the verb, (2) the
 * target, (3) how exact, (4) the count, (5) the unit.
 */
const HOLD = new RegExp(
  `^(${either(HOLD_VERBS)})\\s+(.+?)(?:\\s+(?:${either(HELD_WORDS)}))?` +
    `(?:\\s+for\\s+(?:(${either(HOLD_EXACTNESS)})\\s+)?(${PAUSE_COUNT}|a|half a)\\s*(${either(PAUSE_UNITS)}))?$`,
  'i',
);

/** A press and hold of a control, or null when the words are not one; a key held, or a hold with no time said but a long press, is a refusal. */
function holdStep(clause: string): PlanStep | null {
  const m = HOLD.exec(clause);
  if (!m) return null;
  const [, verb, target, exactness, count, unit] = m as unknown as [string, string, string, string?, string?, string?];
  const long = /^long/i.test(verb);
  if (!count && !long) return null;
  if (anyOf(HELD_KEYS).test(target)) throw new Refusal(`it holds "${target}" down, a key, which the built-in agent does not hold`);
  const said = count && unit ? durationMs(count === 'half a' ? '0.5' : count === 'a' ? '1' : count, unit) : LONG_PRESS_MS;
  const ms = Math.round(said + (exactness && /least/i.test(exactness) ? AT_LEAST_EXTRA_MS : 0));
  if (ms > WAIT_MAX_MS) throw new Refusal(`it asks to hold for ${count} ${unit}, longer than the built-in agent waits (${WAIT_MAX_MS / 1000} s)`);
  return { say: `hold ${target} for ${ms} ms`, hold: { target, ms } };
}

/** "wait 2 seconds", "after a second": a pause step; longer than the agent waits is a refusal, never a shorter wait. */
function pauseStep(count: string, unit: string): PlanStep {
  const ms = durationMs(count, unit);
  if (ms > WAIT_MAX_MS) throw new Refusal(`it asks to wait ${count} ${unit}, longer than the built-in agent waits (${WAIT_MAX_MS / 1000} s)`);
  return { say: `wait ${count} ${unit}`, wait: ms };
}

/** Words for numbers as a set of targets. */
const NUMBER_NOUN = `(?:${either(NUMBER_NOUNS)})`;
const CLICK_ALL = `(?:${either(CLICK_ALL_VERBS)})(?:\\s+on)?`;
const ASCENDING = either(['ascending', 'increasing', ...DOWNWARD]);
const LARGE = either(LARGEST);
/** "in ascending order", "from the smallest to the largest", "smallest first": (1), (2) or (3) says which way. */
const NUMBER_ORDER =
  `(?:in\\s+(${ASCENDING}|numerical|numeric)\\s+order` +
  `|from\\s+(?:the\\s+)?(${either(SMALLEST)}|${LARGE})\\s+to\\s+(?:the\\s+)?\\w+` +
  `|(${either(SMALLEST)}|${LARGE})\\s+first)`;
/** The same after "every number", which takes fewer words ("numerical", "least", "to the" are not read). */
const EVERY_NUMBER_ORDER =
  `(?:in\\s+(${ASCENDING})\\s+order` + `|from\\s+(?:the\\s+)?(smallest|lowest|${LARGE})\\s+to\\s+\\w+` + `|(smallest|lowest|${LARGE})\\s+first)`;
const CLICK_EVERY = `(?:${either(CLICK_EVERY_VERBS)})(?:\\s+on)?\\s+(?:all|every|each)`;

const PICK_VERB = `(?:${either(CLICK_ALL_VERBS)}|pick)(?:\\s+on)?`;
const TURNED = either(TURNED_THINGS);
/**
 * "Find and pick the card with the greatest number", "turn over the cards and choose the one with the smallest number",
 * "find the tile with the largest value, (and) select it": (3) the thing, (4) which number; the words up to the clause's end.
 */
const CARD_PICK = new RegExp(
  `^(?:(${either(TURN_VERBS)})(?:\\s+(?:all\\s+)?the\\s+${TURNED})?\\s+and\\s+)?(${PICK_VERB}|${either(TURN_VERBS)})\\s+the\\s+(${TURNED}|one)` +
    `\\s+(?:${either(CARRYING)})\\s+the\\s+(${either([...LARGEST, ...SMALLEST])})\\s+(?:number|value)` +
    `(?:\\s*,?\\s*(?:and\\s+)?${PICK_VERB}\\s+it)?(?=\\s*(?:[,;]|\\bthen\\b|\\band\\b|$))`,
  'i',
);
/** The clause CARD_PICK leaves: (1) which number. */
const CARD_PICKED = new RegExp(`^pick the (?:card|tile) with the (${either([...LARGEST, ...SMALLEST])}) number$`, 'i');

/** The targets-chosen-on-the-page reading of a clause, or null. */
function eachOf(clause: string, quotes: string[]): Each | null {
  const c = bare(clause, quotes).replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  const rx = (src: string) => new RegExp(src, 'i');
  // "Click on the numbers in ascending order", "from largest to smallest", "smallest first".
  if (
    (m = rx(`^${CLICK_ALL}\\s+(?:all\\s+|each\\s+|every\\s+)?(?:of\\s+)?(?:the\\s+)?${NUMBER_NOUN}\\s*,?\\s+${NUMBER_ORDER}$`).exec(c)) ||
    (m = rx(`^${CLICK_ALL}\\s+(?:every|each)\\s+(?:number|digit)\\s*,?\\s+${EVERY_NUMBER_ORDER}$`).exec(c))
  ) {
    const w = (m[1] ?? m[2] ?? m[3]).toLowerCase();
    return { order: oneOf([...UPWARD, ...SMALLEST], '').test(w) ? 'asc' : 'desc' };
  }
  // The card with the greatest number, turned up first where the cards lie face down.
  if ((m = CARD_PICKED.exec(c))) return { pick: SMALLEST.includes(m[1]!.toLowerCase()) ? 'min' : 'max', turn: true };
  // "Click the greatest number", "the smallest digit", "the odd number", "the even one".
  if ((m = rx(`^${CLICK_ALL}\\s+(?:the\\s+)?(${either([...LARGEST, ...SMALLEST, ...PARITIES])})\\s+(?:number|value|digit|one)$`).exec(c))) {
    const w = m[1].toLowerCase();
    return { pick: w === 'odd' || w === 'even' ? w : SMALLEST.includes(w) ? 'min' : 'max' };
  }
  // "Select all the shades of blue": the tiles drawn in that hue, light or dark.
  if ((m = rx(`^${CLICK_EVERY}\\s+(?:of\\s+)?(?:the\\s+)?shades?\\s+of\\s+(\\w+)(?:\\s+(?:below|shown|in\\s+the\\s+grid))?$`).exec(c))) {
    const hue = m[1]!.toLowerCase();
    if (!SHADES[hue]) throw new Refusal(`it asks for the shades of ${hue}, a hue the built-in model does not tell apart`);
    return { shade: hue };
  }
  // "Click everything on the page", "click all the buttons", "tick every checkbox": each such control once, in page order.
  const ON_PAGE = '(?:\\s+(?:on|in)\\s+(?:the|this)\\s+page)?';
  if ((m = rx(`^${CLICK_ALL}\\s+(?:${either(EVERYTHING)})${ON_PAGE}$`).exec(c))) return { all: [...Object.keys(ALL_KINDS), 'clickable'] };
  for (const [role, said] of Object.entries(ALL_KINDS)) {
    if (rx(`^${CLICK_EVERY}\\s+(?:of\\s+)?(?:the\\s+)?(?:${either(said)})${ON_PAGE}$`).test(c)) return { all: [role] };
  }
  // "Click all the links that mention cats", "open every link about dogs", "check all boxes with Pro".
  if ((m = rx(`^${CLICK_EVERY}\\s+(?:of\\s+)?(?:the\\s+)?(${either(MENTION_KINDS)})\\s+(?:that\\s+|which\\s+)?(?:${either(MENTIONS)})\\s+(.+)$`).exec(c))) {
    const kind = m[1].toLowerCase();
    const roles = kind.startsWith('link')
      ? ['link']
      : kind.startsWith('button')
        ? ['button', 'clickable']
        : /^(?:checkbox|boxes)/.test(kind)
          ? ['checkbox']
          : /^option/.test(kind)
            ? ['option', 'checkbox', 'radio']
            : ['link', 'button', 'clickable', 'listitem', 'option', 'checkbox'];
    return { mention: m[2].replace(/^(?:the\s+)?(?:words?|text)\s+/i, '').trim(), roles };
  }
  // "Like all posts by Kim", "star every message from Bob", "delete all emails from Carol".
  if (
    (m = rx(
      `^(${either(EACH_ITEM_VERBS)})\\s+(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?(?:\\w+\\s+)?(?:${either(ITEMS)})\\s+(?:${either(ITEMS_BY)})\\s+(.+)$`,
    ).exec(c))
  ) {
    return { verb: m[1].toLowerCase().replace(/\s+to$/, ''), by: m[2].trim() };
  }
  return null;
}

/** The value a step types, changed as the instruction asks ("in all lower case"). */
function transformStep(x: PlanStep, t: Transform): void {
  if (x.ref) {
    x.transform = t;
    return;
  }
  const v = typedValue(x.say);
  if (v === null) return;
  const q = quoteValue(v);
  const swap = (say: string) => (say.includes(q) ? say.replace(q, quoteValue(applyTransform(v, t))) : say.replace(v, quoteValue(applyTransform(v, t))));
  x.say = swap(x.say);
  if (x.or) x.or = x.or.map(swap);
}

// The readings of a clause below (planInstruction), in the order it tries them.

/** Where a target may be hidden: "in the sections below", "inside one of the tabs". */
const HIDDEN = `(?:file\\s+)?(?:${either(HIDDEN_IN)})`;
/** "Find the link X in the sections below and click it": (1) what to find, (2) the verb. */
const FIND_AND_CLICK = new RegExp(
  '^(?:find|locate|look for)\\s+(.+?)' +
    `(?:\\s+(?:in|among|inside|under|within|behind)\\s+(?:the\\s+|one of the\\s+)?${HIDDEN}(?:\\s+(?:below|above|on the page))?)?` +
    ',?\\s+and\\s+(click|open|select|press|tap|choose)(?:\\s+on)?\\s+(?:it|that|them)$',
  'i',
);
/**
 * "From the country drop-down, choose Japan, then ...": (1) the list, (2) the verb, (3) the choice, up to the next step
 * ("In the shopping list, select Milk and Eggs" is two choices, left as said).
 */
const FROM_LIST_CHOOSE = new RegExp(
  '^(?:from|in)\\s+(?:the\\s+)?([^,]+?\\s+(?:drop-?\\s?down|dropdown|list|select|picker)),?\\s+(?:and\\s+)?(?:then\\s+)?' +
    '(choose|select|pick)\\s+((?:(?!\\sand\\s)[^,])+?)(?=\\s*(?:,|\\sthen\\s|\\sand\\s+(?:then\\s+)?(?:click|press|tap|hit|submit|save|continue)\\b|$))',
  'i',
);
/** "In the Shop menu, choose Men": (1) the menu, (2) the rest of the path. */
const MENU_CHOICE =
  /^(?:in|from|under|open)\s+(?:the\s+)?(.+?)\s+menu,?\s+(?:and\s+)?(?:then\s+)?(?:choose|select|click(?:\s+on)?|pick|go\s+to|open|hover\s+over)\s+(.+)$/i;
/** "..., it is in the hidden section": a direction to look, not a step. */
const WHERE_HIDDEN =
  /^(?:it(?:'s| is)|that(?:'s| is)|which is|they are)\s+(?:in|inside|under|behind)\s+(?:a|the|one of the)\s+(?:hidden|collapsed|closed|folded)\s+\w+$/i;
/** "Answer the math question". */
const ANSWER_MATH = new RegExp(
  `^(?:(?:answer|solve)\\s+(?:the\\s+|this\\s+)?(?:math\\s+|arithmetic\\s+)?(?:${either(MATH_NOUNS)})(?:\\s+(?:below|above|shown))?|solve\\s+for\\s+[a-z])$`,
  'i',
);
/** "Solve the expression", "work out the sum". */
const SOLVE_MATH = new RegExp(
  `^(?:${either(SOLVE_VERBS)})\\s+(?:the\\s+|this\\s+)?(?:math\\s+)?(?:${either(MATH_NOUNS)})(?:\\s+(?:below|above|shown|on the page))?$`,
  'i',
);
/** A part of a text counted by an ordinal ("the 4th word", "the last line"): read from a source named after it. */
const PART_OF_TEXT = new RegExp(
  `^(?:the\\s+)?(?:${[...Object.keys(ORDINALS), '\\d{1,3}(?:st|nd|rd|th)'].join('|')})\\s+(?:word|letter|line|sentence|character)$`,
  'i',
);
/** "Type the text below into the text field": (1) what is typed, (2) where, if said. */
const ENTER_WHAT =
  /^(?:enter|type|input|write|put|key in|paste|insert|copy)\s+(.+?)(?:\s+(?:into|in|inside|in to|on)\s+(?:the\s+)?((?:(?!\s(?:into|in|inside|on)\s).)+?))?$/i;
/** "Enter an item that starts with "Ger" (and ends with "ny")": (1) the start, (2) the end. */
const STARTS_WITH = new RegExp(
  `^(?:enter|type|input|choose|pick|select)\\s+(?:an?\\s+)?(?:${either(SUGGESTED)})\\s+that\\s+starts\\s+with\\s+(\\S+)(?:\\s+and\\s+ends\\s+with\\s+(\\S+))?$`,
  'i',
);
/** "pick Porto from the (city) suggestions": (1) the suggestion, (2) the field. */
const FROM_SUGGESTIONS = new RegExp(
  `^(?:pick|choose|select|click)\\s+(.+?)\\s+(?:from|in|among)\\s+(?:the\\s+)?(?:(.+?)\\s+)?(?:${either(SUGGESTION_LISTS)})$`,
  'i',
);
const STEPPER = either(STEPPERS);
/** "Select 5 with the spinner": (1) the value, (2) the widget. */
const VALUE_BY_WIDGET = new RegExp(
  `^(?:select|set|choose|pick|enter|put)\\s+(\\u0000\\d+\\u0000|\\S+)\\s+(?:with|using|on|in)\\s+(?:the\\s+)?(${STEPPER}|number\\s+(?:field|box|input))$`,
  'i',
);
/** "Mark the numbers below as odd or even". */
const MARK_PARITY = new RegExp(
  '^(?:mark|label|classify|tag|flag)\\s+(?:each\\s+of\\s+|all\\s+(?:of\\s+)?|every\\s+one\\s+of\\s+)?the\\s+numbers' +
    '(?:\\s+(?:below|above|shown|on the page))?\\s+as\\s+(?:either\\s+)?(?:odd\\s+or\\s+even|even\\s+or\\s+odd)$',
  'i',
);
/** "Set the sliders to the combination [5,2,7]": (1) the widgets, (2) their values in page order. */
const WIDGET_VALUES = new RegExp(
  `^(?:set|move|put|adjust)\\s+(?:the\\s+|all\\s+(?:the\\s+)?)?(sliders|spinners|dials|knobs)\\s+to\\s+(?:the\\s+)?` +
    '(?:combination|values?|numbers?|settings?)?\\s*[[(]\\s*(-?\\d+(?:\\.\\d+)?(?:\\s*,\\s*-?\\d+(?:\\.\\d+)?){1,9})\\s*[\\])]$',
  'i',
);
/** "Set the number of speakers to 7 with the spinner": (1) the field, (2) the value, (3) the widget. */
const FIELD_BY_WIDGET = new RegExp(
  `^(?:set|change|adjust|put)\\s+(?:the\\s+)?(.+?)\\s+to\\s+(\\u0000\\d+\\u0000|[-+]?\\d+(?:\\.\\d+)?)\\s+(?:with|using|on)\\s+(?:the\\s+)?(${STEPPER})$`,
  'i',
);

const ORDER_WORDS = Object.keys(RESULT_ORDERS).join('|');
/**
 * "book the cheapest one-way flight from A to B on D (and book it | and choose the cheapest one)": (1) verb, (2) order,
 * (3) way, (4) from, (5) to, (6) date, (7) book, (8) the order the result is taken by.
 */
const TRIP = new RegExp(
  `^(${either([...BOOK_VERBS, ...FIND_VERBS])})\\s+(?:me\\s+)?(?:an?\\s+|the\\s+)?(?:(${ORDER_WORDS})\\s+)?` +
    `(?:(${either([...ONE_WAY, ...ROUND_TRIP])})\\s+)?(?:${either(TRIP_NOUNS)})(?:\\s+(?:${either(TRIP_NOUNS)}))?\\s+from:?\\s+(.+?)\\s+to:?\\s+(.+?)` +
    `(?:\\s+(?:${either(DATE_LEADS)})\\s+(.+?))?(?:,?\\s+(?:and|then)\\s+(${either([...BOOK_VERBS, ...PICK_VERBS])})\\s+` +
    `(?:${either(BOOK_IT)}|(?:the\\s+)?(${ORDER_WORDS})\\s+(?:${either(RESULT_NOUNS)})))?$`,
  'i',
);
/**
 * "Buy the ticket with the cheapest cost", "book the shortest flight": one of the results the page
 * shows already (no search), by a superlative: (1) or (2) the superlative.
 */
const SHOWN_RESULT = new RegExp(
  `^(?:${either([...BOOK_VERBS, ...PICK_VERBS])})\\s+(?:the\\s+|a\\s+)?(?:(${ORDER_WORDS})\\s+(?:${either(TRIP_NOUNS)})` +
    `|(?:${either(TRIP_NOUNS)})\\s+(?:with|that has|having)\\s+the\\s+(${ORDER_WORDS})(?:\\s+(?:${either(RESULT_MEASURES)}))?)` +
    `(?:,?\\s+(?:and|then)\\s+(?:${either(BOOK_VERBS)})\\s+(?:${either(BOOK_IT)}))?$`,
  'i',
);
const CLOSING = new RegExp(`(?:,\\s*|\\s+)(?:${either(CLOSING_COURTESY)})[.!]*$`, 'i');
const CLOSING_AS_VALUE = new RegExp(`\\b(?:${either(COURTESY_AS_VALUE)})\\s+(?:${either(CLOSING_COURTESY)})[.!]*$`, 'i');
/** A date is a few words with no second clause in them ("12/03", "March 3rd, 2026", "Friday"). */
const oneDate = (d: string | undefined) => d === undefined || (!/\b(?:and|then)\b/i.test(d) && d.trim().split(/\s+/).length <= 5);

/** An amount stated first, then entered by its name: the amount (digits, a currency sign, separators), the noun, the rest. */
const STATED_VALUE = '([$€£]?\\d[\\d,]*(?:\\.\\d+)?|\\u0001\\d+\\u0001)';
/** What may follow the amount before the clause: "(twelve thousand)", kept whole like every bracket. */
const STATED_GLOSS = '(?: (?:\\([^)]*\\)|\\u0001\\d+\\u0001))?';
const STATED_AMOUNT = new RegExp(
  `^(?:${either(STATING_VERBS)}) ${STATED_VALUE}${STATED_GLOSS}\\s*[:;,—-]\\s*(?:then )?` +
    `(?:${either(ENTERING_VERBS)}) (?:the|that|this) (${either(STATED_NOUNS)})\\b(.*)$`,
  'i',
);

const STYLE_WORDS = `(?:${Object.values(TEXT_STYLES).flat().join('|')})`;
/** What a style is given to: a quoted text, one word, or all the text (1). */
const STYLED = `(?:the\\s+)?(?:(?:text|word|words|phrase)\\s+)?(\\u0000\\d+\\u0000|${either(ALL_TEXT)}|[\\w'-]+)`;
/** Where the clause ends: the sentence's end, or the next clause (", then ...", " and ..."). */
const CLAUSE_END = '((?:\\s*[,;]|\\s+(?:and|then)\\b).*|)$';
/** "Using the text editor, give the text "X" the style bold": (1) the text, (2) the style, (3) the rest. */
const STYLE_FORMS = [
  new RegExp(`^(?:give|apply|set)\\s+${STYLED}\\s+(?:the\\s+|a\\s+)?(?:${either(STYLE_NOUNS)})\\s+(?:of\\s+)?(${STYLE_WORDS})\\b${CLAUSE_END}`, 'i'),
  new RegExp(`^(?:make|turn|format|set|change)\\s+${STYLED}\\s+(?:(?:to|into|as|in)\\s+)?(${STYLE_WORDS})\\b${CLAUSE_END}`, 'i'),
];
const STYLE_APPLIED = new RegExp(
  `^(?:apply|add|use)\\s+(?:the\\s+)?(${STYLE_WORDS})\\s+(?:(?:${either(STYLE_NOUNS)})\\s+)?(?:to|on)\\s+${STYLED}${CLAUSE_END}`,
  'i',
);
const STYLE_VERB = new RegExp(`^(${Object.values(STYLE_VERBS).flat().join('|')})\\s+${STYLED}${CLAUSE_END}`, 'i');
const USING_EDITOR = new RegExp(`^(?:using|with|in)\\s+(?:the\\s+|this\\s+)?(?:${either(EDITOR_NOUNS)})\\s*,?\\s+`, 'i');

/** The style a word names, by the tables ("italics" is italic). */
const styleOf = (word: string, table: Readonly<Record<string, Phrases>>): string | undefined =>
  Object.entries(table).find(([, ws]) => oneOf(ws).test(word.trim()))?.[0];

/**
 * "Using the text editor, give the text "X" the style bold", "make the word X italic", "underline "X"",
 * "give everything the style underlined": the text selected, then the style's toolbar button. Null when it is none of these.
 */
function styleFirst(s: string): string | null {
  const t = s.replace(USING_EDITOR, '');
  let text: string | undefined;
  let style: string | undefined;
  let rest = '';
  let m: RegExpExecArray | null = null;
  for (const form of STYLE_FORMS) if ((m = form.exec(t))) break;
  if (m) [text, style, rest] = [m[1], styleOf(m[2], TEXT_STYLES), m[3]];
  else if ((m = STYLE_APPLIED.exec(t))) [text, style, rest] = [m[2], styleOf(m[1], TEXT_STYLES), m[3]];
  else if ((m = STYLE_VERB.exec(t))) [text, style, rest] = [m[2], styleOf(m[1], STYLE_VERBS), m[3]];
  if (!m || !text || !style || oneOf(NOT_STYLED_TEXT).test(text)) return null;
  const all = oneOf(ALL_TEXT).test(text);
  // One unquoted word is the text; a longer one must be quoted (where it ends is not known).
  const select = all ? 'click the text editor, then press Control+A' : /^\u0000/.test(text) ? `highlight ${text}` : `highlight the word ${text}`;
  return `${select}, then click the ${style} button${rest}`;
}

const BOOKS = `(?:${either(RECORD_BOOKS)})`;
const FIELD_SAID = Object.values(RECORD_FIELDS)
  .flatMap((f) => f.said)
  .join('|');
const WHO = `(\\u0000\\d+\\u0000|${PERSON_NAME})`;
/**
 * "Find Lynne in the contact book and click on her phone number", "Click on Omar Reyes's email in the directory":
 * (1) the person, (2) the field, (3) the rest.
 */
const RECORD_FORMS = [
  new RegExp(
    `^(?:find|look up|search for|look for|locate)\\s+${WHO}\\s+in\\s+(?:the\\s+|your\\s+)?${BOOKS}\\s*,?\\s+(?:(?:and|then)\\s+)+` +
      `(?:click|tap|press|select|open)\\s+(?:on\\s+)?(?:(?:her|his|their|the)\\s+)?(${FIELD_SAID})(?:\\s+(?:link|button))?${CLAUSE_END}`,
    'iu',
  ),
  new RegExp(
    `^(?:click|tap|press|select|open)\\s+(?:on\\s+)?${WHO}(?:'s|’s)\\s+(${FIELD_SAID})(?:\\s+(?:link|button))?\\s+in\\s+(?:the\\s+)?${BOOKS}${CLAUSE_END}`,
    'iu',
  ),
];
/** The step a record's field is clicked by, as the planner writes it. */
const RECORD_STEP = /^click the (\w+) in the record of (.+)$/;

/** "Find Lynne in the contact book and click on her phone number": the field's control in that person's record. */
function recordFirst(s: string, quotes: string[]): string | null {
  for (const form of RECORD_FORMS) {
    const m = form.exec(s);
    if (!m) continue;
    const field = Object.entries(RECORD_FIELDS).find(([, f]) => oneOf(f.said).test(m[2]!))?.[0];
    if (!field) return null;
    return `click the ${field} in the record of ${quoteValue(bare(m[1]!, quotes))}${m[3]}`;
  }
  return null;
}

/** "How many blocks are there? Enter the number": (1) what is counted, (2) the verb that enters the count. */
const EACH_LABEL = new RegExp(`\\b(?:${either(EACH_LABEL_VALUES)})(?=$|[\\s,.;])`, 'i');
/** Each text field of the page, by its label, as "enter the value of LABEL into the LABEL field" steps. */
function eachLabelled(fields: string[]): string | null {
  const labels = [...new Set(fields.map((f) => f.trim()).filter((f) => f && f.length <= 40))];
  if (!labels.length) return null;
  return labels.map((f) => `enter the value of ${f.replace(/\s*:$/, '')} into the ${f} field`).join(', then ');
}
const COUNT_QUESTION = new RegExp(
  `^how many\\s+(.+?)\\s+(?:${either(COUNT_QUESTION_ENDS)})(?:\\s+(?:below|above|here))?\\s*\\?\\s*` +
    '(enter|type|write|input|put|fill in)\\s+(?:the|that|this|your)\\s+(?:number|answer|count|total)\\b',
  'i',
);

/** "Drag the smaller box so that it is completely inside the larger box": (1) the verb, (2) what, (3) where it ends. */
const DRAG_SO_INSIDE = new RegExp(
  '\\b(drag|move)\\s+(?:the\\s+)?(.+?)\\s+so\\s+(?:that\\s+)?(?:it|its whole|all of it)\\s+(?:is|lies|sits|ends\\s+up|fits)\\s+' +
    '(?:completely\\s+|fully\\s+|entirely\\s+|wholly\\s+)?(?:inside|within|in)\\s+(?:of\\s+)?(?:the\\s+)?(.+?)(?=\\s*(?:[.,;]|\\band\\b|\\bthen\\b|$))',
  'i',
);
/** "Count all the blocks and enter the total": (1) what is counted, (2) the verb that enters the count. */
const COUNT_THEN_ENTER = new RegExp(
  '^count\\s+(?:all\\s+|up\\s+)?(?:of\\s+)?(?:the\\s+)?(.+?)\\s*(?:,\\s*)?(?:and\\s+|then\\s+)+' +
    '(enter|type|write|input|put|fill in)\\s+(?:the|that|this|your)\\s+(?:number|answer|count|total)\\b',
  'i',
);

/** "How many red items are there?" and nothing more: the answer is a button named by the count. */
const COUNT_ALONE = new RegExp(`^how many\\s+(.+?)\\s+(?:${either(COUNT_QUESTION_ENDS)})(?:\\s+(?:below|above|here))?\\s*\\?$`, 'i');
/** "Press the button that correctly denotes how many sides the shape has", "click the button that best describes the figure". */
const ANSWER_BUTTON = new RegExp(
  `^(?:${either(ANSWER_BUTTON_LEADS)})(?:(?:denotes|says|shows|gives|tells|states)\\s+how many sides\\s+(?:the\\s+)?(?:shape|figure)\\s+has` +
    '|(describes|names|matches)\\s+(?:the\\s+)?(?:shape|figure|drawing))(?:\\s+(?:below|above|shown))?$',
  'i',
);

/** A question whose answer is a button: the button named by what the page shows, read when the step runs. */
function answerButton(s: string): PlanStep | null {
  const count = COUNT_ALONE.exec(s);
  const m = count ? null : ANSWER_BUTTON.exec(s);
  const ref = count ? `the number of ${count[1]}` : m ? (m[1] ? 'the shape of the figure' : 'the number of sides of the shape') : null;
  return ref ? { say: `click the ${quoteValue(ref)} button`, ref } : null;
}

/**
 * Split `instruction` into single steps. Throws Refusal when the instruction has conditions or
 * repetition the planner cannot follow.
 */
export function planInstruction(instruction: string, page: PlanPage): PlanStep[] {
  // Tasks people write are short; a longer text is read by no pattern here in bounded time.
  if (instruction.length > MAX_INSTRUCTION)
    throw new Refusal(`it is ${instruction.length} characters long, more than the built-in planner reads (${MAX_INSTRUCTION})`);
  const { text, quotes } = protect(instruction.trim().replace(/[.!]+$/, ''));
  // "Could you please forward ...?": a request, its question mark no part of what is typed.
  const asked = new RegExp(`^(?:${either(REQUEST_OPENERS)})\\b`, 'i').test(text) ? text.replace(/\s*\?+$/, '') : text;
  let s = asked;
  const courtesy = new RegExp(`^(?:${either(OPENING_COURTESY)})(?:[,\\s]+|$)`, 'i');
  while (courtesy.test(s)) s = s.replace(courtesy, '').trim();
  // "Reply to Jaimie with "Fusce in.", please": the courtesy closes the instruction, it is not typed.
  const closes = !CLOSING_AS_VALUE.test(s);
  while (closes && CLOSING.test(s))
    s = s
      .replace(CLOSING, '')
      .replace(/[,.;!]+$/, '')
      .trim();
  // "Pay 12,000 (twelve thousand): enter the amount and press Pay": the amount the head states is what the clause enters.
  const stated = STATED_AMOUNT.exec(s);
  // Where the clause says where it goes ("type the amount into the box"), that is the field.
  if (stated) s = /^ (?:into|in|to) /i.test(stated[3]) ? `enter ${stated[1]}${stated[3]}` : `enter ${stated[1]} into the ${stated[2]} field${stated[3]}`;
  // "Scroll down to find the password", "Your task is: X. ... obtain and report the password": the task, then the secret.
  const sought = secretSought(s);
  if (sought) {
    const at = sought.url ? { url: sought.url } : {};
    const task = mirrorTask(bare(sought.task, quotes)) ?? bare(sought.task, quotes);
    const way = scrollOnly(task);
    if (way) return [{ say: `scroll ${way === 'both' ? 'down and right' : way} until the page shows the password`, reveal: { way, ...at } }];
    // Consent given for what the page shows next goes on past the box it ticks.
    const steps = (task ? planInstruction(task, page) : []).map((p) =>
      p.consent
        ? { ...p, consent: { ...p.consent, press: true } }
        : p.moving && !p.moving.times
          ? { ...p, moving: { ...p.moving, untilShown: true } }
          : p.menuFind
            ? { ...p, menuFind: { ...p.menuFind, click: true } }
            : p,
    );
    // Text typed last, with no step that sends it: the page's one send control, when the secret does not show without it.
    const last = steps[steps.length - 1];
    const send = !!last && !last.implied && /^(?:enter|type|fill|input|write|put)\b/i.test(last.say) ? { send: true } : {};
    return [...steps, { say: 'read the password the page now shows', secret: { ...at, ...send } }];
  }
  // "How many red items are there?", "click the button that best describes the figure": the answer's button.
  const answer = answerButton(s);
  if (answer) return [answer];
  // "Playing as 'X', win this game of tic-tac-toe": the whole instruction is the game.
  const game = gameFirst(bare(s, quotes));
  if (game) return [{ say: game, game: { mark: GAME_STEP.exec(game)![1] as 'X' | 'O' | 'either' } }];
  // "Guess the number between 0-9 and press Submit. Use the feedback below to find the right number": one step of many guesses.
  const guess = guessOf(s, (t) => bare(t, quotes));
  if (guess) return [{ say: `guess the number from ${guess.lo} to ${guess.hi}`, guess }];
  // "Generate a number less than 7, then press submit": draws until one fits, then the steps after it.
  const drawn = drawOf(bare(s, quotes));
  if (drawn) {
    const { button, verb, text } = drawn.draw;
    const say = `${button ? `click ${quoteValue(button)}` : verb} until the number is ${text}`;
    return [{ say, draw: drawn.draw }, ...(drawn.rest ? planInstruction(drawn.rest, page) : [])];
  }
  // "Close the welcome message" where the page shows a dialog: its close control or Escape, done only when it is gone.
  const dismiss = (page.roles?.dialog ?? 0) + (page.roles?.alertdialog ?? 0) ? DISMISS.exec(bare(s, quotes)) : null;
  if (dismiss) {
    const words = dismiss[2]!.trim();
    return [{ say: `close the ${words ? `${words} ` : ''}dialog`, dismiss: { words, ...(dismiss[1] ? { key: 'Escape' as const } : {}) } }];
  }
  // "Acknowledge the content warning", "prove you're human": the consent box, then the control that goes on.
  const consent = consentOf(bare(s, quotes));
  if (consent) return [consent];
  // "Close the annoying popup windows": each pop-up's close control in turn, done only when none is left.
  if (DISMISS_ALL.test(bare(s, quotes))) return [{ say: 'close every pop-up the page shows', dismissAll: true }];
  // "Scroll down the feed until you find X and click it": the target, looked for again after each scroll.
  const scrolled = SCROLL_UNTIL.exec(s);
  if (scrolled) {
    const target = bare((scrolled[2] ?? scrolled[3])!, quotes).replace(/^["“']|["”']$/g, '');
    const within = scrolled[1] && !/^(?:page|screen|window|list)$/i.test(scrolled[1]) ? bare(scrolled[1], quotes) : undefined;
    return [{ say: `scroll until ${quoteValue(target)} shows, then click it`, scrollFind: { target, ...(within ? { within } : {}) } }];
  }
  // "Go through the carousel to find X and click it": the carousel's Next until X shows.
  const slide = SLIDE_FIND.map((re) => re.exec(s)).find(Boolean);
  if (slide) {
    const target = bare(slide[1]!, quotes).replace(/^["“']|["”']$/g, '');
    return [{ say: `go through the carousel until ${quoteValue(target)} shows, then click it`, slideFind: { target } }];
  }
  // "Use the terminal below to delete a file ending with the extension .gif": commands typed, their output read.
  const file = fileToRemove(bare(s, quotes));
  if (file) return [{ say: `delete ${describeFile(file)} through the terminal`, removeFile: file }];
  // "Enter the value that corresponds with each label into the form": each field by its label, its value read off the page.
  if (EACH_LABEL.test(s)) {
    const each = eachLabelled(page.fields);
    if (each) s = s.replace(EACH_LABEL, each);
  }
  // "How many blocks are there? Enter the number": the count the question asks for is what is entered.
  s = s.replace(COUNT_QUESTION, (_m, what: string, verb: string) => `${verb} the number of ${what}`);
  s = s.replace(COUNT_THEN_ENTER, (_m, what: string, verb: string) => `${verb} the number of ${what}`);
  // "Find Lynne in the contact book and click on her phone number": one step, on whichever page shows her.
  s = recordFirst(s, quotes) ?? s;
  // "Find the email by Lyn and click the trash icon to delete it": one goal on one item.
  s = itemFirst(s) ?? s;
  // "Give the text "X" the style bold": select it, then the style's button.
  s = styleFirst(s) ?? s;
  // "Sort the numbers in increasing order, starting with the lowest at the top": one step, whatever moves the items.
  // A page with a sort control of its own ("Sort by", "Sort ascending") sorts by it: the words are left to name it.
  if (!page.names.some((n) => /\bsort/i.test(n))) s = sortFirst(s) ?? s;

  // "Turn over the cards and choose the one with the smallest number": one step, the cards turned as it goes.
  s = s.replace(CARD_PICK, (m, _a, _b, thing: string, which: string) =>
    thing.toLowerCase() === 'one' && !/\b(?:cards?|tiles?)\b/i.test(m)
      ? m
      : `pick the ${/^tile/i.test(thing) ? 'tile' : 'card'} with the ${which.toLowerCase()} number`,
  );
  // "Register the guest Linus by entering his name and clicking Submit": the steps it is done by.
  s = goalBySteps(s) ?? s;
  // "Find the 4th word in the paragraph, type that into the textbox": the value, typed where the second clause says.
  s = s.replace(FOUND_THEN_TYPED, (_m, what: string, verb: string, rest: string) => `${verb} ${what} ${rest}`);
  s = s.replace(DASH_ASIDE, '');
  s = s.replace(SHOWN_ON_PAGE, '$1');
  s = s.replace(CODE_GIVEN, (m, _verb: string, what: string, code: string, named?: string) => {
    if (code !== code.toUpperCase()) return m;
    // Entered whole, whatever the verb: a code replaces what its field held.
    const verb = 'enter';
    if (named) return `${verb} "${code}" into the `;
    // "the 6-digit code", "the one-time password": the code's boxes; "the new PIN" keeps the word that tells its boxes apart.
    const into = what.replace(/\b(?:\d+[- ](?:digit|character)|one[- ]time)\s*/gi, '').trim();
    return `${verb} "${code}" into the ${!into || /^password$/i.test(into) ? 'code' : into}`;
  });
  s = s.replace(COLOUR_SET, (_m, hex: string) => `set the color to ${hex}`);
  s = s.replace(DRAG_SO_INSIDE, (_m, verb: string, what: string, where: string) => `${verb} the ${what} into the ${where}`);
  s = s.replace(CONTEXT_MENU, 'right-click ').replace(PURPOSED, '$1');
  for (const re of COMBO_STEPS) s = s.replace(re, (_m, keys: string) => `press ${keys}`);
  // "Press Submit when done" is the order of the steps, not a condition.
  s = s.replace(new RegExp(`,?\\s+(?:${either(WHEN_DONE)})(?=\\s*(?:[.;]|$))`, 'gi'), '');
  // "Buy VOP when the price is less than $50.00": the action, held until the page's number passes.
  const cond = conditionOf(s, quotes);
  if (cond) s = cond.action;
  if (CONDITION.test(s)) throw new Refusal('it has conditions or repetition the built-in model does not follow');
  // A goal of several steps in one phrase ("book the cheapest flight from A to B", "click the
  // numbers in ascending order", "like all posts that mention cats"): one click never stands for
  // it. Unless the page has a control of that name ("Latest news", "Sort: lowest price first").
  const wholeGoal = (text: string): void => {
    const whole = WHOLE_GOAL.exec(text.replace(/\u0000\d+\u0000/g, ' '));
    if (whole && !page.names.some((n) => norm(n).includes(norm(whole[0])))) {
      throw new Refusal(`it asks for a goal of several steps (${JSON.stringify(bare(whole[0], quotes))}) the built-in planner does not break down`);
    }
  };
  // "Book the cheapest one-way flight from Boston to Denver on 12/03 (and book it)": the search form, then the result.
  const trip = TRIP.exec(s);
  // A place is a name of a few words: "B and a hotel" is two goals, not a destination.
  // "Fort Myers, FL" is one place (a region's code after the comma); "B, and a hotel" is not.
  const onePlace = (p: string) => !/\band\b/i.test(p) && !/,(?!\s*[A-Z]{2}$)/.test(p) && p.trim().split(/\s+/).length <= 4;
  // Two orders ("the cheapest ... and choose the fastest one") are a contradiction, not a trip.
  if (trip && onePlace(trip[4]) && onePlace(trip[5]) && oneDate(trip[6]) && !(trip[2] && trip[8])) {
    const [, verb, firstOrder, way, from, to, date, bookIt, lastOrder] = trip;
    const order = firstOrder ?? lastOrder;
    const books = !!bookIt || oneOf(BOOK_VERBS).test(verb);
    const t: Trip = { from: bare(from, quotes), to: bare(to, quotes), ...(date ? { date: bare(date, quotes) } : {}) };
    if (way) t.way = oneOf(ONE_WAY).test(way) ? 'one' : 'round';
    const steps: PlanStep[] = [{ say: `search for a trip from ${quoteValue(t.from)} to ${quoteValue(t.to)}${t.date ? ` on ${t.date}` : ''}`, trip: t }];
    if (books) steps.push({ say: `book the ${order ? order.toLowerCase() : 'one'} result`, tripResult: { order } });
    else if (order) steps.push({ say: `find the ${order.toLowerCase()} result`, tripResult: { order, look: true } });
    return steps;
  }
  // "Buy the ticket with the cheapest cost": a result the page shows already, booked by its own control.
  const shown = SHOWN_RESULT.exec(bare(s, quotes));
  if (shown) {
    const order = (shown[1] ?? shown[2])!.toLowerCase();
    return [{ say: `book the ${order} result`, tripResult: { order } }];
  }
  // Any other trip ("book ... from A to B") is one goal whatever the sentence does with it.
  if (new RegExp(`^(?:${either([...BOOK_VERBS, 'schedule', 'find'])})\\b.*\\bfrom\\s+\\S+.*\\bto\\s+\\S+`, 'i').test(s) && anyOf(TRIP_NOUNS).test(s)) {
    throw new Refusal('it asks for a trip to be found and booked, a goal of several steps the built-in planner does not break down');
  }
  let search = false;
  const found = () => {
    search = true;
    return '';
  };
  // "Navigate through the menus to find X and click it", "find X in the menus and click it": the menus opened in turn.
  let menuClick = false;
  s = s.replace(MENU_FIND_CLICK, (_m, what: string) => {
    menuClick = true;
    return `find ${what} in the menus`;
  });
  // "Find the link X in the sections below and click it": a search for X, then the click.
  s = s.replace(FIND_AND_CLICK, (m, what: string, verb: string) => {
    // Hidden in the menus (not a target that is called "Menu settings"): looked for through them.
    if (/\s(?:in|among|inside|under|within|behind)\s+(?:the\s+|one of the\s+)?menus?\b/i.test(m)) {
      menuClick = true;
      return `find ${what} in the menus`;
    }
    search = true;
    return `${verb} ${what}`;
  });
  // "..., to find and click on the link X", "then find and click the 2nd result".
  s = s.replace(/,?\s*(?:in order\s+)?to\s+(?:find|locate|reveal|look for)(?:\s+and\s+|\s*,\s*)/i, () => {
    search = true;
    return ' then ';
  });
  s = s.replace(/\b(?:find|locate|look for)\s+and\s+(?=(?:click|right[- ]?click|double[- ]?click|open|select|press|tap|choose)\b)/gi, found);
  // "From the country drop-down choose Japan": the choice first, then where it is made.
  s = s.replace(FROM_LIST_CHOOSE, '$2 $3 from the $1');
  // "In the Shop menu, choose Men, then Shoes": a menu path, hovered through like "Shop > Men > Shoes".
  const menu = MENU_CHOICE.exec(s);
  // "Open the pie menu, then click x" names a kind of menu, not a menu's name.
  if (menu && !/^(?:the|a|an|this|that)$/i.test(menu[1]) && !MENU_KIND.test(menu[1])) {
    const rest = menu[2]
      .split(/\s*(?:,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+)?then\s+|>)\s*(?:choose|select|click(?:\s+on)?|pick|go\s+to|open)?\s*/i)
      .filter(Boolean);
    if (rest.length && rest.every((x) => x.split(/\s+/).length <= 4 && !STARTS_WITH_VERB.test(x))) s = `select ${[menu[1], ...rest].join(' > ')}`;
  }
  const steps: PlanStep[] = [];
  let lastVerb = '';
  let lastValue: string | null = null;
  /** What "copy X" or "solve the expression" left for a later "paste it" or "enter the answer". */
  let copied: string | null = null;
  const push = (x: PlanStep) => {
    const typed = typedValue(x.say);
    // A value the instruction did not quote that describes something on the page is read there, never typed.
    if (typed !== null && !x.ref && !quotes.includes(typed) && isReference(typed)) x = { ...x, ref: typed };
    steps.push(search && !x.search ? { ...x, search } : x);
    lastValue = typed ?? lastValue;
  };
  let previous = '';
  for (const raw of splitAll(s)) {
    let clause = raw.replace(new RegExp(`^(?:${either(CLAUSE_OPENERS)})\\s+`, 'i'), '').trim();
    const prior = previous;
    previous = clause;
    if (EXPAND_DIRECTION.test(clause)) {
      // "Expand the section below": a step of its own (open the collapsed section); the steps
      // after it may need to look in others too.
      search = true;
      push({ say: clause, expand: true });
      continue;
    }
    const menu = MENU_OPEN.exec(clause);
    if (menu) {
      // "Expand the pie menu below": the page's one control that opens its menu; the steps after it look in what opened.
      push({ say: clause, openMenu: { ...(menu[1] ? { kind: menu[1].toLowerCase() } : {}) } });
      continue;
    }
    if (SEARCH_DIRECTION.test(clause)) {
      search = true;
      continue;
    }
    // "... in all lower case", "reversed": the value typed is changed so.
    let transform: Transform | undefined;
    // Right after the value ("Type "stressed" reversed into the box") or at the end of the clause.
    const CASE = '(?:in\\s+)?(?:all\\s+)?(?:(lower|upper)[\\s-]?case(?:\\s+letters)?|(capital|small|block)\\s+letters|(capitals))';
    const caseOf = (c1?: string, c2?: string, c3?: string): Transform | undefined => {
      const w = (c1 ?? c2 ?? c3 ?? '').toLowerCase();
      return w === 'lower' || w === 'small' ? 'lower' : w ? 'upper' : undefined;
    };
    clause = clause.replace(
      new RegExp(`(\\u0000\\d+\\u0000)\\s+(?:${CASE}|reversed|backwards)\\b`, 'i'),
      (_m, q: string, c1?: string, c2?: string, c3?: string) => {
        transform = caseOf(c1, c2, c3) ?? 'reverse';
        return q;
      },
    );
    clause = clause.replace(
      new RegExp(
        `,?\\s+(?:(?:written|typed|entered|spelled)\\s+)?${CASE}$|,?\\s+(?:in\\s+reverse(?:\\s+order)?|reversed|backwards|spelled\\s+backwards)$`,
        'i',
      ),
      (_m, c1?: string, c2?: string, c3?: string) => {
        transform = caseOf(c1, c2, c3) ?? 'reverse';
        return '';
      },
    );
    // One clause into steps (returns early once a reading has taken it).
    const planClause = (): void => {
      // "press Continue twice": the same step again.
      let times = 1;
      let fromSuggestions = false;
      clause = clause.replace(HASTE_AFTER, '').replace(/\s+(twice|thrice|(?:two|three|four|five) times|([2-9]|10) times)$/i, (_m, n: string, d?: string) => {
        times = d ? Number(d) : (REPEATS[n.toLowerCase()] ?? 1);
        return '';
      });
      // "Click three times": a click with no target named is the page's one button's.
      if (times > 1 && /^(?:click|tap|press)$/i.test(clause.trim())) clause = 'click the button';
      // "Select red with the color picker": the colour field set to red's hex value, else the words as said (a swatch named Red).
      clause = clause.replace(PICKER_FIRST, (_m, picker: string, verb: string, colour: string) => `${verb} ${colour} with the ${picker}`);
      const named = COLOUR_NAMED.exec(bare(clause, quotes));
      // Said as a choice from the picker ("pick Navy from the colour picker"): how a swatch named so is found. A value
      // typed into a field called Color ("enter the value of Color into the Color field") is no choice of a colour.
      if (named && (colourByName(named[1]!) || !/^(?:enter|input|set)\b/i.test(clause))) {
        clause = clause.replace(PICKER_MEANS, ' from the $1');
        const hex = colourByName(named[1]!);
        if (hex) {
          push({ say: `set the color to ${hex}`, or: [bare(clause, quotes)] });
          return;
        }
      }
      const menuFound = MENU_FIND.exec(bare(clause, quotes));
      if (menuFound) {
        const [verb, sought] = menuFound[1] ? [menuFound[1], menuFound[2]!] : [menuFound[3]!, menuFound[4]!];
        const click = / and /i.test(verb) || menuClick;
        push({ say: `find ${sought.trim()} in the menus${click ? ' and click it' : ''}`, menuFind: { target: sought.trim(), ...(click ? { click } : {}) } });
        return;
      }
      const framed = FRAMED.exec(bare(clause, quotes));
      if (framed) {
        push({ say: `click the ${framed[1]!.toLowerCase()}` });
        return;
      }
      if (RIGHT_ANYWHERE.test(bare(clause, quotes))) {
        push({ say: 'right-click the place the page names for a right-click', rightClickHere: { said: restore(clause, quotes) } });
        return;
      }
      const order = orderSaid(restore(clause, quotes));
      if (order) {
        const what = order.items ? `one each of ${order.items.join(', ')}` : `${order.count} items that are ${order.kind}`;
        push({ say: `order ${what}, then send the order`, order });
        return;
      }
      const river = riverSaid(restore(clause, quotes));
      if (river) {
        push({ say: `take the ${river.items.join(', ')} across the river, never leaving one with what eats it`, river });
        return;
      }
      const coord = COORDINATE.exec(restore(clause, quotes).trim());
      if (coord) {
        push({ say: restore(clause, quotes).trim(), coord: { x: Number(coord[1]), y: Number(coord[2]) } });
        return;
      }
      if (mazeSaid(bare(clause, quotes))) {
        push({ say: 'go through the doors, back from dead ends, until the way out shows', maze: true });
        return;
      }
      const hanoi = hanoiSaid(bare(clause, quotes));
      if (hanoi) {
        push({ say: `move the ${hanoi.disks ?? ''} disks one at a time to the rightmost peg, never a larger on a smaller`.replace('  ', ' '), hanoi });
        return;
      }
      // "Click the moving target three times": where it is at each moment, as often as said.
      const moving = MOVING.exec(bare(clause, quotes));
      if (moving) {
        const noun = moving[1]!.toLowerCase();
        push({ say: `click the moving ${noun}${times > 1 ? ` ${times} times` : ''}`, moving: { noun, ...(times > 1 ? { times } : {}) } });
        return;
      }
      // "Hold the button for exactly 3 seconds": a press held that long.
      const held = holdStep(bare(clause, quotes));
      if (held) {
        push(held);
        return;
      }
      // "Rate it 4 stars": the star control of that number, by its name or its place in the page's one row of stars.
      // "Find and click on the midpoint between the two points": a point of the drawing, worked out from its shapes.
      const spot = SPOT.exec(bare(clause, quotes));
      const line = LINE.exec(bare(clause, quotes));
      if (line) {
        const dir = line[1]!.toLowerCase() as 'horizontal' | 'vertical';
        push({ say: `draw a ${dir} line through the dot`, spot: { at: 'line', dir } });
        return;
      }
      if (BISECT.test(bare(clause, quotes))) {
        push({ say: 'draw a line that bisects the angle', spot: { at: 'bisect' } });
        return;
      }
      if (CIRCLE.test(bare(clause, quotes))) {
        push({ say: 'draw a circle around the dot', spot: { at: 'circle' } });
        return;
      }
      if (PIXEL.test(bare(clause, quotes))) {
        push({ say: 'click the small square the page draws', spot: { at: 'mark' } });
        return;
      }
      if (spot) {
        push(
          spot[1]
            ? { say: 'click the midpoint of the two points', spot: { at: 'midpoint' } }
            : { say: 'click the centre of the circle', spot: { at: 'centre' } },
        );
        return;
      }
      const rating = RATING.exec(bare(clause, quotes));
      if (rating) {
        const stars = Number(rating[1]);
        const of = rating[2] ? Number(rating[2]) : undefined;
        if (stars < 1 || stars > 10 || (of !== undefined && stars > of)) throw new Refusal(`it asks for ${stars} stars${of ? ` out of ${of}` : ''}`);
        push({ say: `rate ${stars} star${stars === 1 ? '' : 's'}`, rate: { stars, ...(of ? { of } : {}) } });
        return;
      }
      // "Reply to the email from Alice with 'Thanks!'", "delete the email from Carol", "share the post by @jane".
      const mail = itemSteps(clause, quotes);
      if (mail) {
        mail.forEach(push);
        return;
      }
      // "Mark the numbers below as odd or even": each row's own control, chosen when the step runs.
      if (MARK_PARITY.test(clause)) {
        push({ say: clause, each: { classify: 'parity' } });
        return;
      }
      // "Set the sliders to the combination [5,2,7]": the first slider to 5, the second to 2, ...
      const combo = WIDGET_VALUES.exec(unraw(clause, quotes));
      if (combo) {
        const kind = combo[1].toLowerCase().replace(/s$/, '');
        const widget = kind === 'spinner' ? 'spinner' : 'slider';
        const values = combo[2].split(',');
        // A value for each of them, or the combination is not the one asked for.
        const shown = page.roles?.[widget === 'spinner' ? 'spinbutton' : 'slider'];
        if (shown !== undefined && shown !== values.length) {
          throw new Refusal(`it gives ${values.length} values, and the page shows ${shown} ${widget}${shown === 1 ? '' : 's'}`);
        }
        values.forEach((v, i) => push({ say: `enter ${quoteValue(v.trim())} into the ${ordinalWord(i + 1)} ${widget}` }));
        return;
      }
      // "Pick July 3, 2024 in the calendar": the date, into the date field (its calendar when it takes no typing).
      const cal = /^(?:pick|select|choose|click|set)\s+(?:the\s+)?(?:date\s+)?(.+?)\s+(?:in|on|from|with)\s+(?:the\s+)?(?:calendar|date ?picker|picker)$/i.exec(
        clause,
      );
      if (cal) {
        const raw = bare(cal[1], quotes);
        // "pick tomorrow in the calendar": the words stay unquoted, so the step writes the day rather than them.
        const v = !QUOTED.test(cal[1].trim()) && namedDate(raw) ? raw : quoteValue(raw);
        push({ say: `enter ${v} into the date field`, or: [`enter ${v} into the text field`] });
        return;
      }
      // A search by several criteria ("comedies by Nolan released in 2004"): the form's fields, when the page has them.
      const sf = /^(?:find|search(?:\s+for)?|look\s+(?:for|up)|show(?:\s+me)?|browse|list)\s+(.+)$/i.exec(clause);
      if (
        sf &&
        /\b(?:by|directed by|written by|starring|released|published|from|titled|(?:19|20)\d{2})\b/i.test(bare(sf[1], quotes)) &&
        page.fields.length >= 2 &&
        !page.fields.some((f) => /\bsearch\b/i.test(f))
      ) {
        push({ say: restore(clause, quotes), searchForm: restore(sf[1], quotes) });
        return;
      }
      const rec = RECORD_STEP.exec(restore(clause, quotes));
      if (rec) {
        push({ say: restore(clause, quotes), record: { field: rec[1]!, who: rec[2]!.slice(1, -1) } });
        return;
      }
      const sorted = SORT_STEP.exec(clause);
      if (sorted) {
        push({ say: clause, sort: { by: sorted[1] as SortSpec['by'], order: sorted[2] as SortSpec['order'] } });
        return;
      }
      const all = DRAG_ALL.exec(bare(clause, quotes).replace(/[.!]+$/, ''));
      if (all) {
        // "..., and everything else into the right box": the pieces not taken go to a second target.
        const rest = DRAG_REST.exec(all[2]!);
        push({ say: restore(clause, quotes), dragEach: rest ? { what: all[1]!, to: rest[1]!, rest: rest[2]! } : { what: all[1]!, to: all[2]! } });
        return;
      }
      const resize = resizeOf(clause, quotes);
      if (resize) {
        push({ say: restore(clause, quotes), resize });
        return;
      }
      const drag = dragOf(clause, quotes);
      if (drag) {
        push({ say: restore(clause, quotes), drag });
        return;
      }
      // Sets of targets and targets picked by a property, chosen on the page when the step runs.
      const each = eachOf(clause, quotes);
      if (each) {
        push({ say: restore(clause, quotes), each });
        return;
      }
      wholeGoal(clause);
      // "Upload any file", "attach your CV", "choose a photo to upload": the built-in agent has no
      // file to give, and clicking the upload control or a heading that names it uploads nothing.
      if (/^(?:upload|re-?upload|attach)\b|\b(?:to|and)\s+(?:upload|attach)\b/i.test(bare(clause, quotes))) {
        throw new Refusal('it asks for a file to be uploaded, and the built-in agent has no file to give');
      }
      // "stop the timer after about one second", "after a second click TWO": the pause, then the step.
      const A = `(${PAUSE_COUNT})\\s+(${either(AFTER_UNITS)})`;
      const late = new RegExp(`^(.+?)\\s+after\\s+(?:(?:about|roughly|around)\\s+)?${A}$`, 'i').exec(clause);
      const early = late ? null : new RegExp(`^after\\s+(?:about\\s+)?${A},?\\s+(.+)$`, 'i').exec(clause);
      if (late || early) {
        const [count, unit, rest] = late ? [late[2], late[3], late[1]] : [early![1], early![2], early![3]];
        push(pauseStep(count, unit));
        clause = rest.trim();
      }
      // "..., it is in the hidden section": a direction to look, not a step.
      if (WHERE_HIDDEN.test(clause)) {
        search = true;
        for (const x of steps) x.search = true;
        return;
      }
      clause = clause.replace(/\s+(?:in|inside|under)\s+(?:a|the)\s+(?:hidden|collapsed|closed|folded)\s+(?:section|panel|part|area|menu|tab)$/i, () => {
        search = true;
        return '';
      });
      // "Answer the math question", "enter the answer": the expression's answer into the answer field.
      const enterAnswer = ENTER_ANSWER.exec(clause);
      // "Solve the expression and enter the answer (in the Answer box)": entered once, where the second clause says if it does.
      if (enterAnswer && copied === null && steps[steps.length - 1]?.ref === 'the answer' && ANSWER_MATH.test(prior)) {
        if (enterAnswer[1]) {
          const where = bare(enterAnswer[1], quotes);
          const said = `enter "the answer" into the ${where}`;
          // "the textbox" names a kind, not a field: the answer field first, where the page has one among several boxes.
          const generic = oneOf(GENERIC_FIELDS).test(where);
          steps.pop();
          push({ say: generic ? 'enter "the answer" into the answer field' : said, ...(generic ? { or: [said] } : {}), ref: 'the answer' });
        }
        return;
      }
      if (ANSWER_MATH.test(clause) || (copied === 'the answer' && enterAnswer && !enterAnswer[1])) {
        copied = null;
        push({
          say: 'enter "the answer" into the answer field',
          or: ['enter "the answer" into the captcha field', 'enter "the answer" into the result field', 'enter "the answer" into the text field'],
          ref: 'the answer',
        });
        return;
      }
      // "wait 1 second", "wait for 2 seconds": a pause between steps.
      let w = new RegExp(`^wait(?:\\s+for)?\\s+(?:about\\s+)?(${PAUSE_COUNT})\\s*(${either(PAUSE_UNITS)})$`, 'i').exec(clause);
      if (w) {
        push(pauseStep(w[1], w[2]));
        return;
      }
      // "Solve the expression", "work out the sum": what the next step enters as "the answer".
      if (SOLVE_MATH.test(clause)) {
        copied = 'the answer';
        return;
      }
      // "Copy the text from the paragraph": what "paste it" enters later.
      // "Copy the order number from the message into the Order number box": read there, entered here.
      const cp = /^copy\s+(.+?)\s+(into|in|to|onto|inside)\s+(?:the\s+)?((?:(?!\s(?:into|in|to|onto)\s).)+?)$/i.exec(clause);
      // "Copy the text in the textarea below, paste it into the textbox": "in" says where the text is, when a paste follows.
      const from = cp !== null && /^in(?:side)?$/i.test(cp[2]) && /\bpaste\s+(?:it|that|them)\b/i.test(s);
      if (cp && !from && !/^(?:the\s+)?clipboard$/i.test(cp[3])) {
        const [, what, , into] = cp;
        const literal = /^\u0000\d+\u0000$/.test(what.trim());
        push(
          literal
            ? { say: `enter ${restore(what.trim(), quotes)} into the ${bare(into, quotes)}` }
            : { say: `enter ${quoteValue(bare(what, quotes))} into the ${bare(into, quotes)}`, ref: bare(what, quotes) },
        );
        return;
      }
      w = /^copy\s+(.+?)(?:\s+(?:to|onto)\s+(?:the\s+)?clipboard)?$/i.exec(clause);
      if (w) {
        copied = /^\u0000\d+\u0000$/.test(w[1].trim()) ? restore(w[1].trim(), quotes) : bare(w[1], quotes);
        return;
      }
      // "Paste the quote into the box" with nothing copied: what it names is read off the page.
      w = /^paste\s+((?!it\b|that\b|them\b)(?!\u0000).+?)\s+(?:into|in|inside|to|on)\s+(?:the\s+)?(.+)$/i.exec(clause);
      if (w && copied === null) {
        const ref = bare(w[1], quotes);
        push({ say: `enter ${quoteValue(ref)} into the ${bare(w[2], quotes)}`, ref });
        return;
      }
      w = /^(?:paste|enter|type|put)\s+(?:it|that|them|the copied text|the answer|the result|the solution)\s+(?:into|in|inside|to|on)\s+(?:the\s+)?(.+)$/i.exec(
        clause,
      );
      if (w && copied !== null) {
        const into = bare(w[1], quotes);
        if (/^".*"$|^“.*”$/.test(copied)) push({ say: `enter ${copied} into the ${into}` });
        else push({ say: `enter ${quoteValue(copied)} into the ${into}`, ref: copied });
        copied = null;
        return;
      }
      // "Type the text below into the text field", "Enter the value of Year of Birth": a value
      // described, not given; read off the page when the step runs.
      const said = ENTER_WHAT.exec(clause);
      let r: [string, string, string | undefined] | null = said ? [said[0], said[1], said[2]] : null;
      // "Enter the 4th word in the text area": a part of a text names its source with "in"; the text goes into the
      // page's text field, not back into the text it was read from.
      if (r?.[2] && PART_OF_TEXT.test(bare(r[1], quotes)) && !/\s(?:into|in to)\s/i.test(clause)) {
        r = [r[0], `${r[1]} in the ${r[2]}`, undefined];
      }
      // ("Enter the zip code 02139": a field of the page, then its value, is no description.)
      const asEntry = r ? labelValue(r[1], page, quotes) : null;
      const fieldValue = !!asEntry && !isReference(asEntry.value) && page.fields.some((f) => norm(f).includes(asEntry.label));
      if (
        r &&
        !fieldValue &&
        !/\u0000\d+\u0000|,/.test(r[1]) &&
        r[1].split(/\s+/).length <= 10 &&
        isReference(bare(r[1], quotes)) &&
        !(r[2] && isReference(`the ${bare(r[2], quotes)}`) && !/\b(?:field|box|input|area|bar)$/i.test(r[2]))
      ) {
        const ref = bare(r[1], quotes);
        const into = r[2] ? bare(r[2], quotes) : 'text field';
        push({ say: `enter ${quoteValue(ref)} into the ${into}`, ref });
        return;
      }
      const login = loginSteps(clause, quotes);
      if (login) {
        login.forEach(push);
        return;
      }
      clause = clause
        // "from the scroll list", "the drop-down list": a list, whatever its look.
        .replace(/\b(?:scroll(?:ing|able)?|drop-?\s?down|select(?:ion)?)\s+(?:list|box|menu)\b/gi, 'list')
        // "Use the textbox to enter X", "start typing X", "enter the text X".
        .replace(/^use\s+(?:the\s+)?(.+?)\s+to\s+(enter|type|write|input)\s+(.+)$/i, '$2 $3 into the $1')
        .replace(/^(?:start|begin)\s+typing\s+/i, 'type ')
        .replace(/^(enter|type|input|write)\s+(?:the\s+)?(?:text|value|word|number|string|phrase)\s+(?=\u0000)/i, '$1 ')
        // "Enter Berlin into the city field, choosing it from the suggestions": typing, then that suggestion.
        .replace(
          /,?\s*(?:and\s+)?(?:choos|pick|select)(?:e|ing)?\s+(?:it|them)\s+from\s+the\s+(?:suggestions|suggestion list|autocomplete|dropdown|list|options)$/i,
          () => {
            fromSuggestions = true;
            return '';
          },
        )
        // "keep me signed in", "remember me": the checkbox that says so.
        .replace(
          /^(?:keep me (?:signed|logged) in|stay (?:signed|logged) in|remember me)$/i,
          (w) => `check ${quoteValue(w.replace(/^\w/, (c) => c.toUpperCase()))}`,
        )
        // "keep Standard delivery": make sure it is the one selected.
        .replace(/^(?:keep|leave)\s+(.+?)(?:\s+(?:selected|checked|on|as it is))?$/i, 'select $1')
        .replace(/^(?:submit|send)(?:\s+(?:it|the form|this form|the details|your answer|the answer|the application|the order))?$/i, 'click submit')
        .replace(/^place\s+the\s+order$/i, 'click place order')
        .replace(/^(?:continue|proceed)$/i, 'click continue')
        // "click button ONE": the button named ONE (not the first button).
        .replace(
          /^(click|press|tap|hit)(?:\s+on)?\s+(?:the\s+)?button\s+(\S+)$/i,
          (_m, v: string, name: string) => `${v} the ${/^\u0000/.test(name) ? name : quoteValue(name)} button`,
        );
      // "Search the docs for X": type it into the search box and press Enter.
      let m = /^search(?:\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?\s+for\s+(.+)$/i.exec(clause);
      if (m) {
        const v = quoteValue(bare(m[1], quotes));
        push({ say: `enter ${v} into the search box`, or: [`enter ${v} into the search field`, `enter ${v} into the text field`] });
        push({ say: 'press Enter' });
        return;
      }
      // "confirm it", "repeat it": the value just typed, into the field that confirms it.
      if (/^(?:confirm|repeat|re-?enter|retype|re-?type|type)\s+(?:it|that|the password)(?:\s+again)?$/i.test(clause) && lastValue !== null) {
        const v = quoteValue(lastValue);
        push({ say: `enter ${v} into the confirm field`, or: [`enter ${v} into the confirm password field`, `enter ${v} into the second password field`] });
        return;
      }
      // "Enter an item that starts with "Ger" and ends with "ny"": type the start, pick the suggestion.
      m = STARTS_WITH.exec(clause);
      if (m) {
        const start = bare(m[1], quotes);
        push({
          say: `enter ${quoteValue(start)} into the text field`,
          or: [`enter ${quoteValue(start)} into the combobox`],
          // "an item that starts with ...": any that fits will do.
          pick: { startsWith: start, ...(m[2] ? { endsWith: bare(m[2], quotes) } : {}), ...(/^\S+\s+an?\s/i.test(clause) ? { any: true } : {}) },
        });
        return;
      }
      // "pick Porto from the suggestions": the suggestion; "from the city suggestions": type it there first.
      m = FROM_SUGGESTIONS.exec(clause);
      if (m) {
        const v = quoteValue(bare(m[1], quotes));
        if (m[2]) push({ say: `enter ${v} into the ${bare(m[2], quotes)} field`, pick: { typed: true } });
        else push({ say: `pick ${v} from the suggestions`, suggestion: bare(m[1], quotes) });
        return;
      }
      // "click the 3rd search result", "open the first result".
      m = /^(?:click|open|select|choose|follow|visit|pick)(?:\s+on)?\s+(?:the\s+)?(\w+)\s+(?:search\s+)?(?:result|hit|match)$/i.exec(clause);
      const place = m && ordinalOf(m[1], true);
      if (place) {
        push({ say: restore(clause, quotes), result: place === 'last' ? -1 : place });
        return;
      }
      // A value with nowhere to go ("Enter ada@example.com", "Type "Ger""): the page's text field.
      m = /^(?:enter|type|input|write|key in)\s+(\u0000\d+\u0000|\S+)$/i.exec(clause);
      if (m && !STARTS_WITH_VERB.test(bare(m[1], quotes))) {
        const v = quoteValue(bare(m[1], quotes));
        push({ say: `enter ${v} into the text field`, or: [`enter ${v} into the search box`, `enter ${v} into the combobox`] });
        return;
      }
      // "Press Play, then Next track": a clause with no verb takes the click verb before it.
      if (!STARTS_WITH_VERB.test(clause) && lastVerb && !/^[^:]{1,40}:/.test(clause)) clause = `${lastVerb} ${clause}`;
      const cv = CLICK_VERB.exec(clause);
      lastVerb = cv ? cv[1] : '';
      const expanded = bothSteps(clause, quotes) ?? entrySteps(clause, page, quotes) ?? listSteps(clause, page, quotes);
      if (expanded) {
        expanded.forEach(push);
        return;
      }
      // "Select File > Export > PDF": each item of the menu path in turn.
      m = /^(?:select|click|choose|open|go to|navigate to)(?:\s+on)?\s+(?:the\s+)?([^>]+(?:\s*>\s*[^>]+)+)$/i.exec(clause);
      if (m) {
        // Each item but the last opens the next: hovered, as menus that open on hover need (and
        // clicked only if hovering brings up nothing); the last is clicked.
        const items = m[1]
          .replace(/\s+(?:from|in|on)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:menu|menu ?bar|navigation)$/i, '')
          .split(/\s*>\s*/)
          .map((item) => (/^\u0000\d+\u0000$/.test(item.trim()) ? restore(item.trim(), quotes) : quoteValue(bare(item, quotes))));
        items.forEach((item, k) => push(k < items.length - 1 ? { say: `hover over ${item}`, opens: true } : { say: `click ${item}` }));
        return;
      }
      // "Select 12/31/2016 as the date", "choose 10:30 AM as the time": an option, or a value typed in.
      m = /^(?:select|choose|pick)\s+(\u0000\d+\u0000|[^,]+?)\s+as\s+(?:the\s+|your\s+)?(.+)$/i.exec(clause);
      if (m) {
        push({ say: restore(clause, quotes), or: [`enter ${quoteValue(bare(m[1], quotes))} into the ${bare(m[2], quotes)} field`] });
        return;
      }
      // "subscribe with the address grace@navy.mil", "sign up with a@b.co": the field, then the
      // button named by the verb (after anything else the instruction asks for).
      m = /^([a-z]+(?:\s+(?:up|in|on))?)\s+(?:with|using)\s+(.+)$/i.exec(clause);
      const emailOnly = m && /^\S+@\S+\.\w+$/.test(bare(m[2], quotes)) ? { label: 'email', value: bare(m[2], quotes) } : null;
      const lv =
        m && !/^(?:enter|type|fill|input|write|log in|sign in|login|select|choose|pick|click|press)$/i.test(m[1])
          ? (labelValue(m[2], page, quotes) ?? emailOnly)
          : null;
      if (m && lv) {
        const verb = m[1].toLowerCase();
        push({ say: `enter ${quoteValue(lv.value)} into the ${lv.label} field` });
        push({ say: `click ${verb}`, or: [`click the ${verb} button`], implied: true });
        return;
      }
      // "Select 5 with the spinner", "set 30 on the slider": the value into that control.
      m = VALUE_BY_WIDGET.exec(clause);
      if (m) {
        push({ say: `enter ${quoteValue(bare(m[1], quotes))} into the ${m[2]}` });
        return;
      }
      // "Set the number of speakers to 7 with the spinner": the field named so, by that widget.
      m = FIELD_BY_WIDGET.exec(clause);
      if (m) {
        const v = quoteValue(bare(m[2], quotes));
        const what = bare(m[1], quotes).replace(/^(?:number|amount|count)\s+of\s+/i, '');
        push({ say: `enter ${v} into the ${what} ${m[3]}`, or: [`enter ${v} into the ${m[3]}`] });
        return;
      }
      // "Select nothing": nothing to select.
      if (/^(?:select|check|tick|choose|pick)\s+(?:nothing|none|no\s+(?:options?|boxes|items|checkboxes))$/i.test(clause)) return;
      if (fromSuggestions && expanded === null && /^(?:enter|type|input|write|fill)\b/i.test(clause)) {
        push({ say: restore(clause, quotes), pick: { typed: true } });
        return;
      }
      const say = restore(clause, quotes);
      const or = buttonAlternatives(say);
      for (let k = 0; k < times; k++) push({ say, ...(or ? { or } : {}) });
    };
    const before = steps.length;
    planClause();
    if (transform) for (const x of steps.slice(before)) transformStep(x, transform);
  }
  // Every clause is a step: what was copied or worked out and never entered is a dropped step.
  if (copied !== null) throw new Refusal(`it reads ${JSON.stringify(copied)} and never says where it goes`);
  if (cond && steps.length) {
    const first = steps[0];
    // A condition holds a plain step (a click, a value typed); sets, drags, searches and pauses are not held.
    if (first.each || first.drag || first.searchForm !== undefined || first.openItem !== undefined || first.expand || first.wait !== undefined) {
      throw new Refusal('its condition holds a step of a kind the built-in agent does not wait for');
    }
    if (cond.otherwise !== undefined) {
      // One step each way: "press Yes ... otherwise No" (a bare name takes the first branch's verb).
      if (steps.length !== 1) throw new Refusal('each side of its condition must be one step');
      const verb = /^(click|press|tap|hit|select|choose|check)\b/i.exec(steps[0].say)?.[1] ?? 'click';
      let other = bare(cond.otherwise, quotes).replace(/^(?:just\s+)?/i, '');
      if (!STARTS_WITH_VERB.test(other)) other = `${verb} ${other}`;
      steps[0] = { ...steps[0], when: cond.when, otherwise: other };
    } else steps[0] = { ...steps[0], when: cond.when };
  }
  // A log-in click the phrasing implied goes after everything else asked for ("sign in as X
  // using password Y and tick Remember me"), or away when a click of its own comes later.
  const implied = steps.findIndex((x) => x.implied);
  if (implied >= 0 && implied < steps.length - 1) {
    const [click] = steps.splice(implied, 1);
    // A later click of its own (on the log-in, submit or that very button) takes its place.
    const own = click.say
      .replace(/^click\s+(?:the\s+)?/i, '')
      .replace(/\s+button$/i, '')
      .toLowerCase();
    const same = (say: string) =>
      /^(?:click|press|hit|tap)\b/i.test(say) && (/\b(?:log ?in|sign ?in|submit|continue)\b/i.test(say) || say.toLowerCase().includes(own));
    if (!steps.slice(implied).some((x) => same(x.say))) steps.push(click);
  }
  if (!steps.length) throw new Refusal('it names no step to take');
  if (steps.length > 30) throw new Refusal(`it has ${steps.length} steps, more than the built-in model plans (30)`);
  return steps;
}
