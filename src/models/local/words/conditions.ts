/** Words that make an instruction conditional, repeated or a sequence, and the comparisons a condition makes. */
import { type Phrases } from './grammar';

/** Words that make a clause conditional or repeated: followed only when the planner settles them. */
export const CONDITION_WORDS: Phrases = [
  'if',
  'unless',
  'until',
  'while',
  'as long as',
  'every time',
  'for each',
  'repeat until',
  'when',
  'whenever',
  'as soon as',
  'in case',
  'provided that',
  'only after',
];
/** Words that make one step many: a single step never repeats ("click each box", "wait"). */
export const REPETITION_WORDS: Phrases = ['each', 'every', 'all of', 'wait'];
/** "once" is a condition before a clause ("once the box is ticked"), not before these ("click once more"). */
export const NOT_AFTER_ONCE: Phrases = ['more', 'again', 'and', 'then'];

/** "Press Submit when done": no condition, the last step said last ("when you are finished", "once done"); never "when it is ready". */
export const WHEN_DONE: Phrases = ["(?:when|once)\\s+(?:you(?:'re|\\s+are|\\s+have)\\s+)?(?:done|finished)"];

/** Words that put one step after another ("then", "after that"). */
export const THEN_WORDS: Phrases = ['then', 'after that', 'afterwards', 'followed by'];
/** The last step's word: a sequence to the planner, but a single step may begin with it. */
export const LAST_STEP_WORDS: Phrases = ['finally'];
/** Words for the branch taken when a condition does not hold. */
export const ELSE_WORDS: Phrases = ['otherwise', 'else', 'if not', 'or else', 'and if not'];
/** "anything else means click No": the branch for every other value. */
export const OTHER_VALUES: Phrases = ['anything else', 'any other (?:amount|value|number|total|price)', 'otherwise', 'else'];
/** Verbs that read a value before a rule about it ("check the total: over 100 means ..."). */
export const READ_VERBS: Phrases = ['check', 'look at', 'read', 'see'];
/** Words that watch for a condition before acting ("when", "as soon as", "wait until"). */
export const WATCH_WORDS: Phrases = ['when', 'once', 'as soon as'];
export const WAIT_FOR_WORDS: Phrases = ['wait\\s+(?:until|till|for)'];

/** Comparison words by the comparison they make ("less than", "at least"). */
export const COMPARISONS: Readonly<Record<'<' | '>' | '>=' | '<=' | '=', Phrases>> = {
  '<': ['less(?:\\s+than)?', 'lower(?:\\s+than)?', 'smaller(?:\\s+than)?', 'fewer(?:\\s+than)?', 'cheaper(?:\\s+than)?', 'below', 'under'],
  '>': ['more(?:\\s+than)?', 'greater(?:\\s+than)?', 'higher(?:\\s+than)?', 'larger(?:\\s+than)?', 'bigger(?:\\s+than)?', 'above', 'over'],
  '>=': ['at least', 'no less than', 'not less than'],
  '<=': ['at most', 'no more than', 'not more than'],
  '=': ['equal to', 'exactly', 'equals?'],
};
/** Verbs that join a quantity to its value ("the price drops to", "the total is"). */
export const MEASURE_VERBS: Phrases = [
  'is',
  'are',
  'goes',
  'drops',
  'falls',
  'rises',
  'gets',
  'becomes',
  'reaches',
  'hits',
  'shows',
  'reads',
  'trades',
  'costs',
  'sells',
  'stands',
];
/** A value reached with no comparison word ("reaches 10") is at least that value. */
export const REACHING_VERBS: Phrases = ['reaches', 'hits', 'gets'];
/** Words that join a box to its state ("the box gets ticked"), and the states that are "on". */
export const BECOMING_VERBS: Phrases = ['is', 'gets', 'has been', 'becomes', 'to be', 'goes'];
export const ON_STATES: Phrases = ['ticked', 'checked', 'selected', 'enabled', 'switched on', 'turned on', 'on'];
