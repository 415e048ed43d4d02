/**
 * References: how an instruction places a target by other text ("in the row for Alice", "the
 * button labeled OK"), and how it names a value by where it is on the page ("the text below",
 * "the value of Year of Birth") rather than giving it.
 */
import { type Phrases } from './grammar';

/** Words that put a target by other text ("in the row for Alice", "next to Bob"). */
export const NEAR_WORDS: Phrases = [
  ...['in', 'inside', 'within', 'under', 'underneath', 'below', 'beneath', 'above', 'after', 'before', 'on', 'of', 'from', 'for'],
  ...['next to', 'beside', 'near', 'by', 'belonging to', 'that belongs to'],
];
/** What holds the target and the text together ("the row for Alice"). */
export const HOLDERS: Phrases = ['row', 'item', 'card', 'entry', 'line', 'section', 'list item', 'record', 'user', 'product', 'column'];
/** How a holder holds the text ("the row with Alice", "the card labeled Pro"). */
export const HOLDING: Phrases = ['for', 'of', 'with', 'containing', 'about', 'labeled', 'labelled', 'named', 'called', 'that says', 'saying'];
/** Kinds of container named in nearby text: where the target is, not words to find ("in the row for Bob"). */
export const CONTAINER_NOUNS: Phrases = [
  ...['card', 'row', 'item', 'section', 'entry', 'box', 'panel', 'tile', 'list', 'table', 'column', 'line', 'product', 'record'],
  ...['area', 'block'],
];
/** Words before the text a target shows: "labeled", "that says", "with the caption". */
export const SAYING: Phrases = [
  ...['labeled', 'labelled', 'named', 'called', 'titled', 'that says', 'which says', 'saying', 'that reads', 'reading'],
  ...['with the (?:text|label|caption|title|word)', 'with text', 'marked', 'captioned'],
];
/** Words that say what kind of thing a target is without helping to find it ("the red widget", "the digit"). */
export const NOISE_WORDS: Phrases = [
  ...['widgets?', 'elements?', 'controls?', 'things?', 'objects?', 'ones?', 'colou?red', 'colou?rs?', 'shaped', 'digits?', 'letters?'],
  ...['characters?', 'symbols?', 'numbers?', 'box(es)?', 'swatch(es)?', 'items?', 'tiles?', 'shapes?', 'entries', 'entry'],
];

/** Nouns and place words that make "the ..." a description of something on the page ("the total", "the text below"). */
export const REFERENCE_WORDS: Phrases = [
  ...['value', 'values', 'text', 'number', 'numbers', 'total', 'sum', 'count', 'word', 'words', 'answer', 'result', 'content'],
  ...['contents', 'amount', 'price', 'date', 'code', 'letters?', 'digits?', 'sentence', 'paragraph', 'below', 'above', 'shown'],
  ...['displayed', 'following', 'given', 'written', 'same', 'title', 'label', 'string', 'phrase', 'solution', 'expression'],
  ...['equation', 'entry', 'figure', 'quantity', 'quote', 'quotation', 'passage', 'excerpt'],
];
/** Words for a piece of text on the page ("the sentence below", "the quote"). */
export const TEXT_WORDS: Phrases = [
  ...['text', 'words', 'sentence', 'string', 'phrase', 'content', 'contents', 'quote', 'quotation', 'passage', 'excerpt'],
  'message',
];
/** Where a value is rather than what it is ("the text below"): never a value typed as written. */
export const PLACE_WORDS: Phrases = ['below', 'above', 'shown', 'displayed', 'here', 'following', 'given', 'on (?:the|this) (?:page|screen)', 'on screen'];
/** Words for a value read beside its label ("the number next to Total"). */
export const VALUE_WORDS: Phrases = ['value', 'number', 'text', 'amount', 'entry', 'content', 'contents', 'answer'];
/** Where a value may be shown ("the order number from the message"). */
export const SHOWN_ON: Phrases = [
  ...['message', 'text', 'paragraph', 'page', 'email', 'table', 'confirmation', 'receipt', 'note', 'screen', 'list', 'card'],
  ...['form', 'banner', 'notice', 'alert', 'box', 'summary'],
];
/**
 * Other names a page gives an amount ("the total" is the invoice's "Amount due"): tried, one at a time,
 * only when the amount's own words name nothing on the page. Two amounts found is still a refusal.
 */
export const AMOUNT_NAMES: Readonly<Record<string, Phrases>> = {
  total: ['amount due', 'total due', 'grand total', 'balance due', 'amount to pay', 'order total'],
  price: ['cost'],
  balance: ['amount due', 'balance due'],
};
/** What a stated amount is called when a later clause puts it in a field ("enter the amount"). */
export const STATED_NOUNS: Phrases = ['amount', 'sum', 'value', 'figure', 'number'];
/** Verbs of a line that tells the reader what to do: the page's directions are never the text they point at. */
export const DIRECTION_VERBS: Phrases = [
  ...['read', 'type', 'enter', 'copy', 'click', 'press', 'fill', 'select', 'write', 'reproduce', 'repeat', 'submit', 'choose'],
  ...['use', 'find', 'answer', 'solve', 'drag', 'check', 'highlight'],
];

/** Verbs that find a value on the page before it is typed ("find the 4th word in the paragraph, type that ..."). */
export const FIND_FIRST_VERBS: Phrases = ['find', 'locate', 'look for', 'read', 'look up', 'identify'];
/** How the typing step points back at the value found. */
export const FOUND_PRONOUNS: Phrases = ['that', 'it', 'this', 'that word', 'the word', 'that value', 'the value', 'them'];
/** Kind words that name no field of their own ("the textbox"): where a value goes when the page has one field of that kind. */
export const GENERIC_FIELDS: Phrases = ['text ?box', 'text ?field', 'box', 'input(?: field| box)?', 'field', 'text input', 'blank', 'text ?area'];

/** "... by entering his name and clicking Submit": how a goal says the steps that carry it out. */
export const BY_STEP_VERBS: Phrases = ['entering', 'typing', 'filling in', 'putting in', 'writing'];
export const BY_CLICK_VERBS: Phrases = ['clicking', 'pressing', 'hitting', 'tapping'];
/** Whose field it is ("his name", "their email"). */
export const OWNER_WORDS: Phrases = ['his', 'her', 'their', 'its', 'the'];

/** "How many blocks are there?": the ways a question asks for a count of what the page shows. */
export const COUNT_QUESTION_ENDS: Phrases = [
  ...['are there', 'are shown', 'are on the page', 'do you see', 'can you see', 'are (?:in|on) the (?:box|picture|figure|board|page)'],
  'are displayed',
];
/** Words for the pieces of a drawing, whatever their shape ("the number of blocks"). */
export const PIECE_NOUNS: Phrases = ['blocks?', 'shapes?', 'items?', 'objects?', 'figures?', 'pieces?', 'things?', 'boxes', 'box', 'tiles?'];
/** Shapes a drawing's pieces are named by, as the snapshot names them. */
export const SHAPE_WORDS: Phrases = [
  'squares?',
  'circles?',
  'triangles?',
  'rectangles?',
  'diamonds?',
  'stars?',
  'ellipses?',
  'pentagons?',
  'hexagons?',
  'lines?',
  // Letters and digits drawn as pieces of a figure.
  'digits?',
  'letters?',
];
/** Colours a count may ask for ("the number of red blocks"): a piece counts when its colour says the word. */
export const COLOUR_WORDS: Phrases = [
  ...['red', 'green', 'blue', 'yellow', 'orange', 'purple', 'pink', 'black', 'white', 'gr[ae]y', 'brown', 'cyan', 'magenta'],
  ...['violet', 'teal', 'navy', 'lime', 'olive', 'maroon', 'gold', 'silver', 'indigo', 'turquoise', 'aqua', 'fuchsia'],
];
/** Colour keywords that name one colour twice: the snapshot says the first ("cyan" for aqua). */
export const SAME_COLOUR: Readonly<Record<string, string>> = { aqua: 'cyan', fuchsia: 'magenta' };
/** Sides of the shapes a figure may show ("how many sides the shape has"); a round shape has none to count. */
export const SHAPE_SIDES: Readonly<Record<string, number>> = { triangle: 3, square: 4, rectangle: 4, diamond: 4, pentagon: 5, hexagon: 6 };
/** Wider names a shape goes by where the answers offered do not name it: a square is a rectangle too. */
export const SHAPE_ALSO: Readonly<Record<string, readonly string[]>> = { square: ['rectangle'] };
/** "the button that best describes the figure", "the button that says how many sides the shape has": a button named by an answer. */
export const ANSWER_BUTTON_LEADS: Phrases = [
  '(?:click|press|select|choose|pick|hit)(?: on)? the (?:button|answer|option) (?:that|which) (?:best |correctly )?',
];
/**
 * The colour names that are shades of a hue ("select all the shades of blue"), and the ones that
 * may or may not be (a light red is called pink, a dark orange brown): a tile of those is a guess.
 */
export const SHADES: Readonly<Record<string, { hues: readonly [number, number]; are: Phrases; maybe: Phrases }>> = {
  red: {
    hues: [345, 15],
    are: ['(?:dark |light )?red', 'maroon', 'crimson'],
    maybe: ['pink', 'brown', 'orange', 'peach', 'magenta', 'coral', 'salmon', 'tomato'],
  },
  green: { hues: [75, 165], are: ['(?:dark |light )?green', 'lime'], maybe: ['olive', 'teal', 'cyan', 'yellow', 'turquoise'] },
  blue: { hues: [195, 255], are: ['(?:dark |light |navy )?blue', 'navy'], maybe: ['cyan', 'teal', 'purple', 'lavender', 'turquoise', 'indigo', 'violet'] },
};
/**
 * A tile whose hue the snapshot gives (hue=N) is a shade of a family when its hue lies in the family's arc of hues
 * (`hues`, clockwise from the first to the second), light or dark, pale or deep; within this many degrees outside the
 * arc, not known; farther, another colour.
 */
export const SHADE_MARGIN_DEGREES = 30;
/** Colour names of little hue: a pale or greyed shade of any hue is called so (hsl(240, 30%, 85%) is "light gray"). */
export const NEUTRAL_SHADES: Phrases = ['gr[ae]y', 'silver', 'white', 'black'];
/**
 * Every field filled with the value its label names on the page ("Enter the value that corresponds with each label into the
 * form"): each field's label is looked up where the page shows it (a table's row, a card's line).
 */
export const EACH_LABEL_VALUES: Phrases = [
  '(?:enter|type|fill in|put|input|write) (?:in )?(?:the|each) values? (?:that )?(?:corresponds?|corresponding|belongs?|matching|matches|that goes)' +
    ' (?:with|to) (?:each|every|its|the) (?:label|field)s?(?: (?:in|into|on) the (?:form|fields|text ?boxes))?',
  'fill (?:in )?(?:each|every) field with the value (?:for|of|that matches) its label',
];
/** What a drag names when the page has one thing to drag ("drag the item left"). */
export const ONE_DRAGGABLE: Phrases = ['(?:the )?(?:item|shape|object|element|piece|thing)'];
/** Whatever a set leaves ("drag all triangles into the left box, and everything else into the right box"). */
export const REST_OF_SET: Phrases = ['everything else', 'all (?:the )?(?:rest|others)', 'the rest', 'the others', 'every other (?:shape|one|piece|item)'];
/** What a drawn box pieces are sorted into is called ("the left box"). */
export const SIDE_BOX_NOUNS: Phrases = ['box', 'container', 'area', 'zone', 'bin', 'square', 'rectangle'];
