/** Conditions watched or read once ("when the price is less than $50", "if ... otherwise ..."), pauses, and presses held for a time. */
import { Refusal } from '../act';
import { anyOf, either, oneOf } from '../words/grammar';
import { HOLD_VERBS, HELD_WORDS, HOLD_EXACTNESS, HELD_KEYS, LONG_PRESS_MS, AT_LEAST_EXTRA_MS } from '../words/verbs';
import {
  BECOMING_VERBS,
  COMPARISONS,
  CONDITION_WORDS,
  ELSE_WORDS,
  MEASURE_VERBS,
  NOT_AFTER_ONCE,
  OTHER_VALUES,
  READ_VERBS,
  ON_STATES,
  REACHING_VERBS,
  WAIT_FOR_WORDS,
  WATCH_WORDS,
} from '../words/conditions';
import { COUNT_WORDS, MONEY_WORDS, PAUSE_COUNT, PAUSE_UNITS } from '../words/numbers';
import type { Condition, PlanStep } from './types';
import { bare } from './clauses';

/** The longest pause an instruction may ask for. */
export const WAIT_MAX_MS = 60_000;

/** Words that make a clause conditional or repeated: followed only when a reading below settles them. */
// "once the box is ticked" is a condition; "click once more" is not.
export const CONDITION = new RegExp(`\\b(?:${either(CONDITION_WORDS)})\\b|\\bonce\\s+(?!(?:${either(NOT_AFTER_ONCE)})\\b)(?=\\S+\\s+\\S)`, 'i');

const COMPARE = Object.entries(COMPARISONS).map(([op, words]) => [oneOf(words), op] as [RegExp, Condition['op']]);

const OPS = `(${either(Object.values(COMPARISONS).flat())})`;
const SUBJ = `(?:the\\s+)?(.+?)\\s+(?:${either(MEASURE_VERBS)})(?:\\s+(?:to|down to|up to|at|for))?`;
const NUM = `([-+]?[$€£]?\\s?\\d[\\d,]*(?:\\.\\d+)?\\s?(?:[%$€£]|${either(MONEY_WORDS)})?|\\u0001\\d+\\u0001)`;
const STATE = `(?:the\\s+)?(.+?)\\s+(?:${either(BECOMING_VERBS)})\\s+(${either(ON_STATES)})`;

/** A numeric condition from its words; null when they are not one. */
function numeric(subject: string, opWord: string | undefined, num: string, whole: string, quotes: string[]): Condition | null {
  // "reaches 10" with no comparison word: at least that.
  const word = opWord ?? (anyOf(REACHING_VERBS).test(whole) ? 'at least' : 'equal to');
  const op = COMPARE.find(([re]) => re.test(word.trim()))?.[1];
  const n = bare(num, quotes).replace(/[,.]+$/, '');
  const value = Number(n.replace(/(?<=\d),(?=\d{3})/g, '').replace(/[^\d.+-]/g, ''));
  if (!op || !Number.isFinite(value)) return null;
  const subj = bare(subject, quotes);
  return { kind: 'number', subject: subj, op, value, currency: /[$€£]|dollar|euro|pound/i.test(n), text: `${subj} ${word} ${n}` };
}

/**
 * Conditions the built-in agent follows, with the action they hold:
 * - watched until they hold (30 s at most): "Buy VOP stock when the price is less than $50.00",
 *   "Wait until the price drops below $50, then click Buy", "Click Submit once the checkbox is
 *   ticked", "As soon as the Upload complete box gets checked, click Submit";
 * - read once, with what to do otherwise: "If the total is over 100 press Yes otherwise No",
 *   "Press Yes if the total is more than $100, else press No", "Click Yes when the amount due is
 *   above 100, and No when it is not".
 * Null when the instruction has no such condition (any other is refused by CONDITION).
 */
export function conditionOf(s: string, quotes: string[]): { action: string; when: Condition; otherwise?: string } | null {
  let m: RegExpExecArray | null;
  const rx = (src: string) => new RegExp(src, 'i');
  // Read once, with an otherwise.
  const ELSE = `(?:${either(ELSE_WORDS)})`;
  // "..., and No when it is not (so)": the otherwise branch's own condition, read as the negation.
  const NOT_SO = "(?:\\s+(?:when|if)\\s+(?:it|that|they)\\s+(?:is|are)(?:\\s+not|n't)(?:\\s+so)?)?";
  if ((m = rx(`^(?:if|when)\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM},?\\s+(?:then\\s+)?(.+?)[,;]?\\s+${ELSE},?\\s+(.+)$`).exec(s))) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: { ...c, now: true }, otherwise: m[5] } : null;
  }
  if (
    (m = rx(
      `^(.+?)\\s+(?:if|when)\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM}[,;]?\\s+(?:${ELSE}|and\\s+(?!.*\\b(?:is|are)\\s+(?!not)\\w))[,;]?\\s*(.+?)${NOT_SO}$`,
    ).exec(s))
  ) {
    const c = numeric(m[2], m[3], m[4], m[0], quotes);
    return c ? { action: m[1], when: { ...c, now: true }, otherwise: m[5] } : null;
  }
  // "Check the total: over 100 means click Yes, anything else means click No".
  if (
    (m = rx(
      `^(?:${either(READ_VERBS)})\\s+(?:the\\s+)?(.+?)\\s*:\\s*(?:if\\s+(?:it\\s+is\\s+)?)?(?:${OPS}\\s+)?${NUM},?\\s+(?:means|then)\\s+(.+?)[,;]?\\s+` +
        `(?:${either(OTHER_VALUES)}),?\\s+(?:means\\s+)?(.+)$`,
    ).exec(s))
  ) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: { ...c, now: true }, otherwise: m[5] } : null;
  }
  // "If ..." alone is read once; "when ..." is watched (below): it may come true later.
  if ((m = rx(`^if\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM},?\\s+(?:then\\s+)?(.+)$`).exec(s))) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: { ...c, now: true } } : null;
  }
  // Watched: a number.
  if ((m = rx(`^(.+?),?\\s+(?:${either([...WATCH_WORDS, 'whenever'])})\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM}$`).exec(s))) {
    const c = numeric(m[2], m[3], m[4], m[0], quotes);
    return c ? { action: m[1], when: c } : null;
  }
  if ((m = rx(`^(?:${either([...WATCH_WORDS, ...WAIT_FOR_WORDS])})\\s+${SUBJ}\\s+(?:${OPS}\\s+)?${NUM},?\\s+(?:and\\s+)?(?:then\\s+)?(.+)$`).exec(s))) {
    const c = numeric(m[1], m[2], m[3], m[0], quotes);
    return c ? { action: m[4], when: c } : null;
  }
  // Watched: a box that gets ticked.
  const ticked = (subject: string, action: string, state: string) => ({
    action,
    when: { kind: 'checked' as const, subject: bare(subject, quotes), op: '=' as const, value: 1, text: `${bare(subject, quotes)} ${state}` },
  });
  if ((m = rx(`^(.+?),?\\s+(?:${either([...WATCH_WORDS, 'after'])})\\s+${STATE}$`).exec(s))) return ticked(m[2], m[1], m[3]);
  if ((m = rx(`^(?:${either([...WATCH_WORDS, ...WAIT_FOR_WORDS])})\\s+${STATE},?\\s+(?:and\\s+)?(?:then\\s+)?(.+)$`).exec(s))) return ticked(m[1], m[3], m[2]);
  return null;
}

/** A time said as a count and a unit ("2 seconds", "one minute", "500 ms"), in milliseconds. */
function durationMs(count: string, unit: string): number {
  const n = Number(count) || COUNT_WORDS[count.toLowerCase()] || 1;
  return /^m(?:s|illi)/i.test(unit) ? n : /^min/i.test(unit) ? n * 60_000 : n * 1000;
}

/**
 * "Hold the button for exactly 3 seconds", "press and hold Record for 2 s", "long-press the photo": (1) the verb, (2) the
 * target, (3) how exact, (4) the count, (5) the unit.
 */
const HOLD = new RegExp(
  `^(${either(HOLD_VERBS)})\\s+(.+?)(?:\\s+(?:${either(HELD_WORDS)}))?` +
    `(?:\\s+for\\s+(?:(${either(HOLD_EXACTNESS)})\\s+)?(${PAUSE_COUNT}|a|half a)\\s*(${either(PAUSE_UNITS)}))?$`,
  'i',
);

/** A press and hold of a control, or null when the words are not one; a key held, or a hold with no time said but a long press, is a refusal. */
export function holdStep(clause: string): PlanStep | null {
  const m = HOLD.exec(clause);
  if (!m) return null;
  const [, verb, target, exactness, count, unit] = m as unknown as [string, string, string, string?, string?, string?];
  const long = /^long/i.test(verb);
  if (!count && !long) return null;
  if (anyOf(HELD_KEYS).test(target)) throw new Refusal(`it holds "${target}" down, a key, which the built-in agent does not hold`);
  const said = count && unit ? durationMs(count === 'half a' ? '0.5' : count === 'a' ? '1' : count, unit) : LONG_PRESS_MS;
  const ms = Math.round(said + (exactness && /least/i.test(exactness) ? AT_LEAST_EXTRA_MS : 0));
  if (ms > WAIT_MAX_MS) throw new Refusal(`it asks to hold for ${count} ${unit}, longer than the built-in agent waits (${WAIT_MAX_MS / 1000} s)`);
  return { say: `hold ${target} for ${ms} ms`, hold: { target, ms } };
}

/** "wait 2 seconds", "after a second": a pause step; longer than the agent waits is a refusal, never a shorter wait. */
export function pauseStep(count: string, unit: string): PlanStep {
  const ms = durationMs(count, unit);
  if (ms > WAIT_MAX_MS) throw new Refusal(`it asks to wait ${count} ${unit}, longer than the built-in agent waits (${WAIT_MAX_MS / 1000} s)`);
  return { say: `wait ${count} ${unit}`, wait: ms };
}
