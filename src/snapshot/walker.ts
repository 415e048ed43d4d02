/**
 * One pass over the composed DOM of a frame (shadow roots included) into a
 * snapshot tree: roles and names from dom-accessibility-api, the states a model
 * needs, generic wrappers collapsed, what the browser does not render left out.
 * The walk is cheap per element; `finalizer` then leaves out what is rendered but
 * cannot be seen (see visibility.ts) and settles names, for the lines that are
 * printed.
 */
import { beforeInstructions, readsAsInstructions, WITHHELD_FROM, WITHHELD_NAME } from './injection';
import { getRole } from 'dom-accessibility-api';
import { accessibleName, hasLabelledby, labelIndex, labelledbyRefs, pseudoText, type NameOptions } from './accname';
import { idFor } from './registry';
import { normalizeSpace, type ShadowRootOf } from './dom';
import { budgetChars, focusWords, picksOut, printedSize } from './render';
import { REPEATABLE_ROLES, type Finalize, type SnapNode } from './tree';
import type { Visibility } from './visibility';
import { boxShape, classWords, colourName, drawnFigure, drawnSize, hueOf, imageWords, SVG_SHAPE_TAGS, svgShape } from './inferred';

export interface WalkEnv {
  /** Prefix of element ids in this frame ("" for the top frame, "f2" for a child). */
  idPrefix: string;
  shadowRootOf: ShadowRootOf;
  /** Iframe elements met during the walk with their lines; their frame ids are filled in afterwards. */
  frames: { el: Element; node: SnapNode }[];
  /** Subtrees to leave out. */
  ignore: Set<Element>;
  /** Elements with their own click-type event listeners (found by the worker through CDP). */
  listened?: Set<Element>;
  /** The labels of each labelable element, indexed once per walk (accname.ts). */
  labelsOf?: (el: Element) => Element[];
  /** The budget the walk's snapshot prints within, in tokens: a long list is read only as far as it can show (walkLongRun). */
  budget?: number;
  /** The instruction the snapshot is for: the items of a long list it names are read wherever they are. */
  focus?: string;
  /** An act's first, narrow view: on a page far over the budget, blocks far from the viewport without the instruction's words go unread. */
  narrow?: boolean;
  /** Set by walk() for a narrow view of such a page: the instruction's words, as whole words (walkFar). */
  far?: { words: RegExp };
}

const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'base', 'title', 'datalist', 'param', 'source', 'track']);
const INLINE_TAGS = new Set([
  'span',
  'b',
  'i',
  'em',
  'strong',
  'small',
  'code',
  'kbd',
  'abbr',
  'mark',
  'sub',
  'sup',
  'u',
  's',
  'q',
  'cite',
  'time',
  'font',
  'var',
  'samp',
  'bdi',
  'bdo',
  'data',
  'del',
  'ins',
  'wbr',
  'br',
]);
/** Roles that always get a line. Anything else without a name collapses into its parent. */
const LINE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
  'heading',
  'list',
  'listitem',
  'table',
  'grid',
  'treegrid',
  'row',
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'form',
  'dialog',
  'alertdialog',
  'alert',
  'img',
  'figure',
  'article',
  'tablist',
  'tabpanel',
  'menu',
  'menubar',
  'toolbar',
  'tree',
  'radiogroup',
  'progressbar',
  'meter',
  'status',
  'separator',
  'complementary',
  'search',
  'iframe',
  'term',
  'definition',
]);
/**
 * Roles that need a name to be worth a line (a named region or group is a landmark; unnamed is noise).
 * Generic containers, paragraphs and the like get no line for an aria-label: their name is not
 * on screen, and text a person cannot see has no business reaching a model.
 */
const NAMED_ONLY = new Set(['region', 'group', 'section']);
/** Roles whose accessible name comes from the author only; their text content stays as text. */
const NAME_FROM_AUTHOR = new Set([
  'list',
  'table',
  'grid',
  'treegrid',
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'form',
  'dialog',
  'alertdialog',
  'figure',
  'article',
  'tablist',
  'tabpanel',
  'menu',
  'menubar',
  'toolbar',
  'tree',
  'radiogroup',
  'complementary',
  'search',
  'region',
  'group',
  'alert',
  'status',
  'listbox',
  'textbox',
  'searchbox',
  'combobox',
  'slider',
  'spinbutton',
  'progressbar',
  'meter',
  'iframe',
  'log',
  'code',
  'definition',
  'listitem',
  'row',
  'section',
  'generic',
]);
/**
 * Roles that take pointer input by nature: their elements already have a line, and what sits
 * inside them (an icon, a styled span) is part of them, not a separate target.
 */
const CONTROL_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
]);
/** Tags that never become a line of their own for taking clicks: the page itself, and labels (they forward to their control). */
const NEVER_CLICKABLE = new Set(['html', 'body', 'label', 'legend', 'option', 'optgroup']);
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Implicit roles of the commonest tags, so the per-element cost stays low on big pages. */
const FAST_ROLES: Record<string, string> = {
  div: 'generic',
  span: 'generic',
  p: 'paragraph',
  td: 'cell',
  tr: 'row',
  tbody: 'rowgroup',
  thead: 'rowgroup',
  tfoot: 'rowgroup',
  li: 'listitem',
  ul: 'list',
  ol: 'list',
  b: 'generic',
  i: 'generic',
  em: 'emphasis',
  strong: 'strong',
  code: 'code',
  pre: 'generic',
  label: 'generic',
  small: 'generic',
  button: 'button',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
};

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Where editing starts: contenteditable here and not in its parent. */
function isEditingHost(el: Element): boolean {
  return (el as HTMLElement).isContentEditable === true && !(composedParentEl(el) as HTMLElement | null)?.isContentEditable;
}

const composedParentEl = (el: Element): Element | null => el.parentElement ?? (el.parentNode as ShadowRoot | null)?.host ?? null;

const SVG_NS = 'http://www.w3.org/2000/svg';
/** A field that takes at most this many characters says so in its line (a one-time code's boxes). */
const SHORT_BOX_MAX = 4;
/** SVG elements whose content is drawn only where something else uses it, if at all. */
const SVG_NEVER_DRAWN = new Set(['defs', 'symbol', 'clipPath', 'mask', 'pattern', 'marker', 'linearGradient', 'radialGradient', 'filter', 'metadata']);
const svgNamed = (el: Element): boolean =>
  !!el.getAttribute('aria-label')?.trim() || hasLabelledby(el) || Array.from(el.children).some((c) => c.localName === 'title' && !!c.textContent?.trim());

/** Focusable by nature or by tabindex: a role of none or presentation does not apply to it. */
function focusable(el: Element): boolean {
  const t = el.localName;
  if (el.hasAttribute('tabindex') || el.hasAttribute('contenteditable')) return true;
  if (t === 'input') return (el as HTMLInputElement).type !== 'hidden';
  return t === 'select' || t === 'textarea' || t === 'button' || (t === 'a' && el.hasAttribute('href'));
}

/** The role an element's line takes (the walker's reading: an editing host is a textbox, a meter a meter). */
export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role');
  if (!explicit) {
    const fast = FAST_ROLES[el.localName];
    if (fast && !el.hasAttribute('contenteditable')) return fast;
  }
  if (explicit) {
    const first = explicit.trim().split(/\s+/)[0];
    if (first && first !== 'none' && first !== 'presentation') return first;
    // ARIA's conflict rule: a focusable element keeps its own role (a labelled field with role="none" is still a field).
    if (focusable(el)) {
      const bare = el.cloneNode(false) as Element;
      bare.removeAttribute('role');
      return roleOf(bare);
    }
  }
  if (el.localName === 'iframe' || el.localName === 'frame') return 'iframe';
  // An editing host is a text box, except a heading: an editable title is still the page's title (statesOf says `editable`).
  if (isEditingHost(el) && !HEADING_TAGS.has(el.localName)) return 'textbox';
  const r = getRole(el);
  // Password, date, time, color and file inputs have no ARIA role; a model still needs to see them.
  if (!r && el.localName === 'input') return 'textbox';
  if (r === 'none' || r === 'presentation') return 'generic';
  if (r === 'Details' || r === 'details') return 'group';
  // Not in dom-accessibility-api's table.
  if (!r && el.localName === 'meter') return 'meter';
  return r ?? 'generic';
}

/** The accessible name as Chrome computes it (accname.ts); an iframe by its title or name. */
function nameOf(el: Element, role: string, env: WalkEnv): string {
  if (role === 'iframe') return normalizeSpace(el.getAttribute('title') ?? el.getAttribute('name') ?? '');
  try {
    return accessibleName(el, env.shadowRootOf, { role, labelsOf: (env.labelsOf ??= labelIndex()) });
  } catch {
    return '';
  }
}

/** Roles whose name is their content when they have no label of their own. */
const CONTENT_NAME_ROLES = new Set(['button', 'link', 'heading', 'tab', 'option', 'menuitem']);
/** Tags whose text counts in their ancestor's name just as it stands (no alternative text of their own). */
const PLAIN_TEXT_TAGS = INLINE_TAGS;
/** Descendants looked at before leaving the name to dom-accessibility-api. */
const PLAIN_NAME_MAX_ELEMENTS = 16;

/**
 * Whether the element's name is its text, read as the walk reads text: a control or heading
 * with no label of its own whose content is text and plain inline tags only (`<a><code>str</code></a>`,
 * `<button><b>Save</b> draft</button>`). Anything that brings its own alternative (an image, a field,
 * an ARIA label or role, a hidden part, a shadow root) goes to dom-accessibility-api, which
 * reads the computed style of every descendant and costs far more on pages of thousands of links.
 */
function namedByPlainText(el: Element, role: string, env: WalkEnv): boolean {
  if (!CONTENT_NAME_ROLES.has(role) || el.localName === 'input' || el.hasAttribute('aria-label') || hasLabelledby(el) || el.shadowRoot) return false;
  const all = el.getElementsByTagName('*');
  if (all.length > PLAIN_NAME_MAX_ELEMENTS) return false;
  for (let i = 0; i < all.length; i++) {
    const d = all[i];
    if (!PLAIN_TEXT_TAGS.has(d.localName) || d.namespaceURI !== HTML_NS || d.shadowRoot || env.listened?.has(d)) return false;
    if (d.hasAttribute('role') || d.hasAttribute('aria-label') || hasLabelledby(d) || d.hasAttribute('aria-hidden') || d.hasAttribute('hidden')) return false;
    // An empty part with a title is named by the title: the text alone would miss it.
    if (d.hasAttribute('title') && !d.textContent?.trim()) return false;
  }
  return true;
}

/** A name read from plain text (see namedByPlainText): after the walk of the children, which marks the spans laid out as boxes. */
function plainTextName(el: Element): string {
  const out: string[] = [pseudoText(el, '::before')];
  spacedText(el, out, { left: PLAIN_NAME_CHARS });
  // The element's own generated content counts, as in Chrome's names ("Options ▾"); its children's is not read here.
  out.push(pseudoText(el, '::after'));
  return normalizeSpace(out.join(''));
}
/** Longer plain-text names are cut: the finaliser prints at most CONTENT_NAME_MAX characters of one. */
const PLAIN_NAME_CHARS = 1000;

/** Most characters of a text area's value shown (a one-line field's show 120). */
const TEXT_AREA_VALUE_MAX = 2000;
const quote = (s: string, max = 120): string => JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s);

/** A submit button with a form to submit: `<input type=submit|image>`, a `<button>` of type submit (the default). */
function submitsForm(el: Element): boolean {
  if (el instanceof HTMLButtonElement) return el.type === 'submit' && !!el.form;
  return el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image') && !!el.form;
}

function statesOf(el: Element, role: string): string {
  const parts: string[] = [];
  const h = el as HTMLInputElement;
  if (role === 'heading') {
    const lvl = el.getAttribute('aria-level') ?? /^h([1-6])$/.exec(el.localName)?.[1] ?? '';
    if (lvl) parts.push(`level=${lvl}`);
  }
  const ariaChecked = el.getAttribute('aria-checked');
  if (el.localName === 'input' && (h.type === 'checkbox' || h.type === 'radio')) {
    if (h.indeterminate) parts.push('checked=mixed');
    else if (h.checked) parts.push('checked');
  } else if (ariaChecked === 'true') parts.push('checked');
  else if (ariaChecked === 'mixed') parts.push('checked=mixed');
  if ((h as { disabled?: boolean }).disabled === true || el.getAttribute('aria-disabled') === 'true') parts.push('disabled');
  // A <details> summary says whether its section is open, as the accessibility tree does.
  const details =
    el.localName === 'summary' && el.parentElement?.localName === 'details' && el.parentElement.querySelector(':scope > summary') === el
      ? (el.parentElement as HTMLDetailsElement)
      : null;
  const expanded = el.getAttribute('aria-expanded') ?? (details ? String(details.open) : null);
  if (expanded === 'true') parts.push('expanded');
  else if (expanded === 'false') parts.push('collapsed');
  if (el.getAttribute('aria-selected') === 'true') parts.push('selected');
  if (el.getAttribute('aria-pressed') === 'true') parts.push('pressed');
  // A button that opens a list of choices is a select to a person (Ionic's <ion-select>); "true" means a menu. A menu item
  // that opens a submenu says so too, as Chrome's tree does.
  const popup = role === 'button' || role === 'menuitem' ? el.getAttribute('aria-haspopup') : null;
  if (popup && popup !== 'false') parts.push(`haspopup=${popup === 'true' ? 'menu' : popup}`);
  const current = el.getAttribute('aria-current');
  if (current && current !== 'false') parts.push(`current=${current}`);
  if ((h as { required?: boolean }).required === true || el.getAttribute('aria-required') === 'true') parts.push('required');
  if ((h as { readOnly?: boolean }).readOnly === true && VALUE_ROLES.has(role)) parts.push('readonly');
  // Content a person can type into that keeps another role (an editable heading).
  if (role !== 'textbox' && role !== 'searchbox' && isEditingHost(el)) parts.push('editable');

  if (el.localName === 'select') {
    const s = el as HTMLSelectElement;
    const selected = Array.from(s.selectedOptions).map((o) => normalizeSpace(o.label || o.text));
    parts.push(s.multiple ? `value=${JSON.stringify(selected)}` : `value=${quote(selected[0] ?? '')}`);
    // Options the list never shows (hidden, display: none) are not choices a person has.
    const shown = Array.from(s.options).filter((o) => !o.hidden && getComputedStyle(o).display !== 'none');
    const opts = shown.slice(0, 30).map((o) => normalizeSpace(o.label || o.text));
    parts.push(`options=${JSON.stringify(opts)}${shown.length > 30 ? `(+${shown.length - 30} more)` : ''}`);
  } else if (el.localName === 'input' || el.localName === 'textarea') {
    const type = h.type;
    if (type !== 'checkbox' && type !== 'radio' && type !== 'button' && type !== 'submit' && type !== 'reset' && type !== 'image') {
      if (type && type !== 'text' && type !== 'textarea' && el.localName === 'input') parts.push(`type=${type}`);
      // A text area and a one-line field are different widgets to the people who name them.
      if (el.localName === 'textarea') parts.push('multiline');
      // Password values never reach a model; it only needs to know the field is filled.
      const v = type === 'password' ? (h.value ? '••••' : '') : h.value;
      // A text area's value is its content, read like a paragraph: a longer cut than a one-line field's.
      parts.push(`value=${quote(v, el.localName === 'textarea' ? TEXT_AREA_VALUE_MAX : undefined)}`);
      const ph = h.placeholder;
      if (ph && !v) parts.push(`placeholder=${quote(ph)}`);
      // The format a text field checks (\d{4}-\d{2}-\d{2}): what a date is written as when it is named by description.
      const pattern = el.localName === 'input' ? el.getAttribute('pattern') : null;
      if (pattern) parts.push(`pattern=${quote(pattern, 80)}`);
      // A box for a character or a few (one of a one-time code's boxes): what fits in it.
      const max = el.localName === 'input' ? (el as HTMLInputElement).maxLength : -1;
      if (max > 0 && max <= SHORT_BOX_MAX) parts.push(`maxlength=${max}`);
    } else if (role === 'button' && submitsForm(el)) parts.push('submit');
  } else if (role === 'button' && submitsForm(el)) {
    // "the submit button" is the control that submits its form, whatever it is called ("Go").
    parts.push('submit');
  } else if (role === 'textbox' && (el as HTMLElement).isContentEditable) {
    // A block box takes lines like a text area; an inline one (a tag inside a sentence) is one line.
    const ml = el.getAttribute('aria-multiline');
    if (ml === 'true' || (ml !== 'false' && !getComputedStyle(el).display.startsWith('inline'))) parts.push('multiline');
    const v = normalizeSpace((el as HTMLElement).innerText ?? '');
    parts.push(`value=${quote(v)}`);
    // Editors show their hint with CSS from one of these attributes while empty.
    const ph = el.getAttribute('aria-placeholder') || el.getAttribute('placeholder') || el.getAttribute('data-placeholder');
    if (ph && !v) parts.push(`placeholder=${quote(normalizeSpace(ph))}`);
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

/** The top frame's origin, read once per walk ("" in a child frame or an opaque origin: nothing is shortened). */
let ownOrigin = '';

function shortUrl(href: string): string {
  // Only the top frame shortens: a path from a child frame would be read against the page's URL.
  // `href` is the browser's own serialisation, so a same-origin one starts with the origin and a slash.
  if (ownOrigin && href.startsWith(ownOrigin) && href.charCodeAt(ownOrigin.length) === 47) return href.slice(ownOrigin.length);
  return href;
}

/** Containers that can reasonably scroll; checking every element would cost a layout read each. */
const SCROLL_TAGS = new Set(['div', 'main', 'aside', 'nav', 'ul', 'ol', 'table', 'dialog', 'textarea', 'pre', 'section']);

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
/** Spans (and other inline tags) this walk found laid out as boxes of their own. */
let boxedSpans = new WeakSet<Element>();
/** Elements that got a `clickable` line in this walk. */
let clickables = new WeakSet<Element>();
/** Each drawing's cut between its large and small pieces (null: one size or many), in this walk. */
let drawnCuts = new WeakMap<Element, number | null>();
/** The white-space of elements text came from, per element in this walk. */
let spacing = new WeakMap<Element, string>();
function whiteSpaceOf(el: Element): string {
  let w = spacing.get(el);
  if (w === undefined) spacing.set(el, (w = getComputedStyle(el).whiteSpace));
  return w;
}
/** White-space values under which a text's own line breaks show (a poem, code, a text to copy exactly). */
const SHOWN_BREAKS = new Set(['pre', 'pre-wrap', 'pre-line', 'break-spaces']);

/**
 * A line's text as it is seen: spaces collapsed, except that a text laid out with its line
 * breaks kept (white-space: pre and its kin) keeps them, as "\n", so a text copied exactly
 * copies its lines; and its indents, unless pre-line collapses them. Only when every piece
 * with a break inside it is laid out so.
 */
function seenText(texts: string[], from: (Element | null)[]): string {
  const joined = texts.join('');
  if (!/\S[^\S\n]*\n\s*\S/.test(joined.trim())) return normalizeSpace(joined);
  const ways = new Set<string>();
  for (let i = 0; i < texts.length; i++) {
    if (!/\n/.test(texts[i]) || !/\S/.test(texts[i])) continue;
    const el = from[i];
    const way = el ? whiteSpaceOf(el) : 'normal';
    if (!SHOWN_BREAKS.has(way)) return normalizeSpace(joined);
    ways.add(way);
  }
  if (!ways.size) return normalizeSpace(joined);
  const indents = !(ways.size === 1 && ways.has('pre-line'));
  // A text that ends with its own line break keeps one (a text to copy exactly, "every character counts").
  const last = texts.length - 1;
  const ends = /\n[^\S\n]*$/.test(texts[last] ?? '') && from[last] && SHOWN_BREAKS.has(whiteSpaceOf(from[last]!)) ? '\n' : '';
  return (
    joined
      .split(/\r?\n/)
      .map((l) => (indents ? (/^[^\S\n]*/.exec(l)?.[0] ?? '') + normalizeSpace(l) : normalizeSpace(l)).replace(/^\s+$/, ''))
      .join('\n')
      .replace(/^\n+|\n+$/g, '') + ends
  );
}

/** One letter per box, boxes written side by side with nothing between (a word styled or animated letter by letter): one word. */
function letterRun(el: Element, next: ChildNode | null): boolean {
  const one = (e: Element) => (e.textContent ?? '').trim().length === 1 && e.textContent!.length === 1;
  return next instanceof Element && next.localName === el.localName && one(el) && one(next);
}

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

/** Text collected while walking, merged into one line per block; each piece remembers its element, to leave out what cannot be seen. */
class TextSink {
  private buf: string[] = [];
  private from: (Element | null)[] = [];
  /** Element holding the line's first text: its position decides whether the line is off-screen. */
  private first: Element | null = null;
  constructor(private readonly owner: Element) {}
  push(s: string, from: Element | null = null): void {
    if (!this.first && from && s.trim()) this.first = from;
    this.buf.push(s);
    this.from.push(from);
  }
  flush(into: SnapNode[]): void {
    if (!this.buf.length) return;
    const t = seenText(this.buf, this.from);
    const el = this.first ?? this.owner;
    const parts = { texts: this.buf, from: this.from };
    this.buf = [];
    this.from = [];
    this.first = null;
    if (t) into.push({ kind: 'text', text: t, children: [], offscreen: offscreenOf(el), parts });
  }
}

/**
 * The cursor of the element whose children are being walked, and whether they sit inside a
 * control: a pointer cursor only marks a new target where it starts, not where it is inherited.
 */
let parentCursor = 'auto';
let insideControl = false;

const HTML_NS = 'http://www.w3.org/1999/xhtml';
/**
 * Tags whose children are laid out as ordinary boxes. Below one of these (itself visible, its
 * content-visibility not hidden) an HTML child is visible exactly when its own display is not
 * none and its visibility is visible: the walk reads that from the style it computes anyway
 * instead of asking checkVisibility, which costs a second style read per element. Below
 * anything else (the walk's start, SVG, canvas, object and media fallback, closed details,
 * custom elements) checkVisibility is asked.
 */
const PLAIN_PARENTS = new Set([
  'html',
  'body',
  'div',
  'span',
  'p',
  'section',
  'article',
  'main',
  'aside',
  'nav',
  'header',
  'footer',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'form',
  'fieldset',
  'legend',
  'label',
  'a',
  'button',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'b',
  'i',
  'em',
  'strong',
  'small',
  'code',
  'pre',
  'kbd',
  'blockquote',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'address',
  'cite',
  'abbr',
  'mark',
  'sub',
  'sup',
  'u',
  's',
  'q',
  'time',
  'var',
  'samp',
  'hgroup',
  'search',
]);
/** Whether the element whose children are being walked is such a plain, visible box. */
let parentPlain = false;

/**
 * Whether an element that has no interactive role takes pointer input: its own click-type
 * listener, an inline handler, a focusable tabindex, draggable, or a pointer cursor that starts
 * here (not inherited from its parent).
 */
function takesPointer(el: Element, env: WalkEnv, cursor: string): boolean {
  if (NEVER_CLICKABLE.has(el.localName)) return false;
  if (env.listened?.has(el)) return true;
  if (insideControl) return false;
  if (cursor === 'pointer' && parentCursor !== 'pointer') return true;
  if (el.hasAttribute('onclick') || el.hasAttribute('onmousedown') || el.hasAttribute('onmouseup') || el.hasAttribute('onpointerdown')) return true;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0 && tabindex.trim() !== '') return true;
  return el.getAttribute('draggable') === 'true';
}

export function walk(root: Element | ShadowRoot | Document, env: WalkEnv): SnapNode[] {
  distances = new WeakMap();
  ownOrigin = window.top === window && location.origin !== 'null' ? location.origin : '';
  boxedSpans = new WeakSet();
  spacing = new WeakMap();
  clickables = new WeakSet();
  drawnCuts = new WeakMap();
  parentCursor = 'auto';
  insideControl = false;
  parentPlain = false;
  const start = root instanceof Document ? null : root instanceof ShadowRoot ? root.host : root.parentElement;
  if (start) {
    parentCursor = getComputedStyle(start).cursor;
    for (let p: Element | null = start; p; p = p.parentElement) if (CONTROL_ROLES.has(roleOf(p))) insideControl = true;
  }
  modal = null;
  farCheck = true;
  env.far = undefined;
  const words = env.narrow && env.focus && env.budget ? focusWords(env.focus) : [];
  if (words.length && root instanceof Document && (document.body?.textContent?.length ?? 0) > FAR_TEXT * budgetChars(env.budget!)) {
    // The words are letters and digits only (focusWords): nothing in them needs escaping.
    env.far = { words: new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})`, 'u') };
  }
  let out: SnapNode[] = [];
  const owner = root instanceof Document ? root.documentElement : root instanceof ShadowRoot ? root.host : root;
  let sink = new TextSink(owner);
  if (root instanceof Element) walkElement(root, env, out, sink);
  else walkChildren(root, env, out, sink);
  sink.flush(out);
  // A modal dialog makes the rest of the page inert: Chrome's tree then holds only the dialog, and a person can reach nothing else.
  const open: Element | null = modal;
  if (open) {
    out = [];
    sink = new TextSink(open);
    walkElement(open, env, out, sink);
    sink.flush(out);
  }
  markTies(out);
  return out;
}

/**
 * A custom element's role from its ElementInternals (Material's <md-radio>, <md-primary-tab>),
 * which no attribute shows: Chrome's own computedRole, where the launcher turned it on
 * (ComputedAccessibilityInfo). Asked only of focusable custom elements (a roving tabindex=-1 too) with no role attribute,
 * since the first question builds the page's accessibility tree.
 */
function internalsRole(el: Element): string {
  if (el.hasAttribute('role') || ((el as HTMLElement).tabIndex < 0 && !el.hasAttribute('tabindex'))) return '';
  const r = (el as { computedRole?: unknown }).computedRole;
  return typeof r === 'string' && CONTROL_ROLES.has(r) ? r : '';
}

/** How components keep their own control out of sight over what they draw. */
const COMPONENT_HIDES = new Set(['transparent (opacity)', 'clip hides it']);
const TEXT_FIELD_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'number', 'password', '']);

/** Roles that group controls and keep their meaning with display: contents, as in Chrome's tree. */
const BOXLESS_GROUPS = new Set(['radiogroup', 'group', 'tablist', 'toolbar', 'list', 'navigation']);

/** The last modal <dialog> the walk met (showModal): the top one, which leaves everything else inert. */
let modal: Element | null = null;

/**
 * Targets that share their role and name with another target ("Subscribe" at the top and in the
 * footer): the finaliser says where each lies when it is outside the viewport, so a model can
 * prefer the one a person sees. Only these lines pay for it, in tokens and in a layout read.
 */
let ties = new WeakMap<SnapNode, SnapNode[]>();
/**
 * Larger groups are controls repeated per item (each row's "Edit", each card's "Read more"): the
 * item they sit in tells them apart, and marking them all would cost a state and a layout read
 * each on the biggest pages.
 */
const TIE_MAX = 4;

function markTies(nodes: SnapNode[]): void {
  ties = new WeakMap();
  const groups = new Map<string, SnapNode[]>();
  const visit = (n: SnapNode): void => {
    if (n.kind === 'element' && n.id && n.name && n.el && (INTERACTIVE.has(n.role ?? '') || /\bclickable\b/.test(n.states ?? ''))) {
      const key = `${n.role}\u0000${simple(n.name)}`;
      const g = groups.get(key);
      if (g) g.push(n);
      else groups.set(key, [n]);
    }
    for (const c of n.children) visit(c);
  };
  for (const n of nodes) visit(n);
  for (const g of groups.values()) if (g.length > 1 && g.length <= TIE_MAX) for (const n of g) ties.set(n, g);
}

function walkChildren(parent: Node, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  if (env.budget && (parent as ParentNode).childElementCount >= LONG_RUN) return walkLongRun(parent as ParentNode & Node, env, out, sink);
  for (let c = parent.firstChild; c; c = c.nextSibling) walkNode(c, env, out, sink);
}

/** Siblings of one tag, at least this many, are a long list: read as far as the budget can print. */
const LONG_RUN = 50;
/** Attributes that name an element's parts (read with its text to find what an instruction names). */
const NAMING_ATTRS = ['aria-label', 'title', 'alt', 'placeholder', 'value'];
const NAMED_PARTS = NAMING_ATTRS.map((a) => `[${a}]`).join(',');

/** An element's text and the naming attributes of it and its parts, in lower case. */
function namingText(el: Element): string {
  let t = el.textContent ?? '';
  for (const e of [el, ...Array.from(el.querySelectorAll(NAMED_PARTS))]) {
    for (const a of NAMING_ATTRS) {
      const v = e.getAttribute(a);
      if (v) t += ` ${v}`;
    }
  }
  return t.toLowerCase();
}

/**
 * A long list (a table's 5,000 rows) printed within a budget shows its first items, the ones
 * the instruction names, and its last one: folding (render.ts) keeps no others. So only those
 * are read; the rest stand in as unread items, counted and measured like the ones read, never
 * printed. Reading stops once the items read fill the budget, so whatever folding keeps at
 * the head has been read. The items named are found in their text and naming attributes by
 * the words that pick out a few (as render's pinning weighs them), a superset of the ones
 * pinned. Lists whose items are not one line each of one role are read whole.
 */
function walkLongRun(parent: ParentNode & Node, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  const kids = parent.children;
  // The tag of the middle child: headers and footers sit at the ends.
  const tag = kids[kids.length >> 1].localName;
  let like = 0;
  let last: Element | null = null;
  for (let i = 0; i < kids.length; i++) {
    if (kids[i].localName !== tag) continue;
    like++;
    last = kids[i];
  }
  if (like < LONG_RUN) {
    for (let c = parent.firstChild; c; c = c.nextSibling) walkNode(c, env, out, sink);
    return;
  }
  const limit = budgetChars(env.budget!);
  let used = 0;
  let role: string | null = null;
  /** Items that may be left unread: set once the head fills the budget. */
  let named: Set<Element> | null = null;
  let wholly = false; // an item that is not one line of the list's role: read everything
  for (let c = parent.firstChild; c; c = c.nextSibling) {
    const item = c.nodeType === 1 && (c as Element).localName === tag;
    if (item && named && !wholly && c !== last && !named.has(c as Element)) {
      out.push({ kind: 'element', role: role!, children: [], unread: true });
      continue;
    }
    const before = out.length;
    walkNode(c, env, out, sink);
    if (!item || named || wholly) continue;
    const made = out.length - before;
    if (made === 0) continue; // hidden
    const n = out[before];
    if (made > 1 || n.kind !== 'element' || !n.role || !REPEATABLE_ROLES.has(n.role) || (role !== null && n.role !== role)) {
      wholly = true;
      continue;
    }
    role = n.role;
    used += printedSize(n, env.budget!);
    if (used > limit) named = namedItems(kids, tag, env.focus);
  }
}

/** Items of the list with a word of the instruction that picks out a few of them. */
function namedItems(kids: HTMLCollection, tag: string, focus: string | undefined): Set<Element> {
  const out = new Set<Element>();
  const want = focus ? focusWords(focus) : [];
  if (!want.length) return out;
  const items: Element[] = [];
  const texts: string[] = [];
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k.localName !== tag) continue;
    items.push(k);
    texts.push(namingText(k));
  }
  const telling = want.filter((w) =>
    picksOut(
      texts.reduce((df, t) => df + (t.includes(w) ? 1 : 0), 0),
      items.length,
    ),
  );
  items.forEach((k, i) => {
    if (telling.some((w) => texts[i].includes(w))) out.add(k);
  });
  return out;
}

function walkNode(n: Node, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  if (n.nodeType === 3) {
    // Slotted text takes its style from the slot it renders in.
    sink.push(n.nodeValue ?? '', (n as Text).assignedSlot ?? n.parentElement);
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
  // A closed <details> renders its summary only: text directly inside it is as hidden as its elements.
  if (el.localName === 'details' && !(el as HTMLDetailsElement).open) {
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) walkElement(c as Element, env, out, sink);
    return;
  }
  walkChildren(el, env, out, sink);
}

function walkElement(el: Element, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  const savedCursor = parentCursor;
  const savedInside = insideControl;
  const savedPlain = parentPlain;
  const savedFar = farCheck;
  try {
    if (env.far && farCheck && walkFar(el, env, out, sink)) return;
    walkElementIn(el, env, out, sink);
  } finally {
    parentCursor = savedCursor;
    insideControl = savedInside;
    parentPlain = savedPlain;
    farCheck = savedFar;
  }
}

/** Pages with this many times the budget's characters of text have blocks far away left unread by an act's view. */
const FAR_TEXT = 3;
/** How far, in viewport heights, a block must lie from the viewport to be left unread. */
const FAR_VIEWPORTS = 4;
/** A block left unread holds at least this much text (never a small or empty root a dialog could open in). */
const FAR_MIN_CHARS = 2000;
/** At most this many of an unread block's headings are read, to name it. */
const FAR_HEADINGS = 30;
/** Whether elements below the one being walked may still lie far away (false once one lies wholly near the viewport). */
let farCheck = true;

/**
 * On a page far over its budget, an act's view leaves out a block that lies wholly beyond
 * FAR_VIEWPORTS viewport heights and holds none of the instruction's words (in its text or its
 * parts' naming attributes): folding would leave it out anyway, and reading it is most of the
 * cost on a long document. It stands in as one line that measures its text and holds its
 * headings, so the fold names them ("lines below the viewport omitted (headings ...)"). A block
 * wholly near the viewport stops the checks below it. True when `el` was left unread.
 */
function walkFar(el: Element, env: WalkEnv, out: SnapNode[], sink: TextSink): boolean {
  if (el.childElementCount === 0 || INLINE_TAGS.has(el.localName)) return false;
  const r = el.getBoundingClientRect();
  const vh = window.innerHeight || 1;
  const distance = r.bottom < 0 ? r.bottom / vh : r.top > vh ? (r.top - vh) / vh : 0;
  if (Math.abs(distance) < FAR_VIEWPORTS) {
    // Wholly within reach: nothing inside lies far (positioned content aside, which folding handles as before).
    if (r.top >= -FAR_VIEWPORTS * vh && r.bottom <= (1 + FAR_VIEWPORTS) * vh) farCheck = false;
    return false;
  }
  const text = el.textContent ?? '';
  if (text.length < FAR_MIN_CHARS) return false;
  // A word's start is enough ("search" in "searching"): what a block may hold is over- rather than under-read.
  if (env.far!.words.test(namingText(el))) return false;
  sink.flush(out);
  const node: SnapNode = { kind: 'element', role: 'generic', children: [], far: text.length, offscreen: () => distance };
  // The headings are met out of their places: each asks the browser whether it renders at all (not this block's parent's plain style).
  parentPlain = false;
  for (const h of Array.from(el.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading]')).slice(0, FAR_HEADINGS)) {
    const hs = new TextSink(h);
    walkElement(h, env, node.children, hs);
    hs.flush(node.children);
  }
  out.push(node);
  return true;
}

function walkElementIn(el: Element, env: WalkEnv, out: SnapNode[], sink: TextSink): void {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag) || env.ignore.has(el)) return;
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert') || (el as HTMLElement).hidden === true) return;
  if (tag === 'br') {
    sink.push(' ');
    return;
  }
  if (tag === 'dialog' && (el as HTMLDialogElement).open && el.matches(':modal')) modal = el;
  let selfHidden = false;
  let noBox = false;
  let muted = false;
  let known: CSSStyleDeclaration | null = null;
  let display: string | null = null;
  if (parentPlain && el.namespaceURI === HTML_NS) {
    // Below a plain visible box, the element's own style decides, as checkVisibility would.
    known = getComputedStyle(el);
    display = known.display;
    if (display === 'none') return;
    if (display === 'contents')
      selfHidden = noBox = true; // no box, children render
    else if (known.visibility !== 'visible') {
      selfHidden = true;
      muted = true;
    }
  } else if (!el.checkVisibility({ visibilityProperty: true })) {
    if (el.checkVisibility()) {
      // visibility:hidden: its own text is hidden, but a child may be visible again.
      selfHidden = true;
      muted = true;
    } else if (tag === 'slot' || getComputedStyle(el).display === 'contents')
      selfHidden = noBox = true; // no box, children render
    else return;
  } else if (el.namespaceURI === SVG_NS && el.localName !== 'svg') {
    // Chrome's checkVisibility says true for an SVG shape or group whose display is none, and for what
    // SVG never draws where it stands (definitions, clip paths, masks): its tag and its own style decide too.
    if (SVG_NEVER_DRAWN.has(el.localName)) return;
    known = getComputedStyle(el);
    display = known.display;
    if (display === 'none') return;
    if (known.visibility !== 'visible') selfHidden = muted = true;
  }
  // Only an element with element children passes anything on (one more style read, so only then).
  parentPlain =
    el.firstElementChild !== null && PLAIN_PARENTS.has(tag) && el.namespaceURI === HTML_NS && (known ?? getComputedStyle(el)).contentVisibility !== 'hidden';
  if (muted) {
    sink.flush(out);
    walkComposedChildren(el, env, out, new TextSink(el));
    return;
  }

  let role = selfHidden ? 'generic' : roleOf(el);
  if (!selfHidden && (role === '' || role === 'generic') && tag.includes('-')) role = internalsRole(el) || role;
  // A group with no box of its own (a fieldset in a shadow root laid out with display: contents) is still the group Chrome names.
  if (noBox && BOXLESS_GROUPS.has(roleOf(el))) role = roleOf(el);
  // A picture drawn in SVG with a name of its own is an image, as Chrome says; inside a control it is part of the control's name.
  if (tag === 'svg' && !el.hasAttribute('role') && !insideControl && el.namespaceURI === SVG_NS && svgNamed(el)) role = 'img';
  const style = selfHidden ? null : (known ?? getComputedStyle(el));
  // Children compare their cursor with this one; a control's insides are part of it.
  const cursor = style ? style.cursor : parentCursor;
  const inline = INLINE_TAGS.has(tag);
  // A span laid out as a box of its own (a flex or grid item, inline-block, block) is a separate
  // piece of text, as in innerText and Chrome's names: "Linus" "Re: patch", not "LinusRe: patch".
  // One more read of the style already computed; plain inline runs (<b>Hel</b>lo) stay joined.
  const boxed = inline && !!style && separateBox(display ?? style.display);
  if (boxed) boxedSpans.add(el);
  const pointer = !selfHidden && !CONTROL_ROLES.has(role) && takesPointer(el, env, cursor);
  // A scrolling region is focusable for the keyboard's sake, not because it takes clicks.
  const clickable = pointer && !LINE_ROLES.has(role) && !(cursor !== 'pointer' && !env.listened?.has(el) && isScrollable(el));
  parentCursor = cursor;
  if (CONTROL_ROLES.has(role)) insideControl = true;
  if (clickable) {
    // Spans, divs, cells and shapes that take clicks get their own line and id, like a button.
    if (!CELL_ROLES.has(role)) role = 'clickable';
    sink.flush(out);
    const node: SnapNode = {
      kind: 'element',
      role,
      children: [],
      id: `${env.idPrefix}e${idFor(el)}`,
      offscreen: offscreenOf(el),
      el,
      states: role === 'clickable' ? '' : 'clickable',
    };
    clickables.add(el);
    // Shapes are told apart by size and colour ("the small yellow circle", "a red digit").
    if (el.namespaceURI === SVG_NS && el.localName !== 'svg') {
      const box = el.getBoundingClientRect();
      const fill = colourName(getComputedStyle(el).fill);
      const sized = drawnSize(el, drawnCuts);
      const size = `size=${Math.round(box.width)}x${Math.round(box.height)}${sized ? ` drawn=${sized}` : ''}`;
      node.states = `${node.states ? `${node.states} ` : ''}${size}${fill ? ` fill=${fill}` : ''}`;
    }
    if (!SKIP_CHILDREN.has(tag)) {
      // Its inherited pointer cursor marks nothing new inside; a handle or a focusable part inside still does.
      const childSink = new TextSink(el);
      walkComposedChildren(el, env, node.children, childSink);
      childSink.flush(node.children);
    }
    // A clickable wrapper whose only content is one target is that target: one line.
    const only = node.children.length === 1 ? node.children[0] : null;
    if (only && only.kind === 'element' && only.id && (only.role === 'clickable' || CONTROL_ROLES.has(only.role ?? ''))) {
      out.push(only);
      return;
    }
    // A container that takes clicks (React's root, a docs wrapper, a card holding links) is named
    // by its own label only, as the accessibility tree names a generic: never by the text of
    // everything in it. After its children: the walk has marked which of its spans are boxes.
    node.container = isContainer(node);
    node.name = node.container ? ownLabel(el) : clickableName(el);
    pruneRepeatedText(node);
    out.push(node);
    return;
  }

  if (CELL_ROLES.has(role)) {
    // Cells fold into their row's line; only their meaningful descendants get lines.
    sink.push(' ');
    walkComposedChildren(el, env, out, sink);
    sink.push(' ');
    return;
  }

  if (!LINE_ROLES.has(role)) {
    const author = el.getAttribute('aria-label') || hasLabelledby(el) || (tag === 'fieldset' && el.querySelector(':scope > legend'));
    const scroll = !inline && !selfHidden && isScrollable(el);
    if (!(NAMED_ONLY.has(role) && author) && !scroll) {
      // A label's text is already its control's name (when the control is there): keep its children, drop its text.
      const control = tag === 'label' ? (el as HTMLLabelElement).control : null;
      if (control && control.checkVisibility()) {
        sink.flush(out);
        // Around its control, the label's text would come out as a line before it: dropped too,
        // unless the control is named otherwise (then the label is only text on screen).
        const inner: SnapNode[] = [];
        walkComposedChildren(el, env, inner, new TextSink(el));
        const named = control.hasAttribute('aria-label') || hasLabelledby(control);
        for (const c of inner) if (c.kind !== 'text' || named) out.push(c);
        return;
      }
      // A drawing of wordless pieces (coloured blocks, SVG shapes) is seen as a whole: one line that counts them.
      // (Not inside a control: its picture is part of it; a span only when laid out as a box.)
      const figure =
        (!inline || boxed) && !selfHidden && !insideControl && el.childElementCount >= 1
          ? drawnFigure(el, (k) => takesPointer(k, env, getComputedStyle(k).cursor))
          : '';
      if (figure) {
        sink.flush(out);
        const id = `${env.idPrefix}e${idFor(el)}`;
        out.push({ kind: 'element', role: 'figure', name: figure, nameFrom: 'inferred', id, children: [], offscreen: offscreenOf(el), final: true });
        return;
      }
      // Collapse: generic wrapper. Block wrappers end the current text line; a span that is a box
      // of its own is set apart by spaces.
      if (!inline) sink.flush(out);
      else if (boxed && !letterRun(el, el.previousSibling)) sink.push(' ');
      walkComposedChildren(el, env, out, sink);
      if (!inline) sink.flush(out);
      else if (boxed && !letterRun(el, el.nextSibling)) sink.push(' ');
      return;
    }
  }

  sink.flush(out);
  const node: SnapNode = { kind: 'element', role, children: [], id: `${env.idPrefix}e${idFor(el)}`, offscreen: offscreenOf(el), el };
  const plainName = namedByPlainText(el, role, env);
  const fromAuthorOnly = NAME_FROM_AUTHOR.has(role);
  if (role === 'row') {
    node.name = rowName(el, env);
  } else if (tag === 'fieldset' && !el.hasAttribute('aria-label') && !hasLabelledby(el)) {
    node.name = normalizeSpace(el.querySelector(':scope > legend')?.textContent ?? '');
  } else {
    const authored = el.hasAttribute('aria-label') || hasLabelledby(el) || isLabelable(el) || el.hasAttribute('aria-placeholder');
    node.name = fromAuthorOnly && !authored && role !== 'iframe' && tag !== 'table' && tag !== 'img' ? '' : plainName ? '' : nameOf(el, role, env);
  }
  let states = statesOf(el, role);
  // An item, row, image or heading with a click handler says so: it is a target, not only content.
  if (pointer) states = states ? `${states} clickable` : 'clickable';
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

  // A control named by its plain text holds nothing else: its text is its name (what it printed
  // would go again as repeated), and nothing inside takes input of its own (no listener was
  // found there; a cursor or tabindex inside a control marks nothing). A heading's parts can.
  if (!plainName || !CONTROL_ROLES.has(role)) {
    const childSink = new TextSink(el);
    walkComposedChildren(el, env, node.children, childSink);
    childSink.flush(node.children);
  }
  if (plainName) node.name = plainTextName(el) || nameOf(el, role, env);
  // An editable box's content is its value: not a second time as text.
  if ((role === 'textbox' || role === 'searchbox') && (el as HTMLElement).isContentEditable) node.children = node.children.filter((c) => c.kind !== 'text');
  pruneRepeatedText(node);
  if (role === 'listitem' || role === 'row' || role === 'option' || role === 'term' || role === 'definition' || role === 'alert' || role === 'status')
    absorbText(node);
  out.push(node);
}

/** Elements whose content is not separate text (an SVG shape's insides, an image). */
const SKIP_CHILDREN = new Set(['img', 'input', 'select', 'textarea', 'svg:image']);

/** Longest name a clickable element takes from its text; a card's whole text is not a name. */
const CLICKABLE_NAME_MAX = 100;

/** Text lines past which a clickable element is a container of content, not a target named by it. */
const CONTAINER_TEXT_LINES = 3;
const CONTAINER_TEXT_CHARS = 300;

/** Whether a clickable's walked content holds other lines (targets, headings, items) or more text than a name. */
function isContainer(node: SnapNode): boolean {
  let lines = 0;
  let chars = 0;
  for (const c of node.children) {
    if (c.kind !== 'text') return true;
    lines++;
    chars += c.text?.length ?? 0;
  }
  return lines > CONTAINER_TEXT_LINES || chars > CONTAINER_TEXT_CHARS;
}

const ownLabel = (el: Element): string => normalizeSpace(el.getAttribute('aria-label') || el.getAttribute('title') || '');

/** A clickable element's name while walking: its text, cut (the finaliser keeps the visible part). */
function clickableName(el: Element): string {
  const own = ownLabel(el);
  if (own) return own;
  const out: string[] = [];
  spacedText(el, out, { left: CLICKABLE_NAME_MAX * 2 });
  const text = normalizeSpace(out.join(''));
  return text.length > CLICKABLE_NAME_MAX ? text.slice(0, CLICKABLE_NAME_MAX).trimEnd() + '…' : text;
}

/** Computed display values of boxes laid out as one run of text with their neighbours. */
const separateBox = (display: string): boolean => display !== 'inline' && display !== 'contents';

/**
 * textContent with a space between children that are separate boxes: blocks by tag, and the
 * spans this walk found laid out as boxes (boxedSpans). Stops once `budget.left` characters are in.
 */
function spacedText(el: Element, out: string[], budget: { left: number }): void {
  for (let c = el.firstChild; c && budget.left > 0; c = c.nextSibling) {
    if (c.nodeType === 3) {
      const v = c.nodeValue ?? '';
      out.push(v);
      budget.left -= v.length;
    } else if (c.nodeType === 1) {
      const e = c as Element;
      const t = e.localName;
      // (An SVG <title> is the shape's name, unlike the document's.)
      if (SKIP_TAGS.has(t) && !(t === 'title' && e.namespaceURI === SVG_NS)) continue;
      if (t === 'br') {
        out.push(' ');
        continue;
      }
      const apart = !INLINE_TAGS.has(t) || boxedSpans.has(e);
      if (apart) out.push(' ');
      spacedText(e, out, budget);
      if (apart) out.push(' ');
    }
  }
}

function isLabelable(el: Element): boolean {
  const t = el.localName;
  return t === 'input' || t === 'select' || t === 'textarea' || t === 'meter' || t === 'progress' || t === 'output';
}

/**
 * A row's name for measuring: about as long as the printed one, cheaply (one text read per row).
 * The finaliser writes the real name, the visible text of its cells joined by " | ", for the rows
 * that are printed; on a 5,000-row table most rows are only counted in a fold.
 */
function rowName(row: Element, env: WalkEnv): string {
  const sr = env.shadowRootOf(row);
  const cells = sr ? sr.childElementCount : row.childElementCount;
  const text = normalizeSpace((sr ?? row).textContent ?? '').slice(0, Math.max(1, cells) * 81);
  // Each separator at its full length: cells written with no space between them gain all three characters.
  return cells > 1 ? text + ' | '.repeat(cells - 1) : text;
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
    node.absorbed = texts[0];
    node.children = node.children.slice(1);
  }
}

// --- Finalising: what a sighted user can see, and names that say where they come from ---

/** Controls whose name is theirs to keep even when it is not on screen (an icon button's aria-label). */
const INTERACTIVE = new Set([
  'clickable',
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
]);
/** Images and frames: their name (alt, title) is never on screen, and is how people refer to them; kept, marked. */
const NAMED_OBJECTS = new Set(['img', 'iframe', 'scrollable']);
/**
 * Landmarks and containers: an author's aria-label or title for them is kept (marked, cut short),
 * since it is how people refer to a region; a name made of hidden page text is not.
 */
const LANDMARKS = new Set([
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'form',
  'dialog',
  'alertdialog',
  'region',
  'group',
  'section',
  'search',
  'complementary',
  'table',
  'grid',
  'treegrid',
  'list',
  'tablist',
  'tabpanel',
  'menu',
  'menubar',
  'toolbar',
  'tree',
  'radiogroup',
  'figure',
  'article',
  'progressbar',
  'meter',
]);
/** Landmark names that are not on screen are cut shorter still. */
const LANDMARK_NAME_MAX = 40;

/** Roles named by their content, whose visible content is the name. */
const CONTENT_NAMED = new Set([
  'clickable',
  'button',
  'link',
  'heading',
  'tab',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
  'checkbox',
  'radio',
  'switch',
  'cell',
  'columnheader',
  'rowheader',
  'gridcell',
  'tooltip',
  'term',
]);
/** Lines that say nothing without a name or content. */
const EMPTY_GOES = new Set([
  'heading',
  'listitem',
  'term',
  'definition',
  'row',
  'note',
  'paragraph',
  'generic',
  'blockquote',
  'status',
  'alert',
  'option',
  'list',
  'article',
  'figure',
]);
/** A name that is not text on screen is cut to this length: an injected 300-character label must not become a prompt. */
export const UNSEEN_NAME_MAX = 60;

/**
 * A name taken from content is at most this long: a link or button wrapping a whole card is
 * named by its first words, as a person would call it, and a name never costs a page's text.
 */
const CONTENT_NAME_MAX = 160;

const cut = (s: string, max = UNSEEN_NAME_MAX): string => (s.length > max ? s.slice(0, max).trimEnd() + '…' : s);
/** Names compared as a person reads them: case, spacing and punctuation aside. */
const simple = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

type NameSource =
  | { kind: 'content' | 'aria-label' | 'title' | 'alt' | 'placeholder' | 'value' | 'name' }
  | { kind: 'aria-labelledby' | 'label' | 'legend' | 'caption'; els: Element[] };

/** Where dom-accessibility-api took an element's name from (the accname order, simplified to what decides visibility). */
function nameSource(el: Element, role: string, labelsOf: (el: Element) => Element[]): NameSource {
  const tag = el.localName;
  if (role === 'iframe') return { kind: el.hasAttribute('title') ? 'title' : 'name' };
  const els = labelledbyRefs(el);
  if (els.length) return { kind: 'aria-labelledby', els };
  if (el.getAttribute('aria-label')?.trim()) return { kind: 'aria-label' };
  const labels = labelsOf(el);
  if (labels.length) return { kind: 'label', els: labels };
  const type = tag === 'input' ? (el as HTMLInputElement).type : '';
  if ((tag === 'img' || tag === 'area' || type === 'image') && el.hasAttribute('alt')) return { kind: 'alt' };
  if (tag === 'svg' && el.querySelector(':scope > title')) return { kind: 'title' };
  if (type === 'button' || type === 'submit' || type === 'reset') return { kind: 'value' };
  if (tag === 'fieldset') {
    const legend = el.querySelector(':scope > legend');
    if (legend) return { kind: 'legend', els: [legend] };
  }
  if (tag === 'table' || tag === 'figure') {
    const caption = el.querySelector(tag === 'table' ? ':scope > caption' : ':scope > figcaption');
    if (caption) return { kind: 'caption', els: [caption] };
  }
  if (CONTENT_NAMED.has(role)) return { kind: 'content' };
  if (el.getAttribute('title')?.trim()) return { kind: 'title' };
  if (el.hasAttribute('placeholder') || el.hasAttribute('aria-placeholder')) return { kind: 'placeholder' };
  return { kind: 'content' };
}

/** A name of one or two symbols, no letters or digits (or a lone x): a twisty, a close cross, a plus, a pencil. */
const GLYPH = /^(?:[^\p{L}\p{N}\s]{1,2}|[xX])$/u;
/** Text longer than this beside a glyph is content, not the label of what the glyph acts on. */
const GLYPH_TARGET_MAX = 40;
const NATIVE_TARGETS = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary']);

/**
 * The text a glyph control acts on: the only text in the nearest box around it (a tree row, a
 * chip), when that box holds no other control and that text is short. Null otherwise: with two
 * controls or two texts in the box, which goes with which is a guess.
 */
function glyphTarget(el: Element, vis: Visibility, shadowRootOf: ShadowRootOf): string | null {
  let box: Element | null = el.parentElement;
  while (box && !vis.separate(box)) box = box.parentElement;
  if (!box || box === document.body || box === document.documentElement || clickables.has(box) || CONTROL_ROLES.has(box.getAttribute('role') ?? ''))
    return null;
  let found: string | null = null;
  let elements = 0;
  const visit = (parent: Node): boolean => {
    const sr = parent instanceof Element ? shadowRootOf(parent) : null;
    for (let c = (sr ?? parent).firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) {
        const t = normalizeSpace(c.nodeValue ?? '');
        if (!t || !c.parentElement || !vis.textVisible(c.parentElement)) continue;
        if (found !== null || t.length > GLYPH_TARGET_MAX) return false;
        found = t;
      } else if (c.nodeType === 1) {
        const e = c as Element;
        if (e === el || SKIP_TAGS.has(e.localName) || vis.hidden(e)) continue;
        if (++elements > 30) return false;
        if (clickables.has(e) || NATIVE_TARGETS.has(e.localName) || CONTROL_ROLES.has(e.getAttribute('role') ?? '') || e.hasAttribute('contenteditable'))
          return false;
        if (!visit(e)) return false;
      }
    }
    return true;
  };
  return visit(box) ? found : null;
}

/** What a clickable element with no text looks like: its shape, colour, picture or class words. */
function looksLike(el: Element): string {
  if (SVG_SHAPE_TAGS.has(el.localName) && el.namespaceURI === SVG_NS) return svgShape(el);
  const style = getComputedStyle(el);
  const colour = colourName(style.backgroundColor);
  return normalizeSpace(`${colour} ${boxShape(el, style)} ${pictureWords(el, style)}`);
}

/** The words of an element's picture: its background image's (or replaced content's) file name, else its and its icon's class names. */
function pictureWords(el: Element, style = getComputedStyle(el)): string {
  return imageWords(style.backgroundImage) || imageWords(style.content) || classWords(el);
}

/** Roles whose nameless elements are named by their picture (an icon-only toolbar button or link). */
const NAMELESS_PICTURED = new Set(['button', 'link', 'menuitem', 'tab']);

function isNativeControl(el: Element): boolean {
  const t = el.localName;
  return (t === 'input' && (el as HTMLInputElement).type !== 'hidden') || t === 'select' || t === 'textarea';
}

/**
 * The finaliser for one snapshot: drops lines and text a sighted user cannot see
 * (visibility.ts decides), and settles each name:
 * - a name made of text (content, a label, aria-labelledby) is the part of that text on screen;
 * - a name a person cannot read (aria-label, title, alt, or text that is all hidden, like an
 *   icon button's "sr-only" label) is kept for controls, landmarks and images, marked
 *   `namefrom=...` and cut to UNSEEN_NAME_MAX characters; other elements lose it.
 */
export function finalizer(vis: Visibility, shadowRootOf: ShadowRootOf): Finalize {
  const done = new WeakMap<SnapNode, SnapNode | null>();
  const labelsOf = labelIndex();
  const names: NameOptions = { labelsOf };

  const fin: Finalize = (n) => {
    if (n.final || n.kind === 'summary' || n.kind === 'frame') return n;
    let out = done.get(n);
    if (out === undefined) {
      out = n.kind === 'text' ? finText(n) : finElement(n);
      done.set(n, out);
    }
    return out;
  };

  const finText = (n: SnapNode): SnapNode | null => {
    if (!n.parts) return { ...n, final: true };
    const { texts, from } = n.parts;
    const seen: string[] = [];
    const at: (Element | null)[] = [];
    for (let i = 0; i < texts.length; i++) {
      const e = from[i];
      if (!e || vis.textVisible(e)) (seen.push(texts[i]), at.push(e));
    }
    const text = seenText(seen, at);
    return text ? { kind: 'text', text, children: [], offscreen: n.offscreen, final: true } : null;
  };

  // Fields and selects inside a label show their values, which are part of its name.
  const visibleOf = (els: Element[], except: Element): string =>
    cut(normalizeSpace(els.map((e) => vis.visibleText(e, except, shadowRootOf, CONTENT_NAME_MAX * 2, true)).join(' ')), CONTENT_NAME_MAX);

  const settleName = (n: SnapNode, el: Element, role: string): { name: string; from?: string } => {
    const full = n.name ?? '';
    if (!full) return { name: '' };
    const keeps = INTERACTIVE.has(role) || NAMED_OBJECTS.has(role);
    const unseen = (from: string): { name: string; from?: string } => {
      // The whole name is read for instructions, wherever they sit: what comes before them is the
      // name (when it has words), and the line says something was withheld.
      const shown = (max: number) => {
        const clean = beforeInstructions(full);
        if (clean === full) return { name: cut(full, max), from };
        return { name: simple(clean) ? cut(clean, max) : WITHHELD_NAME, from: from + WITHHELD_FROM };
      };
      if (keeps) return shown(UNSEEN_NAME_MAX);
      if (LANDMARKS.has(role) && (from === 'aria-label' || from === 'title')) return shown(LANDMARK_NAME_MAX);
      return { name: '' };
    };
    const src = nameSource(el, role, labelsOf);
    switch (src.kind) {
      case 'content': {
        // The name with what a person cannot see left out: pictures by their alt, generated
        // content, field values and shadow content count, an "sr-only" part does not.
        const seen = cut(accessibleName(el, shadowRootOf, { ...names, shown: vis, role }), CONTENT_NAME_MAX);
        if (seen && simple(seen) === simple(full)) return { name: full };
        // Only a glyph shows (×, ⋮) and the name has words (an aria-label or alt inside): the words, marked.
        if (seen && (simple(seen) || !keeps || !simple(full))) return { name: seen };
        const title = normalizeSpace(el.getAttribute('title') ?? '');
        if (title && simple(title) === simple(full)) return unseen('title');
        const ph = el.getAttribute('placeholder');
        if (ph && simple(ph) === simple(full)) return { name: full };
        return unseen(vis.hasVisibleImage(el) ? 'alt' : el.querySelector('[aria-label]') ? 'aria-label' : 'hidden-text');
      }
      case 'aria-labelledby':
      case 'label':
      case 'legend':
      case 'caption': {
        const seen = cut(accessibleName(el, shadowRootOf, { ...names, shown: vis, role }), CONTENT_NAME_MAX);
        if (seen && simple(seen) === simple(full)) return { name: full };
        // Part of what aria-labelledby names is not on screen: it is the author's label all the
        // same, as an aria-label is, so a control keeps the browser's whole name, marked. Not
        // when it reads as instructions: then what shows is the name.
        // A glyph alone (⤓) is no name when the label has words.
        if (seen && (simple(seen) || !simple(full)) && !(src.kind === 'aria-labelledby' && keeps && !readsAsInstructions(full))) return { name: seen };
        return unseen(src.kind === 'aria-labelledby' ? 'aria-labelledby' : 'hidden-text');
      }
      case 'placeholder':
        // A field named by its placeholder only, as Chrome names it; marked, since a hint ("you@example.com") is not a label.
        return vis.textVisible(el) ? { name: full, from: 'placeholder' } : unseen('hidden-text');
      case 'value':
        // An input button shows its value.
        return vis.textVisible(el) ? { name: full } : unseen('hidden-text');
      default: {
        // aria-label, title, alt, an iframe's name: attributes, on screen only if the same words are.
        const seen = cut(vis.visibleText(el, null, shadowRootOf, CONTENT_NAME_MAX * 2), CONTENT_NAME_MAX);
        const ph = el.getAttribute('placeholder');
        if ((seen && simple(seen) === simple(full)) || (ph && simple(ph) === simple(full))) return { name: full };
        const kept = unseen(src.kind);
        if (kept.name) return kept;
        // A heading keeps only what it shows.
        return { name: CONTENT_NAMED.has(role) ? seen : '' };
      }
    }
  };

  /**
   * A control a component keeps transparent over its own rendering: Material's outlined field
   * (the empty input waits at opacity 0 under its floating label), Ionic's select (a clear
   * button over the label and value it draws). A person sees the component and clicks there.
   * Only inside a component whose visible text says every word of the control's name, and only
   * an empty field or a button: a transparent value is hidden text, and a lone transparent
   * input (a honeypot) has no component around it.
   */
  const transparentInComponent = (el: Element, name: string): boolean => {
    const root = el.getRootNode();
    if (!(root instanceof ShadowRoot) || !name || !COMPONENT_HIDES.has(vis.hiddenReason(el) ?? '')) return false;
    const field = el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_FIELD_TYPES.has(el.type));
    if (!(field && (el as HTMLInputElement).value === '') && !(el instanceof HTMLButtonElement)) return false;
    const host = root.host;
    if (vis.hidden(host)) return false;
    const shown = new Set(simple(vis.visibleText(host, null, shadowRootOf, CONTENT_NAME_MAX * 2)).split(' '));
    // A name that reads "label, value" (Ionic's "Plan, Free") needs its label part shown.
    return simple(name.split(',')[0])
      .split(' ')
      .every((w) => shown.has(w));
  };

  const rowName = (row: Element): string => {
    const parts: string[] = [];
    const cells = shadowRootOf(row)?.children ?? row.children;
    for (const c of Array.from(cells)) parts.push(cut(vis.visibleText(c, null, shadowRootOf, 160), 80));
    return parts.join(' | ');
  };

  const finElement = (n: SnapNode): SnapNode | null => {
    const el = n.el;
    const children: SnapNode[] = [];
    if (!el) {
      for (const c of n.children) {
        const f = fin(c);
        if (f) children.push(f);
      }
      return { ...n, children, final: true };
    }
    // A native control hidden in favour of a styled stand-in is still there, by its visible label.
    if (vis.hidden(el) && !(isNativeControl(el) && visibleOf(labelsOf(el), el)) && !transparentInComponent(el, n.name ?? '')) return null;
    for (const c of n.children) {
      const f = fin(c);
      if (f?.unwrap) children.push(...f.children);
      else if (f) children.push(f);
    }
    const role = n.role ?? 'generic';
    let name: string;
    let from: string | undefined;
    let hue: number | null = null;
    if (role === 'row') name = rowName(el);
    else if (n.absorbed) name = fin(n.absorbed)?.text ?? '';
    else ({ name, from } = settleName(n, el, role));
    // A row's cells or an item's text past a name's length is content: it goes on a text line of its own.
    if ((role === 'row' || n.absorbed) && name.length > CONTENT_NAME_MAX) {
      children.unshift({ kind: 'text', text: name, children: [], final: true });
      name = '';
    }
    // A clickable icon, shape or swatch with no words of its own is named by what it looks like.
    // Not an element with words inside it: its class names say less than its text does.
    if (!name && !n.container && !children.some((c) => c.kind === 'text' || c.id)) {
      // A button or link Chrome names "" (a toolbar's icon-only `<button class="ql-bold">`): its picture's words only,
      // since its colour and shape are the browser's look, not the author's.
      if (role === 'clickable' || /\bclickable\b/.test(n.states ?? '')) {
        name = looksLike(el);
        // A swatch's hue, when its colour is no keyword: "a shade of red" is told by it, whatever its words ("pink").
        hue = el.namespaceURI === SVG_NS ? null : hueOf(getComputedStyle(el).backgroundColor);
      } else if (NAMELESS_PICTURED.has(role)) name = pictureWords(el);
      if (name) from = 'inferred';
    }
    let states = n.states ?? '';
    const add = (s: string): void => {
      states = states ? `${states} ${s}` : s;
    };
    if (hue !== null) add(`hue=${hue}`);
    // A tie a person can still see both sides of: where this one lies, when outside the viewport.
    const tie = ties.get(n);
    if (tie && n.offscreen && tie.some((o) => o !== n && o.el && !vis.hidden(o.el))) {
      const d = n.offscreen();
      if (d < 0) add('offscreen=above');
      else if (d > 0) add('offscreen=below');
      // Equal glyph-short names ("5" and "5") are told apart by size, as people do ("the large 5").
      if (name.length <= 3 && !/\bsize=/.test(states)) {
        const box = el.getBoundingClientRect();
        add(`size=${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    // A glyph (▸, ×, +) is a control for the one text beside it: say which ("▸" for "components").
    if (name && INTERACTIVE.has(role) && (from === undefined || from === 'inferred') && (GLYPH.test(name) || from === 'inferred')) {
      const target = glyphTarget(el, vis, shadowRootOf);
      if (target) add(`for=${quote(target, 40)}`);
    }
    // A title the name does not already say ("?" button titled "Help") is how people refer to a control.
    const title = normalizeSpace(el.getAttribute('title') ?? '');
    if (title && INTERACTIVE.has(role) && from !== 'title' && !name.includes(title)) {
      const clean = beforeInstructions(title);
      states = `${states ? `${states} ` : ''}title=${simple(clean) ? quote(clean, UNSEEN_NAME_MAX) : quote(WITHHELD_NAME)}`;
    }
    // The name says the placeholder already.
    if (from === 'placeholder') states = states.replace(/(^| )placeholder="(?:[^"\\]|\\.)*"/, '').trim();
    const out: SnapNode = { ...n, name, states, children, final: true };
    delete out.absorbed;
    if (from) out.nameFrom = from;
    else delete out.nameFrom;
    if (name) out.children = children.filter((c) => !(c.kind === 'text' && c.text && (c.text === name || name.includes(c.text))));
    if (!name && !out.children.length && EMPTY_GOES.has(role)) return null;
    // A region or group had a line for its name only; without one, its content stands in its place.
    if (!name && NAMED_ONLY.has(role) && !states) out.unwrap = true;
    return out;
  };

  return fin;
}
