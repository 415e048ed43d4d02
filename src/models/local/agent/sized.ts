/**
 * A drag said by sizes: "drag the smaller box into the larger box". The things that take the pointer are measured, the
 * one said by its size is dragged to the middle of the other, and the drag is done only when it ends wholly inside.
 */
import { quote } from '../../../protocol/text';
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import type { Point, Size } from '../step-runner';
import { singular } from '../refs';
import { actOnNode, type Outcome, type Run, type View } from './run';

/** Roles of things a page lets the pointer drag that carry no control of their own. */
const MOVABLE = new Set(['clickable', 'img', 'graphics-symbol']);
/** The most things measured to tell the small one from the large one. */
const SIZED_MAX = 6;
/** How much larger (by area) the larger of two things must be for a person to call one "smaller" at a glance. */
const CLEARLY_LARGER = 1.5;
/** Nouns that name any thing by its kind alone ("the smaller box"), not a shape its name must say. */
const ANY_THING = new Set(['box', 'block', 'item', 'element', 'thing', 'object', 'one', 'shape', 'piece', 'rectangle', 'container']);

type Measured = { n: OutlineNode; sel: string; box: Point & Size };

/** The things `noun` may be: any movable thing for a kind word, else those whose name says the noun ("square"). */
function thingsSaid(noun: string, nodes: OutlineNode[]): OutlineNode[] {
  const all = nodes.filter((n) => n.id && MOVABLE.has(n.role) && n.states.disabled !== true && !n.children.some((c) => c.id));
  const word = singular(noun.toLowerCase());
  return ANY_THING.has(word) ? all : all.filter((n) => new RegExp(`\\b${word}s?\\b`, 'i').test(n.name));
}

/** Whether the page shows anything a sized drag could move (measured only when the step runs). */
export const sizedThings = (d: NonNullable<PlanStep['dragSized']>, nodes: OutlineNode[]) => thingsSaid(d.what, nodes).length > 0;

/** The one of `set` that is clearly the smallest or the largest; a string says why there is none. */
function bySize(set: Measured[], which: 'small' | 'large', noun: string): Measured | string {
  if (set.length < 2) return `the page shows ${set.length ? 'one' : 'no'} ${noun} to tell a ${which === 'small' ? 'smaller' : 'larger'} one from`;
  const area = (m: Measured) => m.box.width * m.box.height;
  const sorted = [...set].sort((a, b) => (which === 'small' ? area(a) - area(b) : area(b) - area(a)));
  const [first, next] = sorted;
  const ratio = which === 'small' ? area(next!) / Math.max(1, area(first!)) : area(first!) / Math.max(1, area(next!));
  return ratio >= CLEARLY_LARGER ? first! : `no ${noun} is clearly the ${which === 'small' ? 'smallest' : 'largest'} (two are about the same size)`;
}

/** Whether box `a` lies wholly inside box `b` (both by centre and size), a pixel's slack allowed. */
const inside = (a: Point & Size, b: Point & Size) =>
  Math.abs(a.x - b.x) + a.width / 2 <= b.width / 2 + 1 && Math.abs(a.y - b.y) + a.height / 2 <= b.height / 2 + 1;

/**
 * Drag the thing said by its size into the other: both found among the things that take the pointer, each clearly the
 * smallest or largest of its kind; the moved one must fit. A page whose one button is Submit gets it pressed after, when
 * the instruction does not press it itself: the boxes placed are the answer it takes.
 */
export async function sizedDragStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const d = step.dragSized!;
  const view = current();
  const wanted = [...new Set([...thingsSaid(d.what, view.nodes), ...thingsSaid(d.onto, view.nodes)])];
  if (wanted.length > SIZED_MAX) return { why: `the page shows ${wanted.length} things that could be meant, more than ${SIZED_MAX} to compare` };
  const selectors = await r.selectors(wanted.map((n) => n.id!));
  const measured: Measured[] = [];
  for (const [k, n] of wanted.entries()) {
    const sel = selectors[k];
    if (!sel) return { why: `${quote(n.name || n.role)} went away` };
    measured.push({ n, sel, box: await r.boxOf(sel) });
  }
  const of = (noun: string) => measured.filter((m) => thingsSaid(noun, [m.n]).length > 0);
  const mover = bySize(of(d.what), d.which, d.what);
  if (typeof mover === 'string') return { why: mover };
  const target = bySize(of(d.onto), d.ontoWhich, d.onto);
  if (typeof target === 'string') return { why: target };
  if (target === mover) return { why: `the ${d.what} to move and the ${d.onto} to move it into are the same one` };
  if (mover.box.width >= target.box.width || mover.box.height >= target.box.height) {
    return { why: `the ${d.what} to move (${Math.round(mover.box.width)}×${Math.round(mover.box.height)}) does not fit inside the ${d.onto}` };
  }
  const out = await r.dragBy(mover.sel, { to: { x: target.box.x, y: target.box.y } });
  const did = `dragged ${out.element} from (${Math.round(out.from.x)}, ${Math.round(out.from.y)}) to (${Math.round(out.to.x)}, ${Math.round(out.to.y)})`;
  r.note(step.say, reasoning, did, view.url, null);
  await r.settle();
  const [moved, into] = [await r.boxOf(mover.sel), await r.boxOf(target.sel)];
  if (!inside(moved, into)) return { why: `${did}, but it did not end inside ${quote(target.n.name || target.n.role)}` };
  const done = [`dragged ${quote(mover.n.name || mover.n.role)} inside ${quote(target.n.name || target.n.role)}`];
  const buttons = view.nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true);
  const submit = buttons.length === 1 && /^submit$/i.test(buttons[0]!.name.trim()) ? buttons[0]! : null;
  if (submit && !/\bsubmit\b/i.test(r.instruction)) {
    if (!(await actOnNode(r, submit, 'click', [], 'click "Submit"', `${reasoning}: the boxes placed are the answer`, view.url))) {
      return { why: `${done[0]}, then "Submit" went away` };
    }
    done.push('clicked "Submit"');
  }
  return { did: done.join('; ') };
}
