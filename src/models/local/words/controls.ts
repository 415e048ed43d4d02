/**
 * Kinds of control as people say them ("the checkbox", "the search bar", "the drop-down"), the
 * roles each means, and the words for where a control is (a dialog, a row, the toolbar).
 */
import { type Phrases } from './grammar';

/** Field words: "text field", "input box", "bar", "area" (a text field when text goes in, any box when clicked). */
export const FIELD_PHRASES: Phrases = [
  'text ?fields?',
  'input ?fields?',
  'input ?box(es)?',
  'text ?box(es)?',
  'text ?areas?',
  'inputs?',
  'fields?',
  'box(es)?',
  'bar',
  'areas?',
];
/** Field words that mean a text field whatever the verb. */
export const STRICT_FIELD_PHRASES: Phrases = [
  ...['text ?fields?', 'input ?fields?', 'input ?box(es)?', 'text ?box(es)?', 'text ?areas?', 'inputs?', 'fields?', 'search ?(box|bar)'],
  'text ?entry',
];
/** Words for a field that holds free text (a select is a field, not a text box). */
export const TEXT_FIELD_PHRASES: Phrases = [
  ...['text ?fields?', 'text ?inputs?', 'input ?text ?box(es)?', 'input ?box(es)?', 'text ?box(es)?', 'text ?areas?', 'text ?entry'],
  // Not a bare "editor": "the Editor's pick link" is a link.
  ...['(?:rich[ -]?)?text ?editors?'],
];

/** A kind of control: the words that name it, the roles they mean, and whether the words count only at the end of a target. */
interface Kind {
  words: Phrases;
  roles: readonly string[];
  /** "the Pictures folder" is a folder: a picture word names the kind only as the target's last word. */
  last?: boolean;
}
/** The kinds in the order they are tried: the first whose words a target holds decides its roles. */
export const KINDS: readonly Kind[] = [
  { words: TEXT_FIELD_PHRASES, roles: ['textbox', 'searchbox'] },
  { words: ['check ?box(es)?', 'tick ?box(es)?'], roles: ['checkbox', 'menuitemcheckbox'] },
  { words: ['radio( button)?s?'], roles: ['radio', 'menuitemradio'] },
  { words: ['drop ?-?down', 'select ?box', 'select', 'combo ?box', 'picker', 'list'], roles: ['combobox', 'listbox'] },
  { words: ['menu ?items?'], roles: ['menuitem', 'menuitemcheckbox', 'menuitemradio', 'clickable'] },
  { words: ['tabs?'], roles: ['tab', 'clickable'] },
  { words: ['switch', 'toggle'], roles: ['switch', 'checkbox'] },
  { words: ['links?', 'hyperlinks?', 'anchors?'], roles: ['link', 'clickable'] },
  { words: ['buttons?', 'btn'], roles: ['button', 'clickable'] },
  { words: ['sliders?', 'range'], roles: ['slider', 'clickable'] },
  // "the number box" is a spin button; "the Order number box" is a box named "Order number".
  { words: ['spinners?', 'spin ?buttons?', 'steppers?', '(?<=(?:^|\\bthe|\\ban?) )number (?:field|box|input)'], roles: ['spinbutton', 'clickable'] },
  { words: FIELD_PHRASES, roles: ['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider'] },
  { words: ['options?'], roles: ['option', 'radio'] },
  // "the Photos folder": a folder of a file tree or list, named before the word.
  { words: ['folders?', 'director(?:y|ies)'], roles: ['treeitem', 'link', 'button', 'clickable', 'row', 'listitem', 'gridcell', 'option'], last: true },
  { words: ['images?', 'icons?', 'pictures?', 'logos?', 'photos?'], roles: ['img', 'link', 'button', 'clickable'], last: true },
  { words: ['cells?', 'slots?'], roles: ['cell', 'gridcell', 'clickable'] },
  { words: ['(search )?results?'], roles: ['link', 'clickable', 'article'] },
  { words: ['headings?', 'titles?'], roles: ['heading'] },
  { words: ['rows?'], roles: ['row'] },
];

/** A quoted word that names a kind of widget ('click on a "text" widget'), with what it means. */
export const QUOTE_KINDS: Record<string, { roles: string[]; multiline?: boolean }> = {
  text: { roles: ['textbox'], multiline: false },
  textbox: { roles: ['textbox'], multiline: false },
  input: { roles: ['textbox', 'searchbox'] },
  textarea: { roles: ['textbox'], multiline: true },
  checkbox: { roles: ['checkbox'] },
  radio: { roles: ['radio'] },
  button: { roles: ['button'] },
  link: { roles: ['link'] },
  select: { roles: ['combobox', 'listbox'] },
  dropdown: { roles: ['combobox', 'listbox'] },
  slider: { roles: ['slider'] },
  search: { roles: ['searchbox'] },
  tab: { roles: ['tab'] },
};

/** An input's type as a person names the field ("the password field", "the phone field"). */
export const TYPE_WORDS: Record<string, string> = {
  password: 'password',
  email: 'email',
  date: 'date',
  time: 'time',
  'datetime-local': 'date and time',
  month: 'month',
  week: 'week',
  tel: 'phone',
  url: 'website',
  number: 'number',
  search: 'search',
  color: 'color picker',
};

/** Nouns for a whole widget or page ("the stopwatch", "the player"): a name, not a control's purpose. */
export const WIDGET_NOUNS = new Set([
  'stopwatch',
  'timer',
  'clock',
  'player',
  'video',
  'audio',
  'music',
  'song',
  'track',
  'form',
  'page',
  'dialog',
  'window',
  'popup',
  'modal',
  'app',
  'game',
  'counter',
  'calculator',
  'editor',
  'widget',
  'screen',
  'toolbar',
  'carousel',
  'gallery',
  'slideshow',
  'quiz',
  'survey',
  'recorder',
  'camera',
  'microphone',
  'mic',
  'stream',
  'playback',
  'media',
]);

/** Container words that scope a target to an element of that kind ("in the dialog"). */
export const SCOPES: readonly { words: Phrases; roles: readonly string[] }[] = [
  {
    words: ['dialog', 'modal', 'pop-?up', 'popup', 'dialog box', 'modal (?:dialog|window)', 'alert', 'lightbox', 'overlay', 'prompt', 'confirmation'],
    roles: ['dialog', 'alertdialog'],
  },
  { words: ['form'], roles: ['form'] },
  { words: ['nav', 'navigation', 'nav ?bar', 'navigation bar', 'top menu', 'main menu'], roles: ['navigation', 'menubar'] },
  { words: ['toolbar', 'tool bar'], roles: ['toolbar'] },
  { words: ['menu'], roles: ['menu', 'menubar'] },
  { words: ['side ?bar'], roles: ['complementary', 'navigation'] },
  { words: ['table', 'grid'], roles: ['table', 'grid', 'treegrid'] },
  { words: ['footer', 'page footer', 'bottom of the page'], roles: ['contentinfo'] },
  { words: ['header', 'page header', 'top bar', 'masthead'], roles: ['banner'] },
  { words: ['main content', 'main area', 'main section'], roles: ['main'] },
];

/** Words that end a slider's name ("the volume slider", "the brightness"); the first three are sliders only. */
export const SLIDER_WORDS: Phrases = ['slider', 'range', 'knob', 'volume', 'brightness'];
export const SLIDER_ONLY: Phrases = ['slider', 'range', 'knob'];
/** A stepper's controls that raise its value, and those that lower it, by name or glyph. */
export const STEP_UP: Phrases = ['\\+', '＋', 'increase', 'increment', 'up', 'more', 'plus', '▲', '⏶', 'add'];
export const STEP_DOWN: Phrases = ['-', '−', '–', 'decrease', 'decrement', 'down', 'less', 'minus', '▼', '⏷'];
/** Widgets that step a number ("select 5 with the spinner"). */
export const STEPPERS: Phrases = ['spinner', 'slider', 'stepper', 'counter'];
/** "with the color picker": a colour field by what it is called on the page or in the instruction. */
export const COLOUR_PICKERS: Phrases = ['colou?r ?(?:picker|wheel|chooser|selector|palette|input|field|box)', 'picker', 'colou?r'];
/** "Select the following color #8d3b5e": the verbs that set a colour field to a value. */
export const COLOUR_VERBS: Phrases = ['select', 'pick', 'choose', 'set', 'use', 'enter', 'input'];

/** Things that hold a control and are counted ("the Delete button in the third row"), with the roles each may have. */
export const HOLDER_ROLES: Readonly<Record<string, readonly string[]>> = {
  row: ['row'],
  item: ['listitem', 'row', 'article', 'treeitem'],
  'list item': ['listitem'],
  entry: ['listitem', 'row', 'article'],
  record: ['row', 'listitem'],
  line: ['row', 'listitem'],
  card: ['article', 'group', 'listitem', 'region'],
  post: ['article', 'listitem', 'group'],
  comment: ['article', 'listitem', 'group'],
  message: ['article', 'listitem', 'row', 'group'],
};

/** Buttons that move a list's selected item one place up, or down ("▲ Move up"), read without their arrows. */
export const MOVE_UP: Phrases = ['move up', 'move item up', 'up', 'raise', 'move earlier'];
export const MOVE_DOWN: Phrases = ['move down', 'move item down', 'down', 'lower', 'move later'];
/** Words for the list's selected item ("move the item to the 1st position"). */
export const SELECTED_ITEM: Phrases = ['it', '(?:the\\s+)?(?:selected|highlighted|current|chosen)\\s+[a-z]+', 'the\\s+(?:item|selection)'];

/**
 * Styles a rich-text editor gives selected text, by the words an instruction uses ("italics", "underlined"), each with
 * the name its toolbar button has ("bold" for `class="ql-bold"` or a "Bold" label).
 */
export const TEXT_STYLES: Readonly<Record<string, Phrases>> = {
  bold: ['bold', 'bolded', 'in bold', 'boldface'],
  italic: ['italics?', 'italicized', 'italicised', 'in italics?'],
  underline: ['underlined?', 'underlining'],
  strike: ['strikethrough', 'struck through', 'strike-?through', 'crossed out'],
};
/** Verbs that give a style by themselves ("underline the word X"), with the style each gives. */
export const STYLE_VERBS: Readonly<Record<string, Phrases>> = {
  bold: ['bold', 'embolden'],
  italic: ['italici[sz]e'],
  underline: ['underline'],
  strike: ['strike through', 'cross out'],
};
/** What a style is called when it is given ("give X the style bold", "apply bold formatting to X"). */
export const STYLE_NOUNS: Phrases = ['style', 'format', 'formatting', 'font style', 'text style'];
/** All of an editor's text ("give everything the style bold"). */
export const ALL_TEXT: Phrases = ['everything', 'all(?: of)? the text', 'all text', 'the (?:whole|entire) text', 'all of it'];
/** Words that say what is styled without naming text on the page ("make the selection bold"): not a word to find. */
export const NOT_STYLED_TEXT: Phrases = ['font', 'selection', 'selected', 'it', 'this', 'that', 'them', 'button', 'link', 'page', 'heading', 'title', 'style'];
/** What names the editor in "Using the text editor, ...": a context, not a step. */
export const EDITOR_NOUNS: Phrases = ['text editor', 'rich text editor', 'editor', 'rich-text editor', 'word processor'];
/** "Rate it 4 stars", "give the product a rating of 3 stars": the verbs of a rating, and how a star control looks. */
export const RATE_VERBS: Phrases = ['rate', 'give', 'leave', 'score'];
export const RATED_THINGS: Phrases = ['it', 'this', 'that', "(?:the|this|that|your|my) [\\w\\s'-]{1,40}?", 'a (?:review|rating|score) of', 'a'];
export const STAR_NAMES: Phrases = ['[★☆⭐✩✪✫✬✭✮✯✰]', 'star(?: icon)?', 'star outline', 'empty star', 'full star'];
/** A one-time code's boxes, as an instruction names them ("the 6-digit code", "the code boxes", "the OTP", "the text field"). */
export const CODE_BOXES: Phrases = [
  '(?:(?:new|current|old|one[- ]time|verification|security|confirmation|login|sms|2fa|access|\\d+[- ](?:digit|character)) )*' +
    '(?:code|pin|passcode|otp|one[- ]time password)' +
    '(?: (?:boxes|box|fields?|inputs?))?',
  '(?:code |digit |character )?(?:boxes|inputs|fields)',
  'text (?:field|box)',
];
/** A target that moves by design ("click the moving target", "hit the bouncing ball"): (said) how it moves. */
export const MOVING_WORDS: Phrases = ['moving', 'bouncing', 'flying', 'wandering', 'running', 'jumping', 'floating', 'drifting'];
/** How a moving target is said to move or look, before the word for its moving ("the fast moving target"). */
export const MOVING_MANNER: Phrases = ['fast', 'faster', 'quick', 'quickly', 'speedy', 'slow', 'slower', 'slowly', 'small', 'tiny', 'little', 'big', 'large'];
/** What a moving target is called. */
export const MOVING_NOUNS: Phrases = ['target', 'button', 'ball', 'circle', 'dot', 'square', 'box', 'bullseye', 'object', 'shape', 'icon', 'item'];
/** An aside after a request, said with a dash ("... three times - but watch out, it gets faster!"): dropped. */
export const DASH_ASIDES: Phrases = [
  'but watch out',
  'but be careful',
  'watch out',
  'careful',
  'beware',
  'but hurry',
  'be quick',
  '(?:but )?choose wisely',
  'good luck',
];
/** A control looked for inside frames within frames ("navigate through nested iframes to find the hidden button"): (1) what it is. */
export const IN_FRAMES: Phrases = [
  '(?:navigate|go|dig|look|search) (?:through|into|down(?: through)?) (?:the |a few |fewer |more |many |several )?(?:nested |inner )?' +
    '(?:i-?)?frames to find (?:the|a) (?:hidden |secret )?(button|link)',
];
/** How a drop-down made of plain elements prompts for a choice ("Choose a colour", "Select size"). */
export const PICKER_PROMPTS: Phrases = ['choose', 'select', 'pick'];
/** The arrow a drop-down's opener ends with ("Size ▾"). */
export const PICKER_ARROWS: Phrases = ['▾', '▼', '⌄', '⏷', '˅', '🔽'];
/** What a drop-down is called, word by word ("the colour drop-down", "the size menu"): the kind, never the item chosen. */
export const PICKER_NOUNS: Phrases = ['drop', 'down', 'dropdown', 'menu', 'list', 'button', 'picker', 'selector', 'box', 'field', 'options?', 'select'];
/** Of those, the words that say a drop-down and nothing else ("from the dropdown", "in the drop-down menu", which reads as "list"). */
export const DROPDOWN_KINDS: Phrases = ['dropdown', 'drop', 'menu', 'list', 'picker', 'selector'];
/** What follows "Select" or "Choose" on a control that acts rather than opens a list ("Select all", "Choose files"). */
export const PROMPTED_ACTIONS: Phrases = ['all', 'none', 'everything', 'files?', 'photos?', 'images?', 'pictures?', 'documents?', 'folders?'];
/** What a menu's dishes are called in an order ("order one of each item: ...", "order 3 dishes that are vegan"). */
export const DISH_NOUNS: Phrases = ['items?', 'dish(?:es)?', 'meals?', 'things?', 'products?'];
/** The control beside an item that adds one more of it ("+", "Add"). */
export const ADD_ONE: Phrases = ['\\+', '＋', '➕', 'add', 'plus', 'increase'];
/** Words that say how a form goes in (or that it must not): then no Submit is pressed for it on the words' behalf. */
export const FORM_SENT_SAID: Phrases = ['submit', 'send', 'save', 'press', 'click', 'hit', 'tap', "don'?t", 'do not', 'without'];
/** The control that sends an order ("Order!", "Place order"). */
export const ORDER_SENDERS: Phrases = ['order', 'order now', 'place (?:the |my |your )?order', 'submit (?:the |my |your )?order'];
