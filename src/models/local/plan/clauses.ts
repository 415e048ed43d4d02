/**
 * Cutting an instruction into clauses: quoted and bracketed parts kept whole (protect, bare, restore), the words that
 * split sentences and clauses, and the rewrites of whole clauses before that (key combinations, purposes, asides, courtesy).
 */
import { MONTH_STEMS } from '../words/dates';
import { either } from '../words/grammar';
import { DASH_ASIDES } from '../words/controls';
import { CLICK_PURPOSES, CONTEXT_MENU_OPENERS, PURPOSED_CLICKS } from '../words/menus';
import { BY_KEYS, KEY_COMBO_NOUNS, KEY_WORDS, MODIFIERS } from '../words/keys';
import { CLAUSE_VERBS, CLICK_VERBS, HASTE, CLOSING_COURTESY, COURTESY_AS_VALUE } from '../words/verbs';
import { LAST_STEP_WORDS, THEN_WORDS } from '../words/conditions';

const VERB_AHEAD = `(?=(?:${either(CLAUSE_VERBS)})\\b)`;

const SEQUENCE = [
  // Sentences: "Navigate through the file tree. Find and click ...".
  /(?<=[a-z0-9)\]\u0000\u0001])\.\s+(?=[A-Z\u0000\u0001])/,
  new RegExp(`(?<=[a-z0-9)\\]\\u0000\\u0001])\\.\\s+${VERB_AHEAD}`, 'i'),
  /\s*;\s*/i,
  // "Click Submit, it is in the hidden section": a remark about where, split off to be read as one.
  /,\s*(?=(?:it|that|which|they)(?:'s|\s+is|\s+are)\s)/i,
  new RegExp(`,?\\s+(?:and\\s+)?(?:${either([...THEN_WORDS, ...LAST_STEP_WORDS])}),?\\s+`, 'i'),
  new RegExp(`,\\s*(?:and\\s+)?${VERB_AHEAD}`, 'i'),
  new RegExp(`\\s+and\\s+${VERB_AHEAD}`, 'i'),
  // "Scroll the textarea to the bottom of the text hit submit": a last Submit with no "and" before it.
  // (Not a name: "the button labeled press submit".)
  new RegExp(
    `(?<=[a-z0-9])(?<!\\b(?:labell?ed|named|called|says|saying|reads|reading|titled|marked))\\s+` +
      `(?=(?:${either(CLICK_VERBS)})\\s+(?:the\\s+)?submit(?:\\s+button)?$)`,
    'i',
  ),
];

/** Parts kept whole and given back as written: each may hold a comma that must split nothing. */
const AS_WRITTEN = [
  // "(-2,0)", "[a, b]"
  /\([^()\u0000]{0,40}\)/,
  /\[[^[\]\u0000]{0,40}\]/,
  // "1,234.50"
  /(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,])/,
  // "March 3rd, 2024"
  new RegExp(`\\b(?:${either(MONTH_STEMS)})[a-z]*\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,\\s*\\d{4}\\b`),
];
const KEPT_AS_WRITTEN = new RegExp(AS_WRITTEN.map((r) => r.source).join('|'), 'gi');

/**
 * Quoted parts are kept whole: commas and "and" inside them split nothing. So are brackets
 * ("the grid coordinate (-2,0)") and numbers written with separators ("1,234.50"): they share
 * the list of kept parts but come back as written, not quoted.
 */
export function protect(s: string): { text: string; quotes: string[] } {
  const quotes: string[] = [];
  const text = s
    .replace(/"([^"]*)"|“([^”]*)”|(?<![\w])'([^']+)'(?=\s|$|[.,;:!?])|‘([^’]*)’/g, (_m, a, b, c, d) => {
      quotes.push(a ?? b ?? c ?? d ?? '');
      return `\u0000${quotes.length - 1}\u0000`;
    })
    .replace(KEPT_AS_WRITTEN, (m) => {
      quotes.push(m);
      return `\u0001${quotes.length - 1}\u0001`;
    });
  return { text, quotes };
}

export const unraw = (s: string, quotes: string[]) => s.replace(/\u0001(\d+)\u0001/g, (_m, i) => quotes[Number(i)] ?? '');

export const restore = (s: string, quotes: string[]) =>
  unraw(
    s.replace(/\u0000(\d+)\u0000/g, (_m, i) => quoteValue(quotes[Number(i)])),
    quotes,
  );
export const quoteValue = (v: string) => (v.includes('"') ? `“${v}”` : `"${v}"`);
export const bare = (s: string, quotes: string[]) =>
  unraw(
    s.replace(/\u0000(\d+)\u0000/g, (_m, i) => quotes[Number(i)]),
    quotes,
  ).trim();

export function splitAll(s: string): string[] {
  let parts = [s];
  for (const re of SEQUENCE) parts = parts.flatMap((p) => p.split(re));
  return parts
    .map((p) =>
      p
        .trim()
        .replace(/^(?:and|then|also|finally)\s+/i, '')
        .replace(/[,.]+$/, '')
        .trim(),
    )
    .filter(Boolean);
}

export const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9@.\s-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export const CLICK_VERB = new RegExp(`^(${either(CLICK_VERBS)})(?:\\s+on)?\\s+`, 'i');
export const STARTS_WITH_VERB = new RegExp(`^(?:${either(CLAUSE_VERBS)})\\b`, 'i');

/** Keys held together, a modifier first ("Ctrl+Shift+P", "cmd + k"). */
const COMBO = `(?:${Object.keys(MODIFIERS).join('|')})(?:\\s*\\+\\s*(?:${Object.keys(MODIFIERS).join('|')}))*\\s*\\+\\s*(?:[a-z0-9]|${either(KEY_WORDS)})\\b`;
/** The start of a clause, for rewrites that take a whole one. */
const CLAUSE_START = String.raw`(?<=^|[,;.]\s*|\band\s+|\bthen\s+)`;
/** Where a clause ends, looked at but not taken. */
const AT_CLAUSE_END = String.raw`(?=\s*(?:[,;.]|$|\s+(?:and|then)\b))`;
/**
 * A combination given as the means: "press the key combination Ctrl+Shift+P", "save the document with Ctrl+S", "use
 * Ctrl+K to search" are each "press" it (1). What the keys are for is the page's to do.
 */
export const COMBO_STEPS: RegExp[] = [
  new RegExp(`\\b(?:press|hit|use|type|enter)\\s+(?:${either(KEY_COMBO_NOUNS)})\\s+(${COMBO})`, 'gi'),
  new RegExp(
    `${CLAUSE_START}(?!press\\b)[a-z]+\\b[^,;.]*?\\s+(?:${either(BY_KEYS)})\\s+` + `(?:(?:${either(KEY_COMBO_NOUNS)})\\s+)?(${COMBO})${AT_CLAUSE_END}`,
    'gi',
  ),
  new RegExp(`\\b(?:use|press|hit)\\s+(${COMBO})\\s+to\\s+[^,;.]+?${AT_CLAUSE_END}`, 'gi'),
];

/** "... before time runs out (10 seconds)", "... as fast as you can": how fast, not what. */
export const HASTE_AFTER = new RegExp(`\\s+(?:${either(HASTE)})(?:\\s*\\u0001\\d+\\u0001|\\s*\\([^)]*\\))?$`, 'i');

/** "Open the context menu of photo.png" is a right-click on it. */
export const CONTEXT_MENU = new RegExp(`\\b(?:${either(CONTEXT_MENU_OPENERS)})\\s+`, 'gi');
/** "Double-click report.pdf to open it": (1) the click and its target, what it is for left out. */
export const PURPOSED = new RegExp(
  `\\b((?:${either(PURPOSED_CLICKS)})\\s+(?:[^,;.]|\\.(?!\\s|$))+?)\\s+(?:${either(CLICK_PURPOSES)})(?=\\s*(?:[,;]|\\.(?:\\s|$)|$|\\s+(?:and|then)\\b))`,
  'gi',
);

/** "... - but watch out, it gets faster!": an aside after a dash, dropped. */
export const DASH_ASIDE = new RegExp(`\\s+[-–—]+\\s+(?:${either(DASH_ASIDES)})\\b[^.;!?]*[.!]?`, 'gi');

export const CLOSING = new RegExp(`(?:,\\s*|\\s+)(?:${either(CLOSING_COURTESY)})[.!]*$`, 'i');
export const CLOSING_AS_VALUE = new RegExp(`\\b(?:${either(COURTESY_AS_VALUE)})\\s+(?:${either(CLOSING_COURTESY)})[.!]*$`, 'i');

/** Where the clause ends: the sentence's end, or the next clause (", then ...", " and ..."). */
export const CLAUSE_END = '((?:\\s*[,;]|\\s+(?:and|then)\\b).*|)$';
