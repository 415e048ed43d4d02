/**
 * Values into fields: entry lists ("first name Ada, last name Lovelace"), "into both fields", logins, lists one verb
 * spreads over ("Select 1, 5 and 9"), goals said with their steps, and suggestions picked after typing.
 */
import { Refusal } from '../act';
import { namedDate } from '../values';
import { either, oneOf } from '../words/grammar';
import { SUGGESTED, SUGGESTION_LISTS } from '../words/menus';
import { CREDENTIAL_NOUNS, FIELD_ALIASES, LOGIN_USER, LOGIN_WORDS, SHOWN_DETAILS, SHOWN_WHERE, SIGN_IN_WORDS } from '../words/purposes';
import { BY_CLICK_VERBS, BY_STEP_VERBS, OWNER_WORDS, PLACE_WORDS, VALUE_WORDS } from '../words/references';
import { ENTRY_VERBS, LIST_VERBS } from '../words/verbs';
import type { PlanPage, PlanStep } from './types';
import { bare, norm, quoteValue, restore } from './clauses';

/** Other names for the button a click step names: the page may call "Log in" "Sign in". */
export function buttonAlternatives(say: string): string[] | undefined {
  const m = /^(?:click|press|hit|tap|push|select)(?: on)? (?:the )?(?:"|“)?(log ?in|sign ?in|submit|send|continue|ok|done)(?:"|”)?(?: button)?$/i.exec(say);
  if (!m) return undefined;
  const word = m[1].toLowerCase().replace(/\s+/g, ' ');
  // A button the instruction names keeps its name: only the ways of writing "log in" stand in for
  // each other. "Submit" is never pressed for "Send" (a named control may be hidden, not renamed).
  if (!/^(log ?in|sign ?in)$/.test(word)) return undefined;
  return SIGN_IN_WORDS.filter((w) => w.replace(' ', '') !== word.replace(' ', '')).map((w) => `click the ${w} button`);
}

/**
 * "first name Ada": the longest page field name (or an alias of one) that starts the text,
 * and the rest as the value. Null when no field name starts it.
 */
export function labelValue(pair: string, page: PlanPage, quotes: string[]): Entry | null {
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
  // "the street Rua Augusta" for "Street address", "the zip code 1100" for "ZIP code": a word of
  // one field's name that no other field's name has.
  const count = new Map<string, number>();
  for (const f of page.fields) for (const w of new Set(norm(f).split(' '))) count.set(w, (count.get(w) ?? 0) + 1);
  for (const f of page.fields) {
    const ws = norm(f).split(' ');
    for (const w of ws) if (w.length >= 3 && count.get(w) === 1 && !/^(?:the|your|and|for|with|enter|type|here)$/.test(w)) candidates.add(w);
    if (ws.length >= 3) candidates.add(ws.slice(-2).join(' '));
  }
  let best: string | null = null;
  for (const c of candidates) if ((lower === c || lower.startsWith(`${c} `)) && (!best || c.length > best.length)) best = c;
  if (!best) return null;
  // Cut the label's words off the original text (it may hold quotes).
  const n = best.split(' ').length;
  const tokens = text.split(/\s+/);
  const after = tokens.slice(n).join(' ');
  // "the text below", "the value of Color": where a value is, read off the page, even where a field is called Text or Value.
  if (PLACE_VALUE.test(after) || (/^of\s/i.test(after) && oneOf(VALUE_WORDS).test(best))) return null;
  // "fill the coupon with SAVE20": the value is SAVE20, not "with SAVE20".
  let rest = after.replace(/^(?:of|as|is|to|with|=|:)\s+/i, '').trim();
  if (!rest) return null;
  const quoted = QUOTED.test(rest);
  rest = bare(rest, quotes);
  return { label: best, value: rest, quoted };
}

const ENTRY = new RegExp(`^(?:${either(ENTRY_VERBS)})\\s+`, 'i');
const PLACE_VALUE = new RegExp(`^(?:${either(PLACE_WORDS)})$`, 'i');
const INTO_FIELDS = /\s+(?:in|into|in to|on|to)\s+(?:the\s+)?(?:(?:text|input|form)\s+)?(?:fields?|boxes|inputs|form|textboxes|text boxes|blanks)$/i;
/** "Fill in the shipping form with", "Fill the contact form:": an introduction to a list of entries. */
const FORM_INTRO = /^(?:fill(?:\s+(?:in|out))?|complete)\s+(?:the\s+|this\s+|your\s+)?(?:[\w-]+\s+){0,2}form\s*(?::|with|using)?\s+(?:the\s+)?/i;

interface Entry {
  label: string;
  value: string;
  /** The value was quoted: text as written, even when it reads like a date named by description. */
  quoted?: boolean;
  /** "select Product manager as the role": the value is an option first. */
  choose?: boolean;
}

export const QUOTED = /^\u0000\d+\u0000$/;

/** One "label/value" piece of an entry list, in any of the ways people write it; null when it is not one. */
function entryOf(piece: string, verb: string, page: PlanPage, quotes: string[]): Entry | null {
  const p = piece.replace(/^(?:the|your|a|an|my)\s+/i, '').trim();
  const setVerb = /^(?:set|change|update)$/i.test(verb);
  let m: RegExpExecArray | null;
  // "V into L", "V in the L field".
  const q = (raw: string) => QUOTED.test(raw.trim());
  const entry = (label: string, value: string, more: Partial<Entry> = {}): Entry => ({
    label: bare(label, quotes),
    value: bare(value, quotes),
    quoted: q(value),
    ...more,
  });
  if ((m = /^(.+?)\s+(?:into|in|in to|inside)\s+(?:the\s+)?(.+?)(?:\s+(?:field|box|input))?$/i.exec(p)) && !setVerb) return entry(m[2], m[1]);
  // "L: V".
  if ((m = /^([^:\d\u0000][^:\u0000]{0,39}?)\s*:\s+(.+)$/.exec(p))) return entry(m[1], m[2]);
  // "L to V" (set, change, update), "V as the L" (enter, type, select).
  if (setVerb && (m = /^(.+?)\s+(?:to|as|=)\s+(.+)$/i.exec(p))) return entry(m[1], m[2]);
  if ((m = /^(.+?)\s+as\s+(?:the\s+|your\s+|a\s+|an\s+)?(.+)$/i.exec(p))) return entry(m[2], m[1], { choose: /^(?:select|choose|pick)$/i.test(verb) });
  // "first name Ada": a field name of the page, then the value.
  const lv = labelValue(p, page, quotes);
  return lv;
}

const entryStep = (e: Entry): PlanStep => {
  // A date named by description stays words ("enter tomorrow into ..."): the step writes the day as the field takes it.
  const v = !e.quoted && namedDate(e.value) ? e.value : quoteValue(e.value);
  const enter = `enter ${v} into the ${e.label} field`;
  const select = `select ${v} as the ${e.label}`;
  if (v === e.value) return { say: enter };
  return e.choose ? { say: select, or: [enter] } : { say: enter, or: [select] };
};

/**
 * Several entries in one clause: "the username X and the password Y (into the text fields)",
 * "Ada as the name, 03/15/2024 as the date and 2:30 PM as the time", ""5 Elm Road" into
 * Street and "Portland" into City", "set the timeout to 60 and the retries to 5", "First name:
 * Alan, last name: Turing". Null unless every piece reads as an entry.
 */
export function entrySteps(clause: string, page: PlanPage, quotes: string[]): PlanStep[] | null {
  let verb = '';
  let body = clause;
  const intro = FORM_INTRO.exec(clause);
  if (intro) {
    verb = 'enter';
    body = clause.slice(intro[0].length);
  } else {
    const m = /^(enter|type|fill in|fill out|fill|input|provide|put|write|use|key in|specify|set|change|update|select|choose|pick)\s+(.+)$/i.exec(clause);
    if (m) {
      verb = m[1];
      body = m[2];
    } else if (!/^[^:\d]{1,40}:\s+\S/.test(clause)) return null;
  }
  body = body.replace(INTO_FIELDS, '').trim();
  const pieces = body.split(/\s*[,;]\s*(?:and\s+)?|\s+and\s+/i).filter(Boolean);
  // One piece: only "the password X", a field's name then its value, needs reading here.
  // "Enter today's date" is a date named by description, not the field "Today's ..." and the value "date".
  if (pieces.length === 1 && namedDate(bare(body, quotes)) && !QUOTED.test(body.trim())) return null;
  if (
    pieces.length === 1 &&
    /^(?:enter|type|input|provide|put|write|use|key in|specify|fill in|fill)$/i.test(verb) &&
    !/\s(?:into|in|as|to|on)\s/i.test(body)
  ) {
    const lv = labelValue(body, page, quotes);
    return lv && lv.value.split(/\s+/).length <= 4 ? [entryStep(lv)] : null;
  }
  if (pieces.length < 2) return null;
  const entries = pieces.map((p) => entryOf(p, verb || 'enter', page, quotes));
  if (entries.some((e) => !e || !e.label || !e.value)) return null;
  return entries.map((e) => entryStep(e!));
}

/** What a value typed into both fields may be called ("the same password"). */
const BOTH_VALUE = 'password|value|text|email|code|word|name';

/** "Enter X into both (text/password) fields": the value into the first and the second of them. */
export function bothSteps(clause: string, quotes: string[]): PlanStep[] | null {
  const m = new RegExp(
    `${ENTRY.source}(?:the\\s+)?(?:(?:same\\s+)?(?:${BOTH_VALUE})\\s+)?(.+?)\\s+(?:in|into|in to|on)\\s+both(?:\\s+of)?(?:\\s+the)?\\s*(.*)$`,
    'i',
  ).exec(clause);
  if (!m) return null;
  const value = bare(m[1].replace(/\s+as\s+(?:the|your|a|an)\s+.*$/i, ''), quotes);
  let kind =
    m[2]
      .trim()
      .replace(/s$/i, '')
      .replace(/\s+(?:fields?|boxes?|inputs?)$/i, ' field') || 'text field';
  if (!/field$/i.test(kind)) kind = `${kind} field`;
  if (/^(?:text )?field$/i.test(kind)) kind = 'text field';
  return [{ say: `enter ${quoteValue(value)} into the first ${kind}` }, { say: `enter ${quoteValue(value)} into the second ${kind}` }];
}

/** "Log in as ada with password x": (1) what the user is called, if said, (2) the user, (3) the password. */
const LOGIN_WITH = new RegExp(
  '^(?:log ?in|sign ?in|login|log on|sign on)(?:\\s+to\\s+\\S+)?\\s+(?:with|using|as)\\s+(?:the\\s+|my\\s+)?' +
    `(?:(${either(LOGIN_USER)})\\s+)?(.+?)(?:\\s*,\\s*|\\s+)(?:and\\s+)?` +
    '(?:(?:with|using)\\s+)?(?:the\\s+|my\\s+)?(?:password|pass|passcode)(?:\\s+(?:is|of)|\\s*[:=])?\\s+(.+)$',
  'i',
);

const SHOWN_DETAIL = `(?:${either(SHOWN_DETAILS)})`;
/**
 * "Log in using the provided credentials displayed on the page", "sign in with the username and password shown below":
 * details the page shows, read off it (never typed as the words that describe them).
 */
const LOGIN_SHOWN = new RegExp(
  `^(?:log ?in|sign ?in|login|log on|sign on)(?:\\s+to\\s+\\S+)?\\s+(?:with|using|by using)\\s+(?:the\\s+|your\\s+)?` +
    `(?:${SHOWN_DETAIL}\\s+)?(?:${either(CREDENTIAL_NOUNS)})` +
    `(?:\\s+(?:that\\s+(?:are|is)\\s+)?${SHOWN_DETAIL})?(?:\\s+(?:${either(SHOWN_WHERE)}))?$`,
  'i',
);
/** A user or password that is words about one, not one ("and", "shown on the page"): the clause was misread. */
const NO_DETAIL = new RegExp(`^(?:and|or|the|a|my|your|it|them)$|\\b(?:${either(SHOWN_DETAILS)})\\b|\\b(?:${either(SHOWN_WHERE)})$`, 'i');

/**
 * "Log in as ada with password x", "sign in with email a@b.c and password y", "log me in as
 * Bryce, password is Tr0ub4dor", "log in as tim, password: www1989", "use the credentials
 * jdoe / hunter2 to sign in": the user name, the password, then the log-in button.
 */
export function loginSteps(clause: string, quotes: string[]): PlanStep[] | null {
  const c = clause.replace(/\b(log|sign)\s+me\s+(in|on)\b/i, '$1 $2');
  if (!/\b(?:log ?in|sign ?in|login|log on|sign on|credentials)\b/i.test(c)) return null;
  const loginClick: PlanStep = {
    say: 'click the log in button',
    or: LOGIN_WORDS.filter((w) => w !== 'log in').map((w) => `click the ${w} button`),
    implied: true,
  };
  if (LOGIN_SHOWN.test(bare(c, quotes).trim())) {
    // Each read off the page by its label when the step runs ("Username: ada_k"), or the run refuses.
    return [
      { say: 'enter "the value of Username" into the username field', ref: 'the value of Username' },
      { say: 'enter "the value of Password" into the password field', ref: 'the value of Password' },
      loginClick,
    ];
  }
  let user: string | undefined;
  let pass: string | undefined;
  let kind = 'username';
  const slash = /\b(?:as|with|using|credentials)\s+(\S+)\s*\/\s*(\S+)/i.exec(c);
  if (slash) [user, pass] = [slash[1], slash[2]];
  else {
    const m = LOGIN_WITH.exec(c);
    if (!m) return null;
    kind = (m[1] ?? 'username').toLowerCase().replace('user name', 'username').replace('e-mail', 'email');
    if (!m[1] && /@/.test(bare(m[2], quotes))) kind = 'email';
    [user, pass] = [m[2], m[3]];
  }
  user = bare(user, quotes);
  pass = bare(pass.replace(/\s+(?:to|and)\s+(?:log ?in|sign ?in)$/i, ''), quotes);
  if (NO_DETAIL.test(user.trim()) || NO_DETAIL.test(pass.trim())) {
    throw new Refusal('it describes the log-in details instead of giving them, in words the built-in planner does not read');
  }
  const userField = kind === 'email' ? 'email' : 'username';
  const others = (kind === 'email' ? ['username', 'user', 'login'] : ['email', 'user', 'login', 'user id']).map(
    (w) => `enter ${quoteValue(user!)} into the ${w} field`,
  );
  return [
    { say: `enter ${quoteValue(user)} into the ${userField} field`, or: others },
    { say: `enter ${quoteValue(pass)} into the password field` },
    loginClick,
  ];
}

const LIST_VERB = new RegExp(`^(${either(LIST_VERBS)})\\s+(.+)$`, 'i');

/** "Select 1, 5 and 9 (from the list)": the verb for each item, unless the whole object is one name on the page. */
export function listSteps(clause: string, page: PlanPage, quotes: string[]): PlanStep[] | null {
  const m = LIST_VERB.exec(clause);
  if (!m) return null;
  let object = m[2];
  const suffix =
    /\s+(?:from|in|on|of)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}(?:list|menu|dropdown|options|checkboxes|boxes|group|section|panel|table|form)$/i.exec(object)?.[0] ??
    '';
  object = object
    .slice(0, object.length - suffix.length)
    .replace(/^(?:the\s+)?(?:options?|items?|checkbox(?:es)?|boxes|entries|values|numbers|words|colou?rs|buttons?)\s+/i, '');
  const items = object
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|&)\s+/i)
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length < 2) return null;
  // "Terms and Conditions" is one checkbox: the whole object names one control.
  const whole = norm(bare(object, quotes));
  if (page.names.some((n) => norm(n) === whole)) return null;
  if (items.some((x) => x.split(/\s+/).length > 5)) return null;
  const verb = m[1].toLowerCase();
  return items.map((x) => ({ say: `${verb} ${/^\u0000\d+\u0000$/.test(x) ? restore(x, quotes) : bare(x, quotes)}${suffix}` }));
}

/**
 * "Register the guest Linus by entering his name and clicking Submit": (1) the goal, which ends
 * with the value, (2) the field, (3) the button.
 */
const GOAL_BY_STEPS = new RegExp(
  `^(.+?)\\s+by\\s+(?:${either(BY_STEP_VERBS)})\\s+(?:${either(OWNER_WORDS)})\\s+([\\w -]{1,30}?)` +
    `,?\\s+(?:and|then)\\s+(?:then\\s+)?(?:${either(BY_CLICK_VERBS)})\\s+(?:on\\s+)?(.+)$`,
  'i',
);

/** The steps a goal says it is carried out by: the value it names (quoted, or the capitalised name it ends with) into the field, then the click. */
export function goalBySteps(s: string): string | null {
  const m = GOAL_BY_STEPS.exec(s);
  if (!m) return null;
  const [, goal, field, click] = m;
  const quoted = /(\u0000\d+\u0000)$/.exec(goal.trim())?.[1];
  // Unquoted, only a person's name ("the guest Linus") into a name field: "Save the Form by entering the date" names no value.
  const named = /\s(?!(?:the|a|an|this|that|my|your|our|their)\s)[a-z][\w-]*\s((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*){0,2})$/.exec(goal.trim())?.[1];
  const value = quoted ?? (named && /\bname\b/i.test(field) ? quoteValue(named) : null);
  return value ? `enter ${value} into the ${field} field, then click ${click}` : null;
}

/** "Enter an item that starts with "Ger" (and ends with "ny")": (1) the start, (2) the end. */
export const STARTS_WITH = new RegExp(
  `^(?:enter|type|input|choose|pick|select)\\s+(?:an?\\s+)?(?:${either(SUGGESTED)})\\s+that\\s+starts\\s+with\\s+(\\S+)(?:\\s+and\\s+ends\\s+with\\s+(\\S+))?$`,
  'i',
);
/** "pick Porto from the (city) suggestions": (1) the suggestion, (2) the field. */
export const FROM_SUGGESTIONS = new RegExp(
  `^(?:pick|choose|select|click)\\s+(.+?)\\s+(?:from|in|among)\\s+(?:the\\s+)?(?:(.+?)\\s+)?(?:${either(SUGGESTION_LISTS)})$`,
  'i',
);
