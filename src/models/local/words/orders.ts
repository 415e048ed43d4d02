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
/** How an order shown over time was shown ("displayed", "lit"), after "in the order" or before "order". */
const SHOWN_HOW = '(?:displayed|shown|given|lit|highlighted|flashed|played)';
/** What an order shown over time was shown by ("displayed", "they lit up"), after "in the order". */
const SHOWN_BY: Phrases = [`(?:they\\s+(?:were|are)\\s+)?${SHOWN_HOW}`, 'they\\s+(?:appear(?:ed)?|light(?:ed)?\\s+up|lit\\s+up|flash(?:ed)?)'];
/** An order the page shows over time ("push the buttons in the order displayed", "in the displayed order"): a sequence watched, not one step. */
export const SHOWN_ORDER: Phrases = [
  `in\\s+the\\s+(?:same\\s+)?(?:order|sequence)\\s+(?:${SHOWN_BY.join('|')})`,
  `in\\s+the\\s+(?:same\\s+)?${SHOWN_HOW}\\s+(?:order|sequence)`,
];
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
/** Verbs that put a list in an order ("sort the numbers", "arrange the cards", "drag the names into ..."). */
export const SORT_VERBS: Phrases = ['sort', 're-?order', 'order', 're-?arrange', 'arrange', 'organi[sz]e', 'put', 'place', 'drag', 'move', 'rank'];
/** Orders by number, smallest first or largest first, as a sort names them ("in increasing order"). */
export const SORT_UP: Phrases = ['ascending', 'increasing', 'numerical', 'numeric'];
export const SORT_DOWN: Phrases = ['descending', 'decreasing', 'reverse numerical'];
/** Orders by name ("in alphabetical order", "from A to Z"); the reverse ones last. */
export const BY_LETTER_UP: Phrases = ['alphabetical', 'alphabetic'];
export const BY_LETTER_DOWN: Phrases = ['reverse alphabetical', 'reverse alphabetic'];
/** Where the first of the order goes ("starting with the lowest number at the top"). */
export const LIST_STARTS: Phrases = ['top', 'left', 'front', 'beginning', 'start'];
export const LIST_ENDS: Phrases = ['bottom', 'right', 'end', 'back'];
/** Things dealt face down whose numbers show once turned ("the card with the greatest number"). */
export const TURNED_THINGS: Phrases = ['cards?', 'tiles?'];
/** Verbs that turn such things up, or look among them ("flip the cards and ...", "find the card with ..."). */
export const TURN_VERBS: Phrases = ['find', 'turn over', 'turn up', 'flip(?: over)?', 'uncover', 'reveal', 'look at', 'go through'];
/** How such a thing is said to carry its number ("the card with", "the tile showing"). */
export const CARRYING: Phrases = ['with', 'showing', 'that shows', 'that has', 'bearing', 'holding'];
