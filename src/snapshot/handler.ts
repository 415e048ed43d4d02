/**
 * The content script's side of the worker ⇄ frame protocol: snapshots, action
 * preparation, DOM operations and id → selector answers for this frame.
 */
import { prepare } from './actionability';
import { defaultShadowRootOf, elementAtPath } from './dom';
import { FrameRequestSchema, type DescribeResult, type FrameMark, type FrameRequest, type PingResult } from '../protocol/content-messages';
import { markFrame, menuTexts } from './marks';
import { runOp } from './ops';
import { elementFor } from './registry';
import { render } from './render';
import { deepQueryAll, resolveSelector } from './resolve';
import { frameIdOf, frameIdsOf, ownFrameIndex } from './frame-ids';
import { selectorFor } from './selector';
import { isRecording, setRecording } from './recorder';
import { finalizer, roleOf, walk } from './walker';
import { describeElement, Visibility } from './visibility';
import { surroundings } from './surroundings';
import { regionText } from './region';
import { callPageTool, cancelToolCall, listPageTools, toolsForSnapshot } from './page-tools';
import { estimateTokens } from '../protocol/text';
import { getRole } from 'dom-accessibility-api';
import { accessibleName } from './accname';
import type { SnapNode } from './tree';
import {
  animating,
  controlsIn,
  keepTargets,
  msSinceStructuralChange,
  recall,
  remember,
  reusableTargets,
  snapshotVersion,
  watchingShadowRoots,
} from './snapshot-cache';
import type { LocatorSpec } from '../protocol/schemas';

/** Shadow roots the snapshot walks are watched for changes (see snapshot-cache). */
const watchedShadowRootOf = watchingShadowRoots(defaultShadowRootOf);

function resolveLocal(spec: LocatorSpec): Element[] | string {
  const r = resolveSelector(spec.selector, document, defaultShadowRootOf);
  if (r.kind === 'invalid') return r.message;
  if (r.kind === 'frame') return `'${spec.selector}' points into another frame; scope snapshots to an element of this frame`;
  return spec.nth === undefined ? r.elements : r.elements.slice(spec.nth, spec.nth + 1);
}

/**
 * This document's name for the worker: made once per content script, that is per document, so
 * the worker can tell whether the element it found is still in the document it would act on.
 */
const DOC = Math.random().toString(36).slice(2) + Date.now().toString(36);

/**
 * Trusted input events that reached this document. The worker compares the count before and
 * after it sends input: input the browser dropped (a navigation was about to replace the
 * document, say) leaves it unchanged, and the action is not reported done. Registered at
 * document_start, before any of the page's own listeners.
 */
let inputsSeen = 0;
for (const type of [
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'contextmenu',
  'mousemove',
  'keydown',
  'keyup',
  'dragstart',
  'drop',
]) {
  window.addEventListener(
    type,
    (e) => {
      if (e.isTrusted) inputsSeen++;
    },
    { capture: true, passive: true },
  );
}

/** dh:prepare waits that may be ended early, by waitId: set to true by dh:cancelWait. */
const waits = new Map<string, { cancelled: boolean }>();

export async function handleFrameRequest(raw: unknown): Promise<unknown> {
  const req: FrameRequest = FrameRequestSchema.parse(raw);
  switch (req.type) {
    case 'dh:record':
      setRecording(req.on);
      return { recording: isRecording() };
    case 'dh:ping':
      return { ok: true, url: location.href, doc: DOC, inputs: inputsSeen } satisfies PingResult;
    case 'dh:today': {
      // Read here, in the page's renderer: its time zone is the page's own (an emulated one included), and page scripts cannot touch this world's Date.
      const d = new Date();
      return { today: `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}` };
    }
    case 'dh:menuTexts': {
      const r = resolveSelector(req.selector, document, defaultShadowRootOf);
      return { texts: r.kind === 'elements' && r.elements[0] ? menuTexts(r.elements[0]) : [] };
    }
    case 'dh:mark':
      return { ...markFrame(), doc: DOC } satisfies FrameMark;
    case 'dh:cancelWait': {
      const w = waits.get(req.waitId);
      if (w) w.cancelled = true;
      return { cancelled: cancelToolCall(req.waitId) || !!w };
    }
    case 'dh:tools':
      return listPageTools();
    case 'dh:callTool':
      return callPageTool(req.name, req.input, req.timeoutMs, req.waitId);
    case 'dh:settle':
      return { settled: await settle(req.timeoutMs, req.quietMs) };
    case 'dh:snapshot': {
      let clickTargets = req.clickTargets ?? [];
      if (req.reuseTargets) {
        const kept = reusableTargets();
        if (!kept) return { stale: true };
        clickTargets = kept;
      } else keepTargets(clickTargets);
      // The page's own tools first (they change with no mutation, so they are part of the key), within a share of the budget.
      const own = req.tools ? await toolsForSnapshot(req.budget) : { block: '', tools: [] };
      const budget = Math.max(100, req.budget - estimateTokens(own.block.length));
      // The address too: history.pushState changes it with no event and no mutation.
      const key = location.href + '\n' + own.block + JSON.stringify({ ...req, clickTargets, reuseTargets: undefined });
      const kept = recall(key);
      if (kept !== undefined) return kept;
      const at = snapshotVersion();
      const ignore = new Set<Element>();
      for (const spec of req.ignore) {
        const els = resolveLocal(spec);
        if (typeof els === 'string') return { error: { code: 'INVALID_SELECTOR', message: els } };
        els.forEach((e) => ignore.add(e));
      }
      let root: Element | Document = document;
      if (req.scope) {
        const els = resolveLocal(req.scope);
        if (typeof els === 'string') return { error: { code: 'INVALID_SELECTOR', message: els } };
        if (!els[0]) return { error: { code: 'ELEMENT_NOT_FOUND', message: `no element matches the snapshot scope '${req.scope.selector}'` } };
        root = els[0];
      }
      const frames: { el: Element; node: SnapNode }[] = [];
      const listened = new Set<Element>();
      for (const path of clickTargets) {
        const el = elementAtPath(path, defaultShadowRootOf);
        if (el) listened.add(el);
      }
      const nodes = walk(root, {
        idPrefix: req.idPrefix,
        shadowRootOf: watchedShadowRootOf,
        frames,
        ignore,
        listened,
        budget,
        focus: req.focus,
        narrow: req.narrow,
      });
      const controls = controlsIn(nodes);
      if (frames.length) {
        const ids = await frameIdsOf(frames.map((f) => f.el));
        for (const f of frames) {
          const id = ids.get(f.el);
          // An iframe that could not be matched to its frame says so; it is never silently empty.
          if (id === undefined)
            f.node.children.push({ kind: 'frame', text: '(frame content unavailable: this iframe could not be matched to its frame)', children: [] });
          else f.node.children.push({ kind: 'frame', frameId: id, text: req.frames[String(id)], lines: req.frameLines?.[String(id)], children: [] });
        }
      }
      const rendered = render(nodes, budget, finalizer(new Visibility(), defaultShadowRootOf), { lines: req.lines, focus: req.focus });
      const result = {
        ...rendered,
        text: own.block + rendered.text,
        tokens: rendered.tokens + estimateTokens(own.block.length),
        ...(own.tools.length ? { tools: own.tools } : {}),
        iframes: frames.length,
        url: location.href,
      };
      remember(key, at, controls, result);
      return result;
    }
    case 'dh:frameIndex':
      return ownFrameIndex();
    case 'dh:prepare': {
      const wait = { cancelled: false };
      if (req.waitId) waits.set(req.waitId, wait);
      try {
        const r = await prepare(
          req,
          defaultShadowRootOf,
          (el) => frameIdOf(el as HTMLIFrameElement),
          () => wait.cancelled,
        );
        return r.kind === 'ready' ? { ...r, doc: DOC, inputs: inputsSeen } : r;
      } finally {
        if (req.waitId) waits.delete(req.waitId);
      }
    }
    case 'dh:count':
    case 'dh:highlight': {
      if (req.type === 'dh:highlight') outline(null);
      if (req.selector === null) return { count: 0 };
      const r = resolveSelector(req.selector, document, defaultShadowRootOf);
      if (r.kind === 'invalid') return { error: { code: 'INVALID_SELECTOR', message: r.message } };
      if (r.kind === 'frame') {
        const frameId = await frameIdOf(r.frameElement);
        return frameId === null ? { count: 0 } : { frameId, rest: r.rest };
      }
      if (req.type === 'dh:highlight') outline(r.elements[0] ?? null);
      return { count: r.elements.length };
    }
    case 'dh:op': {
      const el = elementFor(req.handle);
      if (!el) return { ok: false, code: 'ELEMENT_NOT_FOUND', message: 'the element was removed from the page before the action could finish' };
      return runOp(el, req.op, req.args);
    }
    case 'dh:frameSelector': {
      for (const f of deepQueryAll(document, 'iframe, frame', defaultShadowRootOf)) {
        if ((await frameIdOf(f as HTMLIFrameElement)) === req.frameId) return { selector: selectorFor(f, defaultShadowRootOf) };
      }
      return { selector: null };
    }
    case 'dh:region':
      return regionText(req.values);
    case 'dh:surroundings':
      return req.ids.map((id) => {
        const el = elementFor(id);
        return el ? surroundings(el) : null;
      });
    case 'dh:describe': {
      // Names settled as the snapshot settles them (what a model may read: the part on screen, marked names cut short, instructions withheld).
      const settle = finalizer(new Visibility(), defaultShadowRootOf);
      const out: (DescribeResult | null)[] = req.ids.map((id) => {
        const el = elementFor(id);
        if (!el) return null;
        const role = el.getAttribute('role') ?? getRole(el) ?? 'generic';
        let name = '';
        try {
          name = settle({ kind: 'element', role: roleOf(el), name: accessibleName(el, defaultShadowRootOf), children: [], el })?.name ?? '';
        } catch {
          name = describeElement(el);
        }
        return { id, selector: selectorFor(el, defaultShadowRootOf), role, name, ...(req.context ? { context: surroundings(el) } : {}) };
      });
      return out;
    }
  }
}

let outlineBox: HTMLElement | null = null;
/** Draw (or remove) a box over an element; it takes no pointer events, so the page behaves as before. */
function outline(el: Element | null): void {
  outlineBox?.remove();
  outlineBox = null;
  if (!el) return;
  const r = el.getBoundingClientRect();
  const box = document.createElement('deckhand-highlight');
  box.style.cssText =
    `position:fixed;left:${r.left - 2}px;top:${r.top - 2}px;width:${r.width + 4}px;height:${r.height + 4}px;` +
    'box-sizing:border-box;border:2px solid #2563eb;background:rgba(37,99,235,.14);border-radius:3px;z-index:2147483647;pointer-events:none';
  document.documentElement.appendChild(box);
  outlineBox = box;
}

/** How often the settle wait looks again; the quiet spell is measured from the change itself, so this only rounds it up. */
const SETTLE_POLL_MS = 20;

/**
 * Resolve once the document has loaded, no animation that ends is running, and its structure has been quiet for `quietMs` (see
 * snapshot-cache: text and inline-style changes do not hold a page), or false at the deadline.
 */
function settle(timeoutMs: number, quietMs: number): Promise<boolean> {
  // An animation that ends (a dialog fading in or out) holds it too: what it shows is not there yet.
  const settled = () => document.readyState === 'complete' && msSinceStructuralChange() >= quietMs && !animating(true);
  if (settled()) return Promise.resolve(true);
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve) => {
    const look = () => {
      if (settled()) resolve(true);
      else if (performance.now() >= deadline) resolve(false);
      else setTimeout(look, Math.min(SETTLE_POLL_MS, Math.max(1, quietMs - msSinceStructuralChange()), Math.max(1, deadline - performance.now())));
    };
    look();
  });
}
