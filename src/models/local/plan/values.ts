/**
 * Values described rather than given: what a step types and its changes ("in all lower case"), amounts stated first,
 * codes, answers, parts of a text, counts, and questions answered by a button.
 */
import { applyTransform, type Transform } from '../refs';
import { either } from '../words/grammar';
import { MATH_NOUNS, SOLVE_VERBS } from '../words/math';
import { CODE_BOXES } from '../words/controls';
import { SHOWN_DETAILS, SHOWN_WHERE } from '../words/purposes';
import { ANSWER_BUTTON_LEADS, COUNT_QUESTION_ENDS, EACH_LABEL_VALUES, FIND_FIRST_VERBS, FOUND_PRONOUNS, STATED_NOUNS } from '../words/references';
import { ENTERING_VERBS, STATING_VERBS } from '../words/verbs';
import { ORDINALS } from '../words/numbers';
import type { PlanStep } from './types';
import { bare, protect, quoteValue } from './clauses';

/** What a clause's entry step types, when it is one ("Set the new password to X" types X). */
export function typedValue(say: string): string | null {
  const { text, quotes } = protect(say);
  const m =
    /^(?:enter|type|input|write|put|key in|fill in|fill)\s+(\u0000\d+\u0000|\S+)\s+(?:into|in|as|on)\b/i.exec(text) ??
    /^(?:set|change|update|fill(?:\s+in)?)\s+(?:the\s+)?.+?\s+(?:to|with|as)\s+(\u0000\d+\u0000|.+)$/i.exec(text);
  return m ? bare(m[1], quotes) : null;
}

/** "enter the answer (into the Answer box)", "type your answer", "enter the value of x": (1) where it goes. */
export const ENTER_ANSWER = new RegExp(
  '^(?:enter|type|input|write|put|fill in)\\s+(?:it|(?:the|your) (?:answer|result|solution)|the value of [a-z])' +
    '(?:\\s+(?:into|in|inside|on)\\s+(?:the\\s+)?(.+))?$',
  'i',
);

/**
 * "Enter the 6-digit code 482913", "the code SAVE20 in the promo field": (1) the verb, (2) what the code is called (a
 * code, a PIN, a one-time password), (3) the code as written (digits, capitals and dashes, a digit in it;
 * "48 29 13" in groups), (4) "in the" when the field is named after it. Typed as given, into the field named.
 */
export const CODE_GIVEN = new RegExp(
  `\\b(enter|type(?: in)?|input|key in|fill in|put in)\\s+(?:the|a|your)\\s+(${CODE_BOXES[0]})` +
    `\\s+(?:of\\s+|is\\s+)?((?:[A-Z]+-?)?\\d[\\dA-Z]*(?:[ -]\\d+)*)\\b(\\s+(?:in|into|on)\\s+(?:the\\s+)?)?`,
  'gi',
);

/** "Enter the code shown on the page": where it is shown belongs to the value read, not to the field it goes into. (1) the step. */
export const SHOWN_ON_PAGE = new RegExp(
  `\\b((?:enter|type|input|fill in)\\s+the\\s+[\\w -]+?\\s+(?:${either(SHOWN_DETAILS)}))\\s+(?:${either(SHOWN_WHERE.filter((w) => w.startsWith('on ')))})\\b`,
  'gi',
);

/** "find the last word in the text area, enter it into the field": (1) what is found, (2) the verb, (3) where it goes and the rest. */
export const FOUND_THEN_TYPED = new RegExp(
  `^(?:${either(FIND_FIRST_VERBS)})\\s+(the\\s+.+?)(?:\\s*,\\s*(?:and\\s+)?|\\s+and\\s+)(?:then\\s+)?` +
    `(type|enter|input|write|put|paste|fill\\s+in)\\s+(?:${either(FOUND_PRONOUNS)})\\s+((?:in|into|in to|on)\\s+.+)$`,
  'i',
);

/** The value a step types, changed as the instruction asks ("in all lower case"). */
export function transformStep(x: PlanStep, t: Transform): void {
  if (x.ref) {
    x.transform = t;
    return;
  }
  const v = typedValue(x.say);
  if (v === null) return;
  const q = quoteValue(v);
  const swap = (say: string) => (say.includes(q) ? say.replace(q, quoteValue(applyTransform(v, t))) : say.replace(v, quoteValue(applyTransform(v, t))));
  x.say = swap(x.say);
  if (x.or) x.or = x.or.map(swap);
}

/** "Answer the math question". */
export const ANSWER_MATH = new RegExp(
  `^(?:(?:answer|solve)\\s+(?:the\\s+|this\\s+)?(?:math\\s+|arithmetic\\s+)?(?:${either(MATH_NOUNS)})(?:\\s+(?:below|above|shown))?|solve\\s+for\\s+[a-z])$`,
  'i',
);
/** "Solve the expression", "work out the sum". */
export const SOLVE_MATH = new RegExp(
  `^(?:${either(SOLVE_VERBS)})\\s+(?:the\\s+|this\\s+)?(?:math\\s+)?(?:${either(MATH_NOUNS)})(?:\\s+(?:below|above|shown|on the page))?$`,
  'i',
);
/** A part of a text counted by an ordinal ("the 4th word", "the last line"): read from a source named after it. */
export const PART_OF_TEXT = new RegExp(
  `^(?:the\\s+)?(?:${[...Object.keys(ORDINALS), '\\d{1,3}(?:st|nd|rd|th)'].join('|')})\\s+(?:word|letter|line|sentence|character)$`,
  'i',
);
/** "Type the text below into the text field": (1) what is typed, (2) where, if said. */
export const ENTER_WHAT =
  /^(?:enter|type|input|write|put|key in|paste|insert|copy)\s+(.+?)(?:\s+(?:into|in|inside|in to|on)\s+(?:the\s+)?((?:(?!\s(?:into|in|inside|on)\s).)+?))?$/i;

/** An amount stated first, then entered by its name: the amount (digits, a currency sign, separators), the noun, the rest. */
const STATED_VALUE = '([$€£]?\\d[\\d,]*(?:\\.\\d+)?|\\u0001\\d+\\u0001)';
/** What may follow the amount before the clause: "(twelve thousand)", kept whole like every bracket. */
const STATED_GLOSS = '(?: (?:\\([^)]*\\)|\\u0001\\d+\\u0001))?';
export const STATED_AMOUNT = new RegExp(
  `^(?:${either(STATING_VERBS)}) ${STATED_VALUE}${STATED_GLOSS}\\s*[:;,—-]\\s*(?:then )?` +
    `(?:${either(ENTERING_VERBS)}) (?:the|that|this) (${either(STATED_NOUNS)})\\b(.*)$`,
  'i',
);

/** "How many blocks are there? Enter the number": (1) what is counted, (2) the verb that enters the count. */
export const EACH_LABEL = new RegExp(`\\b(?:${either(EACH_LABEL_VALUES)})(?=$|[\\s,.;])`, 'i');
/** Each text field of the page, by its label, as "enter the value of LABEL into the LABEL field" steps. */
export function eachLabelled(fields: string[]): string | null {
  const labels = [...new Set(fields.map((f) => f.trim()).filter((f) => f && f.length <= 40))];
  if (!labels.length) return null;
  return labels.map((f) => `enter the value of ${f.replace(/\s*:$/, '')} into the ${f} field`).join(', then ');
}
export const COUNT_QUESTION = new RegExp(
  `^how many\\s+(.+?)\\s+(?:${either(COUNT_QUESTION_ENDS)})(?:\\s+(?:below|above|here))?\\s*\\?\\s*` +
    '(enter|type|write|input|put|fill in)\\s+(?:the|that|this|your)\\s+(?:number|answer|count|total)\\b',
  'i',
);

/** "Count all the blocks and enter the total": (1) what is counted, (2) the verb that enters the count. */
export const COUNT_THEN_ENTER = new RegExp(
  '^count\\s+(?:all\\s+|up\\s+)?(?:of\\s+)?(?:the\\s+)?(.+?)\\s*(?:,\\s*)?(?:and\\s+|then\\s+)+' +
    '(enter|type|write|input|put|fill in)\\s+(?:the|that|this|your)\\s+(?:number|answer|count|total)\\b',
  'i',
);

/** "How many red items are there?" and nothing more: the answer is a button named by the count. */
const COUNT_ALONE = new RegExp(`^how many\\s+(.+?)\\s+(?:${either(COUNT_QUESTION_ENDS)})(?:\\s+(?:below|above|here))?\\s*\\?$`, 'i');
/** "Press the button that correctly denotes how many sides the shape has", "click the button that best describes the figure". */
const ANSWER_BUTTON = new RegExp(
  `^(?:${either(ANSWER_BUTTON_LEADS)})(?:(?:denotes|says|shows|gives|tells|states)\\s+how many sides\\s+(?:the\\s+)?(?:shape|figure)\\s+has` +
    '|(describes|names|matches)\\s+(?:the\\s+)?(?:shape|figure|drawing))(?:\\s+(?:below|above|shown))?$',
  'i',
);

/** A question whose answer is a button: the button named by what the page shows, read when the step runs. */
export function answerButton(s: string): PlanStep | null {
  const count = COUNT_ALONE.exec(s);
  const m = count ? null : ANSWER_BUTTON.exec(s);
  const ref = count ? `the number of ${count[1]}` : m ? (m[1] ? 'the shape of the figure' : 'the number of sides of the shape') : null;
  return ref ? { say: `click the ${quoteValue(ref)} button`, ref } : null;
}
