/**
 * Values an instruction names rather than writes out. A date said in words ("today's date",
 * "tomorrow", "next Monday", "in 3 days") is a day counted from the page's own date, written in
 * the form the field asks for: its input type, or a format its placeholder, label, pattern, the
 * text beside it or the value it holds shows. When nothing says which form, the step is refused:
 * the words themselves are never typed.
 *
 * The family (documented in docs/guides/models.md): today, tomorrow, yesterday (with or without
 * "'s date"), the current date, the date today, the day after tomorrow, the day before yesterday,
 * in N days or weeks, N days or weeks from today or ago, next or last WEEKDAY ("next" is the first
 * one after today, "last" the latest one before it). A quoted value is always text, typed as written.
 */
import { Refusal } from './refusal';
import { WEEKDAY_AHEAD, WEEKDAY_BACK, WEEKDAYS } from './words/dates';
import { either } from './words/grammar';
import { COUNT_PHRASE, COUNT_WORDS } from './words/numbers';

/** A day named by description: days from today, or the next or last given weekday (0 is Sunday). */
export type NamedDate = { days: number } | { weekday: number; dir: 1 | -1 };

const COUNT = `(${COUNT_PHRASE})`;
const count = (w: string) => COUNT_WORDS[w] ?? Number(w);

/** The date a description names, or null when the words are not one of the family. */
export function namedDate(value: string): NamedDate | null {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[.!]+$/, '')
    .replace(/\s+/g, ' ')
    .replace(/^(?:the )?date (?:of |for )?(today|tomorrow|yesterday)$/, '$1');
  let m: RegExpExecArray | null;
  // "today's date", "todays date", "today date" (an instruction's "'s" may have been read off already).
  if (/^(?:today(?:'?s?(?: date)?)?|(?:the )?(?:current|present) date|(?:the )?date today)$/.test(v)) return { days: 0 };
  if (/^tomorrow(?:'?s?(?: date)?)?$/.test(v)) return { days: 1 };
  if (/^yesterday(?:'?s?(?: date)?)?$/.test(v)) return { days: -1 };
  if (/^(?:the )?day after tomorrow$/.test(v)) return { days: 2 };
  if (/^(?:the )?day before yesterday$/.test(v)) return { days: -2 };
  if ((m = new RegExp(`^(?:in ${COUNT} (days?|weeks?)(?: (?:from|after) (?:today|now))?|${COUNT} (days?|weeks?) (?:from|after) (?:today|now))$`).exec(v))) {
    const n = count(m[1] ?? m[3]);
    return { days: n * (/^week/.test(m[2] ?? m[4]) ? 7 : 1) };
  }
  if ((m = new RegExp(`^${COUNT} (days?|weeks?) (?:ago|before today)$`).exec(v))) return { days: -count(m[1]) * (/^week/.test(m[2]) ? 7 : 1) };
  if ((m = new RegExp(`^(${either([...WEEKDAY_AHEAD, ...WEEKDAY_BACK])}) (${either(WEEKDAYS)})$`).exec(v))) {
    return { weekday: WEEKDAYS.indexOf(m[2]), dir: WEEKDAY_AHEAD.includes(m[1]) ? 1 : -1 };
  }
  return null;
}

const MENTIONS = new RegExp(
  `\\b(?:today|tomorrow|yesterday|current date|present date|(?:next|last|coming|past|previous) (?:${either(WEEKDAYS)})` +
    '|(?:days?|weeks?) (?:ago|from (?:today|now)|before today|after today))\\b|\\bin \\S+ (?:days?|weeks?)\\b',
  'i',
);

/** A date by description inside a longer text ("Enter the date 32 days ago in UTC"). */
const NAMED_IN = new RegExp(
  `\\b(?:(?:the )?day (?:after tomorrow|before yesterday)|(?:today|tomorrow|yesterday)(?:'?s?(?: date)?)?|(?:the )?(?:current|present) date|` +
    `in ${COUNT} (?:days?|weeks?)|${COUNT} (?:days?|weeks?) (?:ago|before today|(?:from|after) (?:today|now))|` +
    `(?:${either([...WEEKDAY_AHEAD, ...WEEKDAY_BACK])}) (?:${either(WEEKDAYS)}))\\b`,
  'gi',
);

/** The days a text names by description (a field's label that says which day it takes). */
export function datesNamedIn(text: string): NamedDate[] {
  return [...text.replace(/[’`]/g, "'").matchAll(NAMED_IN)].map((m) => namedDate(m[0])).filter((d): d is NamedDate => d !== null);
}

/** Whether an instruction names a date by description anywhere in it (the engine then reads the page's date). */
export function mentionsNamedDate(instruction: string): boolean {
  return MENTIONS.test(instruction);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The calendar day a description names, counted from `today` (YYYY-MM-DD), as [year, month, day]. */
export function dayOf(named: NamedDate, today: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  if (!m) throw new Refusal(`the page's date is not known (${today || 'none was read'})`);
  const base = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  let days: number;
  if ('days' in named) days = named.days;
  else {
    const dow = base.getUTCDay();
    days = named.dir === 1 ? (named.weekday - dow + 7) % 7 || 7 : -((dow - named.weekday + 7) % 7 || 7);
  }
  const d = new Date(base.getTime() + days * 86_400_000);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

/** A text date format: its three parts in order and what separates them ("MM/DD/YYYY"). */
export interface DateFormat {
  parts: ('YYYY' | 'YY' | 'MM' | 'M' | 'DD' | 'D')[];
  sep: string;
}

export const formatName = (f: DateFormat) => f.parts.join(f.sep);

export function formatDate([y, mo, d]: [number, number, number], f: DateFormat): string {
  const part = { YYYY: pad(y, 4), YY: pad(y % 100), MM: pad(mo), M: String(mo), DD: pad(d), D: String(d) };
  return f.parts.map((p) => part[p]).join(f.sep);
}

// A format written out: "MM/DD/YYYY", "dd.mm.yyyy", "YYYY-MM-DD", "TT.MM.JJJJ", "JJ/MM/AAAA".
const TOKEN = '([yYaAjJ]{4}|[yY]{2}|[mM]{1,2}|[dDtTjJ]{1,2})';
const WRITTEN = new RegExp(`(?<![\\p{L}\\d])${TOKEN}([./\\- ])${TOKEN}\\2${TOKEN}(?![\\p{L}\\d])`, 'u');

/** A format spelled out in letters in `text`; null when there is none or it is not a day, a month and a year. */
export function writtenFormat(text: string): DateFormat | null {
  const m = WRITTEN.exec(text);
  if (!m) return null;
  const parts = [m[1], m[3], m[4]].map((t) => {
    const c = t[0].toLowerCase();
    if (t.length === 4 || c === 'y' || c === 'a') return t.length === 4 ? 'YYYY' : 'YY';
    if (c === 'm') return t.length === 2 ? 'MM' : 'M';
    return t.length === 2 ? 'DD' : 'D';
  }) as DateFormat['parts'];
  const kinds = parts
    .map((p) => p[0])
    .sort()
    .join('');
  return kinds === 'DMY' ? { parts, sep: m[2] } : null;
}

/**
 * The format an example date shows ("e.g. 31/12/2024", a value the field holds); null unless it
 * can be read one way only ("01/02/2024" could be either order).
 */
export function exampleFormat(text: string): DateFormat | null {
  const m = /(?<![\d/.-])(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?![\d/.-])/.exec(text);
  if (!m) return null;
  const [a, sep, b, c] = [m[1], m[2], m[3], m[4]];
  const width = (s: string, two: 'MM' | 'DD', one: 'M' | 'D') => (s.length === 2 ? two : one);
  if (a.length === 4 && c.length <= 2) return Number(b) <= 12 && Number(c) <= 31 ? { parts: ['YYYY', width(b, 'MM', 'M'), width(c, 'DD', 'D')], sep } : null;
  if (a.length > 2 || b.length > 2 || (c.length !== 4 && c.length !== 2)) return null;
  const year = c.length === 4 ? 'YYYY' : 'YY';
  const [x, y] = [Number(a), Number(b)];
  if (x > 12 && x <= 31 && y >= 1 && y <= 12) return { parts: [width(a, 'DD', 'D'), width(b, 'MM', 'M'), year], sep };
  if (y > 12 && y <= 31 && x >= 1 && x <= 12) return { parts: [width(a, 'MM', 'M'), width(b, 'DD', 'D'), year], sep };
  return null;
}

/** The ISO week ("2024-W01") a day falls in. */
function isoWeek([y, mo, d]: [number, number, number]): string {
  const t = new Date(Date.UTC(y, mo - 1, d));
  const dow = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - dow); // the Thursday of its week decides the year
  const year = t.getUTCFullYear();
  const week = Math.ceil(((t.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${pad(week)}`;
}

/** What a field tells about the date it takes, as the outline shows it. */
export interface DateField {
  /** Its input type ("date", "text", "" for a text field). */
  type: string;
  name: string;
  placeholder?: string;
  pattern?: string;
  /** What it holds now: an example of its format when it reads one way only. */
  value?: string;
  /** Short text right next to it ("Format: DD/MM/YYYY"). */
  beside: string[];
}

const TEXT_TYPES = new Set(['', 'text', 'search']);

/**
 * The day written as the field takes it; a Refusal saying why when the field does not say
 * which format it takes, or its hints disagree, or it takes no date.
 */
export function dateValueFor(field: DateField, day: [number, number, number]): string {
  const iso = `${pad(day[0], 4)}-${pad(day[1])}-${pad(day[2])}`;
  switch (field.type) {
    case 'date':
      return iso;
    case 'month':
      return iso.slice(0, 7);
    case 'week':
      return isoWeek(day);
    case 'datetime-local':
    case 'time':
      throw new Refusal(`the field takes a ${field.type === 'time' ? 'time' : 'date and a time'}, and the instruction names only a day`);
  }
  if (!TEXT_TYPES.has(field.type)) throw new Refusal(`the field is of type ${field.type}, which takes no date`);
  const found = new Map<string, DateFormat>();
  const add = (f: DateFormat | null) => f && found.set(formatName(f), f);
  if (field.placeholder) add(writtenFormat(field.placeholder) ?? exampleFormat(field.placeholder));
  add(writtenFormat(field.name));
  for (const t of field.beside) add(writtenFormat(t));
  if (field.value) add(exampleFormat(field.value));
  const pattern = field.pattern ? patternOf(field.pattern) : null;
  // A pattern with the year first reads one way ("\d{4}-\d{2}-\d{2}"); with the year last it leaves day and month open.
  if (!found.size && field.pattern) add(yearFirst(field.pattern));
  if (found.size > 1) throw new Refusal(`the field's hints name different date formats (${[...found.keys()].join(', ')})`);
  const format = [...found.values()][0];
  if (!format) throw new Refusal('the field does not say which date format it takes (no date type, and no format in its placeholder, label, pattern or value)');
  const text = formatDate(day, format);
  if (pattern && !pattern.test(text)) throw new Refusal(`${text} (${formatName(format)}) does not fit the field's pattern ${field.pattern}`);
  return text;
}

/** The field's pattern attribute as the browser applies it: the whole value must match. */
function patternOf(source: string): RegExp | null {
  for (const flags of ['v', 'u']) {
    try {
      return new RegExp(`^(?:${source})$`, flags);
    } catch {
      /* an older engine, or a pattern the browser ignores too */
    }
  }
  return null;
}

/** "\d{4}-\d{1,2}-\d{1,2}", "[0-9]{4}/[0-9]{2}/[0-9]{2}": year, month, day. */
function yearFirst(source: string): DateFormat | null {
  const digits = '(?:\\\\d|\\[0-9\\])\\{(\\d)(?:,(\\d))?\\}';
  const m = new RegExp(`^\\^?${digits}\\\\?([-/.])${digits}\\\\?\\3${digits}\\$?$`).exec(source.trim());
  if (!m || m[1] !== '4' || m[2] !== undefined) return null;
  const two = (min: string, max: string | undefined) => min === '2' && max === undefined;
  return { parts: ['YYYY', two(m[4], m[5]) ? 'MM' : 'M', two(m[6], m[7]) ? 'DD' : 'D'], sep: m[3] };
}

/**
 * Instructions that add text to what a field holds instead of replacing it: "append X to F",
 * "add X to the end of F", "type X at the end of F", "type X after the existing text in F",
 * "type X into F without clearing it". The value (as written, with quote markers) and the field.
 */
export function appendOf(s: string): { value: string; field: string } | null {
  let m: RegExpExecArray | null;
  if ((m = /^append (QQ\d+|.+?) (?:to|onto|into|in|at the end of)(?: the end of)? (.+)$/i.exec(s))) return { value: m[1], field: m[2] };
  if ((m = /^(?:add|type|enter|write|put|insert|input|key in) (QQ\d+|.+?) (?:to|at|onto) the end of (.+)$/i.exec(s))) return { value: m[1], field: m[2] };
  const existing = "(?:the (?:existing|current) (?:text|value|contents?)|what(?: is|'s) (?:already )?(?:there|in it))";
  const after = new RegExp(`^(?:add|type|enter|write|put|insert|input|key in) (QQ\\d+|.+?) after ${existing} (?:in|of) (.+)$`, 'i');
  if ((m = after.exec(s))) return { value: m[1], field: m[2] };
  const unless =
    '(?:without (?:clearing|erasing|replacing|deleting|removing)' +
    '(?: it| its (?:text|value|contents?)| what is (?:already )?(?:there|in it)| the existing text)?' +
    '|keeping (?:its|the existing|the current) (?:text|value|contents?))';
  const keeping = new RegExp(`^(?:type|enter|write|put|insert|input|key in|add) (QQ\\d+|.+?) (?:into|in|to) (.+?),? ${unless}$`, 'i');
  if ((m = keeping.exec(s))) return { value: m[1], field: m[2] };
  return null;
}
