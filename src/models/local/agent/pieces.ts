/**
 * A set of pieces dragged into a drawing's box ("drag all red circles into the left box"): which pieces, which box, and
 * where that box lies.
 */
import { quote } from '../../../protocol/text';
import { isInside, type OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { singular } from '../refs';
import { COLOUR_WORDS, PIECE_NOUNS, SAME_COLOUR, SHAPE_WORDS, SIDE_BOX_NOUNS } from '../words/references';
import { normalize } from '../text';
import type { Point } from '../step-runner';
import type { DrawnShape } from '../../../protocol/content-messages';
import cssColours from 'color-name';
import { either, oneOf } from '../words/grammar';
import { type View, type Clock, type Outcome, actOnNode, type Run } from './run';
import { namedTarget } from './drags';
import { EACH_MAX } from './lists';

const SHAPE_NOUN = oneOf(SHAPE_WORDS);
const ANY_PIECE = oneOf(PIECE_NOUNS);

/** A box said by its side ("the left box", "the right container"): one of two drawn boxes the pieces go into. */
const SIDE_BOX = new RegExp(`^(?:the\\s+)?(left|right|top|bottom)(?:most)?\\s+(?:${either(SIDE_BOX_NOUNS)})$`, 'i');
type Side = 'left' | 'right' | 'top' | 'bottom';
/** A box said by its colour ("the black box"): the one drawn in that colour among the drawing's boxes. */
const COLOUR_BOX = new RegExp(`^(?:the\\s+)?([a-z]+)\\s+(?:${either(SIDE_BOX_NOUNS)})$`, 'i');
/**
 * The drawing a set is sorted in: the element it is read through (the drawing itself, or one of its shapes when the
 * drawing takes no clicks of its own and so has no line), and its pieces in page order.
 */
interface Drawing {
  anchor: OutlineNode;
  /** The line whose children the pieces are. */
  holder: OutlineNode;
  pieces: OutlineNode[];
}
/** Where a set goes: an element the page names, or a box its drawing draws (by side, or by colour). */
type DragOnto = { node: OutlineNode } | { side: Side; drawing: Drawing } | { colour: string; drawing: Drawing };
interface DragSet {
  pieces: OutlineNode[];
  onto: DragOnto;
  /** "..., and everything else into the right box": the drawing's other pieces, and where they go. */
  rest?: { pieces: OutlineNode[]; onto: DragOnto };
}

/** The pieces a drag of a set names ("red squares", "shapes"), outside the target; or why the words name none. */
function piecesNamed(what: string, nodes: OutlineNode[], outside: OutlineNode | null): OutlineNode[] | string {
  const words = what.toLowerCase().split(/\s+/);
  const noun = words.at(-1)!;
  const colours = words.slice(0, -1);
  if (!SHAPE_NOUN.test(noun) && !ANY_PIECE.test(noun)) return `${quote(what)} names no kind of shape the page draws`;
  if (colours.some((c) => !oneOf(COLOUR_WORDS).test(c))) return `it picks the pieces by ${quote(colours.join(' '))}, which the built-in model cannot see`;
  const kind = SHAPE_NOUN.test(noun) ? singular(noun) : null;
  return nodes.filter((n) => {
    if (!n.id || (outside && (n === outside || isInside(n, outside)))) return false;
    const said = normalize(n.name).split(' ');
    const shape = said.find((w) => SHAPE_NOUN.test(w));
    // A square is a rectangle too ("drag all rectangles" takes the squares).
    const fits = !kind || singular(shape ?? '') === kind || (kind === 'rectangle' && singular(shape ?? '') === 'square');
    return !!shape && fits && colours.every((c) => said.includes(c) || said.includes(SAME_COLOUR[c] ?? c));
  });
}

/** Every piece a drawing holds: the elements inside it named as a shape. */
const drawingPieces = (drawing: OutlineNode, nodes: OutlineNode[]) =>
  nodes.filter(
    (n) =>
      n.id &&
      isInside(n, drawing) &&
      normalize(n.name)
        .split(' ')
        .some((w) => SHAPE_NOUN.test(w)),
  );

/**
 * What "drag all circles into the black box" moves and where: the elements named as that kind of piece (a shape word,
 * with any colour said: "red squares"; "shapes" or "items" for every shape), and the one target; or why not. A target
 * said by its side ("the left box") is one of two boxes drawn in the drawing that holds the pieces (found when the step
 * runs); "everything else into the right box" takes the drawing's other pieces there.
 */
export function dragSet(d: NonNullable<PlanStep['dragEach']>, nodes: OutlineNode[], clock: Clock): DragSet | string {
  const side = SIDE_BOX.exec(d.to.trim());
  const hue = COLOUR_BOX.exec(d.to.trim())?.[1]?.toLowerCase();
  const colour = hue && cssColours[hue] ? hue : null;
  let named = namedTarget(d.to, nodes, clock);
  // "The black box" is no black circle: a piece of the drawing is a target only when called by its own shape.
  if (colour && 'node' in named && isPiece(named.node) && !normalize(named.node.name).split(' ').includes(d.to.trim().split(/\s+/).at(-1)!.toLowerCase()))
    named = { why: `${quote(named.node.name)} is a piece, not ${quote(d.to)}` };
  if ('why' in named && !side && !colour) return `where to drag them is not known: ${named.why}`;
  const pieces = piecesNamed(d.what, nodes, 'node' in named ? named.node : null);
  if (typeof pieces === 'string') return pieces;
  if (pieces.length > EACH_MAX) return `${pieces.length} ${d.what}, more than ${EACH_MAX}`;
  const drawing = drawingOf(pieces.length ? pieces : nodes.filter((n) => n.id && isPiece(n)), nodes);
  // None of them: nothing to drag, when they are said by their shape alone (a colour's name may be another than the
  // page's) and every piece of the one drawing is a shape it can tell (none merely "a shape").
  if (!pieces.length) {
    if (/\s/.test(d.what.trim())) return `no ${d.what} on the page to drag`;
    const told = drawing && !drawing.holder.children.some((n) => n.id && n.nameFrom === 'inferred' && !isPiece(n));
    if (!drawing || !told) return `no ${d.what} on the page to drag`;
  }
  if ('node' in named) return { pieces, onto: named };
  const where = side ? `the ${side[1]!.toLowerCase()} box` : `the ${colour} box`;
  if (!drawing) return `the ${d.what} are not all in one drawing, so which is ${where} is not known`;
  const onto: DragOnto = side ? { side: side[1]!.toLowerCase() as Side, drawing } : { colour: colour!, drawing };
  if (!d.rest) return { pieces, onto };
  const restSide = SIDE_BOX.exec(d.rest.trim());
  if (!restSide) return `where the rest go is not known: ${quote(d.rest)} is not one of two boxes of the drawing`;
  const rest = drawing.pieces.filter((n) => !pieces.includes(n));
  return { pieces, onto, rest: { pieces: rest, onto: { side: restSide[1]!.toLowerCase() as Side, drawing } } };
}

/** Whether an element is named as a piece of a drawing (a shape word in its name). */
const isPiece = (n: OutlineNode) =>
  normalize(n.name)
    .split(' ')
    .some((w) => SHAPE_NOUN.test(w));

/**
 * The one drawing that holds these pieces, with all its pieces: their common parent when it has a line of its own; when
 * it has none (a drawing that takes no clicks), the pieces that share that parent, read through the first of them.
 */
function drawingOf(pieces: OutlineNode[], nodes: OutlineNode[]): Drawing | null {
  const parents = [...new Set(pieces.map((n) => n.parent))];
  if (parents.length !== 1 || !parents[0] || !pieces.length) return null;
  const parent = parents[0];
  if (parent.id) return { anchor: parent, holder: parent, pieces: drawingPieces(parent, nodes) };
  const all = parent.children.filter((n) => n.id && isPiece(n));
  return all.length ? { anchor: all[0]!, holder: parent, pieces: all } : null;
}

/** Drawn boxes pieces are sorted into: unfilled, each side at least this many times the largest piece's. */
const BOX_TIMES = 2;

/**
 * The point (in the viewport) a set goes to: the target's, or the centre of the box on that side of the two the drawing
 * draws (unfilled, much larger than its pieces), placed by the drawing's pieces (each drawn shape of a piece, in order).
 */
async function ontoPoint(r: Run, onto: DragOnto, nodes: OutlineNode[]): Promise<Point | string> {
  if ('node' in onto) {
    const [sel] = await r.selectors([onto.node.id!]);
    return sel ? r.pointOf(sel) : 'the target went away';
  }
  const [drawSel] = await r.selectors([onto.drawing.anchor.id!]);
  const read = drawSel ? await r.shapesIn(drawSel).catch(() => null) : null;
  if (!read) return 'the drawing could not be read';
  const empty = (f: string) => !f || f === 'none' || /rgba\(.*,\s*0\)$|transparent/.test(f);
  const filled = read.shapes.filter((s) => !empty(s.fill));
  const most = Math.max(0, ...filled.map((s) => Math.max(s.w, s.h)));
  const boxes = read.shapes.filter((s) => empty(s.fill) && s.tag === 'rect' && s.w >= BOX_TIMES * most && s.h >= BOX_TIMES * most);
  let box: DrawnShape;
  if ('colour' in onto) {
    // "The black box": the one box outlined in that colour.
    const rgb = cssColours[onto.colour]!;
    const inColour = boxes.filter((b) => b.stroke && (b.stroke.match(/\d+/g) ?? []).slice(0, 3).every((v, k) => Number(v) === rgb[k]));
    if (inColour.length !== 1) return `the drawing shows ${inColour.length || 'no'} ${onto.colour} boxes, not one`;
    box = inColour[0]!;
  } else {
    if (boxes.length !== 2) return `the drawing shows ${boxes.length || 'no'} boxes to sort into, not two`;
    const across = onto.side === 'left' || onto.side === 'right';
    const [a, b] = [...boxes].sort((p, q) => (across ? p.x - q.x : p.y - q.y));
    if (across ? Math.abs(a!.x - b!.x) < a!.w / 2 : Math.abs(a!.y - b!.y) < a!.h / 2)
      return `the two boxes are not side by side ${across ? 'across' : 'up and down'}`;
    box = onto.side === 'left' || onto.side === 'top' ? a! : b!;
  }
  // Where the drawing's corner is, from a piece: its drawn shape's place in the drawing against its place on the screen.
  const pieces = onto.drawing.pieces;
  if (pieces.length !== filled.length) return `the drawing draws ${filled.length} filled shapes for ${pieces.length} pieces: which is which is not known`;
  const [pieceSel] = await r.selectors([pieces[0]!.id!]);
  if (!pieceSel) return 'a piece went away';
  const seen = await r.pointOf(pieceSel);
  return { x: seen.x - filled[0]!.x + box.x, y: seen.y - filled[0]!.y + box.y };
}

/** Drag each piece of the set onto the target, a little apart; each must move, or the run stops there. */
export async function dragEachStep(r: Run, step: PlanStep, reasoning: string, current: () => View): Promise<Outcome> {
  const view = current();
  const set = dragSet(step.dragEach!, view.nodes, r.clock);
  if (typeof set === 'string') return { why: set };
  const said = (o: DragOnto) => ('node' in o ? quote(o.node.name || o.node.role) : `the ${'side' in o ? o.side : o.colour} box`);
  const done: string[] = [];
  for (const { pieces, onto } of [set, ...(set.rest ? [set.rest] : [])]) {
    // None of them in the drawing: nothing to move, and the box holds all of them as it is.
    if (!pieces.length) {
      done.push(`the drawing has no ${step.dragEach!.what}: nothing to drag into ${said(onto)}`);
      continue;
    }
    const at = await ontoPoint(r, onto, view.nodes);
    if (typeof at === 'string') return { why: done.length ? `${done.join('; ')}, then ${at}` : at };
    const moved: string[] = [];
    for (const [k, n] of pieces.entries()) {
      if (r.signal.aborted) return { why: `cancelled after ${moved.length} of ${pieces.length}` };
      const [sel] = await r.selectors([n.id!]);
      if (!sel) return { why: `${quote(n.name)} went away after ${moved.length} of ${pieces.length}` };
      // A little apart, so a piece does not land on one dropped before it.
      const out = await r.dragBy(sel, { to: { x: at.x + ((k % 3) - 1) * 10, y: at.y + ((Math.floor(k / 3) % 3) - 1) * 10 } });
      const did = `dragged ${out.element} from (${Math.round(out.from.x)}, ${Math.round(out.from.y)}) to (${Math.round(out.to.x)}, ${Math.round(out.to.y)})`;
      r.note(step.say, `${reasoning}: ${k + 1} of ${pieces.length}`, did, view.url, null);
      await r.settle();
      const p = await r.pointOf(sel).catch(() => null);
      if (p && Math.hypot(p.x - out.from.x, p.y - out.from.y) < 3) return { why: `${did}, but it did not move (the page did not take the drag)` };
      moved.push(quote(n.name));
    }
    done.push(moved.length ? `dragged ${moved.join(', ')} onto ${said(onto)}` : `nothing else to drag onto ${said(onto)}`);
  }
  // Pieces placed in a drawing are an answer the page takes by its one button, when Submit is all it has.
  const buttons = view.nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'link') && n.states.disabled !== true);
  if (buttons.length === 1 && /^submit$/i.test(buttons[0]!.name.trim())) {
    if (!(await actOnNode(r, buttons[0]!, 'click', [], 'click "Submit"', `${reasoning}: the boxes hold the answer`, view.url))) {
      return { why: `${done.join('; ')}, then "Submit" went away` };
    }
    done.push('clicked "Submit"');
  }
  return { did: done.join('; ') };
}
