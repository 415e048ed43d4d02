/**
 * Tasks of challenge pages read whole: dialogs and pop-ups closed, consent given, points and strokes of a drawing, moving
 * targets, a right-click anywhere, a control in nested frames, a grid coordinate.
 */
import { either } from '../words/grammar';
import { CONSENT_MEANS, CONSENT_SERIES, CONSENT_VERBS, CONSENTED, HUMAN_PROOF, WARNED_ACCESS } from '../words/consent';
import { BISECTS, CENTRES, CIRCLES_AROUND, COORDINATE_SAID, DRAWN_WITH, LINE_THROUGH, MIDPOINTS, POINT_CLICKS, TARGET_PIXELS } from '../words/drawings';
import { IN_FRAMES, MOVING_MANNER, MOVING_NOUNS, MOVING_WORDS } from '../words/controls';
import { DIALOG_NOUNS, DISMISS_KEYS, DISMISS_VERBS, POPUPS, POPUP, RIGHT_CLICK_ANYWHERE } from '../words/menus';
import type { PlanStep } from './types';

/** "click on the grid coordinate (-2,1)": (1) x, (2) y. */
export const COORDINATE = new RegExp(`^${COORDINATE_SAID}\\s*\\(\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*\\)(?: (?:on|in) the grid)?\\.?$`, 'i');

/** "Close the welcome message", "press Escape to close the dialog": (1) the key, when it is the means, (2) the dialog's own words. */
export const DISMISS = new RegExp(
  `^(?:(?:press|hit|use)\\s+(?:the\\s+)?(${either(DISMISS_KEYS)})(?:\\s+key)?\\s+to\\s+)?(?:${either(DISMISS_VERBS)})\\s+(?:the|this|that)\\s+` +
    `((?:[\\w'-]+\\s+){0,3}?)(?:${either(DIALOG_NOUNS)})$`,
  'i',
);

/** "Acknowledge a simple content warning", "accept the terms of service": (1) what is consented to. */
const CONSENT = new RegExp(
  `^(?:${either(CONSENT_VERBS)})\\s+(?:the|a|an|this|our|their|its|any)\\s+(?:(?:simple|short|following|above|below|site's|page's)\\s+)?` +
    `(${either(CONSENTED)})$`,
  'i',
);
/** "Prove you're human by agreeing to our terms", "quickly prove you're human". */
const HUMAN = new RegExp(`^(?:quickly\\s+|first\\s+)?(?:${either(HUMAN_PROOF)})(?:\\s+(${either(CONSENT_MEANS)}))?$`, 'i');

/** "Access this content at your own risk": past the one warning in front of it. */
const WARNED = new RegExp(`^(?:${either(WARNED_ACCESS)})$`, 'i');
/** "Navigate a series of intimidating warnings and confirmations": consent given stage after stage. */
const SERIES = new RegExp(`^(?:${either(CONSENT_SERIES)})$`, 'i');

/** The consent a clause asks for, as a step; null when it asks for none. */
export function consentOf(clause: string): PlanStep | null {
  if (SERIES.test(clause)) return { say: 'go through the warnings one after another', consent: { kind: 'warning', press: true, series: true } };
  if (WARNED.test(clause)) return { say: 'go past the warning to the content', consent: { kind: 'warning', press: true } };
  const c = CONSENT.exec(clause);
  if (c) {
    const kind = /warning|notice|disclaimer/i.test(c[1]!) ? 'warning' : 'terms';
    return { say: `${kind === 'warning' ? 'acknowledge' : 'accept'} the ${c[1]!.toLowerCase()}`, consent: { kind } };
  }
  const h = HUMAN.exec(clause);
  return h ? { say: h[1] ? 'accept the terms to prove a person is here' : 'prove a person is here', consent: { kind: h[1] ? 'terms' : 'human' } } : null;
}

/** "Find and click on the shortest mid-point between the two points": (1) the midpoint, or (2) the centre. */
export const SPOT = new RegExp(`^(?:${either(POINT_CLICKS)})\\s+(?:(${either(MIDPOINTS)})|(${either(CENTRES)}))$`, 'i');

export const LINE = new RegExp(`^(?:${either(LINE_THROUGH)})$`, 'i');
/** "Click the single target pixel on the screen": the one small square drawn as a box of its own. */
export const PIXEL = new RegExp(`^(?:${either(POINT_CLICKS)})\\s+(?:${either(TARGET_PIXELS)})$`, 'i');
/** "Create a line that bisects the angle", "draw a circle around the marked point", said with how the pointer draws or not. */
export const BISECT = new RegExp(`^(?:${either(BISECTS)})(?:\\s+(?:${either(DRAWN_WITH)}))?$`, 'i');
export const CIRCLE = new RegExp(`^(?:${either(CIRCLES_AROUND)})(?:\\s+(?:${either(DRAWN_WITH)}))?$`, 'i');

/** "Close the annoying popup windows", "dismiss all the pop-ups": every pop-up the page shows, closed in turn. */
export const DISMISS_ALL = new RegExp(
  `^(?:${either(DISMISS_VERBS)})\\s+(?:(?:all\\s+(?:of\\s+)?)?(?:the\\s+|these\\s+|those\\s+)?` +
    `(?:(?:annoying|open|many|more|fewer|other|remaining|[0-9]+|two|three|four|five)\\s+){0,3}(?:${either(POPUPS)})` +
    `|(?:every|each)\\s+(?:(?:annoying|open|other|remaining)\\s+)?(?:${either(POPUP)}))$`,
  'i',
);

export const MOVING = new RegExp(
  `^(?:click|tap|hit|catch|shoot)(?:\\s+on)?\\s+(?:the|a)\\s+(?:(?:${either(MOVING_MANNER)})[\\s-]+)?(?:${either(MOVING_WORDS)})\\s+(${either(MOVING_NOUNS)})$`,
  'i',
);
/** "Right-click a large, obvious area", "use your context menu skills": a right-click on the place the page names for one. */
export const RIGHT_ANYWHERE = new RegExp(`^(?:${either(RIGHT_CLICK_ANYWHERE)})$`, 'i');
/** "Navigate through nested iframes to find the hidden button": (1) the control, the page's one of its kind (frames are read as the page). */
export const FRAMED = new RegExp(`^(?:${either(IN_FRAMES)})$`, 'i');
