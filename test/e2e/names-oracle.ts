/**
 * The names differential: every snapshot line of a page set beside Chrome's own accessibility
 * tree (CDP Accessibility.getFullAXTree), the oracle for accessible names.
 *
 * Each element of the page gets a `data-dhk` number (main world, open shadow roots and the
 * closed ones the page made, which an init script keeps); the snapshot's ids are turned into
 * selectors by the engine, and the product's own resolver (bundled for the page) turns them back
 * into elements, so a line and Chrome's node for the same element meet on that number.
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { BrowserHandle, Page } from '../../src/index';

/** Roles a person acts on: their names must be Chrome's. */
export const CONTROL_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'switch',
  'combobox',
  'listbox',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'radiogroup',
]);

export interface Line {
  id: string;
  role: string;
  name: string;
  nameFrom?: string;
  states: string;
}

export interface Compared {
  key: string;
  line: Line | null;
  chrome: { role: string; name: string };
  /** What the element is, for the report. */
  tag: string;
}

const LINE = /^\s*\[([a-z0-9]+)\] (\S+)(?: ("(?:[^"\\]|\\.)*"))?(?: namefrom=(\S+))?(.*)$/;

export function parseLines(text: string): Line[] {
  const out: Line[] = [];
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw);
    if (!m) continue;
    out.push({ id: m[1], role: m[2], name: m[3] ? (JSON.parse(m[3]) as string) : '', ...(m[4] ? { nameFrom: m[4] } : {}), states: m[5].trim() });
  }
  return out;
}

let bundled: string | null = null;
/** The product's selector resolver, for the page's main world, with the page's closed roots. */
function resolverScript(): string {
  if (bundled) return bundled;
  const entry = fileURLToPath(new URL('../../src/snapshot/resolve.ts', import.meta.url));
  const r = buildSync({
    stdin: {
      contents: `import { resolveSelector } from ${JSON.stringify(entry)};
        window.__dhResolve = (sel) => {
          const r = resolveSelector(sel, document, (el) => el.shadowRoot || (window.__dhClosed && window.__dhClosed.get(el)) || null);
          if (r.kind === 'elements') return r.elements.map((e) => e.getAttribute('data-dhk'));
          // Into a same-origin frame, by the frame's own copy (instanceof checks are per window); a cross-origin one is out of reach.
          const w = r.kind === 'frame' ? r.frameElement.contentWindow : null;
          try {
            return w && w.__dhResolve ? w.__dhResolve(r.rest) : [r.kind];
          } catch {
            return [r.kind];
          }
        };`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
  });
  bundled = r.outputFiles[0].text;
  return bundled;
}

/** Kept before any page script: closed shadow roots, so the test can number their elements. */
const KEEP_CLOSED = `(() => { const m = new WeakMap(); const a = Element.prototype.attachShadow;
  Object.defineProperty(window, '__dhClosed', { value: m });
  Element.prototype.attachShadow = function (init) { const r = a.call(this, init); if (init && init.mode === 'closed') m.set(this, r); return r; }; })()`;

const NUMBER = `(() => { let n = 0; const visit = (root, w) => { for (const el of root.querySelectorAll('*')) {
  el.setAttribute('data-dhk', String(++n)); const sr = el.shadowRoot || (w.__dhClosed && w.__dhClosed.get(el)); if (sr) visit(sr, w);
  if (el.localName === 'iframe' || el.localName === 'frame') { try { const d = el.contentDocument; if (d) visit(d, d.defaultView); } catch {} } } };
  visit(document, window); return n; })()`;

// Defined is not yet rendered: a loader hydrates (Ionic shows a component only then), so the page must also have been still
// for 400 ms; on a busy machine that takes seconds. Capped: 10 s for definitions, 5 s for stillness.
const DEFINED = `(async () => { const tags = new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((t) => t.includes('-')));
  if (!tags.size) return; await Promise.race([Promise.all([...tags].map((t) => customElements.whenDefined(t))), new Promise((r) => setTimeout(r, 10000))]);
  await new Promise((done) => { let quiet; const still = () => { clearTimeout(quiet); quiet = setTimeout(finish, 400); };
    const cap = setTimeout(finish, 5000); const seen = new MutationObserver(still);
    function finish() { clearTimeout(cap); clearTimeout(quiet); seen.disconnect(); done(); }
    seen.observe(document, { subtree: true, childList: true, attributes: true, characterData: true }); still(); }); })()`;

interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  backendDOMNodeId?: number;
}

interface DomNode {
  backendNodeId: number;
  nodeName: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

/** A CDP session on the page behind `page` (the tab whose URL it has). */
async function sessionFor(browser: BrowserHandle, url: string): Promise<string> {
  const { targetInfos } = await browser.cdp.send('Target.getTargets');
  const t = (targetInfos as { targetId: string; type: string; url: string }[]).find((x) => x.type === 'page' && x.url === url);
  if (!t) throw new Error(`no page target at ${url}`);
  const { sessionId } = await browser.cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: true });
  return sessionId as string;
}

/**
 * Open `url` in `page` with the closed-root keeper installed, number the elements, take the
 * snapshot and Chrome's tree, and pair them element by element (top frame only).
 */
let opened = 0;

export async function compareNames(browser: BrowserHandle, page: Page, url: string): Promise<{ compared: Compared[]; text: string }> {
  // A page of its own first, so the session is surely this tab's.
  const marker = new URL(`/oracle-${++opened}.txt`, url).href;
  await page.goto(marker);
  const session = await sessionFor(browser, marker);
  const send = (m: string, p: Record<string, unknown> = {}) => browser.cdp.send(m, p, session);
  try {
    await send('Page.enable');
    const { identifier } = await send('Page.addScriptToEvaluateOnNewDocument', { source: KEEP_CLOSED });
    await page.goto(url);
    await send('Page.removeScriptToEvaluateOnNewDocument', { identifier });
    const evaluate = async <T>(expression: string): Promise<T> => {
      const r = await send('Runtime.evaluate', { expression, returnByValue: true });
      if (r.exceptionDetails) throw new Error(`page evaluation failed: ${JSON.stringify(r.exceptionDetails).slice(0, 300)}`);
      return r.result.value as T;
    };
    // Components a loader defines after load (Ionic, Web Awesome) are compared once defined and rendered (see DEFINED).
    await send('Runtime.evaluate', { expression: DEFINED, awaitPromise: true, returnByValue: true });
    await evaluate(NUMBER);
    // The resolver in the top window and in every same-origin frame's own window.
    await evaluate(`(() => { const src = ${JSON.stringify(resolverScript())};
      const frames = (root, w, out) => { for (const el of root.querySelectorAll('*')) { const sr = el.shadowRoot || (w.__dhClosed && w.__dhClosed.get(el));
        if (sr) frames(sr, w, out); if (el.localName === 'iframe' || el.localName === 'frame') out.push(el); } return out; };
      const put = (w) => { w.eval(src); for (const f of frames(w.document, w, [])) { try { if (f.contentDocument) put(f.contentWindow); } catch {} } };
      put(window); })()`);
    const snap = await page.snapshot({ budget: 200_000 });
    const lines = parseLines(snap.text);
    const refs = await page.selectorsFor(lines.map((l) => l.id));
    const keys = await evaluate<(string | null)[][]>(`${JSON.stringify(refs.map((r) => r?.selector ?? null))}.map((s) => s ? window.__dhResolve(s) : [])`);
    const lineOf = new Map<string, Line>();
    lines.forEach((l, i) => {
      const k = keys[i];
      if (k.length === 1 && k[0]) lineOf.set(k[0], l);
    });

    await send('DOM.enable');
    await send('Accessibility.enable');
    const { root } = (await send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const keyOf = new Map<number, { key: string; tag: string }>();
    const walk = (n: DomNode): void => {
      const a = n.attributes ?? [];
      const i = a.indexOf('data-dhk');
      if (i >= 0) keyOf.set(n.backendNodeId, { key: a[i + 1], tag: n.nodeName.toLowerCase() });
      for (const c of [...(n.shadowRoots ?? []), ...(n.children ?? [])]) walk(c);
      if (n.contentDocument) walk(n.contentDocument);
    };
    walk(root);
    // The top frame and its same-origin frames (a cross-origin one lives in another process, out of this session's reach).
    interface FrameTree {
      frame: { id: string };
      childFrames?: FrameTree[];
    }
    const frameIds: string[] = [];
    const collect = (t: FrameTree) => {
      frameIds.push(t.frame.id);
      for (const c of t.childFrames ?? []) collect(c);
    };
    collect(((await send('Page.getFrameTree')) as { frameTree: FrameTree }).frameTree);
    const nodes: AXNode[] = [];
    for (const frameId of frameIds) {
      const tree = (await send('Accessibility.getFullAXTree', { frameId }).catch(() => ({ nodes: [] }))) as { nodes: AXNode[] };
      nodes.push(...tree.nodes);
    }
    const compared: Compared[] = [];
    for (const ax of nodes) {
      if (ax.ignored || ax.backendDOMNodeId === undefined) continue;
      const k = keyOf.get(ax.backendDOMNodeId);
      if (!k) continue;
      const chrome = { role: ax.role?.value ?? '', name: (ax.name?.value ?? '').replace(/\s+/g, ' ').trim() };
      compared.push({ key: k.key, tag: k.tag, line: lineOf.get(k.key) ?? null, chrome });
    }
    return { compared, text: snap.text };
  } finally {
    await browser.cdp.send('Target.detachFromTarget', { sessionId: session }).catch(() => undefined);
  }
}
