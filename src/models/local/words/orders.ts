/** Superlatives and orderings: "the cheapest", "in ascending order", "the greatest number", "the odd one". */
import { type Phrases } from './grammar';

/** Superlatives that make a clause a goal of several steps: comparing every choice first ("the cheapest flight"). */
export const SUPERLATIVES: Phrases = [
  ...['cheapest', 'most expensive', 'least expensive', 'shortest', 'longest', 'earliest', 'latest', 'fastest', 'slowest', 'lowest'],
  ...['highest', 'greatest', 'best', 'worst', 'newest', 'oldest'],
];
/** Orders a list may be put in ("in alphabetical order"). */
/** Choices by meaning ("the words similar to soft"): a judgement of sense, not a name on the page. */
export const BY_MEANING: Phrases = [
  ...['similar (?:in meaning )?to', 'related to', 'synonyms? (?:of|for|to)', 'antonyms? (?:of|for|to)', '(?:the )?opposite of'],
  'same meaning as',
];
export const ORDERINGS: Phrases = ['ascending', 'descending', 'alphabetical', 'numerical', 'numeric', 'reverse', 'increasing', 'decreasing', 'chronological'];
/** Orders of numbers, smallest first or largest first. */
export const UPWARD: Phrases = ['ascending', 'increasing', 'numerical', 'numeric'];
export const DOWNWARD: Phrases = ['descending', 'decreasing'];
/** The smallest and the largest of numbers. */
export const SMALLEST: Phrases = ['smallest', 'lowest', 'least'];
export const LARGEST: Phrases = ['largest', 'highest', 'biggest', 'greatest'];
/** A number picked by what it is rather than where it is ("the odd number"). */
export const PARITIES: Phrases = ['odd', 'even'];
/** Words for numbers shown as a set of targets ("click the numbers", "the numbered tiles"). */
export const NUMBER_NOUNS: Phrases = ['numbers', 'digits', 'numbered\\s+(?:buttons|tiles|boxes)', 'buttons', 'tiles', 'boxes', 'items', 'cards'];
