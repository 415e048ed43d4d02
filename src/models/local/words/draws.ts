/** A number drawn by the page's button until it fits ("Generate a number less than 7, then press Submit"). */
import { type Phrases } from './grammar';

/** Verbs that draw a number, and name the button that draws it ("Generate", "Roll the die"). */
export const DRAW_VERBS: Phrases = ['generate', 'roll', 'draw', 'spin'];
/** What is drawn ("a random number", "the dice"). */
export const DRAWN_NOUNS: Phrases = ['(?:random )?numbers?', '(?:random )?values?', 'rolls?', 'results?', 'dice', 'die'];
/** How the words say the drawing goes on ("keep clicking Generate", "continue rolling"). */
export const KEEP_WORDS: Phrases = ['keep', 'continue', 'go on'];
/** What comes between "until" and the number ("until you get", "until the number is"). */
export const UNTIL_LEADS: Phrases = [
  'you (?:get|roll|draw|see|have)',
  '(?:it|one) (?:is|shows|says|comes up)',
  'the (?:number|result|value|roll|die) (?:is|shows|says|comes up|equals)',
  '(?:the )?(?:number|result|value|roll) (?:shown|displayed) is',
];
/** "7 or more", "3 or less": the number itself is in. */
export const OR_MORE: Phrases = ['more', 'higher', 'greater', 'above', 'over', 'bigger', 'larger'];
export const OR_LESS: Phrases = ['less', 'lower', 'fewer', 'below', 'under', 'smaller'];
/** Words in the line that shows the drawn number, beside other numbers that change with it ("Your number: 5", "You rolled a 4"). */
export const DRAWN_LABELS: Phrases = ['number', 'rolled', 'roll', 'result', 'value', 'drew', 'drawn', 'generated'];
