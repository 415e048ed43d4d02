/** Word-level text handling for the local model: normalising, synonyms, similarity. */
import { anyOf } from './words/grammar';
import { REFERENCE_WORDS } from './words/references';

const SYNONYMS: [string, string[]][] = [
  ['signin', ['sign in', 'log in', 'login', 'signin', 'logon', 'log on']],
  ['signout', ['sign out', 'log out', 'logout', 'signout']],
  ['signup', ['sign up', 'register', 'signup', 'create account']],
  // "Send" and "Go" are names of their own: a page's "Submit" never stands in for them.
  ['submit', ['submit']],
  ['ok', ['ok', 'okay', 'confirm']],
  ['cancel', ['cancel']],
  ['close', ['close', 'x', 'close window', 'close dialog', 'times', 'remove x']],
  ['circle', ['circle', 'ball', 'dot', 'disc']],
  ['cyan', ['cyan', 'aqua']],
  ['magenta', ['magenta', 'fuchsia']],
  ['gray', ['gray', 'grey']],
  ['settings', ['settings', 'preferences', 'gear', 'cog']],
  ['menu', ['menu', 'navigation menu', 'hamburger', 'bars']],
  ['search', ['search', 'find', 'look up']],
  ['delete', ['delete', 'remove', 'trash']],
  ['edit', ['edit', 'modify', 'change']],
  ['next', ['next', 'continue', 'forward', 'proceed']],
  ['previous', ['previous', 'back', 'prev']],
  ['email', ['email', 'e-mail', 'mail address', 'email address']],
  ['password', ['password', 'passcode', 'pass word']],
  ['phone', ['phone', 'telephone', 'mobile', 'phone number']],
  ['name', ['name', 'full name']],
  ['add', ['add', 'create', 'new']],
  ['save', ['save', 'store']],
  ['help', ['help', 'support']],
];

const STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'on',
  'in',
  'into',
  'of',
  'for',
  'with',
  'at',
  'and',
  'then',
  'please',
  'this',
  'that',
  'it',
  'my',
  'your',
  'page',
  'element',
  'named',
  'called',
  'labeled',
  'labelled',
  'which',
  'says',
  'with',
  'text',
  'from',
  'is',
  'me',
  'field',
]);

/** Symbols people read as words: a close button's "×", a menu's "☰", a settings "⚙". */
const SYMBOLS: [RegExp, string][] = [
  [/[×✕✖✗✘╳⨯❌]/g, ' x '],
  [/[☰≡]/g, ' menu '],
  [/[⚙]/g, ' settings '],
  [/[🔍🔎]/g, ' search '],
  [/[🗑]/g, ' delete '],
  [/[✎✏🖉]/g, ' edit '],
  [/[＋]/g, ' + '],
];

/**
 * What a control whose whole name is a symbol is for: "+" adds, "▸" expands, "›" goes to the
 * next. Several readings each, since the same glyph serves several purposes.
 */
const GLYPHS: [RegExp, string][] = [
  [/^[+＋➕]$/, 'plus add increase more'],
  [/^[-−–➖]$/, 'minus remove decrease less'],
  [/^[▸▶►▹▷]$/, 'expand open show play'],
  [/^[▾▼▿▽]$/, 'collapse close hide expanded'],
  [/^[›»→⟩❯〉>]$/, 'next forward'],
  [/^[‹«←⟨❮〈<]$/, 'previous back'],
  [/^[♥♡❤]$/, 'like heart favorite'],
  [/^[★☆⭐]$/, 'star favorite'],
  [/^[✓✔]$/, 'check done'],
  [/^[…⋯⋮⋯]$|^\.\.\.$/, 'more options menu'],
  [/^[↻⟳]$/, 'refresh reload'],
];

export function glyphWords(name: string): string {
  const t = name.trim();
  if (!t || t.length > 3) return '';
  for (const [re, w] of GLYPHS) if (re.test(t)) return w;
  return '';
}

/**
 * Nouns that say what kind of thing a target is ("the bug label", "the JD avatar", "the
 * Sent folder"): a name rarely contains them, so a miss costs a small part of a word.
 */
export const SOFT_NOUNS = new Set([
  'label',
  'tag',
  'chip',
  'pill',
  'badge',
  'avatar',
  'folder',
  'plan',
  'card',
  'message',
  'result',
  'knob',
  'handle',
  'thumb',
  'sign',
  'symbol',
  'icon',
  'item',
  'comment',
  'post',
  'order',
  'product',
  'column',
  'key',
  'entry',
  'tile',
  'swatch',
  'colour',
  'color',
  'square',
  'circle',
  'notification',
  'banner',
  'quantity',
  'month',
  'day',
  'date',
  'corner',
  'option',
  'choice',
  'file',
  'section',
  'panel',
  'menu',
  'email',
  'mail',
  'thread',
  'slider',
  'control',
  'box',
  'area',
  'step',
  'profile',
  'window',
  'popup',
  'widget',
  'toast',
  'bubble',
  'bar',
  'spreadsheet',
  'document',
  'doc',
  'photo',
  'image',
  'picture',
  'video',
]);

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
  const t = words(target);
  const c = words(candidate);
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

export function parseBoolean(s: string | boolean): boolean | null {
  if (typeof s === 'boolean') return s;
  const t = normalize(s);
  if (/^(yes|true|on|enabled|checked|active|y|1)$/.test(t)) return true;
  if (/^(no|false|off|disabled|unchecked|inactive|n|0)$/.test(t)) return false;
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
