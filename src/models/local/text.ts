/** Word-level text handling for the local model: normalising, synonyms, similarity. */
import { anyOf, either } from './words/grammar';
import { DIRECTION_VERBS, REFERENCE_WORDS } from './words/references';
import { FALSE_WORDS, GLYPHS, SMALL_LABELS, SOFT_NOUNS, STOP, SYMBOLS, SYNONYMS, TRUE_WORDS } from './words/synonyms';

export function glyphWords(name: string): string {
  const t = name.trim();
  if (!t || t.length > 3) return '';
  for (const [re, w] of GLYPHS) if (re.test(t)) return w;
  return '';
}

export function normalize(s: string): string {
  if (/[^\x00-\x7f]/.test(s)) for (const [re, word] of SYMBOLS) s = s.replace(re, word);
  return s
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/[^a-z0-9%@.\-+#& ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// One alternation of every synonym form, longest first, compiled once.
const CANON_OF = new Map<string, string>();
for (const [canon, forms] of SYNONYMS) for (const f of forms) CANON_OF.set(f, canon);
const SYNONYM_RE = new RegExp(
  `(?<=^| )(${[...CANON_OF.keys()]
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
    .join('|')})(?= |$)`,
  'g',
);
const canonCache = new Map<string, string>();

/** Phrases replaced by a canonical token so "log in" and "sign in" meet. */
export function canonical(s: string): string {
  let out = canonCache.get(s);
  if (out === undefined) {
    out = normalize(s).replace(SYNONYM_RE, (f) => CANON_OF.get(f) ?? f);
    if (canonCache.size > 20_000) canonCache.clear(); // bounded: big pages must not grow it forever
    canonCache.set(s, out);
  }
  return out;
}

/** A line that tells the reader what to do ("Read the line, then reproduce it"): the page's directions, never content. */
export const DIRECTION_LINE = new RegExp(`^(?:please\\s+)?(?:${either(DIRECTION_VERBS)})\\b`, 'i');

export function words(s: string, keepStop = false): string[] {
  return canonical(s)
    .split(/[ -]+/)
    .map((w) => w.replace(/^[.\-#]+|[.\-]+$/g, ''))
    .filter((w) => w && (keepStop || !STOP.has(w)));
}

/** Crude stemming that leaves short words alone ("doing" must not become "do"). */
const stem = (w: string) => {
  const s = w.replace(/(ing|ed|es|s)$/, '');
  return s.length >= 3 ? s : w;
};

/**
 * How well `target` words are covered by `candidate` text (0..1): every target word
 * found counts; extra candidate words cost a little.
 */
export function similarity(target: string, candidate: string): number {
  // A name made only of small words that label fields ("to:", "From", "On") is matched by them; never a pronoun ("it").
  const bare = !words(target).length && words(target, true).length > 0 && words(target, true).every((w) => SMALL_LABELS.has(w));
  const t = words(target, bare);
  const c = words(candidate, bare);
  if (!t.length || !c.length) return 0;
  const cs = tokenSet(c);
  const weight = weigher(t);
  let hit = 0;
  let hits = 0;
  let total = 0;
  for (const w of t) {
    total += weight(w);
    if (cs.has(stem(w))) {
      hit += weight(w);
      hits++;
    }
  }
  const coverage = hit / total;
  const extra = Math.max(0, c.length - hits) / (c.length + 3);
  return Math.max(0, coverage - 0.25 * extra);
}

/** Stems of a candidate's words, with the parts of file names ("budget.xlsx" is also "budget"). */
function tokenSet(c: string[]): Set<string> {
  const out = new Set<string>();
  for (const w of c) {
    out.add(stem(w));
    if (/[a-z]\.[a-z]/.test(w)) for (const part of w.split('.')) if (part) out.add(stem(part));
  }
  return out;
}

/** Soft nouns weigh little, unless the target is nothing but soft nouns. */
function weigher(t: string[]): (w: string) => number {
  const allSoft = t.every((w) => SOFT_NOUNS.has(stem(w)) || SOFT_NOUNS.has(w));
  return (w) => (!allSoft && (SOFT_NOUNS.has(w) || SOFT_NOUNS.has(stem(w))) ? 0.15 : 1);
}

export function exactMatch(a: string, b: string): boolean {
  return canonical(a) === canonical(b) && canonical(a) !== '';
}

/** "1,234.50" → 1234.5; "$12" → 12; "(3)" → 3; null when there is no number. */
export function parseNumber(s: string): number | null {
  const m = /-?\d[\d,]*(?:\.\d+)?|-?\.\d+/.exec(s.replace(/\s/g, ''));
  if (!m) return null;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** A comparison of two numbers as the words say it ("less than" is '<'). */
export type Comparison = '<' | '<=' | '>' | '>=' | '=';

/** Whether `a` stands to `b` as `op` says. */
export function compares(op: Comparison, a: number, b: number): boolean {
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : op === '>=' ? a >= b : a === b;
}

export function parseBoolean(s: string | boolean): boolean | null {
  if (typeof s === 'boolean') return s;
  const t = normalize(s);
  if (TRUE_WORDS.includes(t)) return true;
  if (FALSE_WORDS.includes(t)) return false;
  return null;
}

/** Share of `target` words found in `text` (no penalty for extra words): for "in the row for Alice". */
export function coverage(target: string, text: string): number {
  const t = words(target);
  if (!t.length) return 0;
  const cs = tokenSet(words(text));
  const weight = weigher(t);
  let hit = 0;
  let total = 0;
  for (const w of t) {
    total += weight(w);
    if (cs.has(stem(w))) hit += weight(w);
  }
  return hit / total;
}

/** Nouns and place words that make "the ..." a description of something on the page. */
const REFERENCE = anyOf(REFERENCE_WORDS);

/**
 * Whether an unquoted value is a description of something on the page ("the text below",
 * "the value of Year of Birth", "the number of blocks") rather than text to type as it is.
 */
export function isReference(value: string): boolean {
  const v = value.trim();
  if (/^(?:what|whatever|how many|how much)\b/i.test(v)) return true;
  if (/^(?:(?:the\s+)?(?:total\s+)?(?:number|amount|count|sum)\s+of)\b/i.test(v)) return true;
  // "Maria Lopez's employee ID": an attribute of someone or something on the page.
  if (/^\p{Lu}[\p{L}.-]*(?:\s+\p{Lu}[\p{L}.-]*){0,3}['’]s\s+\S/u.test(v)) return true;
  return /^(?:the|this|that|these|those|its|their|each|every|your|my|our|his|her)\s+\S/i.test(v) && REFERENCE.test(v);
}
