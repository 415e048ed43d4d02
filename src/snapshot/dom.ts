/** Small DOM helpers shared by the walker, the selector builder and the resolver. */

/** Open or closed shadow root: content scripts may read closed ones through chrome.dom. */
export type ShadowRootOf = (el: Element) => ShadowRoot | null;

const closedRootApi = (globalThis as unknown as { chrome?: { dom?: { openOrClosedShadowRoot?: (e: Element) => ShadowRoot | null } } }).chrome?.dom
  ?.openOrClosedShadowRoot;

/**
 * Open roots come from the DOM; closed ones need an extension API call, which is
 * costly per element, so it is asked only of elements that can be closed hosts in
 * practice: custom elements, and shadow-capable built-ins with no light children.
 */
export const defaultShadowRootOf: ShadowRootOf = (el) => {
  const tag = el.localName;
  const custom = tag.includes('-');
  // attachShadow() only works on custom elements and a few built-ins: skip the rest cheaply.
  if (!custom && !SHADOW_CAPABLE.has(tag)) return null;
  const open = el.shadowRoot;
  if (open || !closedRootApi) return open;
  if (!custom && el.firstChild !== null) return null;
  try {
    return closedRootApi(el);
  } catch {
    return null;
  }
};

const SHADOW_CAPABLE = new Set([
  'article',
  'aside',
  'blockquote',
  'body',
  'div',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'nav',
  'p',
  'section',
  'span',
]);

export const normalizeSpace = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function isFrameElement(el: Element): el is HTMLIFrameElement | HTMLFrameElement {
  return el.localName === 'iframe' || el.localName === 'frame';
}

/** Parent in the composed (flat) tree: crosses from a shadow root to its host. */
export function composedParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  const p = el.parentNode;
  if (!p) return null;
  if (p instanceof ShadowRoot) return p.host;
  return p instanceof Element ? p : null;
}

/** Deepest element at a point, descending into open and closed shadow roots. */
export function deepElementFromPoint(doc: Document, x: number, y: number, shadowRootOf: ShadowRootOf): Element | null {
  let el = doc.elementFromPoint(x, y);
  for (let guard = 0; el && guard < 50; guard++) {
    const sr = shadowRootOf(el);
    if (!sr) break;
    const inner = sr.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/** Whether `ancestor` contains `node` in the composed tree. */
export function composedContains(ancestor: Element, node: Element): boolean {
  for (let n: Element | null = node; n; n = composedParent(n)) if (n === ancestor) return true;
  return false;
}

/**
 * The element at a child-index path from <html>: "1.0.3" is html > 2nd child > 1st child > 4th
 * child; "s" steps into the element's shadow root. Null when the page changed in between.
 */
export function elementAtPath(path: string, shadowRootOf: ShadowRootOf): Element | null {
  let el: Element | null = document.documentElement;
  let inRoot: ShadowRoot | null = null;
  for (const step of path ? path.split('.') : []) {
    if (!el) return null;
    if (step === 's') {
      inRoot = shadowRootOf(el);
      if (!inRoot) return null;
      continue;
    }
    const kids: HTMLCollection = inRoot ? inRoot.children : el.children;
    el = kids[Number(step)] ?? null;
    inRoot = null;
  }
  return el;
}
