/**
 * Accessible names as Chrome computes them: the accname 1.2 algorithm with HTML-AAM's native
 * labels, over the composed tree (shadow roots and slots), as Chrome's accessibility tree does.
 *
 * Written here rather than taken from dom-accessibility-api, which the walker still uses for
 * roles: its name traversal reads light-DOM children only (no shadow roots: upstream
 * eps1lon/dom-accessibility-api#768, open since 2021), resolves aria-labelledby in the document
 * rather than the element's own tree, drops the hidden descendants of a hidden referenced node
 * (accname 2B says they count), ignores `aria-labeledby` and the values of controls embedded in
 * a label. None of that can be layered on top: the traversal itself is the part that differs.
 *
 * What a name may show a model (the parts on screen, instruction-like text) is decided later,
 * by the walker's finaliser; this file computes the name as the browser does.
 */
import { getRole } from 'dom-accessibility-api';
import { normalizeSpace, type ShadowRootOf } from './dom';
import { mayHaveGenerated } from './generated';

/** Roles whose name comes from their content (ARIA 1.2, and Chrome's own additions). */
const FROM_CONTENT = new Set([
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'gridcell',
  'heading',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'row',
  'rowheader',
  'switch',
  'tab',
  'tooltip',
  'treeitem',
  'sectionhead',
  'comment',
  'suggestion',
  'caption',
  'legend',
  'term',
  'clickable',
]);
const RANGE = new Set(['slider', 'spinbutton', 'scrollbar', 'progressbar', 'meter']);
const TEXT_INPUT = new Set(['', 'text', 'email', 'tel', 'url', 'search', 'password', 'number', 'date', 'time', 'datetime-local', 'month', 'week']);
/** Elements whose content never counts as text (scripts, styles, templates). */
const NO_TEXT = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);
const SVG = 'http://www.w3.org/2000/svg';
const NESTS = new Set(['treeitem', 'menuitem', 'option']);
const NESTED = new Set(['group', 'tree', 'menu', 'listbox', 'list', 'treeitem']);

/** What a person can see, when only the part of a name on screen is wanted (visibility.ts). */
export interface Shown {
  hidden(el: Element): boolean;
  textVisible(el: Element): boolean;
}

interface Ctx {
  /** With it, content a person cannot see is left out, as display:none is. */
  shown?: Shown;
  /** The root's role as the walker sees it (a clickable span is named by its content). */
  rootRole?: string;
  labelsOf?: (el: Element) => Element[];
  /** Characters a name from content reads at most: a card's whole text is not a name. */
  budget: { left: number };
  /** The element whose name is being computed (never its own embedded value). */
  root: Element;
  /** Inside an aria-labelledby traversal: labelledby is not followed again. */
  labelledby: boolean;
  /** Hidden content counts: the traversal started at a hidden node that aria-labelledby names. */
  hiddenOk: boolean;
  /** Below the root: content of any role counts, embedded controls give their value. */
  recursion: boolean;
  /** Elements on the current path, so a cycle of references ends. */
  path: Set<Element>;
}

export const roleOf = (el: Element): string => {
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit && explicit !== 'none' && explicit !== 'presentation') return explicit;
  return getRole(el) ?? '';
};

/** Hidden for accname: not rendered, visibility hidden or collapse, or aria-hidden. */
function hiddenSelf(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const s = getComputedStyle(el);
  return s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse';
}

/** Hidden itself or through an ancestor (a referenced node inside a hidden container). */
function hiddenDeep(el: Element): boolean {
  if (el.closest('[aria-hidden="true"]')) return true;
  return !el.checkVisibility({ visibilityProperty: true });
}

/** Whether the element names its labels by id (aria-labelledby, or the misspelling browsers honour). */
export const hasLabelledby = (el: Element): boolean => el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-labeledby');

/** The referenced elements of aria-labelledby (or the misspelling browsers honour), in the element's own tree. */
export function labelledbyRefs(el: Element): Element[] {
  const ids = (el.getAttribute('aria-labelledby') ?? el.getAttribute('aria-labeledby'))?.trim();
  if (!ids) return [];
  const root = el.getRootNode() as Document | ShadowRoot;
  if (typeof root.getElementById !== 'function') return [];
  return ids
    .split(/\s+/)
    .map((id) => root.getElementById(id))
    .filter((e): e is HTMLElement => !!e);
}

/** Text of a ::before or ::after: its quoted strings (the alternative after "/" when given); icon-font glyphs left out. */
export function pseudoText(el: Element, which: '::before' | '::after'): string {
  if (!mayHaveGenerated(el)) return '';
  const s = getComputedStyle(el, which);
  const content = s.content;
  if (!content || content === 'none' || content === 'normal' || s.display === 'none') return '';
  // Pictures (url(...)) have no words; "★" / "Starred" says its words after the slash.
  const bare = content.replace(/url\((?:"(?:[^"\\]|\\.)*"|'[^']*'|[^)]*)\)/g, '');
  const alt = /\/\s*((?:"(?:[^"\\]|\\.)*"\s*)+)$/.exec(bare);
  const strings = (alt ? alt[1] : bare).match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  // Private-use glyphs are icon-font pictures, not words (a model cannot read U+F1F8).
  const text = strings
    .map((q) => q.slice(1, -1).replace(/\\(.)/g, '$1'))
    .join('')
    .replace(/[\uE000-\uF8FF]/g, '');
  // A box of its own (a flex item, a block) is a separate word: "Contact ▾", not "Contact▾".
  return text && (s.display !== 'inline' || alt) ? ` ${text} ` : text;
}

/** Block-level boxes set their text apart, inline ones run on ("<b>Hel</b>lo" is "Hello"). */
function separates(el: Element): boolean {
  const d = getComputedStyle(el).display;
  return d !== 'inline' && d !== 'contents' && d !== 'none';
}

/** The value a control embedded in a label contributes (accname 2C). */
export function embeddedValue(el: Element, role: string): string | null {
  const tag = el.localName;
  if (role === 'textbox' || role === 'searchbox') {
    // A password never becomes part of a name.
    if (tag === 'input' && (el as HTMLInputElement).type === 'password') return '';
    if (tag === 'input' || tag === 'textarea') return (el as HTMLInputElement).value;
    return el.textContent ?? '';
  }
  if (role === 'combobox' || role === 'listbox') {
    if (tag === 'select') return Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.label || o.text).join(' ');
    if (tag === 'input') return (el as HTMLInputElement).value;
    const selected = el.querySelectorAll('[role="option"][aria-selected="true"]');
    if (selected.length) return Array.from(selected, (o) => o.textContent ?? '').join(' ');
    return role === 'combobox' ? (el.textContent ?? '') : '';
  }
  if (RANGE.has(role)) {
    const text = el.getAttribute('aria-valuetext');
    if (text) return text;
    const now = el.getAttribute('aria-valuenow');
    if (now) return now;
    if (tag === 'input' || tag === 'progress' || tag === 'meter') return String((el as HTMLInputElement).value ?? '');
    return '';
  }
  return null;
}

/** Children in the composed tree: a host's shadow root, a slot's assigned nodes (or its default content). */
function childrenOf(el: Element, shadowRootOf: ShadowRootOf): Node[] {
  const sr = shadowRootOf(el);
  if (sr) return Array.from(sr.childNodes);
  if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes();
    if (assigned.length) return assigned;
  }
  return Array.from(el.childNodes);
}

const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'progress', 'output']);

/** The controls of a shadow root that can take a label: the one there is inherits its host's. */
const INNER_CONTROLS = 'input:not([type=hidden]), button, select, textarea, [role=checkbox], [role=switch], [role=radio], [role=button]';

/**
 * A <label> labels a form-associated custom element (label.control is the host), and Chrome
 * names the one control inside its shadow root "" (<label><md-checkbox></md-checkbox> I accept
 * the terms</label>). That control is what a person ticks by the label: it takes the host's
 * labels (a deviation from Chrome, in the snapshot guide). Never for a root with more than one.
 */
export function hostLabels(el: Element, labelsOf: (el: Element) => Element[]): Element[] {
  const root = el.getRootNode();
  if (!(root instanceof ShadowRoot) || !el.matches(INNER_CONTROLS)) return [];
  const labels = labelsOf(root.host);
  if (!labels.length) return [];
  const controls = root.querySelectorAll(INNER_CONTROLS);
  return controls.length === 1 && controls[0] === el ? labels : [];
}

/**
 * The labels of each labelable element, read from an index built once per tree: element.labels
 * walks the whole document on each call, which costs a page of a thousand buttons a second.
 */
export function labelIndex(): (el: Element) => Element[] {
  const index = new Map<Node, Map<Element, Element[]>>();
  const lookup = (el: Element): Element[] => {
    // A custom element is labelable when it is form-associated: label.control says so.
    if (!LABELABLE.has(el.localName) && !el.localName.includes('-')) return [];
    const root = el.getRootNode();
    let of = index.get(root);
    if (!of) {
      of = new Map();
      for (const l of Array.from((root as Document | ShadowRoot).querySelectorAll('label'))) {
        const c = (l as HTMLLabelElement).control;
        if (c) (of.get(c) ?? of.set(c, []).get(c)!).push(l);
      }
      index.set(root, of);
    }
    return of.get(el) ?? [];
  };
  return (el) => {
    const own = lookup(el);
    return own.length || !(el.getRootNode() instanceof ShadowRoot) ? own : hostLabels(el, lookup);
  };
}

/** The labels of a labelable element, joined (HTML-AAM). */
function labelsText(el: Element, ctx: Ctx, shadowRootOf: ShadowRootOf): string {
  let labels = ctx.labelsOf ? ctx.labelsOf(el) : Array.from((el as HTMLInputElement).labels ?? []);
  if (!labels.length && !ctx.labelsOf) labels = hostLabels(el, (e) => Array.from((e as HTMLInputElement).labels ?? []));
  if (!labels.length) return '';
  const parts: string[] = [];
  for (const l of labels) {
    if (ctx.path.has(l)) continue;
    // An empty label is named by its title.
    parts.push(normalizeSpace(content(l, { ...ctx, recursion: true }, shadowRootOf)) || (ctx.shown ? '' : (l.getAttribute('title') ?? '')));
  }
  return normalizeSpace(parts.join(' '));
}

/** Name from content (accname 2F): pseudo-elements, then each child's text alternative. */
function content(el: Element, ctx: Ctx, shadowRootOf: ShadowRootOf): string {
  ctx.path.add(el);
  const shown = ctx.hiddenOk ? undefined : ctx.shown;
  const pseudo = !shown || shown.textVisible(el);
  try {
    // Below a reference that is not rendered there is no layout: no generated content, every
    // element a separate word, and text right inside a shadow root is not read (Chrome's reading).
    const unrendered = ctx.hiddenOk && ctx.labelledby;
    let out = pseudo && !unrendered ? pseudoText(el, '::before') : '';
    for (const c of childrenOf(el, shadowRootOf)) {
      if (ctx.budget.left <= 0) break;
      if (c.nodeType === 3) {
        const t = c.nodeValue ?? '';
        const parent = (c as Text).assignedSlot ?? c.parentElement ?? (c.parentNode as ShadowRoot | null)?.host ?? null;
        if (shown && parent && !shown.textVisible(parent)) continue;
        if (unrendered && !c.parentElement && !(c as Text).assignedSlot) continue;
        out += unrendered || !parent ? t : transformed(t, parent);
        ctx.budget.left -= t.length;
      } else if (c.nodeType === 1) {
        const e = c as Element;
        if (NO_TEXT.has(e.localName) || ctx.path.has(e) || (shown && shown.hidden(e))) continue;
        // A tree item or menu item is named by its own line, not by the items nested under it.
        if (NESTS.has(ctx.rootRole ?? roleOf(ctx.root)) && NESTED.has(roleOf(e))) continue;
        if (e.localName === 'br') {
          out += ' ';
          continue;
        }
        const part = alternative(e, { ...ctx, recursion: true }, shadowRootOf);
        // A slot's content is set apart, as Chrome does ("[ slotted ]").
        out += !unrendered && (e.namespaceURI === SVG || (!separates(e) && e.localName !== 'slot')) ? part : ` ${part} `;
      }
    }
    return out + (pseudo && !unrendered ? pseudoText(el, '::after') : '');
  } finally {
    ctx.path.delete(el);
  }
}

/** Text as it is rendered, in the case `text-transform` gives it (Chrome names "SAVE" for an upper-cased "Save"). */
function transformed(t: string, parent: Element): string {
  if (!/\p{L}/u.test(t)) return t;
  switch (getComputedStyle(parent).textTransform) {
    case 'uppercase':
      return t.toUpperCase();
    case 'lowercase':
      return t.toLowerCase();
    case 'capitalize':
      return t.replace(/(^|[^\p{L}\p{N}'’])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());
    default:
      return t;
  }
}

/** The native label of an element (accname 2E with HTML-AAM), or null when it has none. */
function hostLabel(el: Element, ctx: Ctx, shadowRootOf: ShadowRootOf): string | null {
  const tag = el.localName;
  if (el.namespaceURI === SVG) {
    // An SVG <title> is a tooltip: not on screen.
    if (ctx.shown) return null;
    const title = Array.from(el.children).find((c) => c.localName === 'title');
    return title ? normalizeSpace(title.textContent ?? '') || null : null;
  }
  if (tag === 'input') {
    const i = el as HTMLInputElement;
    const type = i.type;
    if (type === 'button' || type === 'submit' || type === 'reset') {
      if (i.hasAttribute('value')) return i.value;
      if (type !== 'button') return type === 'submit' ? 'Submit' : 'Reset';
      return labelsText(el, ctx, shadowRootOf) || null;
    }
    if (type === 'image') return el.getAttribute('alt') || el.getAttribute('value') || el.getAttribute('title') || 'Submit';
    return labelsText(el, ctx, shadowRootOf) || null;
  }
  if (tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress' || tag === 'output' || tag === 'button') {
    return labelsText(el, ctx, shadowRootOf) || null;
  }
  if (tag === 'img' || tag === 'area') return el.hasAttribute('alt') ? el.getAttribute('alt') : null;
  // A form-associated custom element is labelable (<label><md-radio></md-radio> Daily</label>).
  if (tag.includes('-') && ctx.labelsOf?.(el).length) return labelsText(el, ctx, shadowRootOf) || null;
  if (tag === 'fieldset' || tag === 'table' || tag === 'figure') {
    const sel = tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : 'figcaption';
    const cap = Array.from(el.children).find((c) => c.localName === sel);
    return cap ? normalizeSpace(content(cap, { ...ctx, recursion: true }, shadowRootOf)) || null : null;
  }
  if (tag === 'optgroup') return el.getAttribute('label');
  if (tag === 'option' && el.hasAttribute('label')) return el.getAttribute('label');
  if (tag === 'iframe' || tag === 'frame') return el.getAttribute('title');
  return null;
}

function alternative(el: Element, ctx: Ctx, shadowRootOf: ShadowRootOf): string {
  // 2A: hidden content counts only below a hidden node that aria-labelledby names.
  if (el !== ctx.root && !ctx.hiddenOk && hiddenSelf(el)) return '';
  // 2B: aria-labelledby, once per traversal.
  if (!ctx.labelledby) {
    const refs = labelledbyRefs(el).filter((r) => !ctx.path.has(r) || r === el);
    if (refs.length) {
      const parts = refs.map((r) => {
        const hidden = hiddenDeep(r);
        // Only what shows, when that is asked: a hidden reference is left out whole.
        if (ctx.shown && (hidden || ctx.shown.hidden(r))) return '';
        const sub: Ctx = { ...ctx, labelledby: true, hiddenOk: hidden, recursion: false, path: new Set(ctx.path) };
        // The element itself among its labels: its aria-label, else the value it holds (Chrome's reading).
        if (r === el) return r.getAttribute('aria-label')?.trim() || embeddedValue(r, roleOf(r)) || selfAlternative(r, sub, shadowRootOf);
        return referenced(r, sub, shadowRootOf);
      });
      const joined = normalizeSpace(parts.join(' '));
      if (joined) return joined;
    }
  }
  const role = el === ctx.root && ctx.rootRole ? ctx.rootRole : roleOf(el);
  // 2C: a control inside a label or content gives its value.
  if (ctx.recursion && el !== ctx.root) {
    const v = embeddedValue(el, role);
    if (v !== null) return v;
  }
  return selfAlternative(el, ctx, shadowRootOf, role);
}

/** A node aria-labelledby names: its own label, else its content whatever its role. */
function referenced(el: Element, ctx: Ctx, shadowRootOf: ShadowRootOf): string {
  const own = selfAlternative(el, ctx, shadowRootOf);
  return own || normalizeSpace(content(el, { ...ctx, recursion: true }, shadowRootOf));
}

/** Steps 2D to 2I for one element. */
function selfAlternative(el: Element, ctx: Ctx, shadowRootOf: ShadowRootOf, role = roleOf(el)): string {
  // 2D: aria-label.
  const label = el.getAttribute('aria-label')?.trim();
  if (label) return label;
  // 2E: the host language's own label.
  const host = hostLabel(el, ctx, shadowRootOf);
  if (host !== null && (host.trim() || el.localName === 'img' || el.localName === 'area')) return host;
  // 2F: content, for roles named by it and anything below the element being named.
  if (FROM_CONTENT.has(role) || ctx.recursion || (ctx.labelledby && el !== ctx.root)) {
    const text = normalizeSpace(content(el, ctx, shadowRootOf));
    if (text) return text;
  }
  // 2I: the tooltip (never on screen), then a field's placeholder.
  const title = el.getAttribute('title')?.trim();
  if (title && !ctx.shown) return title;
  if ((el.localName === 'input' && TEXT_INPUT.has((el as HTMLInputElement).type)) || el.localName === 'textarea') {
    const ph = el.getAttribute('placeholder')?.trim();
    if (ph) return ph;
  }
  return el.getAttribute('aria-placeholder')?.trim() ?? '';
}

/** Characters of content read for one name. */
const NAME_BUDGET = 2000;

/**
 * The accessible name of `el` as Chrome computes it, whitespace collapsed. With `shown`, the
 * part of it a person can see: content hidden from the eye (an "sr-only" span, a hidden
 * reference) is left out as if it were not rendered.
 */
export interface NameOptions {
  /** Only the part a person can see. */
  shown?: Shown;
  /** The element's role as the walker sees it. */
  role?: string;
  /** A label index (labelIndex()) shared by the names of one snapshot. */
  labelsOf?: (el: Element) => Element[];
}

export function accessibleName(el: Element, shadowRootOf: ShadowRootOf, opts: NameOptions = {}): string {
  const ctx: Ctx = {
    root: el,
    rootRole: opts.role,
    labelsOf: opts.labelsOf,
    shown: opts.shown,
    labelledby: false,
    hiddenOk: false,
    recursion: false,
    path: new Set([el]),
    budget: { left: NAME_BUDGET },
  };
  return normalizeSpace(alternative(el, ctx, shadowRootOf));
}
