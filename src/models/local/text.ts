/** Word-level text handling for the local model: normalising, synonyms, similarity. */

const SYNONYMS: [string, string[]][] = [
  ['signin', ['sign in', 'log in', 'login', 'signin', 'logon', 'log on']],
  ['signout', ['sign out', 'log out', 'logout', 'signout']],
  ['signup', ['sign up', 'register', 'signup', 'create account']],
  ['submit', ['submit', 'send', 'go']],
  ['ok', ['ok', 'okay', 'confirm']],
  ['cancel', ['cancel']],
  ['close', ['close', 'x', 'dismiss', 'close window', 'close dialog', 'times', 'remove x']],
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
  'the', 'a', 'an', 'to', 'on', 'in', 'into', 'of', 'for', 'with', 'at', 'and', 'then', 'please', 'this', 'that', 'it', 'my', 'your',
  'page', 'element', 'named', 'called', 'labeled', 'labelled', 'which', 'says', 'with', 'text', 'from', 'is', 'me', 'field',
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
  `(?<=^| )(${[...CANON_OF.keys()].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})(?= |$)`,
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
    .map((w) => w.replace(/^[.\-]+|[.\-]+$/g, ''))
    .filter((w) => w && (keepStop || !STOP.has(w)));
}

const stem = (w: string) => w.replace(/(ing|ed|es|s)$/, '') || w;

/**
 * How well `target` words are covered by `candidate` text (0..1): every target word
 * found counts; extra candidate words cost a little.
 */
export function similarity(target: string, candidate: string): number {
  const t = words(target);
  const c = words(candidate);
  if (!t.length || !c.length) return 0;
  const cs = new Set(c.map(stem));
  let hit = 0;
  for (const w of t) if (cs.has(stem(w))) hit++;
  const coverage = hit / t.length;
  const extra = Math.max(0, c.length - hit) / (c.length + 3);
  return Math.max(0, coverage - 0.25 * extra);
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
  const cs = new Set(words(text).map(stem));
  return t.filter((w) => cs.has(stem(w))).length / t.length;
}
