/** Goal sentences that carry a form's values ("create an account for Hedy Lamarr (hedy@example.com) ..."). */
import { type Phrases } from './grammar';

/** Verbs that make a new account or profile, and what they make. */
export const ACCOUNT_VERBS: Phrases = ['create', 'open', 'register', 'set up', 'make', 'sign up for'];
export const ACCOUNT_NOUNS: Phrases = ['account', 'profile', 'user account'];
/** Verbs that order some of a thing, the number first ("order 2 in size S"). */
export const ORDER_VERBS: Phrases = ['order', 'buy', 'purchase', 'get'];
/** Words a number of things ordered may carry ("2 pieces", "3 of them"). */
export const ORDER_UNITS: Phrases = ['items?', 'pieces?', 'units?', 'pairs?', 'of them', 'of it'];
/** Verbs of a list of fields after a goal ("...: fill in the name, the date and the time"). */
export const FILL_LIST_VERBS: Phrases = ['fill in', 'fill out', 'enter', 'complete', 'give'];
/**
 * Fields a goal's head gives the value of, by the words that bring it: "for Grace Hopper" is the name, "on 06/07/2024"
 * the date, "at 9:15 AM" the time.
 */
export const HEAD_FIELDS: Phrases = ['name', 'full name', 'date', 'day', 'time', 'email', 'e-mail'];
