/**
 * "Guess the number between 0-9 and press Submit. Use the feedback below to find the right
 * number": the planner's reading of it, and the page's answer to one guess. The guesses are the
 * agent's (halving the range each time).
 */
import { Refusal } from './act';
import { SAID_ROLES, type OutlineNode } from './outline';
import { anyOf, either } from './words/grammar';
import { GUESS_HOW, GUESS_VERBS, GUESSED_NUMBERS, HIGHER, LOWER, NOT_RIGHT, RIGHT_GUESS } from './words/guesses';

export interface Guess {
  lo: number;
  hi: number;
  /** The button a guess is sent with, as the instruction names it. */
  button?: string;
}

/** The widest range guessed: past it, halving takes more guesses than a run should make. */
const RANGE_MAX = 10_000;

const HEAD = new RegExp(
  `^(?:try\\s+to\\s+)?(?:${either(GUESS_VERBS)})\\s+(?:the\\s+|a\\s+|my\\s+)?(?:${either(GUESSED_NUMBERS)})\\s+` +
    '(?:between|from|in\\s+the\\s+range(?:\\s+of)?)\\s+(-?\\d{1,5})\\s*(?:-|–|to|and)\\s*(-?\\d{1,5})(?:\\s*\\(inclusive\\))?',
  'i',
);
/** A clause after the head: the button a guess is sent with, or how to guess (which adds nothing). */
const PRESS = /^(?:and\s+|then\s+)*(?:press|click|hit|tap)\s+(?:on\s+)?(?:the\s+)?(.+?)(?:\s+button)?$/i;
const HOW = new RegExp(`^(?:and\\s+|then\\s+)*(?:${either(GUESS_HOW)})$`, 'i');

/** A whole instruction that asks for a number guessed with the page's feedback, or null. `quoted` restores quoted text. */
export function guessOf(s: string, quoted: (t: string) => string): Guess | null {
  const m = HEAD.exec(s);
  if (!m) return null;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  if (!(hi > lo) || hi - lo > RANGE_MAX) throw new Refusal(`it asks for a number from ${lo} to ${hi}, not a range the built-in model guesses in`);
  const out: Guess = { lo, hi };
  for (const clause of s
    .slice(m[0].length)
    .split(/\s*[,.;]\s*|\s+(?=(?:and|then)\s)/i)
    .map((c) => c.trim())
    .filter(Boolean)) {
    if (HOW.test(clause)) continue;
    const p = PRESS.exec(clause);
    // "... and click it" clicks what was found, not a button a guess is sent with.
    if (!p || out.button || /^(?:it|that|this|them|one)$/i.test(p[1]!)) return null;
    out.button = quoted(p[1]!).replace(/^["“']|["”']$/g, '');
  }
  return out;
}

export type Answer = 'higher' | 'lower' | 'right';
const UP = anyOf(HIGHER);
const DOWN = anyOf(LOWER);
const RIGHT = anyOf(RIGHT_GUESS);
const NOT = anyOf(NOT_RIGHT);

/** What one line says of a guess, or null when it says nothing of it (or both ways). */
function answerOf(line: string): Answer | null {
  const up = UP.test(line);
  const down = DOWN.test(line);
  if (up !== down) return up ? 'higher' : 'lower';
  if (up || NOT.test(line)) return null;
  return RIGHT.test(line) ? 'right' : null;
}

/** The answers the lines give, one of each kind. */
const answers = (lines: OutlineNode[]) => new Set(lines.map((n) => answerOf(n.name)).filter((a): a is Answer => a !== null));

/**
 * The page's answer to the guess: what the lines it shows now and did not before say; when none
 * is new (the same "Too low!" again), what its lines that were not there when the guessing began
 * say (never the page's own instructions). Null unless they say one thing.
 */
export function answerTo(start: OutlineNode[], before: OutlineNode[], after: OutlineNode[]): Answer | null {
  const lines = (nodes: OutlineNode[]) => new Set(nodes.filter((n) => SAID_ROLES.has(n.role)).map((n) => n.name.trim()));
  const said = after.filter((n) => SAID_ROLES.has(n.role));
  const had = lines(before);
  const first = lines(start);
  const fresh = answers(said.filter((n) => !had.has(n.name.trim())));
  const all = fresh.size ? fresh : answers(said.filter((n) => !first.has(n.name.trim())));
  return all.size === 1 ? [...all][0]! : null;
}
