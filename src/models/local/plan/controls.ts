/** Controls named by their kind: star ratings, colour pickers, spinners and sliders, and the text editor's styles. */
import { either, oneOf, type Phrases } from '../words/grammar';
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
} from '../words/controls';
import cssColours from 'color-name';
import { CLAUSE_END } from './clauses';

/**
 * "Rate it 4 stars", "give the product a rating of 3 stars", "leave a 5-star review", "rate it 4 out of 5": (1) the stars,
 * (2) out of how many. A number alone ("set the rating to 4", "give the team 20") is left to the page's own field.
 */
export const RATING = new RegExp(
  `^(?:${either(RATE_VERBS)})\\s+(?:(?:${either(RATED_THINGS)})\\s+)*?(\\d{1,2})` +
    `(?:[- ]?stars?(?:\\s+(?:rating|review))?|\\s+out\\s+of\\s+(\\d{1,2})(?:\\s+stars?)?)$`,
  'i',
);

/** "Select the following color #8d3b5e with the color picker": (1) the colour, set into the page's colour field. */
export const COLOUR_SET = new RegExp(
  `\\b(?:${either(COLOUR_VERBS)})\\s+(?:the\\s+)?(?:following\\s+)?colou?r\\s+(#[0-9a-f]{6}|#[0-9a-f]{3})\\b` +
    `(?:\\s+(?:with|in|using|on|from|into)\\s+the\\s+(?:${either(COLOUR_PICKERS)}))?`,
  'gi',
);

/**
 * "Select red with the color picker": (1) a colour by its CSS name (one to three words, "dark olive green"), set into the
 * page's colour field, the words as said tried when it has none (swatches named Red). Only with the picker named:
 * "select red" alone may be an option called Red.
 */
export const COLOUR_NAMED = new RegExp(
  `^(?:${either(COLOUR_VERBS)})\\s+(?:the\\s+)?(?:(?:following\\s+)?colou?r\\s+)?([a-z]+(?:\\s+[a-z]+){0,2})` +
    `\\s+(?:with|in|using|on|from|into)\\s+the\\s+(?:${either(COLOUR_PICKERS)})$`,
  'i',
);
/** "Use the color picker to select blue": the same, the picker said first. */
export const PICKER_FIRST = new RegExp(
  `^use\\s+the\\s+(${either(COLOUR_PICKERS)})\\s+to\\s+(${either(COLOUR_VERBS)})\\s+(?:the\\s+)?(?:colou?r\\s+)?([a-z]+(?:\\s+[a-z]+){0,2})$`,
  'i',
);

/** "... with the color picker" at a clause's end: (1) the picker. */
export const PICKER_MEANS = new RegExp(`\\s+(?:with|using|in|on|into)\\s+the\\s+((?:${either(COLOUR_PICKERS)}))$`, 'i');

/** A CSS colour name ("DarkOliveGreen", "dark olive green") as six hex digits, or null. */
export function colourByName(words: string): string | null {
  const rgb = cssColours[words.toLowerCase().replace(/\s+/g, '')];
  return rgb ? `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}` : null;
}

const STEPPER = either(STEPPERS);
/** "Select 5 with the spinner": (1) the value, (2) the widget. */
export const VALUE_BY_WIDGET = new RegExp(
  `^(?:select|set|choose|pick|enter|put)\\s+(\\u0000\\d+\\u0000|\\S+)\\s+(?:with|using|on|in)\\s+(?:the\\s+)?(${STEPPER}|number\\s+(?:field|box|input))$`,
  'i',
);

/** "Set the sliders to the combination [5,2,7]": (1) the widgets, (2) their values in page order. */
export const WIDGET_VALUES = new RegExp(
  `^(?:set|move|put|adjust)\\s+(?:the\\s+|all\\s+(?:the\\s+)?)?(sliders|spinners|dials|knobs)\\s+to\\s+(?:the\\s+)?` +
    '(?:combination|values?|numbers?|settings?)?\\s*[[(]\\s*(-?\\d+(?:\\.\\d+)?(?:\\s*,\\s*-?\\d+(?:\\.\\d+)?){1,9})\\s*[\\])]$',
  'i',
);
/** "Set the number of speakers to 7 with the spinner": (1) the field, (2) the value, (3) the widget. */
export const FIELD_BY_WIDGET = new RegExp(
  `^(?:set|change|adjust|put)\\s+(?:the\\s+)?(.+?)\\s+to\\s+(\\u0000\\d+\\u0000|[-+]?\\d+(?:\\.\\d+)?)\\s+(?:with|using|on)\\s+(?:the\\s+)?(${STEPPER})$`,
  'i',
);

const STYLE_WORDS = `(?:${Object.values(TEXT_STYLES).flat().join('|')})`;
/** What a style is given to: a quoted text, one word, or all the text (1). */
const STYLED = `(?:the\\s+)?(?:(?:text|word|words|phrase)\\s+)?(\\u0000\\d+\\u0000|${either(ALL_TEXT)}|[\\w'-]+)`;

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
export function styleFirst(s: string): string | null {
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
