/**
 * The built-in model's planner: a compound instruction ("Enter the username "ada" and the
 * password "x" into the text fields and press login") as single steps, each of which the
 * single-step reading in act.ts can ground on the page as it is when that step runs. It reads
 * sequence words (then, and, commas, semicolons), lists that one verb spreads over ("Select 1,
 * 5 and 9"), label-value pairs ("first name Ada, last name Lovelace"), "into both fields",
 * logins, and search directions ("switch between the tabs to find ..."). The page's own field
 * names tell a label from its value; nothing here acts.
 */
import { Refusal } from './act';

export interface PlanStep {
  /** One instruction for the single-step engine. */
  say: string;
  /** Other phrasings, tried in order when `say` grounds nowhere (the page may call Login "Sign in"). */
  or?: string[];
  /** The target may be hidden in a collapsed section or another tab: reveal them to look for it. */
  search?: boolean;
}

/** What the planner knows of the page: the names (labels, placeholders) of its text fields and of its other controls. */
export interface PlanPage {
  fields: string[];
  names: string[];
}

const VERBS =
  'click|press|hit|tap|type|enter|fill|select|choose|pick|check|tick|uncheck|untick|open|expand|collapse|switch|go|submit|save|send|log|sign|login|set|write|put|input|clear|hover|scroll|toggle|mark|find|search|continue|confirm|accept|close|dismiss|add|remove|delete|focus|drag|double-click|right-click|provide|specify|use|register|create|choose|navigate|visit|follow|activate|push|key|paste|empty|erase|unselect|deselect|turn|enable|disable|agree|opt';
const VERB_AHEAD = `(?=(?:${VERBS})\\b)`;

const SEQUENCE = [
  /\s*;\s*/i,
  /,?\s+(?:and\s+)?then,?\s+/i,
  /,?\s+(?:and\s+)?after that,?\s+/i,
  /,?\s+(?:and\s+)?afterwards,?\s+/i,
  /,?\s+(?:and\s+)?finally,?\s+/i,
  /,?\s+followed by\s+/i,
  new RegExp(`,\\s*(?:and\\s+)?${VERB_AHEAD}`, 'i'),
  new RegExp(`\\s+and\\s+${VERB_AHEAD}`, 'i'),
];

/** Quoted parts are kept whole: commas and "and" inside them split nothing. */
function protect(s: string): { text: string; quotes: string[] } {
  const quotes: string[] = [];
  const text = s.replace(/"([^"]*)"|“([^”]*)”|(?<![\w])'([^']+)'(?=\s|$|[.,;:!?])|‘([^’]*)’/g, (_m, a, b, c, d) => {
    quotes.push(a ?? b ?? c ?? d ?? '');
    return `\u0000${quotes.length - 1}\u0000`;
  });
  return { text, quotes };
}

const restore = (s: string, quotes: string[]) => s.replace(/\u0000(\d+)\u0000/g, (_m, i) => quoteValue(quotes[Number(i)]));
const quoteValue = (v: string) => (v.includes('"') ? `“${v}”` : `"${v}"`);
const bare = (s: string, quotes: string[]) => s.replace(/\u0000(\d+)\u0000/g, (_m, i) => quotes[Number(i)]).trim();

function splitAll(s: string): string[] {
  let parts = [s];
  for (const re of SEQUENCE) parts = parts.flatMap((p) => p.split(re));
  return parts.map((p) => p.trim().replace(/^(?:and|then|also|next|finally)\s+/i, '').replace(/[,.]+$/, '').trim()).filter(Boolean);
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9@.\s-]/g, ' ').replace(/\s+/g, ' ').trim();

/** Field words people use for a field the page may name otherwise. */
const FIELD_ALIASES: Record<string, string[]> = {
  username: ['username', 'user name', 'user', 'login', 'user id', 'email', 'e-mail'],
  password: ['password', 'pass', 'passcode', 'pwd'],
  email: ['email', 'e-mail', 'email address', 'mail'],
};

const SUBMIT_WORDS = ['submit', 'send', 'continue', 'done', 'ok', 'save', 'go', 'next', 'confirm'];
const LOGIN_WORDS = ['log in', 'login', 'sign in', 'log on', 'sign on', 'submit', 'continue'];

/** Other names for the button a click step names: the page may call "Log in" "Sign in". */
function buttonAlternatives(say: string): string[] | undefined {
  const m = /^(?:click|press|hit|tap|push|select)(?: on)? (?:the )?(?:"|“)?(log ?in|sign ?in|submit|send|continue|ok|done)(?:"|”)?(?: button)?$/i.exec(say);
  if (!m) return undefined;
  const word = m[1].toLowerCase().replace(/\s+/g, ' ');
  const pool = /^(log ?in|sign ?in)$/.test(word) ? LOGIN_WORDS : SUBMIT_WORDS;
  return pool.filter((w) => w !== word).map((w) => `click the ${w} button`);
}

/**
 * "first name Ada": the longest page field name (or an alias of one) that starts the text,
 * and the rest as the value. Null when no field name starts it.
 */
function labelValue(pair: string, page: PlanPage, quotes: string[]): { label: string; value: string } | null {
  const text = pair.replace(/^(?:the|your|a|an|my)\s+/i, '').trim();
  const lower = norm(bare(text.replace(/\u0000\d+\u0000/g, ' '), quotes));
  const candidates = new Set<string>();
  for (const f of page.fields) {
    const n = norm(f);
    if (n) candidates.add(n);
    // "First name *", "Email address (required)": the words before any punctuation too.
    const head = norm(f.split(/[:*(]/)[0]);
    if (head) candidates.add(head);
  }
  for (const list of Object.values(FIELD_ALIASES)) for (const a of list) candidates.add(a);
  let best: string | null = null;
  for (const c of candidates) if ((lower === c || lower.startsWith(`${c} `)) && (!best || c.length > best.length)) best = c;
  if (!best) return null;
  // Cut the label's words off the original text (it may hold quotes).
  const n = best.split(' ').length;
  const tokens = text.split(/\s+/);
  let rest = tokens.slice(n).join(' ').replace(/^(?:of|as|is|to|=|:)\s+/i, '').trim();
  if (!rest) return null;
  rest = bare(rest, quotes);
  return { label: best, value: rest };
}

const ENTRY = /^(?:enter|type|fill in|fill out|fill|input|provide|put|write|use|key in|specify|set)\s+/i;
const INTO_FIELDS = /\s+(?:in|into|in to|on|to)\s+(?:the\s+)?(?:(?:text|input|form)\s+)?(?:fields?|boxes|inputs|form|textboxes|text boxes|blanks)$/i;

/** "the username X and the password Y (into the text fields)": two or more label-value pairs. */
function pairSteps(clause: string, page: PlanPage, quotes: string[]): PlanStep[] | null {
  if (!ENTRY.test(clause)) return null;
  const body = clause.replace(ENTRY, '').replace(INTO_FIELDS, '').trim();
  const pieces = body.split(/\s*,\s*(?:and\s+)?|\s+and\s+/i).filter(Boolean);
  if (pieces.length < 2) return null;
  const pairs = pieces.map((p) => labelValue(p, page, quotes));
  if (pairs.some((p) => !p)) return null;
  return pairs.map((p) => ({ say: `enter ${quoteValue(p!.value)} into the ${p!.label} field` }));
}

/** "Enter X into both (text/password) fields": the value into the first and the second of them. */
function bothSteps(clause: string, quotes: string[]): PlanStep[] | null {
  const m = new RegExp(`${ENTRY.source}(?:the\\s+)?(?:(?:same\\s+)?(?:password|value|text|email|code|word|name)\\s+)?(.+?)\\s+(?:in|into|in to|on)\\s+both(?:\\s+of)?(?:\\s+the)?\\s*(.*)$`, 'i').exec(clause);
  if (!m) return null;
  const value = bare(m[1], quotes);
  let kind = m[2].trim().replace(/s$/i, '').replace(/\s+(?:fields?|boxes?|inputs?)$/i, ' field') || 'text field';
  if (!/field$/i.test(kind)) kind = `${kind} field`;
  if (/^(?:text )?field$/i.test(kind)) kind = 'text field';
  return [{ say: `enter ${quoteValue(value)} into the first ${kind}` }, { say: `enter ${quoteValue(value)} into the second ${kind}` }];
}

/** "Log in as ada with password x", "sign in with email a@b.c and password y". */
function loginSteps(clause: string, quotes: string[]): PlanStep[] | null {
  const m = /^(?:log ?in|sign ?in|login|log on|sign on)(?: to \S+)?\s+(?:with|using|as)\s+(?:the\s+)?(?:(username|user name|user|email|e-mail|login|account)\s+)?(.+?)(?:\s*,\s*|\s+)(?:and\s+)?(?:with\s+)?(?:the\s+)?(?:password|pass|passcode)\s+(.+)$/i.exec(clause);
  const slash = /^(?:log ?in|sign ?in|login)\s+(?:with|using|as)\s+(\S+)\s*\/\s*(\S+)$/i.exec(clause);
  if (!m && !slash) return null;
  const kind = (m?.[1] ?? 'username').toLowerCase().replace('user name', 'username').replace('e-mail', 'email');
  const user = bare(m ? m[2] : slash![1], quotes);
  const pass = bare(m ? m[3] : slash![2], quotes);
  const userField = kind === 'email' ? 'email' : 'username';
  const others = (kind === 'email' ? ['username', 'user', 'login'] : ['email', 'user', 'login', 'user id']).map((w) => `enter ${quoteValue(user)} into the ${w} field`);
  return [
    { say: `enter ${quoteValue(user)} into the ${userField} field`, or: [...others, `enter ${quoteValue(user)} into the first text field`] },
    { say: `enter ${quoteValue(pass)} into the password field` },
    { say: 'click the log in button', or: LOGIN_WORDS.filter((w) => w !== 'log in').map((w) => `click the ${w} button`) },
  ];
}

const LIST_VERB = /^(select|choose|pick|check|tick|mark|click(?: on)?|uncheck|untick|unselect|deselect|press|tap)\s+(.+)$/i;

/** "Select 1, 5 and 9 (from the list)": the verb for each item, unless the whole object is one name on the page. */
function listSteps(clause: string, page: PlanPage, quotes: string[]): PlanStep[] | null {
  const m = LIST_VERB.exec(clause);
  if (!m) return null;
  let object = m[2];
  const suffix = /\s+(?:from|in|on|of)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}(?:list|menu|dropdown|options|checkboxes|boxes|group|section|panel|table|form)$/i.exec(object)?.[0] ?? '';
  object = object.slice(0, object.length - suffix.length).replace(/^(?:the\s+)?(?:options?|items?|checkbox(?:es)?|boxes|entries|values|numbers|words|colou?rs|buttons?)\s+/i, '');
  const items = object.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|&)\s+/i).map((x) => x.trim()).filter(Boolean);
  if (items.length < 2) return null;
  // "Terms and Conditions" is one checkbox: the whole object names one control.
  const whole = norm(bare(object, quotes));
  if (page.names.some((n) => norm(n) === whole)) return null;
  if (items.some((x) => x.split(/\s+/).length > 5)) return null;
  const verb = m[1].toLowerCase();
  return items.map((x) => ({ say: `${verb} ${/^\u0000\d+\u0000$/.test(x) ? restore(x, quotes) : bare(x, quotes)}${suffix}` }));
}

/** Directions to look around rather than steps: "switch between the tabs", "expand the sections below". */
const SEARCH_DIRECTION =
  /^(?:(?:switch|navigate|go|move|click|look|browse|flip|cycle)\s+(?:between|through|across|among|around)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:tabs?|sections?|panels?|pages?)|(?:expand|open|browse)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:sections?|panels?|tabs?|items?|headings?)(?:\s+(?:below|above|on the page|here))?|(?:look|search)\s+(?:around|through the page))$/i;

/**
 * Split `instruction` into single steps. Throws Refusal when the instruction has conditions or
 * repetition the planner cannot follow.
 */
export function planInstruction(instruction: string, page: PlanPage): PlanStep[] {
  const { text, quotes } = protect(instruction.trim().replace(/[.!]+$/, ''));
  let s = text.replace(/^(?:please|kindly|now|first|first of all|can you|could you|go ahead and|i want to|i'd like to)(?:[,\s]+|$)/gi, '').trim();
  if (/\b(if|unless|until|while|as long as|every time|for each|repeat)\b/i.test(s)) throw new Refusal('it has conditions or repetition the built-in model does not follow');
  let search = false;
  // "..., to find and click on the link X": a search for X, then the click.
  s = s.replace(/,?\s*(?:in order\s+)?to\s+(?:find|locate|reveal|look for)(?:\s+and\s+|\s*,\s*)/i, () => {
    search = true;
    return ' then ';
  });
  s = s.replace(/^(?:find|locate|look for)\s+and\s+/i, () => {
    search = true;
    return '';
  });
  const whole = loginSteps(s, quotes);
  if (whole) return whole;
  const steps: PlanStep[] = [];
  for (const raw of splitAll(s)) {
    let clause = raw.replace(/^(?:please|also|next|now)\s+/i, '').trim();
    if (SEARCH_DIRECTION.test(clause)) {
      search = true;
      continue;
    }
    const login = loginSteps(clause, quotes);
    if (login) {
      steps.push(...login);
      continue;
    }
    // "press login" at the end of a login form, "hit submit": the button, by any of its usual names.
    clause = clause.replace(/^(?:submit|send)(?:\s+(?:it|the form|this form|the details|your answer|the answer))?$/i, 'click submit');
    const expanded = bothSteps(clause, quotes) ?? pairSteps(clause, page, quotes) ?? listSteps(clause, page, quotes);
    if (expanded) {
      steps.push(...expanded.map((x) => (search ? { ...x, search } : x)));
      continue;
    }
    const say = restore(clause, quotes);
    const or = buttonAlternatives(say);
    steps.push({ say, ...(or ? { or } : {}), ...(search ? { search } : {}) });
  }
  if (!steps.length) throw new Refusal('it names no step to take');
  if (steps.length > 30) throw new Refusal(`it has ${steps.length} steps, more than the built-in model plans (30)`);
  return steps;
}
