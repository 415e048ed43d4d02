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

/** How deep and how large a JSON Schema a caller may send for extract (JSON nesting, values). */
export const SCHEMA_LIMITS = { depth: 64, values: 10_000 } as const;

/**
 * Why a caller's JSON Schema is too deep or too large, or null. Measured without recursion, so
 * a schema nested thousands of levels is refused here, before any recursive code (a serializer,
 * a validator, a model's prompt) meets it.
 */
export function schemaTooBig(v: unknown): string | null {
  const stack: [unknown, number][] = [[v, 1]];
  let values = 0;
  while (stack.length) {
    const [x, depth] = stack.pop()!;
    if (++values > SCHEMA_LIMITS.values) {
      return (
        `the schema has more than ${SCHEMA_LIMITS.values.toLocaleString('en-US')} values ` +
        `(keys' values and array items, counted through every level); at most ${SCHEMA_LIMITS.values.toLocaleString('en-US')} are allowed`
      );
    }
    if (x === null || typeof x !== 'object') continue;
    if (depth > SCHEMA_LIMITS.depth) {
      return (
        `the schema is nested more than ${SCHEMA_LIMITS.depth} levels deep (JSON objects and arrays inside one another); ` +
        `at most ${SCHEMA_LIMITS.depth} are allowed`
      );
    }
    for (const c of Object.values(x as object)) stack.push([c, depth + 1]);
  }
  return null;
}

/**
 * A caller's JSON Schema with its local references (`#/$defs/X`, `#/definitions/X`, as pydantic
 * and other generators write them) put in place, so that a model, a grammar and the URL fixing
 * all read one tree. A reference back into itself (a recursive type) stays a reference, with the
 * definitions it needs. Throws when the tree written out would pass SCHEMA_LIMITS.values.
 */
export function inlineSchemaRefs(schema: Record<string, unknown>): Record<string, unknown> {
  let values = 0;
  let kept = false;
  const target = (ref: string): unknown => {
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    const defs = m ? schema[m[1]] : undefined;
    const name = m ? decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~') : '';
    return defs && typeof defs === 'object' && Object.hasOwn(defs, name) ? (defs as Record<string, unknown>)[name] : undefined;
  };
  const walk = (s: unknown, open: readonly string[], names: boolean): unknown => {
    if (++values > SCHEMA_LIMITS.values) {
      throw new Error(`written out in full, the schema has more than ${SCHEMA_LIMITS.values.toLocaleString('en-US')} values`);
    }
    if (Array.isArray(s)) return s.map((x) => walk(x, open, false));
    if (s === null || typeof s !== 'object') return s;
    const o = s as Record<string, unknown>;
    // Under `properties` the keys are field names, which may be "$ref" themselves.
    const ref = !names && typeof o.$ref === 'string' ? o.$ref : undefined;
    const found = ref === undefined ? undefined : target(ref);
    if (ref !== undefined && (found === undefined || open.includes(ref))) kept = true;
    const entries = Object.entries(o).filter(([k]) => names || (k !== '$defs' && k !== 'definitions'));
    const out = Object.fromEntries(entries.map(([k, v]) => [k, walk(v, open, !names && (k === 'properties' || k === 'patternProperties'))]));
    if (ref === undefined || found === undefined || open.includes(ref)) return out;
    const { $ref: _ref, ...siblings } = out;
    const inlined = walk(found, [...open, ref], false);
    return Object.keys(siblings).length ? { ...(inlined as object), ...siblings } : inlined;
  };
  const out = walk(schema, [], false) as Record<string, unknown>;
  if (kept) for (const k of ['$defs', 'definitions'] as const) if (schema[k] !== undefined) out[k] = schema[k];
  return out;
}
