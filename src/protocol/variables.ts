/**
 * Variables: values a caller names (`%password%`) so that a model never reads them. The
 * engine masks them in what the model reads and substitutes them in what it performs; the
 * Node client substitutes them in replayed actions. One implementation for both sides.
 */
import type { OutlineLine } from './model';

/** As a caller gives them: a value may be a string, a number or a boolean (filled in as its text). */
export type VariableValue = string | number | boolean;
export type Variables = Record<string, VariableValue | { value: VariableValue; description?: string }>;

export function normalizeVariables(v?: Variables): Record<string, { value: string; description?: string }> {
  const out: Record<string, { value: string; description?: string }> = {};
  for (const [k, val] of Object.entries(v ?? {})) {
    out[k] = typeof val === 'object' && val !== null ? { ...val, value: String(val.value) } : { value: String(val) };
  }
  return out;
}

/**
 * Variable values that appear in page text (a field the agent filled) are shown to the
 * model as their %name%: it never sees a value, in any request.
 */
export function maskValues(text: string, vars: Record<string, { value: string }>): string {
  let out = text;
  for (const [name, v] of Object.entries(vars)) {
    if (!v.value || v.value.length < 2) continue;
    out = out.split(v.value).join(`%${name}%`);
    const json = JSON.stringify(v.value).slice(1, -1); // as it appears inside a quoted outline value
    if (json !== v.value) out = out.split(json).join(`%${name}%`);
  }
  return out;
}

/** maskValues over the outline's lines, field by field, so the lines say what the prompt says. */
export function maskLines(lines: OutlineLine[], vars: Record<string, { value: string }>): OutlineLine[] {
  if (!Object.values(vars).some((v) => v.value && v.value.length >= 2)) return lines;
  const m = (s: string | undefined) => (s === undefined ? s : maskValues(s, vars));
  return lines.map((l) => {
    const out: OutlineLine = { ...l, states: Object.fromEntries(Object.entries(l.states).map(([k, v]) => [k, v === true ? v : maskValues(v, vars)])) };
    if (l.name !== undefined) out.name = m(l.name);
    if (l.text !== undefined) out.text = m(l.text);
    return out;
  });
}

/** The inverse, for data read back from the page. */
export function unmaskValues(value: unknown, vars: Record<string, { value: string }>): unknown {
  if (typeof value === 'string') return substitute([value], vars)[0];
  if (Array.isArray(value)) return value.map((v) => unmaskValues(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmaskValues(v, vars)]));
  return value;
}

export function substitute(args: string[], vars: Record<string, { value: string }>): string[] {
  return args.map((a) => a.replace(/%([A-Za-z0-9_-]+)%/g, (m, name: string) => (Object.hasOwn(vars, name) ? vars[name].value : m)));
}

/**
 * An action's arguments with the values in: as substitute, except a page tool's input (callTool's
 * second argument, JSON), whose strings take the values as strings, so a value with a quote in it
 * stays one string and never becomes JSON of its own.
 */
export function substituteArgs(method: string | undefined, args: string[], vars: Record<string, { value: string }>): string[] {
  if (method !== 'callTool' || args.length < 2) return substitute(args, vars);
  let input: unknown;
  try {
    input = JSON.parse(args[1]);
  } catch {
    return substitute(args, vars);
  }
  const fill = (v: unknown): unknown =>
    typeof v === 'string'
      ? substitute([v], vars)[0]
      : Array.isArray(v)
        ? v.map(fill)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
          : v;
  return [args[0], JSON.stringify(fill(input)), ...args.slice(2)];
}
