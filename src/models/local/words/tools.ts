/**
 * Words for a page's own tools (WebMCP): how an instruction names a tool and gives its input.
 * Read by tools.ts.
 */
import type { Phrases } from './grammar';

/** Words a tool's name and an instruction may use for one thing: the first of each list stands for all. */
export const TOOL_WORD_FORMS: readonly (readonly string[])[] = [
  ['cart', 'basket', 'bag', 'trolley'],
  ['add', 'put'],
  ['subscribe', 'sign up', 'signup', 'join'],
  ['item', 'product', 'article'],
  ['qty', 'quantity', 'count', 'amount', 'number'],
  ['remove', 'delete'],
  ['get', 'read', 'show', 'list', 'view', 'fetch'],
];

/** Phrases that end a tool's name in an instruction ("the add_to_cart tool", "the page tool search"). */
export const TOOL_NOUNS: Phrases = ['page tools?', 'tools?', 'functions?'];

/** Words before a free text value: "search the catalogue for rope", "a note saying hello". */
export const VALUE_INTRODUCERS: Phrases = ['for', 'called', 'named', 'saying', 'titled', 'with the text', 'with text', 'about'];

/** What never is such a value: "… for me", "… for now". */
export const NOT_VALUES: Phrases = ['me', 'us', 'now', 'today', 'it', 'them', 'this', 'that', 'later'];

/** An instruction that names a kind of control ("the Search button") means the page's control, not a tool of that name. */
export const CONTROL_WORDS: Phrases = ['button', 'link', 'field', 'text ?box', 'check ?box', 'tab', 'menu', 'icon', 'drop ?down', 'radio', 'toggle', 'switch'];

/** Words that turn a switch the other way ("don't hide done items"): a switch said with one is left to the page. */
export const NEGATIONS: Phrases = ['not', "don'?t", 'do not', 'no', 'never', 'without', 'off', 'disable', 'uncheck', 'untick'];

/** A field named with one of these takes the place after "from"; with one of TO_FIELDS, the place after "to" (trips: tools.ts). */
export const FROM_FIELDS: Phrases = ['from', 'origin', 'departure', 'source', 'start'];
export const TO_FIELDS: Phrases = ['to', 'destination', 'arrival', 'dest', 'end'];
/** A field named with one of these takes the instruction's date, written YYYY-MM-DD (the one way a tool's date reads for sure). */
export const DATE_FIELDS: Phrases = ['date', 'day'];
