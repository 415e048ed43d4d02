/**
 * The local model's extraction: labelled values for object schemas, rows of a
 * table, list or repeated cards for array schemas, the best-matching text when
 * there is no schema. Values are converted to the schema's types.
 */
import { optionsOf, textOf, type OutlineNode } from './outline';
import { normalize, parseBoolean, parseNumber, similarity, words } from './text';
import { Refusal } from './act';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  description?: string;
  title?: string;
  enum?: unknown[];
  required?: string[];
};

const typeOf = (s: Schema | undefined): string => (Array.isArray(s?.type) ? (s!.type.find((t) => t !== 'null') ?? 'string') : (s?.type ?? 'string'));

/** "firstName" / "first_name" → "first name". */
const keyWords = (key: string, s?: Schema) => `${key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ')} ${s?.title ?? ''}`.trim();

export function convert(raw: string | boolean | undefined, schema: Schema | undefined): unknown {
  if (raw === undefined) return null;
  const t = typeOf(schema);
  if (t === 'number' || t === 'integer') {
    const n = typeof raw === 'boolean' ? Number(raw) : parseNumber(raw);
    return n === null ? null : t === 'integer' ? Math.round(n) : n;
  }
  if (t === 'boolean') return parseBoolean(raw);
  const s = typeof raw === 'boolean' ? String(raw) : raw;
  if (schema?.enum) return schema.enum.find((e) => typeof e === 'string' && normalize(e) === normalize(s)) ?? s;
  return s;
}

/** Label → value pairs visible on the page: form fields, "Label: value" lines, terms and definitions, two-cell rows. */
export function labelledValues(nodes: OutlineNode[]): { label: string; value: string | boolean; node: OutlineNode }[] {
  const out: { label: string; value: string | boolean; node: OutlineNode }[] = [];
  for (const [i, n] of nodes.entries()) {
    if (n.id && (n.role === 'checkbox' || n.role === 'switch' || n.role === 'radio')) out.push({ label: n.name, value: n.states.checked === true, node: n });
    else if (n.id && typeof n.states.value === 'string' && n.name) out.push({ label: n.name, value: n.states.value, node: n });
    else if (['text', 'listitem', 'paragraph', 'status', 'alert', 'note', 'log', 'definition'].includes(n.role)) {
      const m = /^([^:]{1,60}):\s*(.+)$/.exec(n.name);
      if (m) out.push({ label: m[1], value: m[2], node: n });
    }
    if (n.role === 'term') {
      const next = nodes[i + 1];
      if (next && next.role === 'definition') out.push({ label: n.name, value: next.name, node: next });
    }
    if (n.role === 'row') {
      // "Total | | $84.50": a label and one value, whatever empty cells lie between.
      const cells = n.name
        .split(' | ')
        .map((c) => c.trim())
        .filter(Boolean);
      if (cells.length === 2) out.push({ label: cells[0], value: cells[1], node: n });
    }
    // A text line followed by a text line: "Total" / "$12.00" as separate blocks.
    if (n.role === 'text' && n.name.length <= 40 && !n.name.includes(':')) {
      const next = nodes[i + 1];
      if (next && next.role === 'text' && next.depth === n.depth && next.name.length <= 80) out.push({ label: n.name, value: next.name, node: next });
    }
  }
  return out;
}

function fillObject(schema: Schema, nodes: OutlineNode[], required: boolean): { value: Record<string, unknown>; score: number; missing: string[] } {
  const pairs = labelledValues(nodes);
  const value: Record<string, unknown> = {};
  const missing: string[] = [];
  let total = 0;
  const props = schema.properties ?? {};
  for (const [key, ps] of Object.entries(props)) {
    const t = typeOf(ps);
    if (t === 'array') {
      const list = fillArray(ps.items ?? { type: 'string' }, nodes, keyWords(key, ps));
      value[key] = list?.items ?? [];
      if (list) total += list.score;
      else missing.push(key);
      continue;
    }
    const kw = `${keyWords(key, ps)} ${ps.description ?? ''}`;
    let best: { v: string | boolean; s: number } | null = null;
    for (const p of pairs) {
      const s = Math.max(similarity(keyWords(key, ps), p.label), 0.9 * similarity(kw, p.label));
      if (s > (best?.s ?? 0.5)) best = { v: p.value, s };
    }
    if (!best && /title|heading|headline/i.test(key)) {
      const h = nodes.find((n) => n.role === 'heading');
      if (h) best = { v: h.name, s: 0.8 };
    }
    if (!best && /^(url|link|href)$/i.test(key)) {
      const l = nodes.find((n) => n.role === 'link' && typeof n.states.href === 'string');
      if (l) best = { v: String(l.states.href), s: 0.6 };
    }
    if (best) {
      value[key] = convert(best.v, ps);
      total += best.s;
    } else {
      value[key] = null;
      // A value the schema cannot hold as null is missing: the local model refuses rather than invent one.
      const nullable = Array.isArray(ps.type) && ps.type.includes('null');
      if (required || (schema.required ?? []).includes(key) || !nullable) missing.push(key);
    }
  }
  return { value, score: total / Math.max(1, Object.keys(props).length), missing };
}

interface Table {
  headers: string[];
  rows: { cells: string[]; node: OutlineNode }[];
}

function tablesOf(nodes: OutlineNode[]): Table[] {
  const out: Table[] = [];
  for (const n of nodes) {
    if (n.role !== 'table' && n.role !== 'grid' && n.role !== 'treegrid') continue;
    const rows: OutlineNode[] = [];
    const walk = (c: OutlineNode) => (c.role === 'row' ? rows.push(c) : c.children.forEach(walk));
    n.children.forEach(walk);
    if (rows.length < 2) continue;
    out.push({ headers: rows[0].name.split(' | '), rows: rows.slice(1).map((r) => ({ cells: r.name.split(' | '), node: r })) });
  }
  return out;
}

/** Items of a list, table or repeated cards for an array schema. */
function fillArray(items: Schema, nodes: OutlineNode[], hint: string): { items: unknown[]; score: number } | null {
  const itemType = typeOf(items);
  const props = Object.entries(items.properties ?? {});
  let best: { items: unknown[]; score: number } | null = null;
  const consider = (c: { items: unknown[]; score: number }) => {
    if (c.items.length && c.score > (best?.score ?? 0.3)) best = c;
  };
  for (const t of tablesOf(nodes)) {
    if (itemType === 'object') {
      const cols = props.map(([k, ps]) => {
        let bi = -1;
        let bs = 0.5;
        t.headers.forEach((h, i) => {
          const s = similarity(keyWords(k, ps), h);
          if (s > bs) {
            bs = s;
            bi = i;
          }
        });
        return { k, ps, i: bi, s: bi >= 0 ? bs : 0 };
      });
      const score = cols.reduce((a, c) => a + c.s, 0) / Math.max(1, cols.length);
      const rows = t.rows.map((r) => Object.fromEntries(cols.map((c) => [c.k, c.i >= 0 ? convert(r.cells[c.i], c.ps) : fromRowChildren(r.node, c.k, c.ps)])));
      consider({ items: rows, score });
    } else {
      consider({ items: t.rows.map((r) => convert(r.cells.join(' | '), items)), score: 0.5 + 0.3 * similarity(hint, t.headers.join(' ')) });
    }
  }
  // Lists and repeated cards: siblings of one role under one parent.
  const groups = new Map<OutlineNode | null, OutlineNode[]>();
  for (const n of nodes) {
    if (!['listitem', 'article', 'link', 'group', 'region', 'option'].includes(n.role)) continue;
    const g = groups.get(n.parent) ?? [];
    if (!g.length || g[0].role === n.role) g.push(n);
    groups.set(n.parent, g);
  }
  for (const [parent, g] of groups) {
    if (g.length < 2) continue;
    const near = parent ? 0.2 * similarity(hint, `${parent.name} ${parent.parent?.name ?? ''} ${precedingHeading(parent, nodes)}`) : 0;
    if (itemType === 'object') {
      const rows = g.map((item) => {
        const sub = flatten(item);
        const filled = fillObject(items, sub, false).value;
        for (const [k, ps] of props) if (filled[k] === null) filled[k] = fromCard(item, sub, k, ps);
        return filled;
      });
      const found = rows.reduce((a, r) => a + Object.values(r).filter((v) => v !== null).length, 0) / Math.max(1, rows.length * props.length);
      consider({ items: rows, score: 0.35 + 0.5 * found + near });
    } else {
      consider({ items: g.map((item) => convert(item.name || textOf(item), items)), score: 0.55 + near });
    }
  }
  return best;
}

function precedingHeading(n: OutlineNode, nodes: OutlineNode[]): string {
  for (let i = n.index - 1; i >= 0; i--) if (nodes[i].role === 'heading') return nodes[i].name;
  return '';
}

function flatten(n: OutlineNode): OutlineNode[] {
  const out: OutlineNode[] = [n];
  const walk = (c: OutlineNode) => {
    out.push(c);
    c.children.forEach(walk);
  };
  n.children.forEach(walk);
  return out;
}

/** A card's own parts: its heading or first link as a name/title, a link's href as url. */
function fromCard(item: OutlineNode, sub: OutlineNode[], key: string, ps: Schema): unknown {
  if (/name|title|heading|label/i.test(key)) {
    const h = sub.find((n) => n.role === 'heading') ?? sub.find((n) => n.role === 'link') ?? (item.name ? item : undefined);
    return h ? convert(h.name, ps) : null;
  }
  if (/url|link|href/i.test(key)) {
    const l = sub.find((n) => n.role === 'link' && typeof n.states.href === 'string');
    return l ? String(l.states.href) : null;
  }
  if (/price|cost|amount|total/i.test(key)) {
    const t = sub.find((n) => /[$€£]\s?\d|\d\s?(usd|eur|gbp)/i.test(n.name));
    return t ? convert(t.name, ps) : null;
  }
  return null;
}

function fromRowChildren(row: OutlineNode, key: string, ps: Schema): unknown {
  if (/url|link|href/i.test(key)) {
    const l = flatten(row).find((n) => n.role === 'link' && typeof n.states.href === 'string');
    return l ? String(l.states.href) : null;
  }
  return null;
}

const QUESTION = /\b(what|whats|which|who|where|when|how|is|are|the|get|extract|find|read|tell|me|show|give|return|of|on|this|page|text|value|current)\b/g;

/** No schema: the line that best answers the instruction. */
function bestText(instruction: string, nodes: OutlineNode[]): { text: string; score: number } | null {
  const want = normalize(instruction).replace(QUESTION, ' ').replace(/\s+/g, ' ').trim();
  if (/\b(title|heading|headline)\b/.test(want)) {
    const h = nodes.find((n) => n.role === 'heading');
    if (h && (words(want).length <= 2 || similarity(want.replace(/\b(title|heading|headline|main|page)\b/g, ''), h.name) > 0.3))
      return { text: h.name, score: 0.85 };
  }
  let best: { text: string; score: number } | null = null;
  const pairs = labelledValues(nodes);
  for (const p of pairs) {
    const s = similarity(want, p.label);
    if (s > (best?.score ?? 0.55)) best = { text: typeof p.value === 'boolean' ? String(p.value) : p.value, score: s };
  }
  for (const n of nodes) {
    if (!n.name || n.role === 'summary') continue;
    const s = similarity(want, n.name) * 0.9;
    if (s > (best?.score ?? 0.55)) best = { text: n.role === 'combobox' ? optionsOf(n).join(', ') : n.name, score: s };
  }
  return best;
}

export function localExtract(instruction: string, schema: Schema, nodes: OutlineNode[]): { object: unknown; confidence: number } {
  const props = schema.properties ?? {};
  // Deckhand's own "no schema" shape.
  if (Object.keys(props).length === 1 && 'extraction' in props && typeOf(props.extraction) === 'string') {
    const b = bestText(instruction, nodes);
    if (!b) throw new Refusal('nothing on the page answers it clearly');
    return { object: { extraction: b.text }, confidence: Math.min(1, b.score) };
  }
  // A wrapped non-object schema: { value: <schema> }.
  if (Object.keys(props).length === 1 && 'value' in props) {
    const inner = props.value;
    if (typeOf(inner) === 'array') {
      const list = fillArray(inner.items ?? { type: 'string' }, nodes, instruction);
      if (!list) throw new Refusal('no table, list or repeated items on the page fit it');
      return { object: { value: list.items }, confidence: Math.min(1, list.score) };
    }
    const b = bestText(instruction, nodes);
    if (!b) throw new Refusal('nothing on the page answers it clearly');
    return { object: { value: convert(b.text, inner) }, confidence: b.score };
  }
  const r = fillObject(schema, nodes, true);
  if (r.missing.length) throw new Refusal(`it found no value for ${r.missing.map((m) => `'${m}'`).join(', ')}`);
  return { object: r.value, confidence: Math.min(1, Math.max(0.6, r.score)) };
}
