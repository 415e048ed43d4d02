/**
 * "Generate a number less than 7, then press submit", "Roll the die until you get a 6, then click
 * Done": the planner's reading of a number drawn by the page's button until it fits, and the
 * reading of the number a draw shows. The drawing is the agent's (click, read, again).
 */
import { SAID_ROLES, type OutlineNode } from './outline';
import { compares, type Comparison } from './text';
import { COMPARISONS } from './words/conditions';
import { DRAW_VERBS, DRAWN_LABELS, DRAWN_NOUNS, KEEP_WORDS, OR_LESS, OR_MORE, UNTIL_LEADS } from './words/draws';
import { CLICK_VERBS } from './words/verbs';
import { anyOf, either, oneOf } from './words/grammar';

/** What the drawn number must be. */
export type Want = { op: Comparison; value: number } | { op: 'odd' | 'even' } | { op: 'between'; lo: number; hi: number };

export interface Draw {
  /** The button that draws, as the instruction names it ("New number"); else the verb names it ("Generate"). */
  button?: string;
  verb?: string;
  want: Want;
  /** What the number must be, in words ("less than 7", "odd"), for messages. */
  text: string;
}

const NUM = '(-?\\d{1,6})';
const A = '(?:(?:a|an|one)\\s+)?';
const NOUN = `(?:${either(DRAWN_NOUNS)})`;
const CMP = Object.entries(COMPARISONS).map(([op, words]) => [oneOf(words), op as Comparison] as const);
const CMP_WORDS = either(Object.values(COMPARISONS).flat());
const KEEP = `(?:(?:${either(KEEP_WORDS)})\\s+)?`;
/** A verb's -ing form ("generating", "tapping", "rolling"). */
const ing = (v: string) => (v.endsWith('e') ? `${v.slice(0, -1)}ing` : /[^aeiou][aeiou][ptgnm]$/.test(v) ? `${v}${v.at(-1)}ing` : `${v}ing`);
/** A verb of the table in either form, captured. */
const VERB_FORMS = (verbs: readonly string[]) => `(${verbs.flatMap((v) => [ing(v), v]).join('|')})`;
/** The base form of a verb of the table, from either form. */
const baseOf = (word: string) => DRAW_VERBS.find((v) => v === word.toLowerCase() || ing(v) === word.toLowerCase())!;

/** The condition's forms, each read by its own function of the match. */
const CONDITIONS: [RegExp, (m: RegExpExecArray) => Want | null][] = [
  [new RegExp(`^${A}(odd|even)(?:\\s+(?:${NOUN}|one))?$`, 'i'), (m) => ({ op: m[1]!.toLowerCase() as 'odd' | 'even' })],
  [new RegExp(`^${A}(?:${NOUN}\\s+)?(?:(?:that|which)\\s+is\\s+)?(odd|even)$`, 'i'), (m) => ({ op: m[1]!.toLowerCase() as 'odd' | 'even' })],
  [
    new RegExp(`^${A}(?:${NOUN}\\s+)?(?:(?:that|which)\\s+is\\s+|of\\s+)?(${CMP_WORDS})\\s+${NUM}$`, 'i'),
    (m) => {
      const op = CMP.find(([re]) => re.test(m[1]!))?.[1];
      return op ? { op, value: Number(m[2]) } : null;
    },
  ],
  [new RegExp(`^${A}(?:${NOUN}\\s+)?(?:of\\s+)?${NUM}\\s+or\\s+(${either(OR_MORE)})$`, 'i'), (m) => ({ op: '>=', value: Number(m[1]) })],
  [new RegExp(`^${A}(?:${NOUN}\\s+)?(?:of\\s+)?${NUM}\\s+or\\s+(${either(OR_LESS)})$`, 'i'), (m) => ({ op: '<=', value: Number(m[1]) })],
  [
    new RegExp(`^${A}(?:${NOUN}\\s+)?(?:(?:that|which)\\s+is\\s+)?between\\s+${NUM}\\s+and\\s+${NUM}$`, 'i'),
    (m) => (Number(m[1]) <= Number(m[2]) ? { op: 'between', lo: Number(m[1]), hi: Number(m[2]) } : null),
  ],
  [new RegExp(`^${A}${NUM}$`, 'i'), (m) => ({ op: '=', value: Number(m[1]) })],
];

const SAID: Record<Comparison, string> = { '<': 'less than ', '<=': 'at most ', '>': 'greater than ', '>=': 'at least ', '=': '' };
/** What the number must be, in words. */
function described(w: Want): string {
  if ('value' in w) return `${SAID[w.op]}${w.value}`;
  return w.op === 'between' ? `from ${w.lo} to ${w.hi}` : w.op;
}

function wantOf(words: string): Want | null {
  for (const [re, read] of CONDITIONS) {
    const m = re.exec(words.trim());
    if (m) return read(m);
  }
  return null;
}

/** "Generate a number less than 7": the verb and what is drawn, with its condition. */
const HEAD = new RegExp(`^(${either(DRAW_VERBS)})\\s+(?:a|an|one)\\s+(.+)$`, 'i');
/** "Keep clicking Generate until the number is even". */
const CLICK_UNTIL = new RegExp(`^${KEEP}${VERB_FORMS(CLICK_VERBS)}\\s+(?:on\\s+)?(?:the\\s+)?(.+?)(?:\\s+button)?\\s+until\\s+(.+)$`, 'i');
/** "Roll the die until you get a 6", "keep generating numbers until one is odd". */
const VERB_UNTIL = new RegExp(`^${KEEP}${VERB_FORMS(DRAW_VERBS)}(?:\\s+(?:the\\s+|a\\s+)?${NOUN})?(?:\\s+again)?\\s+until\\s+(.+)$`, 'i');
const UNTIL_LEAD = new RegExp(`^(?:${either(UNTIL_LEADS)})\\s+`, 'i');
/** Where the draw ends and the next step begins ("..., then press submit", "... and click Done"). */
const NEXT = new RegExp(
  `\\s*(?:[,.;]\\s*(?:and\\s+)?(?:then\\s+)?|\\s+and\\s+then\\s+|\\s+then\\s+|\\s+and\\s+(?=(?:${either(CLICK_VERBS)}|submit|send)\\b))`,
  'i',
);

/**
 * An instruction that begins with a number drawn until it fits: the draw, and the rest of the
 * instruction (the steps after it, "" when none). Null when it does not.
 */
export function drawOf(s: string): { draw: Draw; rest: string } | null {
  const cut = NEXT.exec(s);
  const head = (cut ? s.slice(0, cut.index) : s).trim();
  const rest = cut ? s.slice(cut.index + cut[0].length).trim() : '';
  let m = CLICK_UNTIL.exec(head);
  if (m) {
    const want = wantOf(m[3]!.replace(UNTIL_LEAD, ''));
    return want ? { draw: { button: m[2]!, want, text: described(want) }, rest } : null;
  }
  m = VERB_UNTIL.exec(head);
  if (m) {
    const want = wantOf(m[2]!.replace(UNTIL_LEAD, ''));
    return want ? { draw: { verb: baseOf(m[1]!), want, text: described(want) }, rest } : null;
  }
  m = HEAD.exec(head);
  if (!m) return null;
  const want = wantOf(`${/^\d/.test(m[2]!) ? '' : 'a '}${m[2]!}`);
  // "Generate a number" with nothing it must be is one click, not a draw.
  return want ? { draw: { verb: m[1]!.toLowerCase(), want, text: described(want) }, rest } : null;
}

/** Whether `n` is what the draw wants. */
export function isWanted(w: Want, n: number): boolean {
  if ('value' in w) return compares(w.op, n, w.value);
  if (w.op === 'between') return n >= w.lo && n <= w.hi;
  return Number.isInteger(n) && Math.abs(n) % 2 === (w.op === 'odd' ? 1 : 0);
}

const NUMBERS = /(?<![\d.,])[-−]?\d+(?:\.\d+)?(?![\d.,]*\d)/g;
const LABELLED = anyOf(DRAWN_LABELS);

/** The lines the page shows, a field's value as a line of its own ("Quantity: 3"). */
const linesOf = (nodes: OutlineNode[]) =>
  nodes.flatMap((n) => (SAID_ROLES.has(n.role) ? [n.name.trim()] : typeof n.states.value === 'string' ? [`${n.name.trim()}: ${n.states.value}`] : []));
/** A line with its one number left out ("Your number: #"): the same line after another draw. */
const shapeOf = (line: string) => line.replace(NUMBERS, '#');
const valueOf = (line: string) => Number(line.match(NUMBERS)![0]!.replace('−', '-'));

/** A number a draw shows, and the shape of its line, by which the next draws read it. */
export interface Drawn {
  value: number;
  shape: string;
  /** Where the line is among the page's lines, when the page kept the same lines (a number in place of "-"). */
  at?: number;
  count?: number;
}

/**
 * The number a draw shows. The first draw: of the lines the page shows now and did not before,
 * the one with one number in it; several such lines: the one that says what it is ("Your number:
 * 5"), else the one that is a number alone. Later draws: the line of the first one's shape
 * (a count of draws beside it changes too). Null when the first draw changed no line; a reason
 * when the lines leave the number open.
 */
export function drawnNumber(before: OutlineNode[], after: OutlineNode[], shape?: string, last?: Drawn): Drawn | null | string {
  const now = linesOf(after);
  // The same lines as before, one of them changed in place: that line, wherever else its number shows ("0" of a count).
  if (last?.at !== undefined && now.length === last.count) {
    const t = now[last.at]!;
    if (shapeOf(t) === last.shape && t.match(NUMBERS)?.length === 1) return { ...last, value: valueOf(t) };
  }
  const was = linesOf(before);
  if (!shape && was.length === now.length) {
    const changed = now.map((t, i) => i).filter((i) => now[i] !== was[i]);
    const i = changed.length === 1 ? changed[0]! : -1;
    if (i >= 0 && now[i]!.match(NUMBERS)?.length === 1) return { value: valueOf(now[i]!), shape: shapeOf(now[i]!), at: i, count: now.length };
  }
  if (shape) {
    const same = now.filter((t) => shapeOf(t) === shape && t.match(NUMBERS)?.length === 1);
    if (same.length === 1) return { value: valueOf(same[0]!), shape };
    return same.length ? `${same.length} lines read like the drawn number (${JSON.stringify(shape)})` : 'the drawn number went away';
  }
  const had = new Set(was);
  const fresh = now.filter((t) => !had.has(t) && t.match(NUMBERS));
  if (!fresh.length) return null;
  const single = fresh.filter((t) => t.match(NUMBERS)!.length === 1);
  if (!single.length) return `the line the draw changed (${JSON.stringify(fresh[0]!.slice(0, 60))}) shows more than one number`;
  const pick = (ts: string[]) => (ts.length === 1 ? ts[0]! : null);
  const one = pick(single) ?? pick(single.filter((t) => LABELLED.test(t))) ?? pick(single.filter((t) => /^[-−]?\d+(?:\.\d+)?$/.test(t)));
  if (!one) return `${single.length} lines with a number changed with the draw (${single.map((t) => JSON.stringify(t.slice(0, 30))).join(', ')})`;
  // Two lines of that shape: which one the draw changed is not known the next time.
  if (now.filter((t) => shapeOf(t) === shapeOf(one)).length > 1) return `more than one line reads like the drawn number (${JSON.stringify(one)})`;
  return { value: valueOf(one), shape: shapeOf(one) };
}

/** The button that draws: named so by the instruction, or by its verb ("Generate", "Roll the die"), the page's only one. */
export function drawButton(d: Draw, nodes: OutlineNode[]): OutlineNode | string {
  const clickable = nodes.filter((n) => n.id && ['button', 'clickable', 'link', 'menuitem'].includes(n.role));
  const words = (d.button ?? d.verb!).toLowerCase().replace(/\s+/g, ' ');
  const name = (n: OutlineNode) => n.name.trim().toLowerCase().replace(/\s+/g, ' ');
  const exact = clickable.filter((n) => name(n) === words);
  const starts = clickable.filter((n) => name(n).startsWith(`${words} `));
  const hits = exact.length ? exact : starts;
  if (hits.length === 1) return hits[0]!;
  const what = d.button ? `named ${JSON.stringify(d.button)}` : `to ${d.verb} a number with`;
  return hits.length ? `the page shows ${hits.length} controls ${what}` : `the page shows no control ${what}`;
}
