/**
 * Setting a value as a person picks it: a form's field (typed, chosen, or through its calendar), a suggestion, an item
 * of a drop-down drawn with plain elements, a calendar's day, a slider or a spinner moved to a value, a star rating.
 */
import { quote } from '../../../protocol/text';
import { labelBefore, type OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { monthOf } from '../input-values';
import { parseDate } from '../refs';
import { PICKER_ARROWS, PICKER_NOUNS, DROPDOWN_KINDS, PICKER_PROMPTS, PROMPTED_ACTIONS, STAR_NAMES, STEP_DOWN, STEP_UP } from '../words/controls';
import { exactMatch, normalize, words } from '../text';
import type { StepRunner } from '../step-runner';
import type { FieldValue } from '../trips';
import { either, oneOf } from '../words/grammar';
import { ordinalOf } from '../words/numbers';
import { NEXT_MONTH, PREVIOUS_MONTH } from '../words/menus';
import { type View, look, namesOf, type Outcome, actOnNode, type Run } from './run';

/** One field of a form set as `x` says (typed, chosen, or picked in its calendar); why not, when it could not be. */
export async function setField(r: Run, x: FieldValue, reasoning: string, view: View): Promise<string | null> {
  if (x.method === 'calendar') return (await pickDate(r, x.node, parseDate(x.value)!, view, reasoning)).why ?? null;
  const label = fieldLabel(x.node);
  const say = x.method === 'fill' ? `enter ${quote(x.value)} into ${quote(label)}` : `select ${quote(x.value)} in ${quote(label)}`;
  if (!(await actOnNode(r, x.node, x.method, [x.value], say, reasoning, view.url))) return `the ${quote(label)} field went away`;
  // A field that suggests takes the suggestion naming the value ("Boston (BOS)" for "Boston"): what the page checks.
  if (x.names) await pickSuggestion(r, x.names, true, !!x.alike, new Set(view.nodes.flatMap((n) => (n.id ? [n.id] : []))));
  return null;
}

/** A field's label: its name, else the short text right before it when it has no label of its own ("Director:", then the box). */
export function fieldLabel(n: OutlineNode): string {
  if (n.name) return n.name;
  if (typeof n.states.placeholder === 'string') return '';
  const before = labelBefore(n);
  if (before) return before.replace(/[:\s]+$/, '');
  // In a row of a form laid out as a table ("Director | [box]"): the row's one other cell.
  const cells =
    n.parent?.role === 'row'
      ? n.parent.name
          .split('|')
          .map((c) => c.trim())
          .filter(Boolean)
      : [];
  return cells.length === 1 && cells[0]!.length <= 40 ? cells[0]!.replace(/[:\s]+$/, '') : '';
}

/** A choice the page shows no option for yet ("choose Green ...", "pick the colour Navy"): a plain drop-down may hold it. */
export const NO_OPTION = /^(?:no select offers the option|no element matches it well enough)\b/;
const CHOICE_SAID = /^(?:choose|pick|select|set)\b/i;
/** A prompt's words that say an action, not a list to choose from ("Select all", "Choose files"). */
const NOT_PICKED = new RegExp(`^(?:${either(PROMPTED_ACTIONS)})$`, 'i');
/** Words that say what kind of control the opener is, not which item ("the size drop-down", "the colour menu"). */
const PICKER_KIND = new RegExp(`^(?:${either(PICKER_NOUNS)})$`, 'i');
const PICKER_PROMPT = new RegExp(`^\\W*(?:${either(PICKER_PROMPTS)})\\s+(?:(?:a|an|the|your|one)\\s+)?(.+?)\\W*$`, 'i');
const PICKER_ARROW = new RegExp(`\\s*(?:${either(PICKER_ARROWS)})\\s*$`);
/** The words that name a drop-down by its kind alone, as an opener that is only an arrow is named. */
const BARE_OPENER_KINDS = new RegExp(`^(?:${either(DROPDOWN_KINDS)})$`, 'i');

/** The words of an opener's name that say what it chooses ("colour" of "Choose a colour", "Size" of "Size ▾"), or none. */
function openerWords(n: OutlineNode): string[] {
  if (n.role !== 'clickable' && n.role !== 'button') return [];
  const arrow = PICKER_ARROW.test(n.name);
  // A button that says "Select all" or "Choose file" does that; one that opens a list says so (an arrow, a popup).
  if (n.role === 'button' && !arrow && n.states.haspopup === undefined && n.states.expanded === undefined) return [];
  const prompt = PICKER_PROMPT.exec(n.name.replace(PICKER_ARROW, ''));
  const named = prompt ? prompt[1]! : arrow ? n.name.replace(PICKER_ARROW, '') : '';
  const own = words(named.toLowerCase());
  return own.length <= 3 && !own.some((w) => NOT_PICKED.test(w)) ? own : [];
}

/**
 * Whether a choice's words name this opener and something more (the item): "choose the size Large" and "Size ▾". An
 * opener that is an arrow and nothing more (a styled select showing no choice yet) is named by the kind alone: "choose
 * 6 ft from the dropdown".
 */
export function isPlainOpener(say: string, n: OutlineNode): boolean {
  if (!CHOICE_SAID.test(say.trim()) || n.states.expanded === true) return false;
  const own = openerWords(n);
  const said = words(say.toLowerCase()).slice(1);
  const item = said.some((w) => !own.includes(w) && !PICKER_KIND.test(w));
  if (!own.length && (n.role === 'clickable' || n.role === 'button') && n.name.trim() && !n.name.replace(PICKER_ARROW, '').trim()) {
    return item && said.some((w) => BARE_OPENER_KINDS.test(w));
  }
  return own.length > 0 && own.every((w) => said.includes(w)) && item;
}

/**
 * A choice from a drop-down made of plain elements: the opener clicked, then, of the items that showed up, the one whose
 * words are all in the instruction's; checked by the page still showing it once chosen. None or several: a refusal, the list
 * closed again.
 */
export async function chooseFromPlainList(
  r: Run,
  opener: OutlineNode,
  say: string,
  reasoning: string,
  current: () => View,
  set: (v: View) => void,
): Promise<{ did: string } | { why: string }> {
  const before = namesOf(current().nodes);
  if (!(await actOnNode(r, opener, 'click', [], say, `${reasoning}: open ${quote(opener.name)}`, current().url))) return { why: 'the drop-down went away' };
  await r.settle();
  set(await look(r, r.instruction));
  const said = new Set(words(say.toLowerCase()));
  const own = new Set(openerWords(opener));
  const shown = current().nodes.filter((n) => n.id && !before.has(`${n.role}|${n.name}`) && n.states.disabled !== true && LIST_ITEM_ROLES.has(n.role));
  const named = shown.filter((n) => {
    const w = words(n.name.toLowerCase());
    return w.length > 0 && w.every((x) => said.has(x) && !own.has(x));
  });
  if (named.length !== 1) {
    await r.act('press Escape', `close ${quote(opener.name)} again`, current().text, current().url);
    const why = named.length ? `${named.length} of its items fit the words` : `none of its ${shown.length} items is named by the words`;
    return { why: `${quote(opener.name)} was opened, but ${why}` };
  }
  const item = named[0]!;
  if (!(await actOnNode(r, item, 'click', [], say, `${reasoning}: the item the words name`, current().url))) return { why: 'the item went away' };
  await r.settle();
  set(await look(r, r.instruction));
  // Chosen, the item's name shows on the page (the opener says it); gone from the page, nothing says it was chosen.
  const itemWords = words(item.name.toLowerCase());
  if (!current().nodes.some((n) => exactMatch(n.name, item.name) || itemWords.every((w) => words(n.name.toLowerCase()).includes(w)))) {
    return { why: `${quote(item.name)} was clicked in ${quote(opener.name)}, but the page does not show it chosen` };
  }
  return { did: `${say} (opened ${quote(opener.name)}, chose ${quote(item.name)})` };
}
const LIST_ITEM_ROLES: ReadonlySet<string> = new Set(['clickable', 'button', 'listitem', 'option', 'menuitem', 'link', 'cell', 'gridcell']);

/**
 * The opener of a drop-down made of plain elements: the one element that takes clicks, offers no options and whose name is
 * a prompt for what the words name ("Choose a colour" for "the colour drop-down"), or ends in a drop-down arrow and is named
 * by them. Several, or none, is no opener.
 */
export function plainPicker(say: string, nodes: OutlineNode[]): OutlineNode | null {
  const fits = nodes.filter((n) => n.id && n.states.disabled !== true && isPlainOpener(say, n));
  return fits.length === 1 ? fits[0]! : null;
}

const STAR = oneOf(STAR_NAMES);
/** Controls a rating is given by: never a link ("4 star" filters reviews) nor a picture of a rating already given. */
const RATING_ROLES: ReadonlySet<string> = new Set(['button', 'radio', 'clickable', 'menuitemradio']);

/**
 * The control that gives `stars`: one named for that many ("4 stars", "4 out of 5", "Rate 4 stars"), or else that
 * star of the page's one row of three to ten like stars (never a guess between two rows).
 */
export function starFor(want: { stars: number; of?: number }, nodes: OutlineNode[]): { node: OutlineNode; of?: number } | string {
  const n = want.stars;
  const name = new RegExp(`^(?:rate\\s+)?${n}(?:\\s*stars?|\\s+out\\s+of\\s+\\d+(?:\\s+stars?)?|[- ]star(?:\\s+rating)?)$`, 'i');
  const named = nodes.filter((x) => x.id && RATING_ROLES.has(x.role) && name.test(x.name.trim()));
  if (named.length === 1) return { node: named[0]! };
  if (named.length) return `${named.length} controls are named for ${n} stars`;
  const rows: OutlineNode[][] = [];
  for (const parent of new Set(nodes.map((x) => x.parent))) {
    let run: OutlineNode[] = [];
    for (const c of [...(parent?.children ?? []), null]) {
      if (c && c.id && RATING_ROLES.has(c.role) && STAR.test(c.name.trim())) run.push(c);
      else {
        if (run.length >= 3 && run.length <= 10) rows.push(run);
        run = [];
      }
    }
  }
  if (rows.length !== 1) return rows.length ? `the page shows ${rows.length} rows of stars` : `the page shows no row of stars and nothing named for ${n} stars`;
  const row = rows[0]!;
  if (n > row.length || (want.of !== undefined && want.of !== row.length)) return `the page's row has ${row.length} stars, not ${want.of ?? `${n} or more`}`;
  return { node: row[n - 1]!, of: row.length };
}

export async function rateStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const star = starFor(step.rate!, current().nodes);
  if (typeof star === 'string') return { why: star };
  const which = star.of ? `star ${step.rate!.stars} of ${star.of}` : quote(star.node.name);
  if (!(await actOnNode(r, star.node, 'click', [], `click ${which}`, reasoning, current().url))) return { why: 'the stars went away' };
  return { did: `rated ${step.rate!.stars} star${step.rate!.stars === 1 ? '' : 's'} (clicked ${which})` };
}

/** The most month pages a calendar is turned to reach a date. */
const CALENDAR_MAX = 36;
/** A calendar's controls that turn to the next month, and to the previous one. */
const TO_NEXT_MONTH = oneOf(NEXT_MONTH);
const TO_PREVIOUS_MONTH = oneOf(PREVIOUS_MONTH);
/** Roles a calendar's days take. */
const DAY_ROLES = new Set(['link', 'button', 'clickable', 'cell', 'gridcell']);

/**
 * Set a read-only date field through the calendar it opens: click the field, turn the months
 * with the calendar's next and previous controls until its heading shows the month, click the
 * day, and check the field took a value.
 */
export async function pickDate(
  r: Run,
  field: OutlineNode,
  date: { y: number; m: number; d: number },
  view0: View,
  reasoning: string,
): Promise<{ why?: string }> {
  const label = fieldLabel(field) || 'the date field';
  if (!(await actOnNode(r, field, 'click', [], `open the calendar of ${quote(label)}`, reasoning, view0.url))) return { why: 'the date field went away' };
  const wantIndex = date.y * 12 + date.m;
  for (let k = 0; k < CALENDAR_MAX; k++) {
    if (r.signal.aborted) return { why: 'cancelled' };
    await r.settle();
    const v = await look(r, r.instruction);
    // The month on show: the one "Month YYYY" heading or text line.
    const shown = new Set<number>();
    for (const n of v.nodes) {
      if (n.id && n.role !== 'heading') continue;
      const m = /\b([A-Za-z]{3,9})\.?\s+(\d{4})\b/.exec(n.name);
      if (m && monthOf(m[1]) && n.name.length <= 40) shown.add(Number(m[2]) * 12 + monthOf(m[1]) - 1);
    }
    if (shown.size !== 1) return { why: shown.size ? 'the calendar shows several months' : 'no calendar with a month heading opened' };
    const at = [...shown][0];
    if (at === wantIndex) {
      // A day is named by its number, or by its whole date ("June 14, 2024", as many calendars label them).
      const isDay = (n: OutlineNode): boolean => {
        if (n.name.trim() === String(date.d)) return true;
        const p = parseDate(n.name.replace(/^[A-Za-z]+,\s+/, ''));
        return !!p && p.y === date.y && p.m === date.m && p.d === date.d;
      };
      const days = v.nodes.filter((n) => n.id && DAY_ROLES.has(n.role) && n.states.disabled !== true && isDay(n));
      if (days.length !== 1) return { why: `the calendar shows ${days.length || 'no'} days numbered ${date.d}` };
      if (!(await actOnNode(r, days[0], 'click', [], `click ${date.d}`, reasoning, v.url))) return { why: 'the day went away' };
      await r.settle();
      const after = await look(r, r.instruction);
      // The same element (ids last across looks); by its name when the calendar redrew the field.
      const now = after.nodes.find((n) => n.id === field.id) ?? after.nodes.find((n) => n.role === field.role && n.name && n.name === field.name);
      return now && typeof now.states.value === 'string' && now.states.value ? {} : { why: 'the date field is still empty after clicking the day' };
    }
    const forward = at < wantIndex;
    const turn = v.nodes.filter(
      (n) => n.id && ['button', 'link', 'clickable'].includes(n.role) && (forward ? TO_NEXT_MONTH : TO_PREVIOUS_MONTH).test(n.name.trim()),
    );
    if (turn.length !== 1) return { why: `the calendar has ${turn.length || 'no'} ${forward ? 'next' : 'previous'} month controls` };
    const why = `${reasoning}: turn to ${forward ? 'the next' : 'the previous'} month`;
    if (!(await actOnNode(r, turn[0], 'click', [], `click ${quote(turn[0].name)}`, why, v.url))) return { why: 'the calendar went away' };
  }
  return { why: `the date is more than ${CALENDAR_MAX} months away` };
}

/** "enter "42" into the slider", "... into the 2nd slider": (1) the value, (2) which slider. */
const INTO_SLIDER = /^enter\s+"(-?\d+(?:\.\d+)?)"\s+into\s+the\s+(?:(\w+)\s+)?slider$/i;
/** The most key presses a slider is given to reach a value. */
const SLIDE_MAX = 500;

/** The handle of a slider the page draws with no ARIA (its look names it "slider handle"), and the value said for it. */
export function plainSlider(say: string, nodes: OutlineNode[]): { handle: OutlineNode; index: number; want: number } | null {
  const m = INTO_SLIDER.exec(say.trim());
  if (!m || nodes.some((n) => n.role === 'slider')) return null;
  const handles = sliderHandles(nodes);
  const k = m[2] ? ordinalOf(m[2]) : handles.length === 1 ? 1 : null;
  const index = k === 'last' ? handles.length - 1 : typeof k === 'number' ? k - 1 : -1;
  const handle = handles[index];
  return handle ? { handle, index, want: Number(m[1]) } : null;
}
const sliderHandles = (nodes: OutlineNode[]) => nodes.filter((n) => n.id && n.role === 'clickable' && n.nameFrom === 'inferred' && /\bslider\b/i.test(n.name));

/** The number a slider's handle shows beside it: the first line after it, before the next control, that is only a number. */
function shownBeside(handle: OutlineNode, nodes: OutlineNode[]): number | null {
  const at = nodes.indexOf(handle);
  for (const n of nodes.slice(at + 1)) {
    if (n.id && n.role !== 'text') return null;
    if (/^-?\d+(?:\.\d+)?$/.test(n.name.trim())) return Number(n.name.trim());
  }
  return null;
}

/**
 * Move a slider's handle with its keys to the value said: Home, then one step right to learn the step from the value it
 * shows beside it, then as many steps as are left, checked against the value shown. A slider that shows no value, or
 * does not reach it, is a refusal.
 */
export async function slideTo(r: Run, handle: OutlineNode, index: number, want: number, reasoning: string): Promise<{ did: string } | { why: string }> {
  const name = quote(handle.name);
  let view = await look(r, r.instruction);
  // Found again by its place among the page's slider handles, each time the page is read.
  const find = () => sliderHandles(view.nodes)[index] ?? null;
  const press = async (key: string, times: number): Promise<number | null> => {
    for (let k = 0; k < times; k++) {
      if (r.signal.aborted) return null;
      const h = find();
      if (!h || !(await actOnNode(r, h, 'press', [key], `press ${key} on ${name}`, reasoning, view.url))) return null;
    }
    await r.settle();
    view = await look(r, r.instruction);
    const h = find();
    return h ? shownBeside(h, view.nodes) : null;
  };
  const low = await press('Home', 1);
  if (low === null) return { why: `the slider ${name} shows no value beside it to move by` };
  if (want < low) return { why: `the slider ${name} starts at ${low}, above ${want}` };
  let at = want === low ? low : await press('ArrowRight', 1);
  if (at === null) return { why: `the slider ${name} went away` };
  const step = at - low;
  if (want !== low && step <= 0) return { why: `the slider ${name} did not move on its arrow key` };
  for (let tries = 0; at !== want && tries < 3; tries++) {
    const n = Math.round((want - at) / step);
    if (!n || Math.abs(n) > SLIDE_MAX) break;
    const next = await press(n > 0 ? 'ArrowRight' : 'ArrowLeft', Math.abs(n));
    if (next === null) return { why: `the slider ${name} went away` };
    at = next;
  }
  return at === want ? { did: `moved ${name} to ${want} with its keys` } : { why: `the slider ${name} shows ${at}, not ${want}` };
}

/** The most step-button presses a spinner is given to reach a value. */
const SPIN_MAX = 50;

/**
 * Set an ARIA spinner by pressing its increase or decrease button (the ones beside it), or with none to be seen its arrow
 * keys, as many times as the difference, then check the value it shows.
 */
export async function spinTo(r: Run, node: OutlineNode, wanted: string, view: View, reasoning: string): Promise<{ why?: string }> {
  const want = Number(wanted);
  const now = Number(node.states.value);
  if (!Number.isFinite(want) || !Number.isFinite(now)) {
    return { why: `the spinner ${quote(node.name)} shows no number to step from, or ${quote(wanted)} is not a number` };
  }
  const delta = want - now;
  if (delta === 0) return {};
  if (Math.abs(delta) > SPIN_MAX) return { why: `the spinner would need ${Math.abs(delta)} presses, more than ${SPIN_MAX}` };
  const sibs = node.parent?.children ?? [];
  const up = new RegExp(`^(?:${either(STEP_UP)})\\b|^\\+$`, 'i');
  const down = new RegExp(`^(?:${either(STEP_DOWN)})\\b|^[-−–]$`, 'i');
  const by = sibs.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && (delta > 0 ? up : down).test(n.name.trim()));
  if (by.length > 1) return { why: `the spinner ${quote(node.name)} has several ${delta > 0 ? 'increase' : 'decrease'} buttons beside it` };
  // No button beside it to see (a widget's own are hidden from the accessibility tree): its arrow keys, as a spinner takes them.
  const key = delta > 0 ? 'ArrowUp' : 'ArrowDown';
  for (let k = 0; k < Math.abs(delta); k++) {
    if (r.signal.aborted) return { why: 'cancelled' };
    const [target, method, args, said] = by.length
      ? ([by[0]!, 'click', [], `click ${quote(by[0]!.name)}`] as const)
      : ([node, 'press', [key], `press ${key} in ${quote(node.name)}`] as const);
    const pressed = await actOnNode(r, target, method, [...args], said, `${reasoning}: ${k + 1} of ${Math.abs(delta)}`, view.url);
    if (!pressed) return { why: by.length ? 'the spinner button went away' : 'the spinner went away' };
  }
  await r.settle();
  const after = await look(r, r.instruction);
  const shown = after.nodes.find((n) => n.role === 'spinbutton' && n.name === node.name);
  if (!shown || Number(shown.states.value) !== want) {
    return { why: `after ${Math.abs(delta)} presses the spinner shows ${quote(String(shown?.states.value ?? 'nothing'))}, not ${quote(wanted)}` };
  }
  return {};
}

/** A suggestion that is what was typed, or begins with it ("Berlin" fits "Berlin, Germany"). */
export function suggestionFor(typed: string, prefix: boolean): (name: string) => boolean {
  const t = normalize(typed);
  return (name) => {
    const n = normalize(name);
    return n === t || (prefix && t.length >= 3 && n.startsWith(t));
  };
}

/** Roles of the items of a suggestion list (ARIA listboxes, jQuery UI menus, plain lists). */
const SUGGESTION_ROLES = new Set(['option', 'menuitem', 'listitem', 'clickable']);
const LISTS = new Set(['listbox', 'menu', 'list']);

/**
 * After typing: click the one suggestion `fits` accepts. `loose` allows list items and
 * clickable rows of any list (plain autocomplete widgets); otherwise only ARIA options. Controls
 * in `shownBefore` (ids shown before the typing) are not suggestions. Null when none or several fit.
 */
export async function pickSuggestion(
  r: StepRunner,
  fits: (name: string) => boolean,
  loose: boolean,
  any = false,
  shownBefore?: ReadonlySet<string>,
): Promise<string | null> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const v = await look(r, r.instruction);
    const inList = (n: OutlineNode) => {
      for (let p = n.parent; p; p = p.parent) if (LISTS.has(p.role)) return true;
      return false;
    };
    const options = v.nodes.filter(
      (n) => n.id && !shownBefore?.has(n.id) && (n.role === 'option' || (loose && SUGGESTION_ROLES.has(n.role) && inList(n))) && fits(n.name),
    );
    const names = new Set(options.map((o) => normalize(o.name)));
    if (options.length && (names.size === 1 || any)) {
      const option = options[0];
      const why = 'pick the suggestion that fits what was typed';
      if (!(await actOnNode(r, option, 'click', [], `click the suggestion ${quote(option.name)}`, why, v.url))) return null;
      return `picked the suggestion ${quote(option.name)}`;
    }
    if (names.size > 1) return null;
    // Suggestions often come after a short debounce.
    await new Promise((res) => setTimeout(res, 150));
  }
  return null;
}
