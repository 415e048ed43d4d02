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
import type { BrowserPort } from '../ports';

/** Event types that mean "this element reacts to being clicked". */
// A drop zone takes pointer input too: it is where a drag ends ("drag the block onto the box").
const CLICK_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick', 'touchstart', 'drop', 'dragover']);
/**
 * Listener targets looked up per snapshot. Each costs a round trip; pages with more are
 * ones that attach a handler per row or per button, which mostly have roles already, and the
 * pointer-cursor reading in the content script still finds the styled ones.
 */
const MAX_TARGETS = 300;

/** Runs in the isolated world: each element's path from <html>, null for anything else (window, document, a child frame's nodes). */
const PATHS_FN = `function (...els) {
  return els.map((el) => {
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
  });
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
    const ids = [...new Set(listeners.filter((l) => CLICK_TYPES.has(l.type) && l.backendNodeId).map((l) => l.backendNodeId!))].slice(0, MAX_TARGETS);
    if (!ids.length) return [];
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
    return (r.result.value ?? []).filter((p): p is string => typeof p === 'string');
  } catch {
    return [];
  } finally {
    void cdp.send('Runtime.releaseObjectGroup', { objectGroup: group }, timeoutMs).catch(() => undefined);
  }
}
