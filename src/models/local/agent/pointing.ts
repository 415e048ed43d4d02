/**
 * Steps aimed at a place rather than at a named control: where the page says to right-click, a moving target, a point in
 * a drawing, a lattice point by its coordinates.
 */
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { lineKey, secretsShown } from '../secrets';
import { spotMove, type SpotMove } from '../geometry';
import { anyOf } from '../words/grammar';
import { RIGHT_CLICK_NAMES } from '../words/menus';
import { type View, look, type Clock, ground, type Outcome, actOnNode, type Run, pause } from './run';
import { REVEALER } from './secrets';

const RIGHT_CLICK_NAMED = anyOf(RIGHT_CLICK_NAMES);
/** Roles of a place to right-click: what takes the pointer (a heading that says "Right click reveal" is a title). */
const RIGHT_CLICK_ROLES: ReadonlySet<string> = new Set(['clickable', 'button', 'img', 'figure', 'group', 'region', 'application', 'cell', 'gridcell']);

/**
 * The page's one element whose own name says it is the place to right-click ("Right-click here"); with none, the element
 * the words name as said ("right-click the box" on a page with one box); or why there is neither.
 */
export function rightClickPlace(said: string, nodes: OutlineNode[], clock: Clock): { node: OutlineNode } | { why: string } {
  const places = nodes.filter((n) => n.id && RIGHT_CLICK_ROLES.has(n.role) && n.states.disabled !== true);
  // A box with no name of its own is called by its title inside ("Right Click Here!" as its heading).
  const called = (n: OutlineNode) => n.name || n.children.find((c) => c.role === 'heading' || c.role === 'text')?.name || '';
  const named = places.filter((n) => RIGHT_CLICK_NAMED.test(called(n)));
  if (named.length === 1) return { node: named[0]! };
  if (named.length) return { why: `${named.length} elements say they are the place to right-click` };
  // Else the one place called for what the right-click is to show ("Show Password"), the task being to reveal it.
  const showing = places.filter((n) => REVEALER.test(called(n)));
  if (showing.length === 1) return { node: showing[0]! };
  const g = ground({ say: said }, nodes, clock);
  if (!('why' in g) && g.pick.node && g.pick.method === 'rightClick') return { node: g.pick.node };
  return { why: `nothing on the page says it is the place to right-click${'why' in g ? `, and ${g.why}` : ''}` };
}

/** A right-click on the place the page names for one: the words said none but how it looks ("a large, obvious area"). */
export async function rightClickStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const g = rightClickPlace(step.rightClickHere!.said, view.nodes, r.clock);
  if ('why' in g) return g;
  const [selector] = await r.selectors([g.node.id!]);
  if (!selector) return { why: 'the element went away' };
  let element: string;
  try {
    ({ element } = await r.perform(selector, 'rightClick', []));
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  const did = `right-clicked ${element}`;
  r.note(step.say, reasoning, did, view.url, { selector, description: element, method: 'rightClick', arguments: [] });
  return { did };
}

/** Roles a moving target may have in the outline; the most of them watched for movement. */
const MOVING_ROLES: ReadonlySet<string> = new Set(['clickable', 'button', 'img', 'figure', 'graphics-symbol', 'graphics-document', 'application']);
const MOVING_CANDIDATES = 12;
export const movingCandidates = (nodes: OutlineNode[]) =>
  nodes.filter((n) => n.id && MOVING_ROLES.has(n.role) && n.states.disabled !== true).slice(0, MOVING_CANDIDATES);
/** How long apart two looks at where things are tell what moves, and how far counts as moving. */
const MOVING_SAMPLE_MS = 200;
const MOVED_PX = 3;
/** The most clicks a moving target gets when no number is said and the page's secret is awaited, and the most that may miss. */
const MOVING_MAX = 10;
const MOVING_MISSES = 3;

/**
 * A moving target clicked where it is at each moment: the page's one element (of those that could take the click) whose
 * place changed between two looks. None, or several that move, are a refusal; with no number said and a secret to read
 * after it, clicked until the page shows one.
 */
export async function movingStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const { noun, times, untilShown } = step.moving!;
  const selectors = await r.selectors(movingCandidates(current().nodes).map((n) => n.id!));
  const where = () => Promise.all(selectors.map((s) => (s ? r.pointNow(s).catch(() => null) : Promise.resolve(null))));
  const a = await where();
  await pause(MOVING_SAMPLE_MS, r.signal);
  const b = await where();
  const moved = selectors.filter((s, i) => s && a[i] && b[i] && Math.hypot(a[i]!.x - b[i]!.x, a[i]!.y - b[i]!.y) >= MOVED_PX);
  if (moved.length > 1) return { why: `${moved.length} things on the page move: which is the ${noun} is not known` };
  if (!moved.length) return { why: 'nothing on the page moves' };
  const selector = moved[0]!;
  const most = times ?? (untilShown ? MOVING_MAX : 1);
  // Lines the page showed when the run began: a secret among them was not brought up by these clicks.
  const shownFirst = new Set(r.first?.nodes.map((n) => lineKey(n.name)));
  let hits = 0;
  let misses = 0;
  let element = '';
  while (hits < most && misses <= MOVING_MISSES) {
    let taken: boolean | undefined;
    try {
      await r.effects.begin().catch(() => undefined);
      const out = await r.clickMoving(selector);
      taken = (await r.effects.end('click').catch(() => null))?.taken;
      element = out.element;
      const said = `clicked ${out.element} at (${Math.round(out.point.x)}, ${Math.round(out.point.y)})${taken === false ? ', which missed it' : ''}`;
      r.note(step.say, `${reasoning}: click ${hits + misses + 1}`, said, current().url, null);
    } catch (e) {
      if (r.endsRun(e)) throw e;
      if (!hits && !misses) return { why: (e as Error).message };
      break;
    }
    // A click nothing took (the space beside the target): not a hit, and tried again.
    if (taken === false) misses++;
    else hits++;
    if (untilShown && !times) {
      await r.settle();
      set(await look(r, r.instruction));
      if (secretsShown(current().nodes, shownFirst).length) break;
    }
  }
  const did = `clicked the moving ${noun} ${element} ${hits} time${hits === 1 ? '' : 's'}${misses ? ` (${misses} more clicks missed it)` : ''}`;
  return times && hits < times ? { why: `${did}, not ${times}` } : { did };
}

/** Roles a drawing that takes clicks may have in the outline; the most of them read for shapes. */
const DRAWING_ROLES: ReadonlySet<string> = new Set(['clickable', 'img', 'figure', 'graphics-document', 'application']);
const DRAWINGS_MAX = 4;
export const drawingsOf = (nodes: OutlineNode[]) => nodes.filter((n) => n.id && DRAWING_ROLES.has(n.role)).slice(0, DRAWINGS_MAX);

/**
 * A point the words name in the page's one drawing that takes clicks (the midpoint of its two points, the centre of its
 * circle, the end of an angle's bisector) clicked, or a stroke drawn on it (a line through its dot, a circle around it),
 * worked out from the shapes it draws. Two drawings it could be, or shapes that do not fit, are a refusal.
 */
export async function spotStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const { at, dir } = step.spot!;
  const fits: { selector: string; move: SpotMove; element: string }[] = [];
  let why = 'the page shows no drawing that takes clicks';
  const drawings = drawingsOf(current().nodes);
  const selectors = await r.selectors(drawings.map((d) => d.id!));
  for (const selector of selectors) {
    if (!selector) continue;
    const read = await r.shapesIn(selector, at === 'mark').catch(() => null);
    if (!read?.shapes.length) continue;
    const move = spotMove(at, dir, read.shapes, { width: read.width, height: read.height });
    if (typeof move === 'string') why = move;
    else fits.push({ selector, move, element: read.element });
  }
  if (fits.length !== 1) return { why: fits.length ? `${fits.length} drawings on the page could be the one meant` : why };
  const { selector, move, element } = fits[0]!;
  let did: string;
  try {
    if ('stroke' in move) {
      await r.strokeInside(selector, move.stroke);
      const [a, b] = [move.stroke[0]!, move.stroke.at(-1)!];
      did = `drew ${move.what}, from (${a.x}, ${a.y})${a.x === b.x && a.y === b.y ? ' round' : ` to (${b.x}, ${b.y})`} inside ${element}`;
    } else {
      const done = await r.clickInside(selector, move.click);
      did = `clicked ${move.what}, (${move.click.x}, ${move.click.y}) inside ${done.element}`;
    }
  } catch (e) {
    if (r.endsRun(e)) throw e;
    return { why: (e as Error).message };
  }
  r.note(step.say, reasoning, did, current().url, null);
  return { did };
}

/** The most points of a lattice read for where they lie. */
const LATTICE_MAX = 121;

/**
 * A grid point said by its coordinates: the one element named so ("(1,-3)" as its title); else, on a lattice of like
 * points (n × n of one name, n odd) whose axes are numbered -k … k beside it (each number shown twice, none past k),
 * the point in that column and row, read from where the points lie: x to the right, y up, the centre (0,0).
 */
export async function coordStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const { x, y } = step.coord!;
  const said = `(${x},${y})`;
  const click = async (n: OutlineNode, how: string): Promise<Outcome> =>
    (await actOnNode(r, n, 'click', [], `click ${said}`, `${reasoning}: ${how}`, view.url))
      ? { did: `clicked ${said} (${how})` }
      : { why: 'the point went away' };
  const named = view.nodes.filter((n) => n.id && n.name.replace(/\s+/g, '') === said);
  if (named.length === 1) return click(named[0]!, 'the element named so');
  if (named.length > 1) return { why: `${named.length} elements are named ${said}` };
  const byName = new Map<string, OutlineNode[]>();
  for (const n of view.nodes) if (n.id && n.role === 'clickable') byName.set(n.name, [...(byName.get(n.name) ?? []), n]);
  const points = [...byName.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const side = Math.round(Math.sqrt(points.length));
  if (side < 3 || side % 2 === 0 || side * side !== points.length || points.length > LATTICE_MAX)
    return { why: `nothing on the page is named ${said}, and it shows no square lattice of like points` };
  const k = (side - 1) / 2;
  // The axes' numbers: lines of bare numbers (each its own line, or a row of them).
  const numbers = view.nodes
    .filter((n) => !n.id && n.role === 'text' && /^-?\d+(?:\s+-?\d+)*$/.test(n.name.trim()))
    .flatMap((n) => n.name.trim().split(/\s+/).map(Number));
  const axes = numbers.every((v) => Math.abs(v) <= k) && [...Array(2 * k + 1).keys()].every((i) => i === k || numbers.filter((v) => v === i - k).length >= 2);
  if (!axes) return { why: `the lattice's axes are not numbered ${-k} to ${k} beside it` };
  if (Math.abs(x) > k || Math.abs(y) > k) return { why: `${said} is off the grid, which runs from ${-k} to ${k}` };
  const selectors = await r.selectors(points.map((n) => n.id!));
  if (selectors.some((sel) => !sel)) return { why: 'the grid changed' };
  const at = await Promise.all(selectors.map((sel) => r.pointOf(sel!)));
  // Columns and rows: the distinct places the points lie at, each holding `side` of them.
  const lines = (vs: number[]) => vs.sort((a, b) => a - b).filter((v, i, all) => i === 0 || v - all[i - 1]! > 2);
  const cols = lines(at.map((p) => p.x));
  const rows = lines(at.map((p) => p.y));
  if (cols.length !== side || rows.length !== side) return { why: `the points do not lie in ${side} columns and ${side} rows` };
  const near = (vs: number[], v: number) => vs.findIndex((c) => Math.abs(c - v) <= 2);
  const i = at.findIndex((p) => near(cols, p.x) - k === x && k - near(rows, p.y) === y);
  if (i < 0) return { why: `no point lies at ${said}` };
  return click(points[i]!, `column ${x + k + 1} from the left and row ${k - y + 1} from the top of a ${side} × ${side} lattice`);
}
