/**
 * Points and strokes worked out from what a drawing shows (its shapes as laid out): the midpoint of two dots, a circle's
 * centre, a line through a dot, a line that bisects an angle, a circle around a dot. Each is the one the shapes allow,
 * or a reason: shapes that do not fit the words are never guessed at.
 */
import type { DrawnShape } from '../../protocol/content-messages';
import type { Point, Size } from './step-runner';
import { CIRCLE_RADIUS_MIN_PX, CIRCLE_RADIUS_PX, JOIN_PX, LINE_REACH_PX, POINT_MAX_PX } from './words/drawings';

export type SpotKind = 'midpoint' | 'centre' | 'line' | 'bisect' | 'circle' | 'mark';

/** What a spot step does in a drawing: a click at a point or a stroke through points (relative to its corner), said in words. */
export type SpotMove = { click: Point; what: string } | { stroke: Point[]; what: string };

/** How far inside its edge a point drawn on a drawing stays. */
const MARGIN = 3;
/** The points a circle is drawn through (the stroke closes it). */
const CIRCLE_POINTS = 48;
/** An angle nearer than this to nothing or to a straight line has no one bisector to draw. */
const ANGLE_MIN_DEG = 5;

const round = (p: Point): Point => ({ x: Math.round(p.x), y: Math.round(p.y) });
/**
 * A whole pixel inside a span of this size centred here, nearest its centre: a square one pixel wide is hit only at its
 * own pixel, which rounding its centre (half a pixel past its edge) would miss.
 */
function pixelIn(centre: number, size: number): number {
  const from = centre - size / 2;
  const near = [Math.round(centre), Math.floor(centre), Math.ceil(from)];
  return near.find((p) => p >= from && p < from + size) ?? Math.round(centre);
}
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const plural = (n: number, one: string) => `${n || 'no'} ${one}${n === 1 ? '' : 's'}`;

/** What a spot step does in a drawing of this size with these shapes, or why it cannot. */
export function spotMove(at: SpotKind, dir: 'horizontal' | 'vertical' | undefined, shapes: DrawnShape[], size: Size): SpotMove | string {
  const round_ = shapes.filter((s) => s.tag === 'circle' || s.tag === 'ellipse');
  const dots = round_.filter((s) => s.w <= POINT_MAX_PX && s.h <= POINT_MAX_PX);
  const inside = (p: Point) => p.x >= MARGIN && p.y >= MARGIN && p.x <= size.width - MARGIN && p.y <= size.height - MARGIN;
  switch (at) {
    case 'mark': {
      const marks = shapes.filter((s) => s.tag === 'box');
      if (marks.length !== 1) return `the page shows ${plural(marks.length, 'small square')}, not one`;
      const m = marks[0]!;
      return { click: { x: pixelIn(m.x, m.w), y: pixelIn(m.y, m.h) }, what: `the ${m.w}×${m.h} square` };
    }
    case 'midpoint':
      if (dots.length !== 2) return `the drawing shows ${plural(dots.length, 'point')}, not two`;
      return { click: round({ x: (dots[0]!.x + dots[1]!.x) / 2, y: (dots[0]!.y + dots[1]!.y) / 2 }), what: 'the midpoint of the two points' };
    case 'centre': {
      const circles = round_.filter((s) => s.w > POINT_MAX_PX || s.h > POINT_MAX_PX);
      if (circles.length !== 1) return `the drawing shows ${plural(circles.length, 'circle')}, not one`;
      return { click: round(circles[0]!), what: 'the centre of the circle' };
    }
    case 'line': {
      if (dots.length !== 1) return `the drawing shows ${plural(dots.length, 'dot')}, not one`;
      const c = round(dots[0]!);
      const h = dir === 'horizontal';
      const clampX = (x: number) => Math.round(Math.min(size.width - 2, Math.max(2, x)));
      const clampY = (y: number) => Math.round(Math.min(size.height - 2, Math.max(2, y)));
      const from = h ? { x: clampX(c.x - LINE_REACH_PX), y: c.y } : { x: c.x, y: clampY(c.y - LINE_REACH_PX) };
      const to = h ? { x: clampX(c.x + LINE_REACH_PX), y: c.y } : { x: c.x, y: clampY(c.y + LINE_REACH_PX) };
      return { stroke: [from, to], what: `a ${dir} line through the dot` };
    }
    case 'circle': {
      if (dots.length !== 1) return `the drawing shows ${plural(dots.length, 'dot')}, not one`;
      const c = dots[0]!;
      const room = Math.min(c.x, c.y, size.width - c.x, size.height - c.y) - MARGIN;
      const r = Math.floor(Math.min(CIRCLE_RADIUS_PX, room));
      if (r < CIRCLE_RADIUS_MIN_PX) return `the dot is too near the drawing's edge for a circle of ${CIRCLE_RADIUS_MIN_PX} px around it`;
      const stroke: Point[] = [];
      for (let i = 0; i <= CIRCLE_POINTS; i++) {
        const a = (2 * Math.PI * i) / CIRCLE_POINTS;
        stroke.push(round({ x: c.x + r * Math.cos(a), y: c.y + r * Math.sin(a) }));
      }
      return { stroke, what: `a circle of radius ${r} px around the dot` };
    }
    case 'bisect':
      return bisector(shapes, inside);
  }
}

/**
 * The click that ends a line from an angle's corner along its bisector: the drawing's two lines must meet at one end each
 * (the corner), making an angle that is neither nothing nor straight. The point goes three quarters of the shorter arm
 * out, nearer when that is past the drawing's edge.
 */
function bisector(shapes: DrawnShape[], inside: (p: Point) => boolean): SpotMove | string {
  const lines = shapes.filter((s) => s.ends);
  if (lines.length !== 2) return `the drawing shows ${plural(lines.length, 'line')}, not the two arms of one angle`;
  const [p, q] = lines.map((l) => {
    const [x1, y1, x2, y2] = l.ends!;
    return [
      { x: x1, y: y1 },
      { x: x2, y: y2 },
    ] as const;
  });
  const joins: { corner: Point; a: Point; b: Point }[] = [];
  for (const i of [0, 1] as const) {
    for (const j of [0, 1] as const) {
      if (dist(p![i], q![j]) > JOIN_PX) continue;
      const corner = { x: (p![i].x + q![j].x) / 2, y: (p![i].y + q![j].y) / 2 };
      joins.push({ corner, a: p![1 - i]!, b: q![1 - j]! });
    }
  }
  if (joins.length !== 1) return joins.length ? 'the two lines meet at both ends' : 'the two lines do not meet at a corner';
  const { corner, a, b } = joins[0]!;
  const la = dist(a, corner);
  const lb = dist(b, corner);
  if (la < 1 || lb < 1) return 'an arm of the angle has no length';
  const ua = { x: (a.x - corner.x) / la, y: (a.y - corner.y) / la };
  const ub = { x: (b.x - corner.x) / lb, y: (b.y - corner.y) / lb };
  const deg = (Math.acos(Math.max(-1, Math.min(1, ua.x * ub.x + ua.y * ub.y))) * 180) / Math.PI;
  if (deg < ANGLE_MIN_DEG || deg > 180 - ANGLE_MIN_DEG) return `the angle is ${Math.round(deg)}°: it has no one bisector to draw`;
  const sx = ua.x + ub.x;
  const sy = ua.y + ub.y;
  const n = Math.hypot(sx, sy);
  const d = { x: sx / n, y: sy / n };
  for (let reach = 0.75 * Math.min(la, lb); reach >= CIRCLE_RADIUS_MIN_PX; reach *= 0.9) {
    const end = round({ x: corner.x + d.x * reach, y: corner.y + d.y * reach });
    if (inside(end)) return { click: end, what: `the end of a line that bisects the ${Math.round(deg)}° angle` };
  }
  return 'the bisector leaves the drawing too near its corner';
}
