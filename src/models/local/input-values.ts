/**
 * Values as people write them, turned into the form a date or time input takes: "11/05/2016",
 * "May 11, 2016" or "11 May 2016" become "2016-11-05" / "2016-05-11", "3:15 PM" becomes
 * "15:15". Anything it cannot read is returned as given, so the input's own check still
 * refuses it with a clear message. Slashed dates read month first (as en-US pages and the
 * task suites written for them do) unless the first number cannot be a month.
 */

/** An e-mail address as people write one, alone (`EMAIL_SHAPE`) or anywhere in a text (`EMAILS`, global). */
const EMAIL = `[^\\s@"'<>]+@[^\\s@"'<>]+\\.[a-z]{2,}`;
export const EMAIL_SHAPE = new RegExp(`^${EMAIL}$`, 'i');
export const EMAILS = new RegExp(EMAIL, 'gi');

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function year(s: string): number {
  const n = Number(s);
  return s.length <= 2 ? 2000 + n : n;
}

/** The month (1 to 12) a word names ("Jul", "July"), or 0. */
export const monthOf = (s: string): number => MONTHS.indexOf(s.slice(0, 3).toLowerCase()) + 1;

/** A calendar date from common spellings, as YYYY-MM-DD; null when it is not one. */
export function isoDate(input: string): string | null {
  const s = input
    .trim()
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ');
  let m: RegExpExecArray | null;
  let y = 0;
  let mo = 0;
  let d = 0;
  if ((m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s))) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(s))) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    y = year(m[3]);
    // Month first, unless the first number is no month and the second is.
    [mo, d] = a > 12 && b <= 12 ? [b, a] : [a, b];
  } else if ((m = /^([a-z]{3,9})\.? (\d{1,2}) (\d{4})$/i.exec(s)) && monthOf(m[1])) [y, mo, d] = [Number(m[3]), monthOf(m[1]), Number(m[2])];
  else if ((m = /^(\d{1,2}) ([a-z]{3,9})\.? (\d{4})$/i.exec(s)) && monthOf(m[2])) [y, mo, d] = [Number(m[3]), monthOf(m[2]), Number(m[1])];
  else return null;
  return validDate(y, mo, d) ? `${pad(y, 4)}-${pad(mo)}-${pad(d)}` : null;
}

/** A time of day from common spellings ("3:15 PM", "3pm", "15:15", "noon"), as HH:MM[:SS]; null when it is not one. */
export function isoTime(input: string): string | null {
  const s = input.trim().toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ');
  if (s === 'noon' || s === 'midday') return '12:00';
  if (s === 'midnight') return '00:00';
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))? ?(am|pm|a|p)?$/.exec(s);
  if (!m || (!m[2] && !m[4])) return null;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  const sec = m[3] !== undefined ? Number(m[3]) : null;
  if (m[4]) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (m[4].startsWith('p') ? 12 : 0);
  }
  if (h > 23 || min > 59 || (sec !== null && sec > 59)) return null;
  return `${pad(h)}:${pad(min)}${sec !== null ? `:${pad(sec)}` : ''}`;
}

/** The value to set on an input of `type` for what a person wrote; the text itself when it needs no change or cannot be read. */
export function valueForInput(type: string, text: string): string {
  switch (type) {
    case 'date':
      return isoDate(text) ?? text;
    case 'time':
      return isoTime(text) ?? text;
    case 'month': {
      const d = isoDate(text) ?? isoDate(`1 ${text}`);
      return d ? d.slice(0, 7) : text;
    }
    case 'datetime-local': {
      const m = /^(.*?)(?:,|\s+at\s+|\s+|T)(\d{1,2}(?::\d{2}){0,2}\s*(?:[ap]\.?m\.?)?)$/i.exec(text.trim());
      const d = m && isoDate(m[1]);
      const t = m && isoTime(m[2]);
      return d && t ? `${d}T${t}` : text;
    }
    case 'color': {
      // The form a colour input keeps: six lower-case hex digits ("#F80" is "#ff8800").
      const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
      if (!m) return text;
      const hex = m[1]!.toLowerCase();
      return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
    }
    default:
      return text;
  }
}
