/**
 * A model's reply as the JSON it was asked for. Servers that cannot hold a model to a schema
 * (a plain-text or json_object reply) get answers wrapped in prose or code fences, or bent the
 * way small models bend JSON (single quotes, trailing commas, Python literals, a cut-off end):
 * the value is read out of the reply and repaired, then checked against the request's schema.
 */
import { Validator } from '@cfworker/json-schema';
import { jsonrepair } from 'jsonrepair';
import { clip } from '../protocol/text';

/** How much of a raw reply an error shows. */
export const REPLY_SHOWN_CHARS = 500;

/**
 * Where an answer may start: at a brace when the schema wants an object (every schema sent to a
 * provider does), so that prose such as "[e2] heading" is never taken for the answer.
 */
export const opensAnswer = (schema?: Record<string, unknown>): RegExp => (schema?.type === 'object' ? /\{/ : /[{[]/);

/** The first JSON value in `text` that can start the answer, from its opening bracket to the last closing one. */
function jsonSpan(text: string, opens: RegExp): string | null {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)(?:```|$)/.exec(text);
  const body = fenced && opens.test(fenced[1]) ? fenced[1] : text;
  const start = body.search(opens);
  if (start < 0) return null;
  const close = body[start] === '{' ? '}' : ']';
  const end = body.lastIndexOf(close);
  // No closing bracket: a reply cut off by its token budget; the repair closes what it can.
  return end > start ? body.slice(start, end + 1) : body.slice(start);
}

/** The value the reply holds (an object when `schema` wants one), or why none could be read. */
export function readJson(text: string, schema?: Record<string, unknown>): { value: unknown } | { problem: string } {
  const trimmed = text.trim();
  if (!trimmed) return { problem: 'the reply was empty' };
  try {
    return { value: JSON.parse(trimmed) };
  } catch {
    // read out and repaired below
  }
  const span = jsonSpan(trimmed, opensAnswer(schema));
  if (!span) return { problem: 'the reply holds no JSON object' };
  try {
    return { value: JSON.parse(jsonrepair(span)) };
  } catch (e) {
    return { problem: `the reply is not JSON (${(e as Error).message})` };
  }
}

/** Whether a JSON Schema lets a value be null. */
function nullable(schema: unknown): boolean {
  const s = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] } | undefined;
  if (!s || typeof s !== 'object') return false;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(nullable);
}

/**
 * `value` with each required property that may be null, and is missing, set to null. A strict
 * schema lists every property as required; a model not held to it leaves out the ones it has
 * nothing for, which means the same.
 */
export function withNulls(value: unknown, schema: Record<string, unknown>): unknown {
  if (!value || typeof value !== 'object') return value;
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  if (Array.isArray(value)) {
    const items = schema.items as Record<string, unknown> | undefined;
    return items && typeof items === 'object' ? value.map((v) => withNulls(v, items)) : value;
  }
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [k, sub] of Object.entries(props)) {
    if (k in out) out[k] = withNulls(out[k], sub);
    else if (Array.isArray(schema.required) && schema.required.includes(k) && nullable(sub)) out[k] = null;
  }
  return out;
}

const validators = new WeakMap<object, Validator>();

/** What in `value` does not fit `schema` (the first few problems), or null when it fits. */
export function schemaProblem(value: unknown, schema: Record<string, unknown>): string | null {
  let v = validators.get(schema);
  if (!v) {
    v = new Validator(schema as never, '7', false);
    validators.set(schema, v);
  }
  const r = v.validate(value);
  if (r.valid) return null;
  // The deepest errors say what is wrong; the wrappers above them only repeat it.
  const under = (o: { instanceLocation: string }, e: { instanceLocation: string }) =>
    o.instanceLocation !== e.instanceLocation && o.instanceLocation.startsWith(e.instanceLocation);
  const leaves = r.errors.filter((e) => !r.errors.some((o) => under(o, e)));
  return (leaves.length ? leaves : r.errors)
    .slice(0, 4)
    .map((e) => `${e.instanceLocation.replace(/^#\/?/, '') || 'answer'}: ${e.error}`)
    .join('; ');
}

/** The start of a raw reply, for an error that shows what the model said. */
export function replyExcerpt(text: string): string {
  return JSON.stringify(clip(text.trim(), REPLY_SHOWN_CHARS));
}
