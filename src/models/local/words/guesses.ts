/** A number guessed with the page's feedback: how the task is said, and how a page answers a guess. */
import { type Phrases } from './grammar';

/** "Guess the number", "find the secret number". */
export const GUESS_VERBS: Phrases = ['guess', 'find', 'work out', 'figure out'];
export const GUESSED_NUMBERS: Phrases = ['(?:secret |hidden |mystery |right |correct )?number'];
/** "Use the feedback below to find the right number", "keep guessing until you get it": how, not what. */
export const GUESS_HOW: Phrases = [
  'use the (?:feedback|hints?|clues?)(?: (?:below|above|shown))? to (?:find|get|guess) the (?:right |correct )?(?:number|answer)',
  '(?:keep|continue) guessing(?: until (?:you (?:get|find) it|it is right|you are right))?',
];
/** The buttons a guess is sent with, when the instruction names none. */
export const GUESS_BUTTONS: Phrases = ['submit', 'guess', 'check', 'try', 'go', 'enter', 'ok'];
/** The page's answer to a guess: the number is higher, lower, or the guess was right. */
export const HIGHER: Phrases = ['higher', 'greater', 'larger', 'bigger', 'more', 'above', 'too low', 'too small', 'go higher'];
export const LOWER: Phrases = ['lower', 'smaller', 'less', 'fewer', 'below', 'too high', 'too big', 'too large', 'go lower'];
export const RIGHT_GUESS: Phrases = ['correct', 'right', 'you got it', 'got it', 'congratulations', 'well done', 'you win', 'you won', "that's it", 'found it'];
/** Words that turn an answer around ("not correct", "incorrect"). */
export const NOT_RIGHT: Phrases = ['not', 'incorrect', 'wrong', "isn't", 'is not', 'no'];
