/** A point of a drawing clicked where it lands ("click on the midpoint between the two points", "the center of the circle"). */
import { type Phrases } from './grammar';

/** Verbs that click a point. */
export const POINT_CLICKS: Phrases = ['(?:find and )?click(?: on)?', '(?:find and )?tap(?: on)?', 'place a point (?:at|on)', 'mark'];
/** The midpoint of two points ("the shortest mid-point between the two points", "the point halfway between the dots"). */
export const MIDPOINTS: Phrases = [
  '(?:the )?(?:shortest )?mid-?point (?:between|of) the two (?:points|dots|circles)',
  'the point halfway between the two (?:points|dots)',
];
/** The centre of the one circle ("the center of the circle", "the middle of the circle"). */
export const CENTRES: Phrases = ['the (?:center|centre|middle) of the circle', "the circle's (?:center|centre)"];
/** How large a drawn point is at most (a dot, not a circle around something). */
export const POINT_MAX_PX = 16;
/** A line drawn through the one dot ("draw a horizontal line that runs through the dot"): (1) its direction. */
export const LINE_THROUGH: Phrases = ['draw a (horizontal|vertical) line (?:that )?(?:runs |goes |passes )?through the (?:dot|point)'];
/** How far a drawn line reaches on each side of its dot. */
export const LINE_REACH_PX = 35;
