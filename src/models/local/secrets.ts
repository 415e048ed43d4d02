/**
 * Tasks whose end is a secret the page reveals: the words that ask for it (a purpose clause, a wrapper text around the
 * task), and the secret read off the page's lines once it shows. The secret is reported only as the page shows it, and
 * only when the page shows one: two are a refusal (a decoy beside the real one is not told apart by guessing).
 */
import type { OutlineNode } from './outline';
import { either, oneOf } from './words/grammar';
import {
  GO_TO_PAGE,
  MIRROR_TASKS,
  NOT_A_SECRET,
  REMARKS,
  SCROLL_SPANS,
  SCROLL_WAYS,
  SECRET_LABEL_LEADS,
  SECRET_SAID_AS,
  SECRET_FETCHES,
  SECRET_NOUNS,
  SECRET_OWNERS,
  SECRET_REPORTS,
  SECRET_VERBS,
  TASK_OPENERS,
  TRAILING_REMARKS,
} from './words/secrets';
import { REQUEST_OPENERS } from './words/verbs';

export type ScrollWay = keyof typeof SCROLL_WAYS;

/** What a text asks for when its end is the page's secret: the task before it (may be empty) and the page it names. */
export interface SecretSought {
  task: string;
  url?: string;
}

const NOUN = `(?:the\\s+|a\\s+|your\\s+)?(?:${either(SECRET_NOUNS)})`;
const OWNER = `(?:\\s+(?:for|of)\\s+(?:the|this)\\s+(?:${either(SECRET_OWNERS)}))?`;
const OPENER = new RegExp(`^(?:${either(TASK_OPENERS)})\\s*(?::\\s*|\\s+to\\s+)`, 'i');
const ASKED = new RegExp(`^(?:${either(REQUEST_OPENERS)})\\s+`, 'i');
/** "You must go to <address> and obtain the password for the game": (1) the address (one that reads as one), (2) the fetch of the secret. */
const GO_THERE = new RegExp(
  `^(?:you\\s+(?:must|need\\s+to|should|have\\s+to)\\s+)?(?:${either(GO_TO_PAGE)})\\s+((?:[a-z][a-z+.-]*:\\/\\/|\\/|www\\.)\\S+?|[\\w-]+\\.[\\w.-]+\\/\\S*?)` +
    `(\\s+(?:and|to)\\s+(?:${either(SECRET_FETCHES)})\\s+${NOUN}${OWNER})?$`,
  'i',
);
/** "To prove you have completed the task you must obtain and report the password for the game", "Report the password". */
const PROOF = new RegExp(
  `^(?:to\\s+prove\\s+(?:that\\s+)?you\\s+(?:have\\s+)?(?:completed|finished|solved|done)\\s+the\\s+(?:${either(SECRET_OWNERS)}),?\\s+)?` +
    `(?:you\\s+(?:must|need\\s+to|should|have\\s+to)\\s+)?(?:${either([...SECRET_REPORTS, ...SECRET_FETCHES])})\\s+${NOUN}${OWNER}$`,
  'i',
);
/** "If you do not have the password, you have not managed to complete the task": the same demand, said again. */
const NO_PROOF = new RegExp(
  `^if\\s+you\\s+(?:do\\s+not|don't)\\s+have\\s+${NOUN},?\\s+you\\s+have\\s+not\\s+(?:managed\\s+to\\s+)?` +
    `(?:complete|completed|finished|solved|done)\\s+the\\s+(?:${either(SECRET_OWNERS)})$`,
  'i',
);
const REMARK = oneOf(REMARKS);
const TRAILING = new RegExp(`,\\s*(?:${either(TRAILING_REMARKS)})$`, 'i');
const SOUGHT = `(?:${either([...SECRET_VERBS, ...SECRET_REPORTS, ...SECRET_FETCHES])})`;
/** "..., to reveal the secret password", "... in order to find the password", "... and tell me the password", ", then get it". */
const PURPOSE = new RegExp(
  `(?:,?\\s+(?:in\\s+order\\s+)?to\\s+|,?\\s+(?:and\\s+then|and|then)\\s+|,\\s*)${SOUGHT}(?:\\s+and\\s+${SOUGHT})?\\s+${NOUN}${OWNER}$`,
  'i',
);
/** "Find the password by scrolling down": (1) the scroll that finds it. */
const FOUND_BY = new RegExp(`^${SOUGHT}\\s+${NOUN}${OWNER}\\s+by\\s+scrolling(\\s+.+)?$`, 'i');
/** The secret asked for alone: "Find the secret code". */
const ALONE = new RegExp(`^(?:${either(SECRET_VERBS)})\\s+${NOUN}${OWNER}$`, 'i');

/**
 * The task and the page of a text whose end is the page's secret ("Scroll down to find the password", a wrapper such as
 * "Your task is: X. You must go to <address> and obtain the password for the game. ..."), or null when it asks for none.
 */
export function secretSought(text: string): SecretSought | null {
  let wanted = false;
  let url: string | undefined;
  const task: string[] = [];
  for (const raw of text.split(/(?<=[.!?])\s+/)) {
    let t = raw
      .trim()
      .replace(/[.!?]+$/, '')
      .replace(OPENER, '');
    if (!t || REMARK.test(t) || NO_PROOF.test(t)) continue;
    const go = GO_THERE.exec(t);
    if (go) {
      url = go[1];
      wanted ||= !!go[2];
      continue;
    }
    const by = FOUND_BY.exec(t);
    if (by) {
      wanted = true;
      task.push(`scroll${by[1] ?? ''}`);
      continue;
    }
    if (PROOF.test(t) || ALONE.test(t)) {
      wanted = true;
      continue;
    }
    t = t.replace(ASKED, '').replace(TRAILING, '');
    if (PURPOSE.test(t)) {
      wanted = true;
      t = t.replace(PURPOSE, '');
    }
    task.push(t);
  }
  return wanted ? { task: task.join('. '), ...(url ? { url } : {}) } : null;
}

const MIRROR = oneOf(MIRROR_TASKS);
/** "Perfectly copy the text": the text the page shows, typed into its one text field (a challenge says no more). */
export const mirrorTask = (task: string): string | null => (MIRROR.test(task.trim()) ? 'type the text into the text field' : null);

const WAY_OF: [ScrollWay, RegExp][] = (Object.entries(SCROLL_WAYS) as [ScrollWay, readonly string[]][]).map(([way, words]) => [way, oneOf(words)]);
const SPAN = `(?:${either(SCROLL_SPANS)})`;
const THE_PAGE = '(?:\\s+(?:the|this)\\s+(?:page|screen|window))?';
const SCROLL_ONLY = new RegExp(
  `^(?:scroll|(?:keep|continue|go on)\\s+scrolling|navigate|move|go)${THE_PAGE}(?:\\s+(${Object.values(SCROLL_WAYS).flat().join('|')}))?${THE_PAGE}` +
    `(?:\\s+${SPAN})*(?:\\s+(?:through|by|with)\\s+(diagonal|horizontal|vertical)\\s+scrolling)?$`,
  'i',
);

/** The way a task that is only a scroll goes ("Scroll down fewer boxes", "navigate to the bottom-right corner through diagonal scrolling"). */
export function scrollOnly(task: string): ScrollWay | null {
  const m = SCROLL_ONLY.exec(task.trim());
  if (!m) return null;
  if (m[3]) return m[3].toLowerCase() === 'diagonal' ? 'both' : m[3].toLowerCase() === 'horizontal' ? 'right' : 'down';
  // Only a verb of moving that says where is a scroll ("go" alone is not).
  if (!m[1] && !/^(?:scroll|keep scrolling|continue scrolling|go on scrolling)/i.test(task.trim())) return null;
  const way = m[1] ? WAY_OF.find(([, re]) => re.test(m[1]!))?.[0] : undefined;
  if (/\bright\b/i.test(task) && !way) return 'right';
  return way ?? 'down';
}

const NOT_VALUE = oneOf(NOT_A_SECRET);
/** A secret's value: one token of letters, digits and the marks passwords use. */
const VALUE = '([A-Za-z0-9][A-Za-z0-9_\\-!@#$%^&*+.]{2,63})';
const QUOTE_OPEN = `["'“‘\`«]?`;
const QUOTE_CLOSE = `["'”’\`»]?`;
/** "The password is: X", "Secret code - X", "Your password: "X"": (1) the opening quote, (2) the value, (3) what follows. */
const SAID_SECRET = new RegExp(
  `\\b(?:${either(SECRET_NOUNS)})(?:\\s+(?:${either(SECRET_SAID_AS)}))?(?:\\s+(?:is|was)\\s*[:=\\-–—]?|\\s*[:=\\-–—])\\s*` +
    `(${QUOTE_OPEN})${VALUE}${QUOTE_CLOSE}(?=([\\s.,;!)].*|)$)`,
  'i',
);
/**
 * A word that reads as a secret rather than as words about one ("case-sensitive", "below"): quoted, the line's last
 * word, or made like a password (a digit, an underscore, a capital inside it, all capitals).
 */
const LIKE_A_SECRET = /\d|_|^[A-Z0-9]{3,}$|[a-z][A-Z]/;
/** A line that is the label alone ("Password:"), its value the next line. */
const LABEL_ONLY = new RegExp(
  `^(?:(?:${either(SECRET_LABEL_LEADS)})\\s+)?(?:${either(SECRET_NOUNS)})(?:\\s+(?:${either(SECRET_SAID_AS)}))?(?:\\s+is)?\\s*:?$`,
  'i',
);
/** Lines a secret is read from: text and the roles that carry text, never a field's own name. */
const SECRET_ROLES: ReadonlySet<string> = new Set(['text', 'heading', 'status', 'alert', 'paragraph', 'strong', 'code', 'note', 'log']);

const cleanValue = (v: string): string | null => {
  const t = v.replace(/[.,;!]+$/, '');
  return t.length >= 3 && !NOT_VALUE.test(t) && !/^[*•●·]+$/.test(t) ? t : null;
};

/** The secrets the page's lines state, each once, with the line that states it; `skip` holds lines not to read (known before). */
export function secretsShown(nodes: readonly OutlineNode[], skip?: ReadonlySet<string>): { value: string; line: string }[] {
  const out: { value: string; line: string }[] = [];
  const add = (value: string | null, line: string) => {
    if (value && !out.some((o) => o.value === value)) out.push({ value, line });
  };
  const lines = nodes.filter((n) => SECRET_ROLES.has(n.role) && n.name.trim());
  lines.forEach((n, i) => {
    const line = n.name.replace(/\s+/g, ' ').trim();
    if (skip?.has(lineKey(line))) return;
    const said = SAID_SECRET.exec(line);
    if (said && (said[1] || LIKE_A_SECRET.test(said[2]!) || !/\w/.test(said[3]!))) return add(cleanValue(said[2]!), line);
    const next = lines[i + 1];
    if (LABEL_ONLY.test(line) && next && next.index <= n.index + 3) {
      const v = next.name.trim().replace(/^["'“‘`«]|["'”’`»]$/g, '');
      if (new RegExp(`^${VALUE}$`).test(v)) add(cleanValue(v), `${line} ${v}`);
    }
  });
  return out;
}

/** A line as compared with another: spaces and case aside. */
export const lineKey = (t: string): string => t.replace(/\s+/g, ' ').trim().toLowerCase();
