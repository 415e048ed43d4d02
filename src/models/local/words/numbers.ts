/** Numbers in words: ordinals ("the third", "the last"), counts ("two", "an"), repetitions ("twice"). */
import { type Phrases } from './grammar';

/** Places in a sequence by word; "last" is the end, whatever the length. */
export const ORDINALS: Readonly<Record<string, number | 'last'>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  sixth: 6,
  '6th': 6,
  seventh: 7,
  '7th': 7,
  eighth: 8,
  '8th': 8,
  ninth: 9,
  '9th': 9,
  tenth: 10,
  '10th': 10,
  last: 'last',
  final: 'last',
};

/** Words that make an ordinal part of a label ("the Last name field" is the field labelled so, not the last one). */
export const ORDINAL_LABEL_NOUNS: Phrases = ['names?', 'initials?'];

/** Ends of a list that also count its places ("the top link" is the first; not words: "the top of a page" is read elsewhere). */
export const ENDS: Readonly<Record<string, number | 'last'>> = { top: 1, topmost: 1, bottom: 'last', bottommost: 'last' };

/** "third", "3rd", "21st", "last"; with `ends`, also "top" and "bottom". Null for any other word. */
export function ordinalOf(w: string, ends = false): number | 'last' | null {
  const m = /^(\d{1,3})(?:st|nd|rd|th)$/i.exec(w);
  if (m) return Number(m[1]) || null;
  const k = w.toLowerCase();
  return ORDINALS[k] ?? (ends ? ENDS[k] : undefined) ?? null;
}

/** 2 → "2nd", 11 → "11th": how a place is written. */
export const ordinalWord = (n: number): string => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/** Small counts written as words ("a day", "three weeks", "wait two seconds"). */
export const COUNT_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
/** A count in digits or words, as a phrase to capture. */
export const COUNT_PHRASE = `\\d{1,3}|${Object.keys(COUNT_WORDS).join('|')}`;

/** Units of a pause ("wait 2 seconds"), those after "after" ("after a second click TWO") being the short ones. */
export const PAUSE_UNITS: Phrases = ['seconds?', 'secs?', 's', 'milliseconds?', 'ms', 'minutes?', 'mins?'];
export const AFTER_UNITS: Phrases = ['seconds?', 'secs?', 'milliseconds?', 'ms'];
/** A count of a pause: digits with a fraction, or a word. */
export const PAUSE_COUNT = `\\d+(?:\\.\\d+)?|${Object.keys(COUNT_WORDS).join('|')}`;

/** How many times a step is repeated ("click it twice"). */
export const REPEATS: Readonly<Record<string, number>> = {
  twice: 2,
  'two times': 2,
  thrice: 3,
  'three times': 3,
  'four times': 4,
  'five times': 5,
};

/** Units of money written after a number ("50 dollars"), as a phrase inside a number pattern. */
export const MONEY_WORDS: Phrases = ['dollars?', 'euros?', 'pounds?'];
