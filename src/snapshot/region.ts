/**
 * The part of the page an extraction read, found again from what it extracted: the smallest
 * element whose text holds every extracted value that is on the page. A cached extraction is
 * served while that part's visible text is what it was; a banner, a clock or a new
 * recommendation row elsewhere leaves it alone, while a changed price, a new row in the table
 * or another user's name inside it does not. With no value on the page, the part is the body.
 */
const squash = (s: string) => s.replace(/\s+/g, '').toLowerCase();

/** The deepest element under `root` whose text holds `v`, or null. Text content, for speed; the digest reads visible text. */
function deepest(root: Element, v: string): Element | null {
  if (!squash(root.textContent ?? '').includes(v)) return null;
  let at = root;
  for (;;) {
    const next = [...at.children].find((c) => squash(c.textContent ?? '').includes(v));
    if (!next) return at;
    at = next;
  }
}

export function regionText(values: string[]): { text: string; found: number } {
  const body = document.body ?? document.documentElement;
  const wanted = [...new Set(values.map(squash).filter((v) => v.length >= 2))].sort((a, b) => b.length - a.length).slice(0, 200);
  let region: Element | null = null;
  let found = 0;
  for (const v of wanted) {
    if (!region) {
      region = deepest(body, v);
      if (region) found++;
      continue;
    }
    let up: Element | null = region;
    while (up && !squash(up.textContent ?? '').includes(v)) up = up.parentElement;
    if (up) {
      region = up;
      found++;
    }
  }
  const el = region ?? body;
  const text = (el instanceof HTMLElement ? el.innerText : (el.textContent ?? '')).replace(/\s+/g, ' ').trim();
  return { text: text.slice(0, 1_000_000), found };
}
