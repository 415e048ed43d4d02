/**
 * Waits until an element can take an action (attached, visible, enabled, stable,
 * in view, not covered) and answers the point to act at, in this frame's
 * viewport coordinates. A failed wait says which check failed and, when something
 * covers the element, names it.
 */
import { composedContains, deepElementFromPoint, isFrameElement, type ShadowRootOf } from './dom';
import { describeElement } from './visibility';
import { idFor } from './registry';
import { resolveSelector } from './resolve';
import type { PrepareResult } from './messages';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const nextFrame = () => new Promise<void>((r) => {
  // rAF is paused in hidden tabs; the timeout keeps the wait bounded there.
  const t = setTimeout(r, 50);
  requestAnimationFrame(() => { clearTimeout(t); r(); });
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

async function isStable(el: Element): Promise<boolean> {
  // No running animation or transition anywhere: the box cannot be moving (JS-driven motion aside).
  if (document.getAnimations().length === 0) return true;
  const a = el.getBoundingClientRect();
  await nextFrame();
  const b = el.getBoundingClientRect();
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

async function check(el: Element, pointer: boolean, requireEnabled: boolean, reveal: boolean, shadowRootOf: ShadowRootOf): Promise<Check> {
  if (!el.isConnected) return { ok: false, reason: 'detached' };
  if (!el.checkVisibility({ visibilityProperty: true })) return { ok: false, reason: 'hidden' };
  if (requireEnabled && isDisabled(el)) return { ok: false, reason: 'disabled' };
  if (!(await isStable(el))) return { ok: false, reason: 'unstable' };
  let r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return { ok: false, reason: 'zero-size' };
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  // Reveal only when the element's centre is out of view (a page-sized element is never 'revealed').
  if (reveal && (cx < 0 || cy < 0 || cx > vw || cy > vh || (r.height <= vh && (r.top < 0 || r.bottom > vh)))) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    r = el.getBoundingClientRect();
  }
  const box = el.getClientRects()[0] ?? r;
  const x = Math.min(Math.max(box.left + box.width / 2, 0), vw - 1);
  const y = Math.min(Math.max(box.top + box.height / 2, 0), vh - 1);
  if (pointer) {
    const hit = deepElementFromPoint(document, x, y, shadowRootOf);
    // A hit on the element, a descendant, or a label for it counts.
    const labelOk = hit && hit.localName === 'label' && (hit as HTMLLabelElement).control === el;
    if (hit && !composedContains(el, hit) && !labelOk) return { ok: false, reason: 'covered', covering: hit, x, y };
  }
  return { ok: true, x, y };
}

const REASONS: Record<string, string> = {
  detached: 'it was removed from the page',
  hidden: 'it is not visible',
  disabled: 'it is disabled',
  unstable: 'it is still moving',
  'zero-size': 'it has no size',
};

export async function prepare(
  req: { selector: string; nth: number | null; method: string; timeoutMs: number; pointer: boolean; requireEnabled: boolean; reveal: boolean },
  shadowRootOf: ShadowRootOf,
  frameIdOf: (el: Element) => Promise<number | null>,
): Promise<PrepareResult> {
  const deadline = performance.now() + req.timeoutMs;
  let last: Check | null = null;
  let count = 0;
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
      last = await check(el, req.pointer, req.requireEnabled, req.reveal, shadowRootOf);
      if (last.ok) return { kind: 'ready', handle: idFor(el), x: last.x!, y: last.y!, count, description: describeElement(el) };
    } else last = null;
    if (performance.now() >= deadline) break;
    await sleep(attempt < 5 ? 20 : 100);
  }
  if (!last) {
    const which = req.nth !== null && count > 0 ? ` (only ${count} match${count === 1 ? '' : 'es'}, asked for index ${req.nth})` : '';
    return { kind: 'error', code: 'ELEMENT_NOT_FOUND', message: `no element matches '${req.selector}'${which} after waiting ${req.timeoutMs} ms` };
  }
  if (last.reason === 'covered' && last.covering) {
    return {
      kind: 'error',
      code: 'ELEMENT_COVERED',
      message: `'${req.selector}' is covered by ${describeElement(last.covering)} at (${Math.round(last.x!)}, ${Math.round(last.y!)}); not clicking something else`,
      data: { covering: describeElement(last.covering) },
    };
  }
  return {
    kind: 'error',
    code: 'ELEMENT_NOT_ACTIONABLE',
    message: `'${req.selector}' matched an element but ${REASONS[last.reason ?? ''] ?? 'it is not actionable'} (waited ${req.timeoutMs} ms)`,
  };
}
