/**
 * A goal said with the values of its form rather than as a list of fields: "create an account for Hedy Lamarr
 * (hedy@example.com) with the password frequency-hop", "book a cleaning for Grace Hopper on 06/07/2024 at 9:15 AM: fill
 * in the name, the date and the time, ...", "order 2 in size S, colour White". Each is said again as the list of fields
 * the planner reads, only where the page has the fields it needs and every value has one clear place.
 */
import { either } from '../words/grammar';
import { ACCOUNT_NOUNS, ACCOUNT_VERBS, FILL_LIST_VERBS, HEAD_FIELDS, ORDER_UNITS, ORDER_VERBS } from '../words/goals';
import type { PlanPage } from './types';
import { quoteValue } from './clauses';

/** A person's name as a goal gives it: one to three capitalised words. */
const NAME = "([A-Z][\\w'-]*(?:\\s+[A-Z][\\w'-]*){0,2})";
const EMAIL = '([\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+)';
/** Brackets the planner keeps whole, as its mark for them: "(hedy@example.com)". */
const BRACKETS = '(\\u0001\\d+\\u0001)';
const DATE = '(\\d{1,2}/\\d{1,2}/\\d{2,4}|\\d{4}-\\d{2}-\\d{2})';
const TIME = '(\\d{1,2}(?::\\d{2})?\\s*(?:[AaPp]\\.?[Mm]\\.?)?)';

/** (1) the verb, (2) the noun, (3) the name, (4) an email in brackets or (5) after it, (6) the password. */
const ACCOUNT_FOR = new RegExp(
  `^(${either(ACCOUNT_VERBS)})\\s+(?:an?\\s+|the\\s+)?(?:new\\s+)?(${either(ACCOUNT_NOUNS)})\\s+for\\s+${NAME}` +
    `(?:\\s*${BRACKETS}|,?\\s+(?:with\\s+(?:the\\s+)?e-?mail(?:\\s+address)?\\s+)?${EMAIL})?` +
    '(?:,?\\s+(?:and\\s+)?(?:(?:with|using)\\s+)?(?:the\\s+)?password\\s+(\\S+?))?[.!]?$',
  'i',
);
/** (1) the head, (2) the fields listed, (3) the rest. */
const HEAD_THEN_FIELDS = new RegExp(
  `^(.+?):\\s*(?:${either(FILL_LIST_VERBS)})\\s+((?:the\\s+)?(?:${either(HEAD_FIELDS)})(?:\\s*(?:,|,?\\s+and)\\s+(?:the\\s+)?(?:${either(HEAD_FIELDS)}))*)` +
    '(\\s*(?:,|;|\\.|$).*)$',
  'i',
);
/** (1) how many, (2) the size, (3) the colour word, (4) the colour, (5) the rest. */
const ORDER_OF = new RegExp(
  `^(?:${either(ORDER_VERBS)})\\s+(\\d+)(?:\\s+(?:${either(ORDER_UNITS)}))?,?\\s+(?:in\\s+)?size\\s+([\\w-]+)` +
    '(?:,?\\s+(?:and\\s+)?(?:in\\s+)?(?:the\\s+)?(colou?r)\\s+([\\w-]+))?((?:,?\\s+(?:then|and)\\b.*)?)$',
  'i',
);

const hasField = (page: PlanPage, re: RegExp) => page.fields.some((f) => re.test(f));

/** The name as the page's fields take it: first and last where it has both, else one name. */
function nameParts(name: string, page: PlanPage): string[] | null {
  const words = name.trim().split(/\s+/);
  if (hasField(page, /\bfirst\s*name\b/i) && hasField(page, /\b(?:last|sur|family)\s*name\b/i)) {
    return words.length === 2 ? [`first name: ${words[0]}`, `last name: ${words[1]}`] : null;
  }
  return hasField(page, /\bname\b/i) ? [`name: ${name}`] : null;
}

/** The goal said as the fields it fills, or null when it is none of these or the page lacks a field it needs. */
export function goalValues(s: string, page: PlanPage, quotes: string[]): string | null {
  let m = ACCOUNT_FOR.exec(s.trim());
  if (m) {
    const [, verb, noun, name, bracketed, plain, password] = m;
    // An address in brackets, and nothing else in them.
    const inside = bracketed ? (quotes[Number(bracketed.slice(1, -1))] ?? '').replace(/^\(\s*|\s*\)$/g, '') : undefined;
    if (inside !== undefined && !new RegExp(`^${EMAIL}$`).test(inside)) return null;
    const email = inside ?? plain;
    const names = nameParts(name!, page);
    if (!names || (email && !hasField(page, /e-?mail/i)) || (password && !hasField(page, /password/i))) return null;
    const parts = [...names, ...(email ? [`email: ${email}`] : []), ...(password ? [`password: ${password}`] : [])];
    return `${parts.join(', ')}, then ${verb!.toLowerCase()} the ${noun!.toLowerCase()}`;
  }
  if ((m = HEAD_THEN_FIELDS.exec(s.trim()))) {
    const [, head, listed, rest] = m;
    const values: Record<string, RegExp> = {
      name: new RegExp(`\\bfor\\s+${NAME}(?=\\s|$)`),
      date: new RegExp(`\\bon\\s+${DATE}\\b`),
      time: new RegExp(`\\bat\\s+${TIME}(?=\\s|$|[,.])`),
      email: new RegExp(EMAIL),
    };
    const kinds = listed!.split(/\s*,\s*|\s+and\s+/).map((f) =>
      f
        .replace(/^the\s+/i, '')
        .toLowerCase()
        .replace(/^full /, '')
        .replace(/^e-mail$/, 'email'),
    );
    const steps: string[] = [];
    for (const kind of kinds) {
      const field = kind === 'day' ? 'date' : kind;
      const found = values[field] && [...head!.matchAll(new RegExp(values[field]!.source, 'g'))];
      if (!found || found.length !== 1 || !hasField(page, new RegExp(`\\b${field}\\b`, 'i'))) return null;
      steps.push(`enter ${quoteValue(found[0]![1]!.trim())} into the ${field} field`);
    }
    return `${steps.join(', ')}${rest}`;
  }
  if ((m = ORDER_OF.exec(s.trim())) && hasField(page, /\b(?:quantity|qty|amount)\b/i)) {
    const [, count, size, colourWord, colour, rest] = m;
    const chosen = colour ? `choose size ${size} and the ${colourWord!.toLowerCase()} ${colour}` : `choose size ${size}`;
    return `set the quantity to ${count}, ${chosen}${rest}`;
  }
  return null;
}
