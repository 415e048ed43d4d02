/**
 * Moving one thing: a drag by an offset or to a place in its list or grid, a list sorted by drags or by its Move up / Move
 * down buttons, a box resized by its grip, a press held.
 */
import { clip, quote } from '../../../protocol/text';
import { optionsOf, type OutlineNode } from '../outline';
import { quoteValue, type PlanStep } from '../plan';
import { sortTarget } from '../sorting';
import { MOVE_DOWN, MOVE_UP, SELECTED_ITEM } from '../words/controls';
import { ONE_DRAGGABLE } from '../words/references';
import { RESIZED_BOXES } from '../words/places';
import { exactMatch, normalize } from '../text';
import type { Point, StepRunner } from '../step-runner';
import { anyOf, oneOf } from '../words/grammar';
import { ordinalWord } from '../words/numbers';
import { type View, look, type Clock, ground, type Outcome, actOnNode, type Run } from './run';

/** What a drag moves: the element its words ground to, or for "the item" the list's one selected option. */
export function dragTarget(d: NonNullable<PlanStep['drag']>, nodes: OutlineNode[], clock: Clock): { node: OutlineNode } | { why: string } {
  if (d.to && oneOf(SELECTED_ITEM).test(d.target.trim())) {
    const selected = nodes.filter((n) => n.id && n.role === 'option' && n.states.selected === true);
    if (selected.length === 1) return { node: selected[0] };
    return { why: `it names the selected item, and ${selected.length || 'no'} options are selected` };
  }
  // "Drag the item left": the page's one thing that takes the pointer and holds nothing else (a shape in a drawing).
  if (ONE_DRAGGABLE_SAID.test(d.target.trim())) {
    const things = nodes.filter((n) => n.id && DRAGGABLE_ROLES.has(n.role) && !n.children.some((c) => c.id));
    if (things.length === 1) return { node: things[0]! };
  }
  const g = ground({ say: `click ${d.target}` }, nodes, clock);
  if ('why' in g) return g;
  return g.pick.node?.id ? { node: g.pick.node } : { why: 'it names the page, not something to drag' };
}

const ONE_DRAGGABLE_SAID = oneOf(ONE_DRAGGABLE);
/** Roles of a thing to drag that has no name to be called by: a shape, a picture, a box that takes the pointer. */
const DRAGGABLE_ROLES: ReadonlySet<string> = new Set(['clickable', 'img', 'graphics-symbol', 'figure']);

/** The most items of a list read for where they lie, to tell its rows. */
const GRID_ITEMS_MAX = 50;

/**
 * The place (1-based) a shift or a cell names among `items`, laid out in rows (a list is one column, a row of cards one
 * row, floated names a grid): read from where the items are now. Or why there is none.
 */
async function placeInGrid(r: Run, d: NonNullable<PlanStep['drag']>, items: OutlineNode[], at: number): Promise<number | string> {
  if (items.length < 2 || at < 0 || items.length > GRID_ITEMS_MAX) return 'it is not one of a list of places';
  const selectors = await r.selectors(items.map((n) => n.id!));
  if (selectors.some((s) => !s)) return 'the list changed';
  const points = await Promise.all(selectors.map((s) => r.pointOf(s!)));
  // Items on the first one's line make a row: that many columns.
  const cols = points.filter((p) => Math.abs(p.y - points[0]!.y) < 4).length;
  const rows = Math.ceil(items.length / cols);
  const [row, col] = [Math.floor(at / cols), at % cols];
  let to: [number, number];
  if (d.shift) {
    const { way, by } = d.shift;
    to = way === 'up' ? [row - by, col] : way === 'down' ? [row + by, col] : [row, col + (way === 'left' ? -by : by)];
  } else {
    const where = (w: string, n: number) => (w === 'top' || w === 'left' ? 0 : w === 'bottom' || w === 'right' ? n - 1 : (n - 1) / 2);
    to = [where(d.cell!.row, rows), where(d.cell!.col, cols)];
    if (!Number.isInteger(to[0]) || !Number.isInteger(to[1])) return `its ${rows}×${cols} places have no middle one that way`;
  }
  const place = to[0] * cols + to[1];
  if (to[0] < 0 || to[1] < 0 || to[1] >= cols || place >= items.length) return `it has no such place (${rows} rows of ${cols})`;
  return place + 1;
}

/** The index a place in a list of `count` stands for, or null past its end. */
function placeIndex(to: 'first' | 'last' | number, count: number): number | null {
  const i = to === 'first' ? 0 : to === 'last' ? count - 1 : to - 1;
  return i >= 0 && i < count ? i : null;
}
const placeWord = (to: 'first' | 'last' | number) => (typeof to === 'number' ? ordinalWord(to) : to);

/**
 * A drag step: the element the words ground to, dragged by its offset, or onto the first or last
 * place among its like siblings (past that sibling's middle, toward the end, as sortable lists need).
 */
export async function dragStep(
  r: Run,
  step: PlanStep,
  view: View,
  reasoning: string,
  given?: { node: OutlineNode; items?: OutlineNode[] },
): Promise<{ did: string } | { why: string }> {
  let d = step.drag!;
  const g = given ?? dragTarget(d, view.nodes, r.clock);
  if ('why' in g) return g;
  const node = g.node;
  // So many places along its list or grid, or a grid's cell: the place that is, from where things are now.
  if (d.shift || d.cell) {
    const sibs = given?.items ?? (node.parent?.children ?? []).filter((n) => n.id && n.role === node.role);
    const at = await placeInGrid(r, d, sibs, sibs.indexOf(node));
    if (typeof at === 'string') return { why: `${quote(node.name || node.role)}: ${at}` };
    d = { ...d, to: at };
    step = { ...step, drag: d };
  }
  if (d.to && (node.role === 'option' || (node.role === 'listbox' && optionsOf(node).length))) {
    const moved = await moveByButtons(r, step, node, view, reasoning);
    if (moved) return moved;
  }
  const [sel] = await r.selectors([node.id!]);
  if (!sel) return { why: 'the element went away' };
  let move: { dx: number; dy: number } | { to: Point } | null = d.dx !== undefined || d.dy !== undefined ? { dx: d.dx ?? 0, dy: d.dy ?? 0 } : null;
  if (d.to) {
    const sibs = given?.items ?? (node.parent?.children ?? []).filter((n) => n.id && n.role === node.role);
    const want = placeIndex(d.to, sibs.length);
    if (want === null) return { why: `the list has ${sibs.length} items, no ${placeWord(d.to)} place` };
    if (sibs.length >= 2) {
      const end = sibs[want];
      if (end === node) return { did: `${quote(node.name || node.role)} is already ${placeWord(d.to)}` };
      const ends = await r.selectors([sibs[0].id!, sibs[sibs.length - 1].id!, end.id!]);
      if (!ends[0] || !ends[1] || !ends[2]) return { why: 'the list went away' };
      const a = await r.pointOf(ends[0]);
      const b = await r.pointOf(ends[1]);
      const at = await r.pointOf(ends[2]);
      // Past the middle of the item in that place, on the side the item comes from.
      const sign = sibs.indexOf(node) > want ? -1 : 1;
      // A row of columns runs sideways, a list downwards.
      const sideways = Math.abs(b.x - a.x) > Math.abs(b.y - a.y);
      move = { to: sideways ? { x: at.x + sign * 8, y: at.y } : { x: at.x, y: at.y + sign * 8 } };
      if (Math.abs(b.x - a.x) > 4 && Math.abs(b.y - a.y) > 4) {
        // Rows of several (a grid of floated items): a sortable puts the item after the one under the pointer when the
        // pointer last moved right or down, else before it, and only once past the middle on the side it moves toward
        // (sideways first). So the drop is past that middle, and a move back that goes up and to the right cannot be made.
        const from = await r.pointOf(sel);
        const hx = Math.abs(at.x - from.x) < 2 ? 0 : Math.sign(at.x - from.x);
        const vy = Math.abs(at.y - from.y) < 2 ? 0 : Math.sign(at.y - from.y);
        if (sign < 0 && hx > 0 && vy < 0)
          return { why: `${quote(node.name || node.role)} would move up and to the right, where a grid puts a dropped item after the one it lands on` };
        move = { to: hx ? { x: at.x + hx * 8, y: at.y } : { x: at.x, y: at.y + vy * 8 } };
      }
    }
  }
  if (!move) return { why: `${quote(node.name || node.role)} has no list of like items to move within` };
  const out = await r.dragBy(sel, move);
  const did = `dragged ${out.element} from (${Math.round(out.from.x)}, ${Math.round(out.from.y)}) to (${Math.round(out.to.x)}, ${Math.round(out.to.y)})`;
  r.note(step.say, reasoning, did, view.url, null);
  // Done means the page shows it done: the item now first or last, or the element moved.
  await r.settle();
  const after = await look(r, r.instruction);
  if ('to' in move && d.to) {
    const same = after.nodes.filter((n) => n.id && n.role === node.role && n.parent?.role === node.parent?.role);
    const now = same.filter((n) => n.parent === same.find((x) => x.name === node.name)?.parent);
    const want = placeIndex(d.to, now.length);
    const at = want === null ? undefined : now[want];
    if (!at || at.name !== node.name) return { why: `${did}, but the list did not take the move (${quote(node.name)} is not ${placeWord(d.to)} now)` };
  } else {
    const [again] = await r.selectors([node.id!]);
    const p = again ? await r.pointOf(again).catch(() => null) : null;
    if (p && Math.hypot(p.x - out.from.x, p.y - out.from.y) < 3) return { why: `${did}, but it did not move (the page did not take the drag)` };
  }
  return { did };
}

/**
 * Sort the page's one movable list: the item that belongs in the first place not yet right is
 * moved there (a drag, or Move up / Move down for a list box), the page read again, until the
 * list shows the order. Each move must show; at most one move per item.
 */
export async function sortStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  let t = sortTarget(step.sort!, current().nodes);
  if (typeof t === 'string') return { why: t };
  const names = t.list.names;
  const moved: string[] = [];
  for (let k = 0; k <= names.length; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${moved.length} moves` };
    const { list, want } = t;
    const at = list.names.findIndex((n, i) => n !== want[i]);
    if (at < 0) return { did: `sorted ${quote(clip(want.join(', '), 200))} (${moved.length} move${moved.length === 1 ? '' : 's'})` };
    if (k === names.length) break;
    const name = want[at]!;
    const move: PlanStep = { say: `move ${quoteValue(name)} to place ${at + 1}`, drag: { target: name, to: at + 1 } };
    const node = list.box ?? list.items[list.names.indexOf(name)]!;
    const out = await dragStep(r, move, current(), `${reasoning}: ${move.say}`, { node, items: list.box ? undefined : list.items });
    if ('why' in out) return { why: moved.length ? `${moved.length} moves done, then ${out.why}` : out.why };
    moved.push(name);
    await r.settle();
    set(await look(r, r.instruction));
    t = sortTarget(step.sort!, current().nodes, names);
    if (typeof t === 'string') return { why: t };
  }
  return { why: `the list is still not in order after ${moved.length} moves (${quote(clip(t.list.names.join(', '), 200))})` };
}

/** The least change of size that shows a resize took (a grip dragged a pixel or two is not one). */
const RESIZED_MIN = 5;

/**
 * The element a drag or a resize names: what a click would ground to, or else the one element named by its words, or
 * by them without the box word ("the notes box" is a region named Notes, "the black box" a picture; neither takes clicks).
 */
export function namedTarget(target: string, nodes: OutlineNode[], clock: Clock): { node: OutlineNode } | { why: string } {
  const g = dragTarget({ target }, nodes, clock);
  if (!('why' in g)) return g;
  const words = target.replace(anyOf(RESIZED_BOXES), ' ').replace(/\s+/g, ' ').trim();
  for (const name of [target, words].filter(Boolean)) {
    const named = nodes.filter((n) => n.id && exactMatch(n.name, name));
    if (named.length === 1) return { node: named[0]! };
  }
  return g;
}

/** Resize the box the step names by its corner grip; done when its size changed the way asked. */
export async function resizeStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const { target, dx, dy } = step.resize!;
  const g = namedTarget(target, view.nodes, r.clock);
  if ('why' in g) return g;
  const [sel] = await r.selectors([g.node.id!]);
  if (!sel) return { why: 'the element went away' };
  let out: Awaited<ReturnType<StepRunner['resizeBy']>>;
  try {
    out = await r.resizeBy(sel, dx, dy);
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  const size = (s: { width: number; height: number }) => `${Math.round(s.width)}×${Math.round(s.height)}`;
  const did = `resized ${out.element} from ${size(out.before)} to ${size(out.after)}`;
  r.note(step.say, reasoning, did, view.url, null);
  const took = (d: number, a: number, b: number) => d === 0 || (d > 0 ? b - a >= RESIZED_MIN : a - b >= RESIZED_MIN);
  if (!took(dx, out.before.width, out.after.width) || !took(dy, out.before.height, out.after.height))
    return { why: `${did}, which is not the change asked (${dx > 0 || dy > 0 ? 'larger' : 'smaller'})` };
  return { did };
}

/** A press and hold: the control the words name pressed, held the time said, released; how long it was held is said. */
export async function holdStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const { target, ms } = step.hold!;
  const g = namedTarget(target, view.nodes, r.clock);
  if ('why' in g) return g;
  const [sel] = await r.selectors([g.node.id!]);
  if (!sel) return { why: 'the element went away' };
  let out: Awaited<ReturnType<StepRunner['hold']>>;
  try {
    out = await r.hold(sel, ms);
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  const did = `held ${out.element} down for ${ms} ms`;
  r.note(step.say, reasoning, did, view.url, null);
  return { did };
}

/** An item of a list that moves: an option of its own, or one of a native list box's options (named by `list`). */
interface ListItem {
  name: string;
  list?: string;
}
interface Place {
  node: OutlineNode;
  at: number;
  of: number;
  selected: boolean;
}

/** Where the item stands in its list now, and whether it is the one selected; null when it is not there exactly once. */
function placeOf(item: ListItem, nodes: OutlineNode[]): Place | null {
  if (item.list !== undefined) {
    const boxes = nodes.filter((n) => n.id && n.role === 'listbox' && n.name === item.list && optionsOf(n).length);
    // A list the snapshot cut short ("(+3 more)") has an end nobody can see.
    if (boxes.length !== 1 || /\(\+\d+ more\)$/.test(String(boxes[0].states.options))) return null;
    const opts = optionsOf(boxes[0]);
    const at = opts.indexOf(item.name);
    if (at < 0 || opts.lastIndexOf(item.name) !== at) return null;
    return { node: boxes[0], at, of: opts.length, selected: boxes[0].states.value === item.name };
  }
  const hits = nodes.filter((n) => n.id && n.role === 'option' && n.name === item.name);
  if (hits.length !== 1) return null;
  const sibs = (hits[0].parent?.children ?? []).filter((n) => n.id && n.role === 'option');
  const selected = sibs.filter((n) => n.states.selected === true);
  return { node: hits[0], at: sibs.indexOf(hits[0]), of: sibs.length, selected: selected.length === 1 && selected[0] === hits[0] };
}

/** The one button on the page that moves the selected item up (or down), or null. */
function moveButton(nodes: OutlineNode[], up: boolean): OutlineNode | null {
  const re = oneOf(up ? MOVE_UP : MOVE_DOWN);
  const hits = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && n.states.disabled !== true && re.test(normalize(n.name)));
  return hits.length === 1 ? hits[0] : null;
}

/**
 * A list whose options move by Move up and Move down buttons (no drag): select the option, then
 * press toward the end it goes to, one place a press, until the page shows it there. Null when
 * the page has no such pair of buttons.
 */
async function moveByButtons(r: Run, step: PlanStep, node: OutlineNode, view: View, reasoning: string): Promise<{ did: string } | { why: string } | null> {
  const to = step.drag!.to!;
  if (!moveButton(view.nodes, true) || !moveButton(view.nodes, false)) return null;
  let item: ListItem = { name: node.name };
  if (node.role === 'listbox') {
    const named = optionsOf(node).filter((o) => exactMatch(o, step.drag!.target));
    if (named.length !== 1) return { why: `${quote(node.name)} has ${named.length || 'no'} options named ${quote(step.drag!.target)}` };
    item = { name: named[0], list: node.name };
  }
  const name = item.name;
  let place = placeOf(item, view.nodes);
  if (!place) return { why: `the list does not show ${quote(name)} once, with its whole order` };
  const end = placeIndex(to, place.of);
  if (end === null) return { why: `the list has ${place.of} items, no ${placeWord(to)} place` };
  if (place.at === end) return { did: `${quote(name)} is already ${placeWord(to)}` };
  const up = place.at > end;
  if (!place.selected) {
    const [method, args] = item.list === undefined ? (['click', []] as const) : (['selectOption', [name]] as const);
    if (!(await actOnNode(r, place.node, method, [...args], `select ${quote(name)}`, reasoning, view.url))) return { why: `${quote(name)} went away` };
    await r.settle();
    view = await look(r, r.instruction);
    place = placeOf(item, view.nodes);
    if (!place?.selected) return { why: `${quote(name)} did not become the one selected item` };
  }
  let presses = 0;
  while (place.at !== end) {
    const button = moveButton(view.nodes, up);
    if (!button || presses >= place.of) return { why: `${quote(name)} stopped at place ${place.at + 1} of ${place.of}` };
    if (!(await actOnNode(r, button, 'click', [], `click ${quote(button.name)}`, reasoning, view.url))) return { why: 'the button went away' };
    presses++;
    await r.settle();
    view = await look(r, r.instruction);
    const next = placeOf(item, view.nodes);
    if (!next || next.at !== place.at + (up ? -1 : 1)) return { why: `pressed ${quote(button.name)}, but ${quote(name)} did not move one place` };
    place = next;
  }
  const where = to === 'first' ? 'the top' : to === 'last' ? 'the bottom' : `place ${to}`;
  return { did: `moved ${quote(name)} to ${where} (${presses} press${presses === 1 ? '' : 'es'})` };
}
