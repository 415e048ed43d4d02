/** Why a value cannot travel as JSON, or null when it can. */
export function notJson(v: unknown, path = 'result', seen = new Set<unknown>()): string | null {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${path} is ${v}`;
  if (typeof v === 'undefined') return `${path} is undefined`;
  if (typeof v !== 'object') return `${path} is a ${typeof v}`;
  if (seen.has(v)) return `${path} refers back to itself`;
  seen.add(v);
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) {
      const p = notJson(x, `${path}[${i}]`, seen);
      if (p) return p;
    }
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `${path} is a ${(v as object).constructor?.name ?? 'non-plain object'}`;
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue; // JSON drops undefined properties, as JSON.stringify does
      const p = notJson(x, `${path}.${k}`, seen);
      if (p) return p;
    }
  }
  seen.delete(v);
  return null;
}
