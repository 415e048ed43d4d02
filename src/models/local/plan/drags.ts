/** Drags by a direction, by places along a list or grid, or to an end or a cell; a set dragged onto a target; boxes resized by their grip. */
import { either } from '../words/grammar';
import { ACROSS, DOWNWARDS, GROWN, LARGE_WORDS, RESIZE_VERBS, RESIZED_BOXES, SHRUNK, SMALL_WORDS } from '../words/places';
import { REST_OF_SET } from '../words/references';
import { DRAG_VERBS } from '../words/verbs';
import { COUNT_WORDS, ordinalOf } from '../words/numbers';
import type { PlanStep } from './types';
import { bare } from './clauses';

/** How far "drag it left" goes; "all the way" goes to the edge (the drag end stays in the viewport). */
export const DRAG_STEP = 120;
const DRAG_FAR = 4000;

const SLOT = '(?:position|place|spot|slot)';
/** "X to the top of the list", "to the 1st position": (1) what is dragged, (2) which end. */
const DRAG_TO_END = new RegExp(
  `^(.+?)\\s+(?:to|into)\\s+(?:the\\s+)?(top|bottom|beginning|start|end|front|back|(?:1st|first)\\s+${SLOT}|(?:last|final)\\s+${SLOT})` +
    '(?:\\s+of\\s+the\\s+(?:list|column|row|queue|order|stack))?$',
  'i',
);
/** "X to the 3rd position (in the list)": (1) what is dragged, (2) the ordinal. */
const DRAG_TO_NTH = new RegExp(
  `^(.+?)\\s+(?:to|into)\\s+(?:the\\s+)?(\\w+)\\s+${SLOT}(?:\\s+(?:of|in)\\s+the\\s+(?:list|column|row|queue|order|stack))?$`,
  'i',
);
const PLACES = '(\\d{1,2}|one|two|three|four|five)';
const PLACE_NOUN = `(?:${SLOT}|cell)s?`;
/**
 * "X down by one position", "X up 2 places", "X left by one": (1) what, (2) which way, (3) or (4) how many places. A bare
 * "by 20" is a distance, not places ("drag the box right by 20" is 20 px).
 */
const DRAG_SHIFT = new RegExp(
  `^(.+?)\\s+(up|down|left|right)\\s+(?:(?:by\\s+)?${PLACES}\\s+${PLACE_NOUN}|by\\s+(one|two|three|four|five))(?:\\s+in\\s+the\\s+(?:list|grid))?$`,
  'i',
);
/** "X to the top left", "X to the bottom center", "X to the center": (1) what, (2) the row, (3) the column. */
const DRAG_TO_CELL = new RegExp(
  '^(.+?)\\s+to\\s+the\\s+(?:(top|center|centre|middle|bottom)\\s+(left|center|centre|middle|right)|center|centre|middle)(?:\\s+of\\s+the\\s+grid)?$',
  'i',
);
/** "X all the way to the left edge of the box", "X up by 50 px": (1) what, (2) all the way, (3) the direction, (4) how far. */
const DRAG_BY = new RegExp(
  '^(.+?)\\s+(?:(all the way|as far as (?:it|possible|it can go))\\s+)?(?:to(?:wards)?\\s+(?:the\\s+)?|)(left|right|up|down|top|bottom)(?:wards)?' +
    '(?:\\s+(?:side|edge|end))?(?:\\s+of\\s+the\\s+(?:box|area|container|track|page|screen|canvas))?' +
    '(?:\\s+(?:by|about)\\s+(\\d{1,4})\\s*(?:px|pixels)?)?$',
  'i',
);

/** How far a resize drags the grip: growing goes further than shrinking, which must leave the box usable. */
const GROW_BY = 80;
const SHRINK_BY = 30;
const SIZE_WORD = `(${either([...GROWN, ...SHRUNK])})`;
/**
 * "Resize the textarea so that the width is larger than its initial size", "make the text area taller", "enlarge
 * the notes box": (1) or (4) or (6) the box, (2) what is measured, (3) or (5) which way.
 */
const RESIZE = new RegExp(
  [
    `^(?:${either(RESIZE_VERBS)})\\s+(?:the\\s+)?(.+?)\\s+so\\s+(?:that\\s+)?(?:the\\s+|its\\s+)(width|height|size)\\s+is\\s+${SIZE_WORD}\\s+than\\s+` +
      '(?:it\\s+was|(?:its|the)\\s+(?:initial|original|current|starting|first|old)(?:\\s+(?:size|width|height|one|value))?)(?:\\s+(?:was|is))?$',
    `^make\\s+(?:the\\s+)?(.*?\\b(?:${either(RESIZED_BOXES)}))\\s+${SIZE_WORD}(?:\\s+by\\s+(?:dragging|resizing)(?:\\s+(?:it|its\\s+corner))?)?$`,
    `^(enlarge|widen|lengthen|shrink|narrow)\\s+(?:the\\s+)?(.*?\\b(?:${either(RESIZED_BOXES)}))$`,
  ].join('|'),
  'i',
);

/** A resize by the box's grip; null when the clause is not one. */
export function resizeOf(clause: string, quotes: string[]): PlanStep['resize'] | null {
  const m = RESIZE.exec(bare(clause, quotes).replace(/[.!]+$/, ''));
  if (!m) return null;
  const [, box1, measure, way1, box2, way2, verb, box3] = m;
  const target = (box1 ?? box2 ?? box3)!;
  const way = (way1 ?? way2 ?? verb)!.toLowerCase();
  const grows = GROWN.includes(way) || /^(?:enlarge|widen|lengthen)$/.test(way);
  // Only a box resizes ("make the text bigger" is a font size, "enlarge the image" a page's own control), and only by a grip.
  const side = measure && measure.toLowerCase() !== 'size' ? measure.toLowerCase() : way;
  const d = grows ? GROW_BY : -SHRINK_BY;
  const across = ACROSS.includes(side);
  const down = DOWNWARDS.includes(side);
  return { target, dx: down && !across ? 0 : d, dy: across && !down ? 0 : d };
}

/** "Drag all circles into the black box", "move every square onto the target": (1) the kind of piece, (2) where to. */
/** The rest of a drag of a set: "(the left box), and everything else into (the right box)". */
export const DRAG_REST = new RegExp(`^(.+?),?\\s+and\\s+(?:${either(REST_OF_SET)})\\s+(?:in|into|onto|on|to|inside)\\s+(?:the\\s+)?(.+)$`, 'i');
export const DRAG_ALL = new RegExp(
  `^(?:${either(DRAG_VERBS)}|put|place)\\s+(?:all|every|each)\\s+(?:of\\s+)?(?:the\\s+)?([\\w-]+(?:\\s+[\\w-]+)?)` +
    '\\s+(?:in|into|onto|on|to|inside)\\s+(?:the\\s+)?(.+)$',
  'i',
);

const SIZE_SAID = either([...SMALL_WORDS, ...LARGE_WORDS]);
/** "Drag the smaller box into the larger box": (1) size and (2) noun of what moves, (3) size and (4) noun of where it goes. */
const DRAG_SIZED = new RegExp(
  `^(?:${either(DRAG_VERBS)}|put|place)\\s+(?:the\\s+)?(${SIZE_SAID})\\s+([\\w-]+)\\s+(?:into|inside|onto|in|on|to|over)\\s+(?:of\\s+)?` +
    `(?:the\\s+)?(${SIZE_SAID})\\s+([\\w-]+)$`,
  'i',
);
/** A drag whose two ends are said by their sizes; null when the clause is not one. */
export function dragSizedOf(clause: string): PlanStep['dragSized'] | null {
  const m = DRAG_SIZED.exec(clause.replace(/[.!]+$/, '').trim());
  if (!m) return null;
  const size = (w: string) => (SMALL_WORDS.includes(w.toLowerCase()) ? 'small' : 'large');
  return { what: m[2]!.toLowerCase(), which: size(m[1]!), onto: m[4]!.toLowerCase(), ontoWhich: size(m[3]!) };
}

/** A drag by a direction or to an end of a list; null when the clause is not one (a drag onto a target is act's). */
export function dragOf(clause: string, quotes: string[]): PlanStep['drag'] | null {
  const c = bare(clause, quotes)
    .replace(/[.!]+$/, '')
    .replace(/,?\s+by\s+dragging(?:\s+it)?$/i, '')
    .replace(/^(?:use the mouse to|using the mouse,)\s+/i, '');
  const verb = new RegExp(`^(?:${either(DRAG_VERBS)})\\s+`, 'i');
  if (!verb.test(c)) return null;
  const rest = c.replace(verb, '');
  let m: RegExpExecArray | null;
  // "to the top of the list", "to the 1st position", "to the bottom", "to the end".
  if ((m = DRAG_TO_END.exec(rest)) && /\b(?:list|position|place|spot|slot|column|row|queue|order|stack)\b/i.test(rest)) {
    return { target: m[1], to: /^(?:top|beginning|start|front|1st|first)/i.test(m[2]) ? 'first' : 'last' };
  }
  // "Xyz to the 3rd position".
  if ((m = DRAG_TO_NTH.exec(rest))) {
    const k = ordinalOf(m[2]);
    if (typeof k === 'number' && k >= 2 && k <= 50) return { target: m[1], to: k };
  }
  // "Item 2 down by one position", "Nelly up by 2 places", "Nelly left by one": so many places along its list or grid.
  if ((m = DRAG_SHIFT.exec(rest))) {
    const c = (m[3] ?? m[4])!;
    const n = /^\d+$/.test(c) ? Number(c) : (COUNT_WORDS[c.toLowerCase()] ?? 0);
    if (n >= 1 && n <= 50) return { target: m[1], shift: { way: m[2].toLowerCase() as 'up' | 'down' | 'left' | 'right', by: n } };
  }
  // "Nelly to the top left", "to the center": a place of a grid by its row and column.
  if ((m = DRAG_TO_CELL.exec(rest))) {
    const mid = (w: string | undefined) => (!w || /^(?:center|centre|middle)$/i.test(w) ? 'middle' : w.toLowerCase());
    return { target: m[1], cell: { row: mid(m[2]) as 'top' | 'middle' | 'bottom', col: mid(m[3]) as 'left' | 'middle' | 'right' } };
  }
  // "the circle left", "the ball to the right", "the slider all the way to the left edge of the box", "the box up by 50 px".
  m = DRAG_BY.exec(rest);
  if (!m) return null;
  const dir = m[3].toLowerCase();
  // "to the top" of nothing in particular: the first place among its like siblings when it has them.
  if ((dir === 'top' || dir === 'bottom') && !m[2] && !m[4] && !/\b(?:edge|end|of the)\b/i.test(rest))
    return { target: m[1], to: dir === 'top' ? 'first' : 'last', dy: dir === 'top' ? -DRAG_STEP : DRAG_STEP };
  const far = !!m[2] || /\b(?:edge|end)\b/i.test(rest) || (/^(?:top|bottom)$/.test(dir) && /\bof the\b/i.test(rest));
  const d = m[4] ? Number(m[4]) : far ? DRAG_FAR : DRAG_STEP;
  const dx = dir === 'left' ? -d : dir === 'right' ? d : 0;
  const dy = dir === 'up' || dir === 'top' ? -d : dir === 'down' || dir === 'bottom' ? d : 0;
  return { target: m[1], dx, dy };
}

/** "Drag the smaller box so that it is completely inside the larger box": (1) the verb, (2) what, (3) where it ends. */
export const DRAG_SO_INSIDE = new RegExp(
  '\\b(drag|move)\\s+(?:the\\s+)?(.+?)\\s+so\\s+(?:that\\s+)?(?:it|its whole|all of it)\\s+(?:is|lies|sits|ends\\s+up|fits)\\s+' +
    '(?:completely\\s+|fully\\s+|entirely\\s+|wholly\\s+)?(?:inside|within|in)\\s+(?:of\\s+)?(?:the\\s+)?(.+?)(?=\\s*(?:[.,;]|\\band\\b|\\bthen\\b|$))',
  'i',
);
