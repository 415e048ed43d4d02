/**
 * Which elements of a page take clicks through event listeners (jQuery or
 * addEventListener handlers on spans and divs). Only the debugger can see listeners,
 * and only the content script walks the page, so the worker asks CDP for the
 * listener targets and hands the content script their positions as child-index
 * paths. The paths are computed in the page's own world (a world created through
 * CDP loses the extension's content script after a few snapshots): a page that
 * patches DOM methods can only make the list wrong, which adds or drops ids; it
 * learns nothing and gets nothing run on its behalf.
 */
import type { BrowserPort, CdpSession } from '../ports';

/** Event types that mean "this element reacts to being clicked". */
// A drop zone takes pointer input too: it is where a drag ends ("drag the block onto the box").
// A right-click target too: it reacts to the pointer, and "right-click the box" must find it.
const CLICK_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick', 'contextmenu', 'touchstart', 'drop', 'dragover']);
/**
 * An element that holds others and listens for this many kinds of event dispatches for what is
 * below it (React's root container listens for every event it supports): it is not a control itself.
 */
const DISPATCHER_TYPES = 16;
/**
 * Listener targets looked up per snapshot. Each costs a round trip; pages with more are
 * ones that attach a handler per row or per button, which mostly have roles already, and the
 * pointer-cursor reading in the content script still finds the styled ones.
 */
const MAX_TARGETS = 300;

/** An element's path from <html> (child indexes, 's' into a shadow root), null for anything else (window, document, a child frame's nodes). */
const PATH_OF = `function pathOf(el) {
  if (!(el instanceof Element) || el.ownerDocument !== document) return null;
  const steps = [];
  let n = el;
  for (let guard = 0; guard < 4096; guard++) {
    const p = n.parentNode;
    if (!p) return null;
    if (p === document) return steps.reverse().join('.');
    const i = Array.prototype.indexOf.call(p.children, n);
    if (i < 0) return null;
    steps.push(i);
    if (p instanceof ShadowRoot) { steps.push('s'); n = p.host; } else n = p;
  }
  return null;
}`;

/** Runs in the page's world: the paths of the listener targets it is handed. */
const PATHS_FN = `function (...els) {
  ${PATH_OF}
  return els.map(pathOf);
}`;

/**
 * Paths of the top frame's elements that have click-type listeners of their own. Best
 * effort: a page the debugger cannot inspect gives an empty list, never an error.
 */
export async function clickTargets(port: BrowserPort, page: number, timeoutMs: number): Promise<string[]> {
  const cdp = await port.cdp(page);
  const group = `dh-listeners-${Math.random().toString(36).slice(2)}`;
  try {
    const doc = await cdp.send<{ result: { objectId?: string } }>('Runtime.evaluate', { expression: 'document', objectGroup: group }, timeoutMs);
    if (!doc.result.objectId) return [];
    const { listeners } = await cdp.send<{ listeners: { type: string; backendNodeId?: number }[] }>(
      'DOMDebugger.getEventListeners',
      { objectId: doc.result.objectId, depth: -1, pierce: true },
      timeoutMs,
    );
    const types = new Map<number, Set<string>>();
    for (const l of listeners) if (l.backendNodeId) types.set(l.backendNodeId, (types.get(l.backendNodeId) ?? new Set()).add(l.type));
    // A drawing surface (a game's canvas listens for every kind of pointer, touch and key event) stays a target itself.
    const many = [...types].filter(([, t]) => t.size >= DISPATCHER_TYPES).map(([id]) => id);
    const holders = await Promise.all(
      many.map((backendNodeId) =>
        cdp.send<{ node: { localName?: string; childNodeCount?: number } }>('DOM.describeNode', { backendNodeId }, timeoutMs).then(
          (r) => r.node.localName !== 'canvas' && (r.node.childNodeCount ?? 0) > 0,
          () => false,
        ),
      ),
    );
    const dispatching = new Set(many.filter((_, i) => holders[i]));
    const dispatchers = dispatching.size;
    const ids = [...types].filter(([id, t]) => !dispatching.has(id) && [...t].some((x) => CLICK_TYPES.has(x))).map(([id]) => id);
    ids.splice(MAX_TARGETS);
    // Below a dispatcher the handlers are the framework's props, read where the page keeps them.
    const delegated = dispatchers ? await propTargets(cdp, doc.result.objectId, timeoutMs) : [];
    if (!ids.length) return delegated;
    const objects = await Promise.all(
      ids.map((backendNodeId) =>
        cdp.send<{ object: { objectId?: string } }>('DOM.resolveNode', { backendNodeId, objectGroup: group }, timeoutMs).then(
          (r) => r.object.objectId ?? null,
          () => null,
        ),
      ),
    );
    const args = objects.filter((o): o is string => !!o).map((objectId) => ({ objectId }));
    const r = await cdp.send<{ result: { value?: (string | null)[] } }>(
      'Runtime.callFunctionOn',
      { functionDeclaration: PATHS_FN, objectId: doc.result.objectId, arguments: args, returnByValue: true },
      timeoutMs,
    );
    return [...new Set([...(r.result.value ?? []).filter((p): p is string => typeof p === 'string'), ...delegated])];
  } catch {
    return [];
  } finally {
    void cdp.send('Runtime.releaseObjectGroup', { objectGroup: group }, timeoutMs).catch(() => undefined);
  }
}

/** React's handler props that mean the element takes pointer input (onClick also leaves a listener of its own). */
const POINTER_PROPS = ['onClick', 'onMouseDown', 'onMouseUp', 'onPointerDown', 'onPointerUp', 'onDoubleClick', 'onContextMenu', 'onTouchStart', 'onDrop'];
/** Elements looked at for handler props, in document order: enough for an app's screen. */
const MAX_PROP_SCAN = 20_000;

/** Runs in the page's world, where React keeps each element's props: paths of elements with pointer handlers. */
const PROPS_FN = `function (names, max) {
  ${PATH_OF}
  const out = [];
  const all = document.querySelectorAll('*');
  for (let i = 0; i < all.length && i < max && out.length < ${MAX_TARGETS}; i++) {
    const el = all[i];
    const key = Object.keys(el).find((k) => k.startsWith('__reactProps$'));
    const props = key && el[key];
    if (!props || typeof props !== 'object' || !names.some((n) => typeof props[n] === 'function')) continue;
    const path = pathOf(el);
    if (path) out.push(path);
  }
  return out;
}`;

/** Best effort, like the listeners: a page that hides or fakes its props can only add or drop ids. */
async function propTargets(cdp: CdpSession, docObject: string, timeoutMs: number): Promise<string[]> {
  const r = await cdp
    .send<{ result: { value?: unknown } }>(
      'Runtime.callFunctionOn',
      { functionDeclaration: PROPS_FN, objectId: docObject, arguments: [{ value: POINTER_PROPS }, { value: MAX_PROP_SCAN }], returnByValue: true },
      timeoutMs,
    )
    .catch(() => null);
  const v = r?.result.value;
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string').slice(0, MAX_TARGETS) : [];
}
