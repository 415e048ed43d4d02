/**
 * Waits until an element can take an action (attached, visible, enabled, stable,
 * in view, not covered) and answers the point to act at, in this frame's
 * viewport coordinates. A failed wait says which check failed and, when something
 * covers the element, names it.
 */
import { composedContains, composedParent, deepElementFromPoint, isFrameElement, type ShadowRootOf } from './dom';
import { describeElement } from './visibility';
import { idFor } from './registry';
import { resolveSelector } from './resolve';
import type { PrepareResult } from '../protocol/content-messages';
import { animating, msSinceStyleChange } from './snapshot-cache';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const nextFrame = () =>
  new Promise<void>((r) => {
    // rAF is paused in hidden tabs; the timeout keeps the wait bounded there.
    const t = setTimeout(r, 50);
    requestAnimationFrame(() => {
      clearTimeout(t);
      r();
    });
  });

interface Check {
  ok: boolean;
  reason?: 'detached' | 'hidden' | 'disabled' | 'unstable' | 'covered' | 'zero-size';
  covering?: Element;
  x?: number;
  y?: number;
}

function isDisabled(el: Element): boolean {
  if ((el as HTMLButtonElement).disabled === true) return true;
  if (el.closest('fieldset[disabled]') && /^(input|button|select|textarea)$/.test(el.localName)) return true;
  return el.getAttribute('aria-disabled') === 'true';
}

/** An inline style written this recently may be a script animation's last frame: the box is compared across a frame. */
const SCRIPT_MOTION_MS = 100;

async function isStable(el: Element): Promise<boolean> {
  // No running animation or transition anywhere, and no script writing inline styles frame after
  // frame (jQuery's animate, an accordion sliding open): the box cannot be moving.
  if (!animating() && msSinceStyleChange() > SCRIPT_MOTION_MS) return true;
  const a = el.getBoundingClientRect();
  await nextFrame();
  const b = el.getBoundingClientRect();
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

interface Area {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of the viewport where `el` can show: the viewport cut by the padding box of every
 * ancestor that clips its overflow (scroll boxes, overflow: hidden). Content outside it is
 * scrolled away inside its box, even when its own rectangle lies in the viewport.
 */
function clipArea(el: Element): Area {
  const a: Area = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  const root = document.scrollingElement ?? document.documentElement;
  // Only the boxes around a box's containing block clip it: nothing clips a fixed box but the
  // viewport, and an absolute one skips the static boxes between it and its positioned ancestor.
  let position = getComputedStyle(el).position;
  for (let p = composedParent(el); p && p !== root && p !== document.body && p !== document.documentElement; p = composedParent(p)) {
    if (position === 'fixed') break;
    const s = getComputedStyle(p);
    if (position === 'absolute' && s.position === 'static') continue;
    position = s.position;
    const ox = s.overflowX !== 'visible';
    const oy = s.overflowY !== 'visible';
    if ((!ox && !oy) || s.display === 'contents') continue;
    const pr = p.getBoundingClientRect();
    const left = pr.left + p.clientLeft;
    const top = pr.top + p.clientTop;
    if (ox) {
      a.left = Math.max(a.left, left);
      a.right = Math.min(a.right, left + p.clientWidth);
    }
    if (oy) {
      a.top = Math.max(a.top, top);
      a.bottom = Math.min(a.bottom, top + p.clientHeight);
    }
  }
  return a;
}

/**
 * Where a scroll that failed to uncover the element tries next, in turn (as Playwright does): a
 * sticky header or footer covers the element at one alignment and not at another.
 */
const ALIGNMENTS: ScrollLogicalPosition[] = ['center', 'end', 'start', 'nearest'];

async function check(
  el: Element,
  pointer: boolean,
  requireEnabled: boolean,
  reveal: boolean,
  attempt: number,
  shadowRootOf: ShadowRootOf,
  moving = false,
): Promise<Check> {
  if (!el.isConnected) return { ok: false, reason: 'detached' };
  if (!el.checkVisibility({ visibilityProperty: true })) return { ok: false, reason: 'hidden' };
  if (requireEnabled && isDisabled(el)) return { ok: false, reason: 'disabled' };
  // A moving target moves by design: where it is now is where it is clicked.
  if (!moving && !(await isStable(el))) return { ok: false, reason: 'unstable' };
  let r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return { ok: false, reason: 'zero-size' };
  let clip = clipArea(el);
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  // Reveal when the element's centre is out of the part of the viewport its scroll boxes show, or
  // when it fits there but is cut (a page-sized element is never 'revealed'). scrollIntoView
  // scrolls every scrollable ancestor, inner boxes and the page alike. After a failed hit test
  // it scrolls again with the next alignment.
  const outside = cx < clip.left || cy < clip.top || cx > clip.right || cy > clip.bottom;
  const cut = r.height <= clip.bottom - clip.top && (r.top < clip.top - 0.5 || r.bottom > clip.bottom + 0.5);
  const cutX = r.width <= clip.right - clip.left && (r.left < clip.left - 0.5 || r.right > clip.right + 0.5);
  if (reveal && (outside || cut || cutX || attempt > 0)) {
    const at = ALIGNMENTS[attempt % ALIGNMENTS.length];
    el.scrollIntoView({ block: at, inline: at, behavior: 'instant' });
    r = el.getBoundingClientRect();
    clip = clipArea(el);
  }
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const box = el.getClientRects()[0] ?? r;
  // The centre of the part of the element that shows; the old viewport clamp when nothing shows.
  const left = Math.max(box.left, clip.left);
  const right = Math.min(box.right, clip.right);
  const top = Math.max(box.top, clip.top);
  const bottom = Math.min(box.bottom, clip.bottom);
  const shows = right - left >= 1 && bottom - top >= 1;
  const x = Math.min(Math.max(shows ? (left + right) / 2 : box.left + box.width / 2, 0), vw - 1);
  const y = Math.min(Math.max(shows ? (top + bottom) / 2 : box.top + box.height / 2, 0), vh - 1);
  if (pointer) {
    const hit = deepElementFromPoint(document, x, y, shadowRootOf);
    if (hit && !hitsTarget(el, hit)) {
      // A person clicks the part that shows: a button half under another is still pressed where it can be seen.
      const part = shows ? shownPoint(el, { left, right: Math.min(right, vw - 1), top, bottom: Math.min(bottom, vh - 1) }, x, y, shadowRootOf) : null;
      return part ? { ok: true, ...part } : { ok: false, reason: 'covered', covering: hit, x, y };
    }
  }
  return { ok: true, x, y };
}

/** Points tried across the shown part of a covered element, per side (5 × 5, nearest the centre first). */
const GRID = 5;

/**
 * The point nearest the centre of `area` where a click reaches `el`, with the points 2 px to each side reaching it too (so
 * an edge a pixel wide is not where a click lands); null when none does.
 */
function shownPoint(el: Element, area: { left: number; right: number; top: number; bottom: number }, cx: number, cy: number, shadowRootOf: ShadowRootOf) {
  const w = area.right - area.left;
  const h = area.bottom - area.top;
  if (w < 4 || h < 4) return null;
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < GRID; i++) for (let j = 0; j < GRID; j++) points.push({ x: area.left + ((i + 0.5) * w) / GRID, y: area.top + ((j + 0.5) * h) / GRID });
  points.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
  const reaches = (x: number, y: number) => {
    const hit = deepElementFromPoint(document, x, y, shadowRootOf);
    return !!hit && hitsTarget(el, hit);
  };
  return points.find((p) => reaches(p.x, p.y) && reaches(p.x - 2, p.y) && reaches(p.x + 2, p.y) && reaches(p.x, p.y - 2) && reaches(p.x, p.y + 2)) ?? null;
}

/** Controls whose click is their own, even inside a label: a link in "I accept the terms" opens it. */
const INTERACTIVE = /^(a|button|input|select|textarea|summary|details)$/;
const INTERACTIVE_ROLE = /^(button|link|checkbox|radio|switch|menuitem|option|tab|combobox|textbox)$/;
/** Whether `n` is a control that takes a click as its own (a link, a button, a field, an ARIA widget). */
export const isControl = (n: Element): boolean => INTERACTIVE.test(n.localName) || INTERACTIVE_ROLE.test(n.getAttribute('role') ?? '');

/**
 * Whether a click that lands on `hit` reaches `el` as a person means it, in the composed
 * tree: `el` or its content (slotted content included); the host of the shadow root `el` is in
 * (`<sl-button>Save</sl-button>` hits the host: its text is the inner button's); or a
 * label of `el`, where the hit is inside the label and not inside another control there (the
 * styled box of a custom checkbox over its hidden input). Anything else covers it.
 */
function hitsTarget(el: Element, hit: Element): boolean {
  if (composedContains(el, hit)) return true;
  // The host of the shadow root `el` is in: its own box, or its text slotted into `el`.
  const root = el.getRootNode();
  if (root instanceof ShadowRoot && root.host === hit) return true;
  const labels = (el as HTMLInputElement).labels;
  if (!labels?.length) return false;
  for (let n: Element | null = hit; n; n = composedParent(n)) {
    if (n.localName === 'label') return Array.from(labels).includes(n as HTMLLabelElement);
    if (n !== el && isControl(n)) return false;
  }
  return false;
}

const REASONS: Record<string, string> = {
  detached: 'it was removed from the page',
  hidden: 'it is not visible',
  disabled: 'it is disabled',
  unstable: 'it is still moving',
  'zero-size': 'it has no size',
};

export async function prepare(
  req: {
    selector: string;
    nth: number | null;
    method: string;
    timeoutMs: number;
    pointer: boolean;
    requireEnabled: boolean;
    reveal: boolean;
    moving?: boolean;
  },
  shadowRootOf: ShadowRootOf,
  frameIdOf: (el: Element) => Promise<number | null>,
  /** True once the worker has given up on this wait (dh:cancelWait). */
  cancelled: () => boolean = () => false,
): Promise<PrepareResult> {
  const deadline = performance.now() + req.timeoutMs;
  let last: Check | null = null;
  let count = 0;
  // Scrolls tried after a hit test found the element covered (each tries the next alignment).
  let rescrolls = 0;
  for (let attempt = 0; ; attempt++) {
    const res = resolveSelector(req.selector, document, shadowRootOf);
    if (res.kind === 'invalid') return { kind: 'error', code: 'INVALID_SELECTOR', message: res.message };
    if (res.kind === 'frame') {
      const fid = await frameIdOf(res.frameElement);
      if (fid === null) return { kind: 'error', code: 'FRAME_DETACHED', message: `the iframe matched by '${req.selector}' has no loaded document` };
      res.frameElement.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
      const r = res.frameElement.getBoundingClientRect();
      const cs = getComputedStyle(res.frameElement);
      return {
        kind: 'frame',
        frameId: fid,
        rest: res.rest,
        offsetX: r.left + res.frameElement.clientLeft + parseFloat(cs.paddingLeft),
        offsetY: r.top + res.frameElement.clientTop + parseFloat(cs.paddingTop),
      };
    }
    count = res.elements.length;
    const el = res.elements[req.nth ?? 0];
    if (el) {
      if (isFrameElement(el) && req.method === 'frame') {
        return { kind: 'error', code: 'INVALID_ARGUMENT', message: 'cannot act on an iframe element itself' };
      }
      last = await check(el, req.pointer, req.requireEnabled, req.reveal, rescrolls, shadowRootOf, req.moving);
      if (last.reason === 'covered') rescrolls++;
      if (last.ok) return { kind: 'ready', handle: idFor(el), x: last.x!, y: last.y!, count, description: describeElement(el, req.pointer) };
    } else last = null;
    if (performance.now() >= deadline) break;
    await sleep(attempt < 5 ? 20 : 100);
    if (cancelled()) return { kind: 'error', code: 'CANCELLED', message: `the wait for '${req.selector}' was cancelled by its caller` };
  }
  if (!last) {
    const which = req.nth !== null && count > 0 ? ` (only ${count} match${count === 1 ? '' : 'es'}, asked for index ${req.nth})` : '';
    return { kind: 'error', code: 'ELEMENT_NOT_FOUND', message: `no element matches '${req.selector}'${which} after waiting ${req.timeoutMs} ms` };
  }
  if (last.reason === 'covered' && last.covering) {
    return {
      kind: 'error',
      code: 'ELEMENT_COVERED',
      message:
        `'${req.selector}' is covered by ${describeElement(last.covering)} at (${Math.round(last.x!)}, ${Math.round(last.y!)}); ` +
        'not clicking something else',
      data: { covering: describeElement(last.covering) },
    };
  }
  return {
    kind: 'error',
    code: 'ELEMENT_NOT_ACTIONABLE',
    message: `'${req.selector}' matched an element but ${REASONS[last.reason ?? ''] ?? 'it is not actionable'} (waited ${req.timeoutMs} ms)`,
  };
}
