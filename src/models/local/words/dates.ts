/** Months and weekdays as people write them ("Mar", "March", "sept", "next Friday"). */
import { type Phrases } from './grammar';

/** Each month by its shortest written form first; a month is matched by its first three letters. */
export const MONTHS: Phrases = [
  'jan(?:uary)?',
  'feb(?:ruary)?',
  'mar(?:ch)?',
  'apr(?:il)?',
  'may',
  'june?',
  'july?',
  'aug(?:ust)?',
  'sep(?:t(?:ember)?)?',
  'oct(?:ober)?',
  'nov(?:ember)?',
  'dec(?:ember)?',
];
/** The three letters every written month begins with. */
export const MONTH_STEMS: Phrases = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Weekdays in the order Date counts them (0 is Sunday). */
export const WEEKDAYS: Phrases = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Words before a weekday that point forward ("next Friday") or back ("last Monday"). */
export const WEEKDAY_AHEAD: Phrases = ['next', 'this coming', 'coming'];
export const WEEKDAY_BACK: Phrases = ['last', 'this past', 'past', 'previous'];
