/** Places on a page and in a grid ("the top-left cell", "the center square", "scroll to the end"), and sizes ("the small circle"). */
import { type Phrases } from './grammar';

/** Ends of a page or a box that a scroll goes to; the first three are its start. */
export const START_EDGES: Phrases = ['top', 'start', 'beginning'];
export const EDGES: Phrases = [...START_EDGES, 'bottom', 'end'];

/** Things in a grid that a place names ("the top-left cell", "the corner square"). */
export const GRID_THINGS: Phrases = ['cell', 'square', 'slot', 'spot', 'space', 'tile', 'corner', 'box', 'button'];
/** Rows of a grid: the first two are the top row, the others the bottom. */
export const GRID_TOP: Phrases = ['top', 'upper'];
export const GRID_ROWS: Phrases = [...GRID_TOP, 'bottom', 'lower'];
export const GRID_MIDDLE: Phrases = ['middle', 'center', 'centre', 'central'];
/** Every word that places in a grid, dropped from the target once read. */
export const GRID_WORDS: Phrases = [...GRID_ROWS, ...GRID_MIDDLE, 'left', 'right', 'hand', 'corner', 'spot', 'space', 'one', 'square', 'tile', 'box'];
export const GRID_PARTS: Phrases = ['slot', 'column', 'row', 'of the'];

/** Sizes among equal matches: the first group asks for the smallest, the second for the largest. */
export const SMALL_WORDS: Phrases = ['small', 'smaller', 'smallest', 'tiny', 'little'];
export const LARGE_WORDS: Phrases = ['large', 'larger', 'largest', 'big', 'bigger', 'biggest', 'huge'];

/** Where a target sits relative to the instruction: not part of its name ("the text box below"). */
export const RELATIVE_PLACES: Phrases = ['below', 'above', 'here', 'on (?:the|this) page'];
/** Words that place nearby text rather than name it ("in the top row", "on the left-hand side"). */
export const PLACE_WORDS: Phrases = [...GRID_ROWS, 'left', 'right', ...GRID_MIDDLE, 'corner', 'hand', 'column', 'row', 'side', 'of', 'the'];
/** Nearby text that is the page itself, not a place on it. */
export const WHOLE_PAGE: Phrases = ['page', 'form', 'screen', 'top', 'bottom', 'header', 'footer'];

/** A size asked of a box a person resizes ("make the text area wider"): which way each word goes, and along what. */
export const RESIZE_VERBS: Phrases = ['resize', 'adjust', 'change the size of', 'enlarge', 'widen', 'lengthen', 'shrink', 'narrow'];
export const GROWN: Phrases = ['larger', 'bigger', 'greater', 'more', 'wider', 'taller', 'longer', 'higher'];
export const SHRUNK: Phrases = ['smaller', 'less', 'narrower', 'shorter', 'lower'];
/** Which side a size word changes: the width, the height, or both (the others). */
export const ACROSS: Phrases = ['width', 'wider', 'narrower', 'widen', 'narrow'];
export const DOWNWARDS: Phrases = ['height', 'taller', 'shorter', 'higher', 'lower', 'lengthen', 'longer'];
/** What "make the X bigger" may resize: a box, never text or a font. */
export const RESIZED_BOXES: Phrases = ['text ?area', 'area', 'box', 'field', 'editor', 'panel', 'pane', 'window', 'input', 'frame'];
