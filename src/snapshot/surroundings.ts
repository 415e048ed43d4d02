/**
 * An element's surroundings, as a replay checks them (engine/memory/targets.ts): what tells this
 * "Delete" button from the next one. The visible text of its row or list item (without its
 * own), else the label of its group (a fieldset's legend, a dialog's name), else the last
 * heading before it in the nearest enclosing part of the page that has one (a card, a form, a
 * section). Visible text only (innerText), so nothing a person cannot see is stored or compared.
 */
const UNIT = 'tr, li, [role="row"], [role="listitem"], [role="option"], [role="treeitem"]';
const GROUP = 'fieldset, dialog, [role="dialog"], [role="alertdialog"], form, section, [role="region"], [role="group"], [role="tabpanel"], table';
const HEADING = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
/** Past this, a row is not a row: its text would hold too much that changes on its own. */
const MAX_UNIT_CHARS = 400;
const MAX_CHARS = 200;

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const visibleText = (el: Element) => norm(el instanceof HTMLElement ? el.innerText : el.textContent);

function labelOf(el: Element): string {
  const aria = el.getAttribute('aria-label');
  if (aria) return norm(aria);
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const t = by
      .split(/\s+/)
      .map((id) => el.ownerDocument.getElementById(id))
      .filter((x): x is HTMLElement => !!x)
      .map((x) => visibleText(x))
      .join(' ');
    if (t) return norm(t);
  }
  // A legend or caption names only its own group, so they are read here, not as headings.
  const own = el.matches('fieldset') ? el.querySelector(':scope > legend') : el.matches('table') ? el.querySelector(':scope > caption') : null;
  if (own) return visibleText(own);
  return '';
}

export function surroundings(el: Element): string {
  const own = visibleText(el);
  const doc = el.ownerDocument;
  for (let a = el.parentElement; a && a !== doc.body && a !== doc.documentElement; a = a.parentElement) {
    if (a.matches(UNIT)) {
      let text = visibleText(a);
      if (text.length <= MAX_UNIT_CHARS) {
        if (own) text = norm(text.replace(own, ' '));
        if (text) return text.slice(0, MAX_CHARS);
      }
    }
    if (a.matches(GROUP)) {
      const label = labelOf(a);
      if (label) return label.slice(0, MAX_CHARS);
    }
    // The last heading before the element, in the nearest part of the page that has one.
    let last = '';
    for (const h of a.querySelectorAll(HEADING)) {
      if (h === el || h.contains(el)) continue;
      if (!(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
      last = visibleText(h) || last;
    }
    if (last) return last.slice(0, MAX_CHARS);
  }
  return '';
}
