/**
 * The options a custom select shows (a combobox or listbox built from elements, not <select>):
 * what `selectOption` on one reads before and after opening it. Options count when a person can
 * see them; `near` marks those the control itself owns (aria-controls, aria-owns, its own
 * content, or the component it is part of), so a list that pops up elsewhere in the page (a
 * popover appended to <body>) is told apart from one that was already open by what changed.
 */
import { composedParent, defaultShadowRootOf, normalizeSpace } from './dom';
import { deepQueryAll } from './resolve';
import { selectorFor } from './selector';
import { accessibleName } from './accname';
import type { Choices } from '../protocol/content-messages';
import { ends } from './snapshot-cache';

/** What a list of choices is made of: options, menu items, and radios (Ionic's select popover). */
const OPTION = 'option, [role=option], [role=menuitemradio], [role=menuitem], [role=radio]';

/** Elements an `aria-controls`/`aria-owns` of `el` names, in its own tree. */
function owned(el: Element): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  const ids = `${el.getAttribute('aria-controls') ?? ''} ${el.getAttribute('aria-owns') ?? ''}`.split(/\s+/).filter(Boolean);
  return ids.map((id) => root.getElementById(id)).filter((e): e is HTMLElement => !!e);
}

/** Every option inside `el` in the composed tree: its shadow root and what is slotted there. */
function optionsUnder(el: Element, out: Set<Element>): void {
  const sr = defaultShadowRootOf(el);
  for (const o of Array.from(el.querySelectorAll(OPTION))) out.add(o);
  if (el.matches(OPTION)) out.add(el);
  if (sr) for (const o of deepQueryAll(sr, OPTION, defaultShadowRootOf)) out.add(o);
  for (const slot of Array.from((sr ?? el).querySelectorAll('slot'))) {
    for (const n of (slot as HTMLSlotElement).assignedElements({ flatten: true })) optionsUnder(n, out);
  }
  for (const e of Array.from(el.querySelectorAll('*'))) {
    const inner = defaultShadowRootOf(e);
    if (inner) for (const o of deepQueryAll(inner, OPTION, defaultShadowRootOf)) out.add(o);
  }
}

function nearOptions(el: Element): Set<Element> {
  const out = new Set<Element>();
  for (const o of owned(el)) optionsUnder(o, out);
  optionsUnder(el, out);
  // The component the control is part of: the host of its shadow root (<sl-select> owns its
  // <sl-option>s). Not the hosts above it: an app built of components would make every option
  // on the page this control's; a list further away counts when it opens on the click.
  const root = el.getRootNode();
  if (root instanceof ShadowRoot) optionsUnder(root.host, out);
  return out;
}

const shows = (e: Element): boolean => e.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && e.getClientRects().length > 0;

const labelOf = (o: Element): string => normalizeSpace(accessibleName(o, defaultShadowRootOf) || (o.textContent ?? ''));

const isSelected = (o: Element): boolean =>
  o instanceof HTMLOptionElement ? o.selected : o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true';

/** What the control shows as its value: an input's value, its name and its text. */
function shownValue(el: Element): string {
  const parts = [el instanceof HTMLInputElement ? el.value : '', accessibleName(el, defaultShadowRootOf), (el as HTMLElement).innerText ?? ''];
  const host = el.getRootNode() instanceof ShadowRoot ? (el.getRootNode() as ShadowRoot).host : null;
  if (host) parts.push(String((host as unknown as { displayLabel?: string; displayText?: string }).displayLabel ?? ''));
  return normalizeSpace(parts.join(' | '));
}

/**
 * Whether the control or its options are in the middle of an animation that ends (a list
 * fading out): the trees along their flat-tree ancestors are asked, which holds the menu a
 * select's options are slotted into. A spinner that loops does not count.
 */
function settling(el: Element, options: Iterable<Element>): boolean {
  const roots = new Set<Document | ShadowRoot>();
  let n = 0;
  for (const start of [el, ...options]) {
    if (++n > 50) break;
    for (let e: Element | null = start; e; e = composedParent(e)) roots.add(e.getRootNode() as Document | ShadowRoot);
  }
  for (const r of roots) if (r.getAnimations().some(ends)) return true;
  return false;
}

export function choicesOf(el: Element): Choices {
  const near = nearOptions(el);
  const all = new Set<Element>([...near, ...deepQueryAll(document, OPTION, defaultShadowRootOf)]);
  const options: Choices['options'] = [];
  for (const o of all) {
    if (!shows(o)) continue;
    // An option inside another control's own list (a native select elsewhere) is not this control's.
    if (o instanceof HTMLOptionElement && !near.has(o)) continue;
    options.push({
      label: labelOf(o),
      value: o.getAttribute('value') ?? '',
      selected: isSelected(o),
      near: near.has(o),
      disabled: o.getAttribute('aria-disabled') === 'true' || o.hasAttribute('disabled'),
      selector: selectorFor(o, defaultShadowRootOf),
    });
  }
  return {
    native: el instanceof HTMLSelectElement,
    expanded: el.getAttribute('aria-expanded') === null ? null : el.getAttribute('aria-expanded') === 'true',
    shown: shownValue(el),
    self: selectorFor(el, defaultShadowRootOf),
    busy: settling(el, near),
    options,
  };
}
