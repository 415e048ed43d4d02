/** A point of a drawing clicked where it lands ("click on the midpoint between the two points", "the center of the circle"). */
import { type Phrases } from './grammar';

/** Verbs that click a point. */
export const POINT_CLICKS: Phrases = ['(?:find and )?click(?: on)?', '(?:find and )?tap(?: on)?', 'place a point (?:at|on)', 'mark'];
/** The midpoint of two points ("the shortest mid-point between the two points", "the point halfway between the dots"). */
export const MIDPOINTS: Phrases = [
  '(?:the )?(?:shortest )?mid-?point (?:between|of) the two (?:points|dots|circles)',
  'the point halfway between the two (?:points|dots)',
];
/**
 * The one small square drawn as a box of its own, on a page that takes clicks everywhere ("the single target pixel on the
 * screen", "the tiny 1x1 target pixel with no hints").
 */
export const TARGET_PIXELS: Phrases = [
  'the (?:(?:single|one|only|larger|large|bigger|small|smaller|tiny|little|\\d+ ?x ?\\d+)[, ]+)*(?:target )?pixel' +
    '(?: target)?(?: on the (?:screen|page))?(?: with no hints?)?',
];
/** The centre of the one circle ("the center of the circle", "the middle of the circle"). */
export const CENTRES: Phrases = ['the (?:center|centre|middle) of the circle', "the circle's (?:center|centre)"];
/** How large a drawn point is at most (a dot, not a circle around something). */
export const POINT_MAX_PX = 16;
/** A line drawn through the one dot ("draw a horizontal line that runs through the dot"): (1) its direction. */
export const LINE_THROUGH: Phrases = ['draw a (horizontal|vertical) line (?:that )?(?:runs |goes |passes )?through the (?:dot|point)'];
/** How far a drawn line reaches on each side of its dot. */
export const LINE_REACH_PX = 35;
/** A line that bisects the angle the drawing's two lines make ("create a line that bisects the angle evenly in two"). */
export const BISECTS: Phrases = [
  '(?:create|draw|make|add|place) a line (?:that |which )?(?:bisects|splits|divides|cuts|halves) the angle' +
    '(?: (?:evenly|equally|exactly))?(?: in (?:two|half))?',
  'bisect the angle(?: (?:evenly|equally))?(?: in (?:two|half))?(?: with a line)?',
  '(?:split|divide|cut) the angle (?:evenly |equally |exactly )?in (?:two|half)(?: with a line)?',
  'draw the bisector of the angle',
  "draw the angle(?:'s)? bisector",
];
/** A circle drawn around the one dot ("draw a circle centered around the marked point"). */
export const CIRCLES_AROUND: Phrases = [
  'draw a circle (?:(?:centered|centred) )?(?:around|round|about|on|at) the (?:marked |given |shown )?(?:point|dot)',
  'draw a circle (?:with (?:its )?|whose )(?:center|centre) (?:is )?(?:at|on) the (?:marked |given |shown )?(?:point|dot)',
  'circle the (?:marked |given |shown )?(?:point|dot)',
];
/** How the pointer draws, said after the shape ("by dragging the mouse"): nothing to do beyond the drawing. */
export const DRAWN_WITH: Phrases = ['(?:by )?(?:dragging|moving|using) the (?:mouse|pointer|cursor)', 'with the (?:mouse|pointer|cursor)'];
/** How far the ends of two lines may be apart and still be one corner of an angle. */
export const JOIN_PX = 6;
/** The radius a circle around a dot is drawn at, at most (less near the drawing's edge), and at least. */
export const CIRCLE_RADIUS_PX = 25;
export const CIRCLE_RADIUS_MIN_PX = 10;
/** A point of a grid said by its coordinates ("click on the grid coordinate (-2,1)", "click the cell at (1, -3) on the grid"). */
export const COORDINATE_SAID = '(?:click|tap|press|select|choose|pick)(?: on)?(?: the)? (?:grid )?(?:coordinates?|point|cell|dot|position|square)(?: at)?';
