/**
 * Where a press really went. The hit test before a click says the point is on the element, but a page can redraw what
 * is under the pointer between that test and the press (a hover effect that rebuilds the label it hovers, frame after
 * frame): the press then lands on the box around it and nothing takes it. The path of the mouse events is read as they
 * are dispatched, since the node they hit may be gone a moment later.
 */
import { composedContains, composedParent, defaultShadowRootOf } from './dom';
import { isControl } from './actionability';
import { describeElement } from './visibility';
import type { PressSeen } from '../protocol/content-messages';

/** Whether a press on `n` may have done what a control does: it is in a control, a label, or something with an onclick. */
function inControl(n: Element): boolean {
  for (let p: Element | null = n; p; p = composedParent(p)) if (isControl(p) || p.localName === 'label' || p.hasAttribute('onclick')) return true;
  return false;
}

/** A watch not ended is dropped after this long: a page that went away must not keep the listeners. */
const WATCH_MS = 10_000;
const EVENTS = ['mousedown', 'mouseup', 'click'] as const;
/** Those, and the pointer events before them, which a press onto something else is stopped at. */
const GUARDED = ['pointerdown', 'pointerup', ...EVENTS] as const;
/** Controls whose press opens a popup of the browser's own, which takes the release: no click follows. */
const OWN_POPUP = new Set(['select', 'option']);
let watch: {
  el: Element;
  seen: Partial<Record<(typeof EVENTS)[number], boolean>>;
  on?: Element;
  /** Whether an event of the press reached the element. */
  reachedOnce?: boolean;
  /** Whether an event of the press was stopped on its way to something else. */
  blocked?: boolean;
  timer: ReturnType<typeof setTimeout>;
} | null = null;

function reached(el: Element, e: Event): boolean {
  const path = e.composedPath();
  if (path.includes(el)) return true;
  // A closed shadow root hides the nodes inside it from the path: its host stands for them.
  const first = path[0];
  return first instanceof Element && !first.shadowRoot && !!defaultShadowRootOf(first) && composedContains(first, el);
}

function onPress(e: Event): void {
  if (!watch) return;
  const ok = reached(watch.el, e);
  const t = e.composedPath()[0];
  // The point was on the element when the press began: one that lands first on something else, not a box holding it
  // (the page moved it under the pointer), is stopped before the page sees it. A click on what was not asked for is
  // worse than none; events after one that reached it (a label's click sent on to its field) go on.
  if (!ok && !watch.reachedOnce && t instanceof Element && !composedContains(t, watch.el)) {
    e.preventDefault();
    e.stopImmediatePropagation();
    watch.blocked = true;
    watch.on ??= t;
    return;
  }
  if (ok) watch.reachedOnce = true;
  if (e.type.startsWith('pointer')) return;
  // Any event of a kind that reached it counts: a page may send events of its own elsewhere (a label's click to its field).
  const kind = e.type as (typeof EVENTS)[number];
  watch.seen[kind] = watch.seen[kind] === true || ok;
  if (!ok && t instanceof Element && !watch.on) watch.on = t;
}

function stop(): void {
  if (!watch) return;
  clearTimeout(watch.timer);
  watch = null;
  for (const type of GUARDED) window.removeEventListener(type, onPress, true);
}

/** Start watching where the next press goes, for `el`. */
export function watchPress(el: Element): void {
  stop();
  watch = { el, seen: {}, timer: setTimeout(stop, WATCH_MS) };
  // Not passive: a press that went elsewhere is stopped.
  for (const type of GUARDED) window.addEventListener(type, onPress, { capture: true });
}

/**
 * What the watched press did, and the watch ended. It missed when the pointer went down and up but no click reached the
 * element while it is still in the page: the press landed beside it, or what it pressed was drawn again before the
 * release (a click goes only where both went). An element gone after the press is left to the caller: a control that
 * acts on the press and closes its menu takes no click either.
 */
export function pressSeen(): PressSeen {
  const w = watch;
  stop();
  if (!w) return { missed: false };
  // Stopped on its way to something else: nothing took it, and where the element is now may be pressed again.
  if (w.blocked && w.seen.click !== true) return { missed: true, pressedIt: false, on: w.on ? describeElement(w.on) : undefined, inert: true };
  const pressed = w.seen.mousedown !== undefined || w.seen.mouseup !== undefined;
  const missed = pressed && w.seen.click !== true && w.el.isConnected && !OWN_POPUP.has(w.el.localName);
  if (!missed) return { missed };
  // Pressed and released on it, but the node pressed was drawn again in between: no click, though the press reached it.
  const reachedIt = w.seen.mousedown === true || w.seen.mouseup === true;
  if (reachedIt || !w.on) return { missed, pressedIt: reachedIt };
  // Gone to a box that holds it, or to something that is no control: the page moved it as the pointer came (a section
  // sliding open above it), and pressing there did nothing a control does.
  const inert = composedContains(w.on, w.el) || !inControl(w.on);
  return { missed, pressedIt: false, on: describeElement(w.on), inert };
}
