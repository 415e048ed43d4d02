/** What a page says back once a task is done. */
import { type Phrases } from './grammar';

/** What a page hands over ("Success! The password is: ..."): such a line goes first in a run's answer. */
export const HANDED_OVER: Phrases = [
  'password',
  'passcode',
  'code',
  'secret',
  'key',
  'token',
  'success(?:ful(?:ly)?)?',
  'congratulations',
  'well done',
  'completed?',
];
