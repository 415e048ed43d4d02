/**
 * One pass over the composed DOM of a frame (shadow roots included) into a
 * snapshot tree: roles and names from dom-accessibility-api, the states a model
 * needs, generic wrappers collapsed, hidden and inert content left out.
 */
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { idFor } from './registry';
import { normalizeSpace, type ShadowRootOf } from './dom';
import type { SnapNode } from './tree';

export interface WalkEnv {
  /** Prefix of element ids in this frame ("" for the top frame, "f2" for a child). */
  idPrefix: string;
  shadowRootOf: ShadowRootOf;
  /** Iframe elements met during the walk with their lines; their frame ids are filled in afterwards. */
  frames: { el: Element; node: SnapNode }[];
  /** Subtrees to leave out. */
  ignore: Set<Element>;
}

const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'base', 'title', 'datalist', 'param', 'source', 'track']);
const INLINE_TAGS = new Set(['span', 'b', 'i', 'em', 'strong', 'small', 'code', 'kbd', 'abbr', 'mark', 'sub', 'sup', 'u', 's', 'q', 'cite', 'time', 'font', 'var', 'samp', 'bdi', 'bdo', 'data', 'del', 'ins', 'wbr', 'br']);
/** Roles that always get a line. Anything else without a name collapses into its parent. */
const LINE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'heading', 'list', 'listitem',
  'table', 'grid', 'treegrid', 'row', 'navigation', 'main', 'banner', 'contentinfo', 'form', 'dialog', 'alertdialog',
  'alert', 'img', 'figure', 'article', 'tablist', 'tabpanel', 'menu', 'menubar', 'toolbar', 'tree', 'radiogroup',
  'progressbar', 'meter', 'status', 'separator', 'complementary', 'search', 'iframe', 'term', 'definition',
]);
/** Roles that need a name to be worth a line (a named region or group is a landmark; unnamed is noise). */
const NAMED_ONLY = new Set(['region', 'group', 'section', 'generic', 'paragraph', 'blockquote', 'note', 'log', 'marquee', 'timer']);
/** Roles whose accessible name comes from the author only; their text content stays as text. */
const NAME_FROM_AUTHOR = new Set([
  'list', 'table', 'grid', 'treegrid', 'navigation', 'main', 'banner', 'contentinfo', 'form', 'dialog', 'alertdialog',
  'figure', 'article', 'tablist', 'tabpanel', 'menu', 'menubar', 'toolbar', 'tree', 'radiogroup', 'complementary',
  'search', 'region', 'group', 'alert', 'status', 'listbox', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton',
  'progressbar', 'meter', 'iframe', 'log', 'code', 'definition', 'listitem', 'row', 'section', 'generic',
]);
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Implicit roles of the commonest tags, so the per-element cost stays low on big pages. */
const FAST_ROLES: Record<string, string> = {
  div: 'generic', span: 'generic', p: 'paragraph', td: 'cell', tr: 'row', tbody: 'rowgroup', thead: 'rowgroup',
  tfoot: 'rowgroup', li: 'listitem', ul: 'list', ol: 'list', b: 'generic', i: 'generic', em: 'emphasis',
  strong: 'strong', code: 'code', pre: 'generic', label: 'generic', small: 'generic', button: 'button',
  h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
};

function roleOf(el: Element): string {
  const explicit = el.getAttribute('role');
  if (!explicit) {
    const fast = FAST_ROLES[el.localName];
    if (fast && !el.hasAttribute('contenteditable')) return fast;
  }
  if (explicit) {
    const first = explicit.trim().split(/\s+/)[0];
    if (first && first !== 'none' && first !== 'presentation') return first;
  }
  if (el.localName === 'iframe' || el.localName === 'frame') return 'iframe';
  if ((el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable) return 'textbox';
  const r = getRole(el);
  // Password, date, time, color and file inputs have no ARIA role; a model still needs to see them.
  if (!r && el.localName === 'input') return 'textbox';
  if (r === 'none' || r === 'presentation') return 'generic';
  if (r === 'Details' || r === 'details') return 'group';
  return r ?? 'generic';
}

/** Cheap name for common cases; dom-accessibility-api for anything with labels or ARIA. */
function nameOf(el: Element, role: string): string {
  if (role === 'iframe') return normalizeSpace(el.getAttribute('title') ?? el.getAttribute('name') ?? '');
  if (
    el.childElementCount === 0 &&
    !el.hasAttribute('aria-label') &&
    !el.hasAttribute('aria-labelledby') &&
    !el.hasAttribute('title') &&
    (role === 'button' || role === 'link' || role === 'heading' || role === 'tab' || role === 'option' || role === 'menuitem') &&
    el.localName !== 'input'
  ) {
    return normalizeSpace(el.textContent ?? '');
  }
  try {
    return normalizeSpace(computeAccessibleName(el));
  } catch {
    return '';
  }
}

const quote = (s: string, max = 120): string => JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s);

function statesOf(el: Element, role: string): string {
  const parts: string[] = [];
  const h = el as HTMLInputElement;
  if (role === 'heading') {
    const lvl = el.getAttribute('aria-level') ?? (/^h([1-6])$/.exec(el.localName)?.[1] ?? '');
    if (lvl) parts.push(`level=${lvl}`);
  }
  const ariaChecked = el.getAttribute('aria-checked');
  if (el.localName === 'input' && (h.type === 'checkbox' || h.type === 'radio')) {
    if (h.indeterminate) parts.push('checked=mixed');
    else if (h.checked) parts.push('checked');
  } else if (ariaChecked === 'true') parts.push('checked');
  else if (ariaChecked === 'mixed') parts.push('checked=mixed');
  if ((h as { disabled?: boolean }).disabled === true || el.getAttribute('aria-disabled') === 'true') parts.push('disabled');
  const expanded = el.getAttribute('aria-expanded');
  if (expanded === 'true') parts.push('expanded');
  else if (expanded === 'false') parts.push('collapsed');
  if (el.getAttribute('aria-selected') === 'true') parts.push('selected');
  if (el.getAttribute('aria-pressed') === 'true') parts.push('pressed');
  const current = el.getAttribute('aria-current');
  if (current && current !== 'false') parts.push(`current=${current}`);
  if ((h as { required?: boolean }).required === true || el.getAttribute('aria-required') === 'true') parts.push('required');
  if ((h as { readOnly?: boolean }).readOnly === true && VALUE_ROLES.has(role)) parts.push('readonly');

  if (el.localName === 'select') {
    const s = el as HTMLSelectElement;
    const selected = Array.from(s.selectedOptions).map((o) => normalizeSpace(o.label || o.text));
    parts.push(s.multiple ? `value=${JSON.stringify(selected)}` : `value=${quote(selected[0] ?? '')}`);
    const opts = Array.from(s.options).slice(0, 30).map((o) => normalizeSpace(o.label || o.text));
    parts.push(`options=${JSON.stringify(opts)}${s.options.length > 30 ? `(+${s.options.length - 30} more)` : ''}`);
  } else if (el.localName === 'input' || el.localName === 'textarea') {
    const type = h.type;
    if (type !== 'checkbox' && type !== 'radio' && type !== 'button' && type !== 'submit' && type !== 'reset' && type !== 'image') {
      if (type && type !== 'text' && type !== 'textarea' && el.localName === 'input') parts.push(`type=${type}`);
      // Password values never reach a model; it only needs to know the field is filled.
      const v = type === 'password' ? (h.value ? '••••' : '') : h.value;
      parts.push(`value=${quote(v)}`);
      const ph = h.placeholder;
      if (ph && !v) parts.push(`placeholder=${quote(ph)}`);
    }
  } else if (role === 'textbox' && (el as HTMLElement).isContentEditable) {
    parts.push(`value=${quote(normalizeSpace((el as HTMLElement).innerText ?? ''))}`);
  } else if (VALUE_ROLES.has(role) || role === 'progressbar' || role === 'meter') {
    const v = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
    if (v) parts.push(`value=${quote(v)}`);
  }
  if (role === 'link') {
    const href = (el as HTMLAnchorElement).href;
    if (href) parts.push(`href=${shortUrl(href)}`);
  }
  return parts.join(' ');
}

function shortUrl(href: string): string {
  try {
    const u = new URL(href);
    // Only the top frame shortens: a path from a child frame would be read against the page's URL.
    if (u.origin === location.origin && window.top === window) return u.pathname + u.search + u.hash;
  } catch {
    /* keep as written */
  }
  return href;
}

/** Containers that can reasonably scroll; checking every element would cost a layout read each. */
const SCROLL_TAGS = new Set(['div', 'main', 'aside', 'nav', 'ul', 'ol', 'table', 'dialog']);

function isScrollable(el: Element): boolean {
  if (!SCROLL_TAGS.has(el.localName) && !el.localName.includes('-') && !el.hasAttribute('role')) return false;
  const h = el as HTMLElement;
  if (h.scrollHeight <= h.clientHeight + 1 && h.scrollWidth <= h.clientWidth + 1) return false;
  if (el === document.scrollingElement || el === document.body) return false;
  const s = getComputedStyle(el);
  return /(auto|scroll)/.test(s.overflowY + s.overflowX);
}

/** Distances measured during one snapshot; many lines share an element. */
let distances = new WeakMap<Element, number>();

function offscreenOf(el: Element): () => number {
  return () => {
    let d = distances.get(el);
    if (d === undefined) {
      const r = el.getBoundingClientRect();
      const vh = window.innerHeight || 1;
      d = r.bottom < 0 ? r.bottom / vh : r.top > vh ? (r.top - vh) / vh : 0;
      distances.set(el, d);
    }
    return d;
  };
}

/** Text collected while walking, merged into one line per block. */
class TextSink {
  private buf: string[] = [];
  /** Element holding the line's first text: its position decides whether the line is off-screen. */
  private first: Element | null = null;
  constructor(private readonly owner: Element) {}
  push(s: string, from?: Element | null): void {
    if (!this.first && from && s.trim()) this.first = from;
    this.buf.push(s);
  }
  flush(into: SnapNode[]): void {
    if (!this.buf.length) return;
    const t = normalizeSpace(this.buf.join(''));
    const el = this.first ?? this.owner;
    this.buf = [];
    this.first = null;
    if (t) into.push({ kind: 'text', text: t, children: [], offscreen: offscreenOf(el) });
  }
}

export function walk(root: Element | ShadowRoot | Document, env: WalkEnv): SnapNode[] {
  distances = new WeakMap();
  const out: SnapNode[] = [];
  const owner = root instanceof Document ? root.documentElement : root instanceof ShadowRoot ? root.host : root;
  const sink = new TextSink(owner);
  if (root instanceof Element) walkElement(root, env, out, sink);
  else walkChildren(root, env, out, sink);
  sink.flush(out);
  return out;
}

function walkChildren(parent: Node, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  for (let c = parent.firstChild; c; c = c.nextSibling) walkNode(c, env, out, sink);
}

function walkNode(n: Node, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  if (n.nodeType === 3) {
    sink.push(n.nodeValue ?? '', n.parentElement);
    return;
  }
  if (n.nodeType === 1) walkElement(n as Element, env, out, sink);
}

/** Children of an element in the composed tree: its shadow root, a slot's assigned nodes, or its own children. */
function walkComposedChildren(el: Element, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  const sr = env.shadowRootOf(el);
  if (sr) return walkChildren(sr, env, out, sink);
  if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
    if (assigned.length) {
      for (const a of assigned) walkNode(a, env, out, sink);
      return;
    }
  }
  walkChildren(el, env, out, sink);
}

function walkElement(el: Element, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag) || env.ignore.has(el)) return;
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert') || (el as HTMLElement).hidden === true) return;
  if (tag === 'br') {
    sink.push(' ');
    return;
  }
  let selfHidden = false;
  let muted = false;
  if (!el.checkVisibility({ visibilityProperty: true })) {
    if (el.checkVisibility()) {
      // visibility:hidden: its own text is hidden, but a child may be visible again.
      selfHidden = true;
      muted = true;
    } else if (tag === 'slot' || getComputedStyle(el).display === 'contents') selfHidden = true; // no box, children render
    else return;
  }
  if (muted) {
    sink.flush(out);
    walkComposedChildren(el, env, out, new TextSink(el));
    return;
  }

  const role = selfHidden ? 'generic' : roleOf(el);

  if (CELL_ROLES.has(role)) {
    // Cells fold into their row's line; only their meaningful descendants get lines.
    sink.push(' ');
    walkComposedChildren(el, env, out, sink);
    sink.push(' ');
    return;
  }

  const inline = INLINE_TAGS.has(tag);
  if (!LINE_ROLES.has(role)) {
    const author = el.getAttribute('aria-label') || el.hasAttribute('aria-labelledby') || (tag === 'fieldset' && el.querySelector(':scope > legend'));
    const scroll = !inline && !selfHidden && isScrollable(el);
    if (!(NAMED_ONLY.has(role) && author) && !scroll) {
      // A label's text is already its control's name: keep its children, drop its text.
      if (tag === 'label' && (el as HTMLLabelElement).control) {
        sink.flush(out);
        walkComposedChildren(el, env, out, new TextSink(el));
        return;
      }
      // Collapse: generic wrapper. Block wrappers end the current text line.
      if (!inline) sink.flush(out);
      walkComposedChildren(el, env, out, sink);
      if (!inline) sink.flush(out);
      return;
    }
  }

  sink.flush(out);
  const node: SnapNode = { kind: 'element', role, children: [], id: `${env.idPrefix}e${idFor(el)}`, offscreen: offscreenOf(el) };
  const fromAuthorOnly = NAME_FROM_AUTHOR.has(role);
  if (role === 'row') {
    node.name = rowName(el, env);
  } else if (tag === 'fieldset' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) {
    node.name = normalizeSpace(el.querySelector(':scope > legend')?.textContent ?? '');
  } else {
    node.name = fromAuthorOnly && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby') && !isLabelable(el) && role !== 'iframe' && tag !== 'table' && tag !== 'img' ? '' : nameOf(el, role);
  }
  let states = statesOf(el, role);
  // A title the name does not already say ("?" button titled "Help") is how people refer to it.
  const title = el.getAttribute('title');
  if (title && normalizeSpace(title) && !node.name?.includes(normalizeSpace(title))) states = `${states ? `${states} ` : ''}title=${quote(normalizeSpace(title))}`;
  if (role !== 'generic' && isScrollable(el)) states = states ? `${states} scrollable` : 'scrollable';
  if (role === 'generic' || role === 'region' || role === 'group') {
    if (!node.name && states.includes('scrollable')) node.role = 'scrollable';
  }
  node.states = states;
  if (node.role === 'generic' && isScrollable(el)) {
    node.role = 'scrollable';
    node.states = '';
  }

  if (role === 'iframe') {
    env.frames.push({ el, node });
    out.push(node);
    return;
  }
  if (tag === 'select' || tag === 'input' || tag === 'textarea' || tag === 'img') {
    out.push(node);
    return;
  }

  const childSink = new TextSink(el);
  walkComposedChildren(el, env, node.children, childSink);
  childSink.flush(node.children);
  pruneRepeatedText(node);
  if (role === 'listitem' || role === 'row' || role === 'option' || role === 'term' || role === 'definition' || role === 'alert' || role === 'status') absorbText(node);
  out.push(node);
}

function isLabelable(el: Element): boolean {
  const t = el.localName;
  return t === 'input' || t === 'select' || t === 'textarea' || t === 'meter' || t === 'progress' || t === 'output';
}

/** A row's name: its cells' texts joined by " | ", so a model can read columns. */
function rowName(row: Element, env: WalkEnv): string {
  const parts: string[] = [];
  const cells = env.shadowRootOf(row)?.children ?? row.children;
  for (const c of Array.from(cells)) {
    const t = normalizeSpace(c.textContent ?? '');
    parts.push(t.length > 80 ? t.slice(0, 80) + '…' : t);
  }
  return parts.join(' | ');
}

/** Text that only repeats the element's own name goes. */
function pruneRepeatedText(node: SnapNode): void {
  if (!node.name) return;
  const name = node.name;
  node.children = node.children.filter((c) => !(c.kind === 'text' && c.text && (c.text === name || name.includes(c.text))));
}

/** Items whose only text is short become a named line instead of an item plus a text line. */
function absorbText(node: SnapNode): void {
  if (node.role === 'row') {
    node.children = node.children.filter((c) => c.kind !== 'text');
    return;
  }
  if (node.name) return;
  const texts = node.children.filter((c) => c.kind === 'text');
  if (texts.length === 1 && node.children[0] === texts[0]) {
    node.name = texts[0].text;
    node.children = node.children.slice(1);
  }
}
