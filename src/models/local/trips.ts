/**
 * Trips: the search form of a booking page filled from "from A to B on D", and the result a
 * superlative picks ("the cheapest", "the earliest") among those the search shows. Every part
 * must find exactly one place on the page; anything else is a refusal that says what is missing.
 */
import { normalize } from './text';
import { labelBefore, optionsOf, type OutlineNode } from './outline';
import { parseDate } from './refs';
import { either, oneOf } from './words/grammar';
import { BOOK_CONTROLS, DATE_FIELDS, FROM_FIELDS, ONE_WAY, RESULT_ORDERS, RETURN_FIELDS, ROUND_TRIP, TO_FIELDS } from './words/trips';

export interface Trip {
  from: string;
  to: string;
  date?: string;
  way?: 'one' | 'round';
}

/** A value a form field gets, and how: typed, chosen, or picked in the calendar of a field that takes no typing. */
export interface FieldValue {
  node: OutlineNode;
  method: 'fill' | 'selectOption' | 'calendar';
  value: string;
  /** For a value typed: the suggestions that name it, one of which is picked when the field offers them. */
  names?: (suggestion: string) => boolean;
  /** Several suggestions naming it are one place: the value is a code ("BPT"), which each carries. */
  alike?: boolean;
}

const FIELD_ROLES = new Set(['combobox', 'textbox', 'searchbox', 'listbox']);
/** A field its name fits, or, with no name of its own, the short text right before it ("Departure Date", then the box). */
const named = (table: readonly string[]) => {
  const re = oneOf(table);
  return (n: OutlineNode) => re.test(normalize(n.name || labelBefore(n)).replace(/\s*\*$/, ''));
};

/** The one field a table of names fits, or why not. */
function fieldFor(what: string, table: readonly string[], nodes: OutlineNode[]): OutlineNode | string {
  const fits = nodes.filter((n) => n.id && FIELD_ROLES.has(n.role) && n.states.disabled !== true && named(table)(n));
  if (fits.length === 1) return fits[0];
  return fits.length ? `${fits.length} fields could take the ${what}` : `the page has no field for the ${what}`;
}

/** A place given by its code, as airports and stations are ("BPT", "LHR"). */
const PLACE_CODE = /^[A-Z]{3,4}$/;

/**
 * Whether an option or suggestion names `place` itself: "Boston" is "Boston (BOS)" and "Boston, MA", "Reading, PA" is
 * "Reading, PA (RDG)", and "BOS" is the code in brackets; "Boston" is not "New Boston".
 */
function namesPlace(place: string): (option: string) => boolean {
  const want = normalize(place);
  const before = (o: string, at: RegExp) => normalize(o.replace(at, ''));
  const code = (o: string) => normalize(/\(([^)]*)\)/.exec(o)?.[1] ?? '');
  // A code is matched as a code only: every option that fits then carries it, and names one place.
  if (PLACE_CODE.test(place)) return (o) => normalize(o) === want || code(o) === want;
  return (o) => normalize(o) === want || before(o, /\s*[(,].*$/) === want || before(o, /\s*\(.*$/) === want || code(o) === want;
}

/** The value `place` takes in `field`: typed (a suggestion that names it picked), or the one option that names it. */
function valueFor(place: string, field: OutlineNode): FieldValue | string {
  if (field.role !== 'combobox' && field.role !== 'listbox')
    return { node: field, method: 'fill', value: place, names: namesPlace(place), alike: PLACE_CODE.test(place) };
  const want = normalize(place);
  const options = optionsOf(field);
  const exact = options.filter(namesPlace(place));
  const words = options.filter((o) => ` ${normalize(o)} `.includes(` ${want} `));
  const pick = exact.length ? exact : words;
  if (pick.length !== 1) return `${pick.length ? `${pick.length} choices` : 'no choice'} of ${JSON.stringify(field.name)} name ${JSON.stringify(place)}`;
  return { node: field, method: 'selectOption', value: pick[0] };
}

/**
 * A date the field takes as it is said: digits in the parts its hint shows ("12/03" for MM/DD, "2026-12-01" for
 * YYYY-MM-DD), a year only where the hint has one. Anything else (a weekday, a month's name, a year where the hint
 * has a day, a field with no hint) is a refusal, never a guess.
 */
function dateFor(date: string, field: OutlineNode): string | null {
  const hint = String(field.states.placeholder ?? '').trim();
  if (!/^\d+(?:[./-]\d+)+$/.test(date) || !/^[a-z]+(?:[./-][a-z]+)+$/i.test(hint)) return null;
  const seps = (s: string) => s.replace(/[a-z\d]/gi, '');
  const said = date.split(/[./-]/);
  const asks = hint.split(/[./-]/);
  if (seps(date) !== seps(hint) || said.length !== asks.length) return null;
  const fits = said.every((part, i) => (asks[i].length === 4 ? part.length === 4 : part.length <= 2 && asks[i].length <= 2));
  return fits ? date : null;
}

/** The form filled for `trip`, the one-way or round-trip choice, and its search button; or why not. */
export function tripFields(trip: Trip, nodes: OutlineNode[]): { fill: FieldValue[]; way?: OutlineNode; submit: OutlineNode } | string {
  const fill: FieldValue[] = [];
  for (const [what, table, place] of [
    ['origin', FROM_FIELDS, trip.from],
    ['destination', TO_FIELDS, trip.to],
  ] as const) {
    const field = fieldFor(what, table, nodes);
    if (typeof field === 'string') return field;
    const v = valueFor(place, field);
    if (typeof v === 'string') return v;
    fill.push(v);
  }
  if (trip.date !== undefined) {
    const field = fieldFor('date', DATE_FIELDS, nodes);
    if (typeof field === 'string') return field;
    if (field.states.readonly === true) {
      if (!parseDate(trip.date)) return `the date ${JSON.stringify(trip.date)} is not one the calendar of the date field can be turned to`;
      fill.push({ node: field, method: 'calendar', value: trip.date });
    } else {
      const value = dateFor(trip.date, field);
      if (value === null) return `the date ${JSON.stringify(trip.date)} is not written the way the ${JSON.stringify(field.name)} field asks`;
      fill.push({ node: field, method: 'fill', value });
    }
  }
  let way: OutlineNode | undefined;
  if (trip.way) {
    const re = new RegExp(`^(?:${either(trip.way === 'one' ? ONE_WAY : ROUND_TRIP)})$`, 'i');
    const ways = nodes.filter((n) => n.id && (n.role === 'radio' || n.role === 'tab' || n.role === 'button') && re.test(normalize(n.name)));
    // A form with no choice of the way and no field for a return date searches one-way trips only.
    const roundChoice = nodes.some((n) => n.id && (n.role === 'radio' || n.role === 'tab') && named(ROUND_TRIP)(n));
    const returnField = nodes.some((n) => n.id && FIELD_ROLES.has(n.role) && named(RETURN_FIELDS)(n));
    if (trip.way !== 'one' || ways.length || roundChoice || returnField) {
      if (ways.length !== 1)
        return `the page has ${ways.length || 'no'} choice${ways.length === 1 ? '' : 's'} for a ${trip.way === 'one' ? 'one-way' : 'round'} trip`;
      if (ways[0].states.checked !== true) way = ways[0];
    }
  }
  const form = fill[0].node.parent;
  const submits = nodes.filter(
    (n) => n.id && n.role === 'button' && (n.states.submit === true || /^(?:search|find|go|show)\b/i.test(n.name)) && n.states.disabled !== true,
  );
  const inForm = submits.filter((n) => n.parent === form);
  const submit = inForm.length === 1 ? inForm[0] : submits.length === 1 ? submits[0] : null;
  if (!submit) return `the page has ${submits.length || 'no'} buttons that could run the search`;
  return { fill, way, submit };
}

const HOLDERS = new Set(['row', 'listitem', 'article', 'group', 'region']);
const CONTROLS = new Set(['button', 'link', 'checkbox', 'radio', 'combobox', 'textbox', 'menuitem', 'tab']);

/** The text that describes a result: its row's or card's own words, else the lines just before its control. */
function resultText(control: OutlineNode): string {
  const p = control.parent;
  if (!p) return '';
  const words = (n: OutlineNode) => (CONTROLS.has(n.role) ? '' : n.name);
  if (HOLDERS.has(p.role)) return p.name || p.children.map(words).filter(Boolean).join(' ');
  const at = p.children.indexOf(control);
  const lines: string[] = [];
  // Up to the control or heading before it: a heading above the first result is the list's, not the result's.
  for (let k = at - 1; k >= 0 && !CONTROLS.has(p.children[k].role) && p.children[k].role !== 'heading'; k--) lines.unshift(p.children[k].name);
  return lines.join(' ');
}

const MONEY = /[$€£]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:[$€£]|usd|eur|gbp)\b/i;
const CLOCK = /\b(\d{1,2}):(\d{2})\s*(am|pm)?/i;
const DURATION = /\b(\d{1,2})\s*h(?:ours?|rs?)?\s*(?:(\d{1,2})\s*m(?:in(?:utes?)?)?)?\b/i;

function measure(by: 'price' | 'time' | 'duration', text: string): number | null {
  let m: RegExpExecArray | null;
  if (by === 'price') return (m = MONEY.exec(text)) ? Number((m[1] ?? m[2]).replace(/,/g, '')) : null;
  if (by === 'time') {
    if (!(m = CLOCK.exec(text))) return null;
    const h = m[3] ? (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0) : Number(m[1]);
    return h * 60 + Number(m[2]);
  }
  return (m = DURATION.exec(text)) ? Number(m[1]) * 60 + Number(m[2] ?? 0) : null;
}

/** A booking control that says its price ("Book for $123", "Buy – €40"). */
const PRICED = new RegExp(`^(?:${either(BOOK_CONTROLS)})(?:\\s+(?:for|at|from))?\\s*[-–—:]?\\s*(?:[$€£]\\s?\\d|\\d[\\d,.]*\\s?[$€£])`, 'i');

/** The page's booking controls, each with the text of its result (the control's own words too, when it says its price). */
function bookable(nodes: OutlineNode[]): { control: OutlineNode; text: string }[] {
  const book = oneOf(BOOK_CONTROLS);
  return nodes
    .filter((n) => n.id && (n.role === 'button' || n.role === 'link') && (book.test(normalize(n.name)) || PRICED.test(n.name.trim())))
    .map((control) => ({ control, text: PRICED.test(control.name.trim()) ? `${resultText(control)} ${control.name}` : resultText(control) }));
}
const resultKey = (r: { control: OutlineNode; text: string }) => `${r.control.name}|${r.text}`;

/** What the page offers to book before a search: left out of the results the search brings. */
export const shownResults = (nodes: OutlineNode[]): Set<string> => new Set(bookable(nodes).map(resultKey));

/**
 * The result to book: the control of the one result a superlative picks ("cheapest"), or of the only
 * result when none is said. Results are the page's booking controls ("Book", "Select") outside the form.
 */
export function tripResult(
  order: string | undefined,
  nodes: OutlineNode[],
  before: ReadonlySet<string> = new Set(),
): { control: OutlineNode; text: string } | string {
  // Offers the page showed before the search (featured deals, an earlier search) are not its results.
  const results = bookable(nodes).filter((r) => !before.has(resultKey(r)));
  if (!results.length) return 'the search shows no results with a control to book them';
  if (!order) return results.length === 1 ? results[0] : `the page shows ${results.length} results; say which (the cheapest, the earliest)`;
  const rule = RESULT_ORDERS[order.toLowerCase()];
  if (!rule) return `it picks a result by ${JSON.stringify(order)}, which the built-in model does not compare`;
  const valued = results.map((r) => ({ ...r, v: measure(rule.by, r.text) }));
  const missing = valued.filter((r) => r.v === null);
  if (missing.length) return `${missing.length} of ${valued.length} results show no ${rule.by} to compare`;
  const best = rule.least ? Math.min(...valued.map((r) => r.v!)) : Math.max(...valued.map((r) => r.v!));
  const top = valued.filter((r) => r.v === best);
  if (top.length !== 1) return `${top.length} results are equally ${order}`;
  return top[0];
}
