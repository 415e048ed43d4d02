/**
 * The last snapshot of this frame, answered again while nothing it shows can have changed, so
 * reading an unchanged page twice costs a message instead of a walk. "Changed" is watched, not
 * guessed: any DOM mutation (shadow roots the walk entered included), and every event after
 * which what a person sees may differ without one (scrolling, resizing, focus, pointer and
 * keyboard input, typing, resources and fonts loading, animations and transitions, popovers and
 * details toggling, history moves that change :target). Form controls can also change by script
 * without any of those (`input.value = ...`), and a script's `scrollTo` fires its scroll event
 * only at the next frame, so control values, the page's scroll and size, and the scroll of every
 * box the walk printed as scrollable are compared on every hit. A page
 * with animations running is never answered from the cache, and an entry lives a few seconds at
 * most.
 */
import type { ShadowRootOf } from './dom';
import type { SnapNode } from './tree';

const MAX_AGE_MS = 5000;
const OBSERVE: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

let version = 0;
/** Bumped only when elements are added or removed: what moves child-index paths. */
let structure = 0;
const bump = () => void version++;
/**
 * When the page's structure last changed, kept from document start, for the settle wait:
 * elements added or removed, or an attribute other than `style` set. Text and inline styles
 * are left out: clocks, counters, tickers and script-driven animations rewrite them many times
 * a second, so a page showing one would never count as settled, while a page still rendering
 * adds elements or flips classes and `hidden`.
 */
let lastStructural = performance.now();
/** When an inline style last changed: what script-driven motion (jQuery's animate, say) writes every frame. */
let lastStyle = -Infinity;
/**
 * Mutations by kind since the document started, the page's own only (not the engine's cursor or
 * highlight): what a step's effect is measured by (marks.ts).
 */
export const mutations = { elements: 0, attributes: 0, text: 0, style: 0 };
function note(records: MutationRecord[]): void {
  if (!records.length) return;
  version++;
  let moved = false;
  for (const r of records) {
    count(r);
    if (r.type === 'childList' && (hasElement(r.addedNodes) || hasElement(r.removedNodes))) moved = true;
    else if (r.type === 'attributes' && r.attributeName === 'style') {
      lastStyle = performance.now();
      continue;
    } else if (r.type !== 'attributes') continue;
    lastStructural = performance.now();
  }
  if (moved) structure++;
}
/** The engine's own elements in the page (the side panel's highlight, the agent's cursor). */
const ours = (n: Node): boolean =>
  n.nodeType === Node.ELEMENT_NODE && ((n as Element).localName === 'deckhand-highlight' || (n as Element).id === '__deckhand_cursor');
/** What a list of added or removed nodes holds, the engine's own left out: 2 an element, 1 text only, 0 nothing. */
function kindOf(nodes: NodeList): number {
  let k = 0;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (ours(n)) continue;
    if (n.nodeType === Node.ELEMENT_NODE) return 2;
    k = 1;
  }
  return k;
}
// Every record of every page passes here: no arrays made per record.
function count(r: MutationRecord): void {
  if (ours(r.target)) return;
  if (r.type === 'childList') {
    const k = Math.max(kindOf(r.addedNodes), kindOf(r.removedNodes));
    if (k === 2) mutations.elements++;
    else if (k === 1) mutations.text++;
  } else if (r.type === 'characterData') mutations.text++;
  else if (r.attributeName === 'style') mutations.style++;
  else mutations.attributes++;
}
/** The counts, with records still queued (a change in this same task) counted. */
export function mutationCounts(): typeof mutations {
  note(observer.takeRecords());
  return { ...mutations };
}
const observer = new MutationObserver(note);
function hasElement(nodes: NodeList): boolean {
  for (let i = 0; i < nodes.length; i++) if (nodes[i].nodeType === Node.ELEMENT_NODE) return true;
  return false;
}
observer.observe(document, OBSERVE);
const watched = new WeakSet<ShadowRoot>();
/** The same roots, to ask for their animations: document.getAnimations() does not see inside shadow trees. */
const watchedRoots: WeakRef<ShadowRoot>[] = [];

/** A running animation that ends (a dialog fading in), not one that loops (a spinner). */
export const ends = (a: Animation): boolean => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime));

/**
 * Whether anything runs an animation or transition now, in the document or a shadow root a
 * snapshot entered. `ending`: only one that ends (a dialog fading in), not a spinner that loops.
 */
export function animating(ending = false): boolean {
  const busy = (list: Animation[]) => (ending ? list.some(ends) : list.length > 0);
  if (busy(document.getAnimations())) return true;
  let live = 0;
  let found = false;
  for (const ref of watchedRoots) {
    const sr = ref.deref();
    if (!sr) continue;
    watchedRoots[live++] = ref;
    if (!found && sr.host.isConnected && busy(sr.getAnimations())) found = true;
  }
  watchedRoots.length = live;
  return found;
}

for (const type of [
  'scroll',
  'resize',
  'focusin',
  'focusout',
  'input',
  'change',
  'pointerover',
  'pointerout',
  'pointerdown',
  'pointerup',
  'mouseover',
  'mouseout',
  'mousedown',
  'mouseup',
  'keydown',
  'keyup',
  'transitionrun',
  'transitionend',
  'transitioncancel',
  'animationstart',
  'animationend',
  'animationcancel',
  'toggle',
  'hashchange',
  'popstate',
  'pageshow',
  'fullscreenchange',
]) {
  window.addEventListener(type, bump, { capture: true, passive: true });
}
// load and error of images and other resources do not reach window listeners: document's see them.
for (const type of ['load', 'error', 'visibilitychange']) document.addEventListener(type, bump, { capture: true, passive: true });
document.fonts?.addEventListener('loadingdone', bump);

/** Milliseconds since an inline style last changed (the document, and the shadow roots snapshots entered). */
export const msSinceStyleChange = (): number => performance.now() - lastStyle;

/** Milliseconds since the page's structure last changed (the document, and the shadow roots snapshots entered). */
export const msSinceStructuralChange = (): number => performance.now() - lastStructural;

/** A shadow-root lookup that also watches every shadow root it finds for mutations. */
export const watchingShadowRoots =
  (inner: ShadowRootOf): ShadowRootOf =>
  (el) => {
    const sr = inner(el);
    if (sr && !watched.has(sr)) {
      watched.add(sr);
      watchedRoots.push(new WeakRef(sr));
      observer.observe(sr, OBSERVE);
    }
    return sr;
  };

const CONTROLS = new Set(['input', 'textarea', 'select']);

/**
 * The elements a walk printed whose state can change with no mutation and no event seen in
 * time: form controls (their values) and scroll boxes (their scroll offsets).
 */
export function controlsIn(nodes: SnapNode[], out: Element[] = []): Element[] {
  for (const n of nodes) {
    if (n.el && (CONTROLS.has(n.el.localName) || n.role === 'scrollable' || n.states?.includes('scrollable'))) out.push(n.el);
    if (n.children.length) controlsIn(n.children, out);
  }
  return out;
}

function valuesOf(controls: Element[]): string {
  let s = `${window.scrollX},${window.scrollY},${window.innerWidth},${window.innerHeight}\u0002`;
  for (const c of controls) {
    const i = c as HTMLInputElement & HTMLSelectElement;
    s += `${i.isConnected ? 1 : 0}${i.value ?? ''}\u0000${i.checked ? 1 : 0}${i.selectedIndex ?? ''}\u0000${i.scrollTop},${i.scrollLeft}\u0001`;
  }
  return s;
}

interface Entry {
  key: string;
  version: number;
  expires: number;
  controls: Element[];
  values: string;
  result: unknown;
}
let last: Entry | null = null;

/**
 * The click-listener targets the worker last sent (looked up through CDP, which costs a walk
 * of the whole page and three round trips): reused while no element was added or removed.
 * Their child-index paths move only then, and scripts attach handlers mostly to elements they
 * insert; a text, attribute or value change (a counter, a class toggled, a field typed into)
 * keeps them. A listener added with no element inserted is seen once the entry expires, and
 * the worker looks them up afresh after its own input or navigation anyway.
 */
let targets: { list: string[]; structure: number; expires: number } | null = null;

export function keepTargets(list: string[]): void {
  targets = { list, structure, expires: performance.now() + MAX_AGE_MS };
}

/** The last targets, when no element was added or removed since they came; null otherwise. */
export function reusableTargets(): string[] | null {
  // Records still queued (a change in this same task) count too.
  note(observer.takeRecords());
  return targets && targets.structure === structure && performance.now() <= targets.expires ? targets.list : null;
}

/** The version to pass to `remember` for a snapshot about to be taken. */
export const snapshotVersion = (): number => version;

/** The stored answer to the same request, when nothing it shows can have changed since. */
export function recall(key: string): unknown {
  const e = last;
  if (!e || e.key !== key || e.version !== version || performance.now() > e.expires) return undefined;
  if (animating() || valuesOf(e.controls) !== e.values) {
    last = null;
    return undefined;
  }
  return e.result;
}

/** Keep `result` for `key`, taken at `at` (snapshotVersion() before the walk: a change during it is seen). */
export function remember(key: string, at: number, controls: Element[], result: unknown): void {
  if (animating()) return;
  last = { key, version: at, expires: performance.now() + MAX_AGE_MS, controls, values: valuesOf(controls), result };
}
