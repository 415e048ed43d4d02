/**
 * Resolve a selector to elements in this frame, descending into shadow roots;
 * when an XPath crosses an iframe, answer with the child frame and the rest of
 * the path so the worker can continue there.
 */
import { defaultShadowRootOf, isFrameElement, type ShadowRootOf } from './dom';
import { joinXPath, parseSelector, parseSimpleStep, splitXPath, type XPathStep } from './xpath';

export type Resolution =
  | { kind: 'elements'; elements: Element[] }
  | { kind: 'frame'; frameElement: HTMLIFrameElement | HTMLFrameElement; rest: string }
  | { kind: 'invalid'; message: string };

type Ctx = Document | ShadowRoot | Element;

function snapshotXPath(expr: string, ctx: Node): Element[] {
  const doc = ctx.ownerDocument ?? (ctx as Document);
  const r = doc.evaluate(expr, ctx, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  const out: Element[] = [];
  for (let i = 0; i < r.snapshotLength; i++) {
    const n = r.snapshotItem(i);
    if (n && n.nodeType === 1) out.push(n as Element);
  }
  return out;
}

/** The id of a `//*[@id='…']` step: the first step of the selectors snapshots give out. */
function idOfStep(step: XPathStep): string | null {
  if (!step.descendant) return null;
  const m = /^\*\[@id=(?:'([^']*)'|"([^"]*)")\]$/.exec(step.expr);
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * The elements of a document's (or shadow root's) own tree with exactly this id, in document
 * order. The browser's XPath engine answers `//*[@id='x']` by visiting every node (tens of
 * milliseconds on a page of 30,000 elements); its id map answers at once. The filter keeps
 * XPath's exact, case-sensitive comparison (quirks-mode CSS compares ids ignoring case).
 */
export function byId(root: Document | ShadowRoot, id: string): Element[] {
  if (!id) return [];
  return Array.from(root.querySelectorAll(`#${CSS.escape(id)}`)).filter((e) => e.getAttribute('id') === id);
}

/** Evaluate one location step from a context (a document, element or shadow root). */
function evalStep(step: XPathStep, ctx: Ctx): Element[] {
  const id = ctx instanceof Document ? idOfStep(step) : null;
  if (id !== null) return byId(ctx as Document, id);
  if (!(ctx instanceof ShadowRoot)) return snapshotXPath((step.descendant ? './/' : './') + step.expr, ctx);
  // A shadow root is not a valid XPath context node: evaluate from its top-level children.
  const tops = Array.from(ctx.children);
  const out: Element[] = [];
  const simple = parseSimpleStep(step.expr);
  if (simple && simple.index !== null) {
    const same = tops.filter((c) => simple.name === '*' || c.localName === simple.name);
    const hit = same[simple.index - 1];
    if (hit) out.push(hit);
  } else {
    for (const c of tops) if (snapshotXPath(`self::${step.expr}`, c).length) out.push(c);
  }
  if (step.descendant) for (const c of tops) out.push(...snapshotXPath(`./descendant-or-self::node()/${step.expr}`, c));
  return out;
}

/**
 * The step after a shadow host continues in its shadow root, or in its light DOM when the root
 * has no match for that step: breadth first, each step over the merged matches of the last.
 */
function resolveSteps(steps: XPathStep[], root: Ctx, shadowRootOf: ShadowRootOf): Resolution {
  let ctxs: Ctx[] = [root];
  for (let i = 0; i < steps.length; i++) {
    const next: Element[] = [];
    for (const c of ctxs) {
      const sr = c instanceof Element ? shadowRootOf(c) : null;
      let found = sr ? evalStep(steps[i], sr) : [];
      if (!found.length) found = evalStep(steps[i], c);
      for (const f of found) if (!next.includes(f)) next.push(f);
    }
    if (!next.length) return i > 0 ? retrySlotted(steps, root, shadowRootOf) : { kind: 'elements', elements: [] };
    const last = i === steps.length - 1;
    if (!last && isFrameElement(next[0])) return { kind: 'frame', frameElement: next[0], rest: joinXPath(steps.slice(i + 1)) };
    if (last) return { kind: 'elements', elements: next };
    ctxs = next;
  }
  return { kind: 'elements', elements: [] };
}

/**
 * A path that found nothing, tried again depth first: at a shadow host whose root has a match
 * but where the rest of the path then finds nothing, the host's light DOM is tried. A
 * selector's part within one root walks light children, so inside a shadow root a nested
 * host's slotted content (`sl-popup[1]/div[1]`) is reached this way.
 */
function retrySlotted(steps: XPathStep[], root: Ctx, shadowRootOf: ShadowRootOf): Resolution {
  let frame: Resolution | null = null;
  const from = (ctxs: Ctx[], i: number): Element[] => {
    const out: Element[] = [];
    for (const c of ctxs) {
      const sr = c instanceof Element ? shadowRootOf(c) : null;
      let found = sr ? walk(evalStep(steps[i], sr), i) : [];
      if (!found.length && !frame) found = walk(evalStep(steps[i], c), i);
      for (const f of found) if (!out.includes(f)) out.push(f);
      if (frame) break;
    }
    return out;
  };
  const walk = (found: Element[], i: number): Element[] => {
    if (!found.length || i === steps.length - 1) return found;
    if (isFrameElement(found[0])) {
      frame = { kind: 'frame', frameElement: found[0], rest: joinXPath(steps.slice(i + 1)) };
      return [];
    }
    return from(found, i + 1);
  };
  const elements = from([root], 0);
  return frame ?? { kind: 'elements', elements };
}

/** querySelectorAll that also searches open and closed shadow roots (document order per root). */
export function deepQueryAll(root: Document | ShadowRoot, css: string, shadowRootOf: ShadowRootOf): Element[] {
  const out: Element[] = Array.from(root.querySelectorAll(css));
  const walker = (root instanceof Document ? root : root.ownerDocument).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const sr = shadowRootOf(n as Element);
    if (sr) out.push(...deepQueryAll(sr, css, shadowRootOf));
  }
  return out;
}

export function resolveSelector(selector: string, doc: Document = document, shadowRootOf: ShadowRootOf = defaultShadowRootOf): Resolution {
  const { kind, value } = parseSelector(selector);
  if (!value) return { kind: 'invalid', message: 'the selector is empty' };
  if (kind === 'css') {
    try {
      doc.createDocumentFragment().querySelector(value);
    } catch {
      return { kind: 'invalid', message: `'${value}' is not a valid CSS selector` };
    }
    // Light DOM first: walking every element for shadow roots costs milliseconds on big pages,
    // so shadow roots are searched only when the light DOM has no match.
    const light = Array.from(doc.querySelectorAll(value));
    return { kind: 'elements', elements: light.length ? light : deepQueryAll(doc, value, shadowRootOf) };
  }
  try {
    doc.createExpression(value);
  } catch {
    return { kind: 'invalid', message: `'${value}' is not a valid XPath expression` };
  }
  const steps = splitXPath(value);
  // Fast path: the browser's own engine, when the path stays in this document's light DOM;
  // from the element an id step names when the path starts with one.
  const id = steps && idOfStep(steps[0]);
  let direct: Element[];
  if (steps && id !== null) {
    const rest = steps.length > 1 ? '.' + joinXPath(steps.slice(1)) : null;
    direct = [];
    for (const start of byId(doc, id)) for (const e of rest ? snapshotXPath(rest, start) : [start]) if (!direct.includes(e)) direct.push(e);
  } else direct = snapshotXPath(value, doc);
  if (direct.length) return { kind: 'elements', elements: direct };
  if (!steps) return { kind: 'elements', elements: [] };
  return resolveSteps(steps, doc, shadowRootOf);
}
