/** Arithmetic shown on the page: what a sum is called, and the verbs that ask for its answer. */
import { type Phrases } from './grammar';

/** What arithmetic on a page is called ("the math question", "the captcha", "the equation"). */
export const MATH_NOUNS: Phrases = ['question', 'captcha', 'problem', 'equation', 'expression', 'sum', 'puzzle', 'calculation', 'arithmetic'];
/** Verbs that ask for the answer ("solve the expression", "work out the sum"). */
export const SOLVE_VERBS: Phrases = ['solve', 'calculate', 'compute', 'work out', 'evaluate', 'figure out', 'do'];
/** Words for what the arithmetic comes to ("the answer", "the result of the expression"). */
export const ANSWER_WORDS: Phrases = ['answer', 'result', 'solution', 'sum', 'total', 'value'];
