/**
 * A frame's mark: a few numbers and digests that change when what a person sees of the frame
 * changes, read before and after an agent's step to tell whether the step had an effect
 * (engine/agent/effect.ts). Mutations are counted by kind (snapshot-cache.ts), field values, focus and
 * the selection are digested, and trusted clicks and presses are watched here as they happen:
 * whether a click landed on something that takes clicks (a control, a link that is not a
 * download, an element styled or marked as clickable), and where the element pressed on was
 * then, so a drag that moved nothing is told from one that moved its item.
 */
import type { FrameMark } from '../protocol/content-messages';
import { mutationCounts } from './snapshot-cache';

const CONTROL_TAGS = new Set(['button', 'select', 'textarea', 'option', 'summary', 'label', 'input']);
const WIDGET_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'slider',
  'spinbutton',
  'combobox',
  'textbox',
  'searchbox',
  'gridcell',
]);
/** Paths a link may end in and still be a page, not a file to download. */
const PAGE_EXT = /\.(?:html?|xhtml|php\d?|aspx?|jsp|cgi|shtml)$/i;

/** A link that fetches a file rather than showing a page: `download`, blob: and data: addresses, a file's extension. */
function isDownload(a: HTMLAnchorElement): boolean {
  if (a.hasAttribute('download') || /^(?:blob|data):/i.test(a.href)) return true;
  try {
    const u = new URL(a.href, location.href);
    return /\.[a-z0-9]{1,5}$/i.test(u.pathname) && !PAGE_EXT.test(u.pathname);
  } catch {
    return false;
  }
}

/**
 * Whether a click on `el` is taken by something made to take clicks: the element or one of a few
 * ancestors is a control, a widget by its role, focusable on purpose, editable, has an inline
 * handler or a pointer cursor. A download link is not: what it fetches never shows on the page.
 */
function takesClicks(start: Element): 'yes' | 'no' | 'download' {
  let el: Element | null = start;
  for (let k = 0; el && k < 6; k++, el = el.parentElement) {
    if (el.localName === 'a' && (el as HTMLAnchorElement).href) return isDownload(el as HTMLAnchorElement) ? 'download' : 'yes';
    if (CONTROL_TAGS.has(el.localName) && !(el.localName === 'input' && (el as HTMLInputElement).type === 'hidden')) return 'yes';
    const role = el.getAttribute('role');
    if (role && WIDGET_ROLES.has(role)) return 'yes';
    if (el.hasAttribute('onclick') || el.getAttribute('contenteditable') === 'true' || el.getAttribute('draggable') === 'true') return 'yes';
    const tabindex = el.getAttribute('tabindex');
    if (tabindex !== null && Number(tabindex) >= 0) return 'yes';
  }
  return getComputedStyle(start).cursor === 'pointer' ? 'yes' : 'no';
}

let taken = 0;
let downloads = 0;
let pressed: { el: Element; x: number; y: number; seq: number } | null = null;
let presses = 0;
let scrolls = 0;

/** An element's place in the document (not the viewport: scrolling does not move it). */
function placeOf(el: Element): { x: number; y: number } {
  const r = el.getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY };
}

// Registered at document_start, before the page's own listeners (which may stop the event).
window.addEventListener(
  'click',
  (e) => {
    if (!e.isTrusted || !(e.target instanceof Element)) return;
    const t = takesClicks(e.target);
    if (t === 'yes') taken++;
    else if (t === 'download') downloads++;
  },
  { capture: true, passive: true },
);
window.addEventListener('scroll', () => void scrolls++, { capture: true, passive: true });
window.addEventListener(
  'pointerdown',
  (e) => {
    if (!e.isTrusted || !(e.target instanceof Element)) return;
    pressed = { el: e.target, ...placeOf(e.target), seq: ++presses };
  },
  { capture: true, passive: true },
);

/** A short digest of a string (FNV-1a, 32 bits, hex): marks stay small whatever the page holds. */
function digest(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

const ids = new WeakMap<Element, number>();
let nextId = 0;
const idOf = (el: Element | null): number => {
  if (!el) return -1;
  let id = ids.get(el);
  if (id === undefined) ids.set(el, (id = ++nextId));
  return id;
};

/** This frame's mark now. */
export function markFrame(): FrameMark {
  let values = '';
  for (const el of document.querySelectorAll('input, textarea, select')) {
    const i = el as HTMLInputElement & HTMLSelectElement;
    values += `${idOf(el)}:${i.value ?? ''}\u0000${i.checked ? 1 : 0}${el.localName === 'select' ? i.selectedIndex : ''}\u0001`;
  }
  for (const el of document.querySelectorAll('[contenteditable]:not([contenteditable="false"])')) values += `${idOf(el)}:${el.textContent ?? ''}\u0001`;
  const m = mutationCounts();
  const p = pressed;
  let moved: boolean | undefined;
  if (p) {
    if (!p.el.isConnected) moved = true;
    else {
      const now = placeOf(p.el);
      moved = Math.hypot(now.x - p.x, now.y - p.y) >= 3;
    }
  }
  return {
    url: location.href,
    ...m,
    values: digest(values),
    focus: idOf(document.activeElement === document.body ? null : document.activeElement),
    scrolls,
    selection: digest(String(getSelection() ?? '')),
    taken,
    downloads,
    presses,
    ...(moved !== undefined ? { moved } : {}),
  };
}

/**
 * The words of the menu `item` opens, whether it shows yet or not: the texts (and labels) of the
 * lists nested in its list item, or of what it says it controls. Empty when the menu is not in
 * the page (one a script builds when it opens).
 */
export function menuTexts(item: Element): string[] {
  const boxes = new Set<Element>();
  const li = item.closest('li');
  if (li) for (const list of li.querySelectorAll('ul, ol, [role=menu], [role=group]')) if (!list.contains(item)) boxes.add(list);
  for (const attr of ['aria-controls', 'aria-owns']) {
    for (const id of (item.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
      const el = document.getElementById(id);
      if (el) boxes.add(el);
    }
  }
  const out: string[] = [];
  const seen = new Set<Element>();
  for (const box of boxes) {
    for (const el of [box, ...box.querySelectorAll('*')]) {
      if (seen.has(el)) continue;
      seen.add(el);
      if (out.length >= 500) return out;
      let own = '';
      for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE) own += n.textContent ?? '';
      own = own.replace(/\s+/g, ' ').trim();
      if (own) out.push(own);
      const label = el.getAttribute('aria-label');
      if (label) out.push(label);
    }
  }
  return out;
}
