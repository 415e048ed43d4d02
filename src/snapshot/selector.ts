/**
 * Build a selector for an element that survives small page changes: id,
 * data-testid, name, aria-label, label or text based XPath when unique, a
 * positional XPath anchored at the nearest stable ancestor as the fallback.
 * Inside shadow roots each root contributes its own part; the parts join into
 * one XPath whose step after a host continues in the host's shadow root.
 */
import { normalizeSpace, type ShadowRootOf } from './dom';
import { byId } from './resolve';
import { xpathLiteral } from './xpath';

const TEST_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];

/** ids that look generated (React useId, framework counters) change between renders. */
const looksGenerated = (id: string): boolean => /^:r|\d{4,}|^[a-f0-9]{8,}$|^(ember|ext-gen|yui_)/i.test(id) || /\s/.test(id);

function countIn(root: Document | ShadowRoot, xpath: string): number {
  if (root instanceof Document) {
    return root.evaluate(`count(${xpath})`, root, null, XPathResult.NUMBER_TYPE, null).numberValue;
  }
  // Shadow roots are not XPath context nodes: count from each top-level child.
  const rel = xpath.startsWith('//') ? `./descendant-or-self::${xpath.slice(2)}` : null;
  if (!rel) return Number.NaN;
  let n = 0;
  for (const c of Array.from(root.children)) n += root.ownerDocument.evaluate(`count(${rel})`, c, null, XPathResult.NUMBER_TYPE, null).numberValue;
  return n;
}

/** XPath's normalize-space(): only space, tab, CR and LF are white space (not a no-break space). */
const xpathSpace = (s: string): string => s.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');

/**
 * A candidate `//tag[@attr='v']` or `//tag[normalize-space(.)='v']`, matched in script: the
 * browser's XPath engine visits every node of the page and cannot stop at the second match,
 * which made naming one button on a 5,000-row table cost tens of milliseconds per XPath.
 */
interface Candidate {
  xpath: string;
  test?: { tag: string; attr?: string; value: string };
}

function matches(e: Element, t: NonNullable<Candidate['test']>): boolean {
  if (t.tag !== '*' && tagTest(e) !== t.tag) return false;
  return t.attr ? e.getAttribute(t.attr) === t.value : xpathSpace(e.textContent ?? '') === t.value;
}

function unique(root: Document | ShadowRoot, c: Candidate, el: Element): boolean {
  try {
    if (c.test) {
      const t = c.test;
      // The id map for ids; otherwise the browser's selector engine narrows, the exact comparison decides.
      const near = t.attr === 'id' ? byId(root, t.value) : Array.from(root.querySelectorAll(t.attr ? `[${t.attr}="${CSS.escape(t.value)}"]` : t.tag));
      let found: Element | null = null;
      for (const e of near) {
        if (!matches(e, t)) continue;
        if (found) return false;
        found = e;
      }
      return found === el;
    }
    if (countIn(root, c.xpath) !== 1) return false;
    // Confirm it is this element (for documents; shadow roots trust the count).
    if (root instanceof Document) return root.evaluate(c.xpath, root, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue === el;
    return true;
  } catch {
    return false;
  }
}

const tagTest = (el: Element): string => (el.namespaceURI === 'http://www.w3.org/1999/xhtml' ? el.localName : '*');

const byAttr = (tag: string, attr: string, value: string): Candidate => ({ xpath: `//${tag}[@${attr}=${xpathLiteral(value)}]`, test: { tag, attr, value } });

/** Candidate XPaths for `el` within `root`, most robust first. */
function candidates(el: Element, root: Document | ShadowRoot): Candidate[] {
  const out: Candidate[] = [];
  const tag = tagTest(el);
  if (el.id && !looksGenerated(el.id)) out.push(byAttr('*', 'id', el.id));
  for (const a of TEST_ATTRS) {
    const v = el.getAttribute(a);
    if (v) out.push(byAttr('*', a, v));
  }
  const name = el.getAttribute('name');
  if (name && /^(input|select|textarea|button|iframe|form)$/.test(el.localName)) out.push(byAttr(tag, 'name', name));
  const aria = el.getAttribute('aria-label');
  if (aria) out.push(byAttr(tag, 'aria-label', aria));
  if (el.id && root instanceof Document) {
    const label = root.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    const lt = label ? normalizeSpace(label.textContent ?? '') : '';
    if (lt) out.push({ xpath: `//${tag}[@id=//label[normalize-space(.)=${xpathLiteral(lt)}]/@for]` });
  }
  const placeholder = el.getAttribute('placeholder');
  if (placeholder) out.push(byAttr(tag, 'placeholder', placeholder));
  if (/^(button|a|summary|option|label|h[1-6])$/.test(el.localName) || /^(button|link|tab|menuitem)$/.test(el.getAttribute('role') ?? '')) {
    const text = xpathSpace(el.textContent ?? '');
    // Matched in script only by tag name: reading the text of every element of the page would cost more than XPath.
    if (text && text.length <= 60)
      out.push({ xpath: `//${tag}[normalize-space(.)=${xpathLiteral(text)}]`, ...(tag === '*' ? {} : { test: { tag, value: text } }) });
  }
  const title = el.getAttribute('title');
  if (title) out.push(byAttr(tag, 'title', title));
  const alt = el.getAttribute('alt');
  if (alt) out.push(byAttr(tag, 'alt', alt));
  return out;
}

function positionalStep(el: Element): string {
  const tag = tagTest(el);
  let i = 1;
  // `svg[2]` cannot be written for an element outside the HTML namespace: `*[n]` counts every element sibling.
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (tag === '*' || s.localName === el.localName) i++;
  return `${tag}[${i}]`;
}

/** Selector for `el` within its own root (document or shadow root). */
function partFor(el: Element, root: Document | ShadowRoot): string {
  for (const c of candidates(el, root)) if (unique(root, c, el)) return c.xpath;
  // Positional path from the nearest ancestor that has a unique stable anchor, else from the root.
  const steps: string[] = [];
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (n !== el && n.id && !looksGenerated(n.id)) {
      const anchor = byAttr('*', 'id', n.id);
      if (unique(root, anchor, n)) return `${anchor.xpath}/${steps.reverse().join('/')}`;
    }
    steps.push(positionalStep(n));
    if (n.parentNode === root) break;
  }
  return `/${steps.reverse().join('/')}`;
}

/** Full XPath for `el` within this frame, crossing shadow roots. */
export function selectorFor(el: Element, shadowRootOf: ShadowRootOf): string {
  const parts: string[] = [];
  let cur: Element | null = el;
  for (let guard = 0; cur && guard < 32; guard++) {
    const root = cur.getRootNode() as Document | ShadowRoot;
    parts.push(partFor(cur, root));
    if (root instanceof ShadowRoot) {
      // Only a root we can reach again (open, or closed via chrome.dom) can be resolved later.
      cur = shadowRootOf(root.host) === root ? root.host : null;
    } else cur = null;
  }
  return parts.reverse().join('');
}
