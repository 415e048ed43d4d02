/**
 * Conditions a step waits for ("once the price is below 100", "when the box is ticked"): read off the page, watched until
 * they hold, refused when they move too fast to act at.
 */
import { quote } from '../../../protocol/text';
import { choose, parseIntent, Refusal } from '../act';
import type { OutlineNode } from '../outline';
import type { Condition } from '../plan';
import { numberOf } from '../refs';
import { compares } from '../text';
import { CHECKABLE, type View, look, type Run } from './run';

/** How long a step may wait for the number it is conditioned on, and how often the page is read meanwhile. */
const WATCH_MS = 30_000;
export const WATCH_EVERY_MS = 200;

export const holds = (c: Condition, v: number): boolean => compares(c.op, v, c.value);

/** The box a "once the checkbox is ticked" condition watches, or why there is not exactly one. */
function boxOf(c: Condition, nodes: OutlineNode[]): OutlineNode | string {
  try {
    const words = c.subject
      .replace(/\b(?:check ?box|box|tick ?box|switch|toggle)\b/gi, ' ')
      .replace(/^\s*the\s+/i, '')
      .trim();
    const p = choose(parseIntent(words ? `check the ${quote(words).slice(1, -1)} checkbox` : 'check the checkbox'), nodes);
    return p.node && CHECKABLE.has(p.node.role) ? p.node : `${quote(c.subject)} is not a box that can be ticked`;
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return `no single box ${quote(c.subject)} shows (${e.message})`;
  }
}

/** Why the page cannot answer a condition now (null when it can). */
export function conditionUnread(c: Condition, nodes: OutlineNode[]): string | null {
  if (c.kind === 'checked') {
    const box = boxOf(c, nodes);
    return typeof box === 'string' ? box : null;
  }
  return numberOf(c.subject, nodes, c.currency) ? null : `the page shows no single number for ${quote(c.subject)}`;
}

/** For how many rounds of reading the page a watched number must stay the same, on average, for a click at its value to be sure. */
const STEADY_READS = 10;

/**
 * Why a watched number moves too fast to act at (null when it does not): it changed between every
 * two reads (how fast is not known), or on average sooner than STEADY_READS rounds of reading.
 * The click lands a while after the value was read (the step is grounded and sent); a ticker
 * that moves meanwhile makes the click a gamble on its value.
 */
function tooFast(everyRead: boolean, changes: number[], spanMs: number, roundMs: number): string | null {
  if (!changes.length) return null;
  if (everyRead) return 'changed at every read of the page';
  // From the first change seen to the last (the watch began somewhere inside a step), or the whole watch for one.
  const every = changes.length > 1 ? (changes.at(-1)! - changes[0]!) / (changes.length - 1) : spanMs;
  return every < STEADY_READS * roundMs ? `changes about every ${Math.round(every)} ms` : null;
}

/** Reads the page until the condition holds (then the step runs), or the deadline passes. */
export async function watch(r: Run, c: Condition, set: (v: View) => void): Promise<{ did: string } | { why: string }> {
  const until = Date.now() + WATCH_MS;
  const start = Date.now();
  let last: string | null = null;
  let reads = 0;
  /** When each change was seen. */
  const changes: number[] = [];
  /** Why the number, holding at the last read, moved too fast to act at. */
  let fast: string | null = null;
  const tooFastWhy = (f: string) => ({ why: `${quote(c.subject)} ${f}: the click would not surely land while ${quote(c.text)} holds` });
  for (;;) {
    if (r.signal.aborted) return { why: 'cancelled while waiting' };
    const asked = performance.now();
    const v = await look(r, r.instruction);
    const lookMs = performance.now() - asked;
    set(v);
    const t0 = performance.now();
    let seen: { value: number; shown: string } | null;
    if (c.kind === 'checked') {
      const box = boxOf(c, v.nodes);
      const ticked = typeof box !== 'string' && box.states.checked === true;
      seen = typeof box === 'string' ? null : { value: ticked ? 1 : 0, shown: `${box.name || box.role} ${ticked ? 'checked' : 'not checked'}` };
    } else seen = numberOf(c.subject, v.nodes, c.currency);
    r.clock.ms += performance.now() - t0;
    if (!seen) {
      return { why: c.kind === 'checked' ? `the box ${quote(c.subject)} went away` : `the page no longer shows a single number for ${quote(c.subject)}` };
    }
    reads++;
    if (last !== null && seen.shown !== last) changes.push(Date.now());
    last = seen.shown;
    // A number that holds at once is read twice more first: how fast it moves is not known from one read.
    if (holds(c, seen.value) && (c.kind !== 'number' || reads >= 3)) {
      const round = WATCH_EVERY_MS + lookMs;
      const everyRead = reads >= 3 && changes.length === reads - 1;
      fast = c.kind === 'number' ? tooFast(everyRead, changes, Date.now() - start, round) : null;
      if (fast && everyRead) return tooFastWhy(fast);
      // Moving, but not at every read: acted on once it has stayed for as long as a fast one could not (a value that loaded late).
      if (!fast || Date.now() - changes.at(-1)! >= STEADY_READS * round) return { did: `waited until ${quote(c.text)} (the page showed ${quote(seen.shown)})` };
    } else fast = null;
    if (Date.now() >= until) {
      if (fast) return tooFastWhy(fast);
      return { why: `waited ${WATCH_MS / 1000} s for ${quote(c.text)}; the page still showed ${quote(last)}` };
    }
    await new Promise((res) => setTimeout(res, WATCH_EVERY_MS));
  }
}
