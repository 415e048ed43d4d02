/**
 * Element ⇄ short id registry of one frame. An element keeps its id across
 * snapshots, so a model (or a cache) sees the same id for the same element.
 */
const idOf = new WeakMap<Element, number>();
const byId = new Map<number, WeakRef<Element>>();
let next = 1;

export function idFor(el: Element): number {
  let id = idOf.get(el);
  if (id === undefined) {
    id = next++;
    idOf.set(el, id);
    byId.set(id, new WeakRef(el));
    if (byId.size > 50_000 && id % 1000 === 0) prune();
  }
  return id;
}

export function elementFor(id: number): Element | null {
  const el = byId.get(id)?.deref();
  return el && el.isConnected ? el : null;
}

function prune(): void {
  for (const [id, ref] of byId) if (!ref.deref()?.isConnected) byId.delete(id);
}
