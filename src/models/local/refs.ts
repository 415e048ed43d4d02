/**
 * Values an instruction names by where they are on the page rather than by what they are:
 * "the value of Year of Birth", "the text below", "the 3rd word of the paragraph", "the last
 * word in the text area". The built-in model never types such a description: it reads the
 * value off the page (label-value pairs, tables, paragraphs, text areas) or refuses.
 */
import { Refusal } from './act';
import { labelledValues } from './extract';
import type { OutlineNode } from './outline';
import { coverage, normalize, similarity } from './text';

export { isReference } from './text';

const ORDINAL: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, last: -1, final: -1 };
const TEXTY = new Set(['text', 'paragraph', 'blockquote', 'code', 'note', 'status', 'definition', 'caption']);

function ordinalOf(w: string): number | null {
  const m = /^(\d{1,3})(?:st|nd|rd|th)?$/i.exec(w);
  if (m) return Number(m[1]) || null;
  return ORDINAL[w.toLowerCase()] ?? null;
}

/** Lines of page text a value can come from: not a control's own label, not the instruction echoed on the page. */
function textBlocks(nodes: OutlineNode[], instruction: string): OutlineNode[] {
  return nodes.filter((n) => {
    if (!TEXTY.has(n.role) || !n.name.trim()) return false;
    // Text inside a button or link is its name, not content.
    for (let p = n.parent; p; p = p.parent) if (p.id && ['button', 'link', 'option', 'menuitem', 'tab', 'clickable'].includes(p.role)) return false;
    return !(instruction && similarity(n.name, instruction) > 0.8);
  });
}

/** The one text a phrase such as "the paragraph", "the text area", "the text below" points at. */
function sourceText(phrase: string, nodes: OutlineNode[], instruction: string): string {
  const p = phrase.toLowerCase();
  if (/\b(?:text ?area|text ?box|textbox|input|field|box)\b/.test(p)) {
    const boxes = nodes.filter((n) => n.id && (n.role === 'textbox' || n.role === 'searchbox') && (!/area/.test(p) || n.states.multiline === true) && typeof n.states.value === 'string' && n.states.value);
    if (boxes.length !== 1) throw new Refusal(`it reads a value from ${phrase}, and the page has ${boxes.length || 'no'} such field${boxes.length === 1 ? '' : 's'} with text in it`);
    return String(boxes[0].states.value);
  }
  const blocks = textBlocks(nodes, instruction);
  // The instruction shown on the page ("... the text below"): what follows it.
  const echo = nodes.find((n) => TEXTY.has(n.role) && instruction && similarity(n.name, instruction) > 0.8);
  const after = echo ? blocks.filter((b) => b.index > echo.index) : [];
  const pool = /\bbelow\b|\bfollowing\b/.test(p) && after.length ? after : blocks;
  // A paragraph is one block of text; short labels beside fields are not paragraphs.
  const long = pool.filter((b) => b.name.trim().split(/\s+/).length >= 2);
  const pick = long.length === 1 ? long : pool.length === 1 ? pool : [];
  if (pick.length !== 1) throw new Refusal(`it reads a value from ${phrase}, and the page has ${pool.length || 'no'} blocks of text it could mean`);
  return pick[0].name.trim();
}

/**
 * The value `ref` describes, read off the page; a Refusal naming what could not be read.
 * `instruction` is the whole task, so its own text shown on the page is not taken for content.
 */
export function resolveReference(ref: string, nodes: OutlineNode[], instruction = ''): string {
  const r = ref.trim().replace(/[.,;]+$/, '');
  let m: RegExpExecArray | null;
  // "the 3rd word of the paragraph", "the last word in the text area".
  if ((m = /^(?:the\s+)?(\w+)\s+word\s+(?:of|in|from)\s+(?:the\s+)?(.+)$/i.exec(r))) {
    const k = ordinalOf(m[1]);
    if (k === null) throw new Refusal(`it describes a word (${ref}) the built-in model cannot count`);
    const ws = sourceText(m[2], nodes, instruction).split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean);
    const w = k === -1 ? ws[ws.length - 1] : ws[k - 1];
    if (!w) throw new Refusal(`${m[2]} has ${ws.length} words, fewer than ${m[1]}`);
    return w;
  }
  // "the text below", "the paragraph", "the text in the text area".
  if ((m = /^(?:the\s+|this\s+)?(?:(?:text|words|sentence|string|phrase|content|contents)(?:\s+(?:below|above|shown|displayed|on the page|written|given))?(?:\s+(?:of|in|from|on)\s+(?:the\s+)?(.+))?|(paragraph|text ?area|following text|text below|text above))$/i.exec(r))) {
    return sourceText(m[1] ?? m[2] ?? r, nodes, instruction);
  }
  // "the value of Year of Birth", "the number next to Total", "Year of Birth's value", "the Zip code value".
  const label =
    /^(?:the\s+)?(?:value|number|text|amount|entry|content|contents|answer)\s+(?:of|for|in|next to|beside|by|under|after)\s+(?:the\s+)?(.+?)(?:\s+(?:field|row|label|cell|column|entry))?$/i.exec(r)?.[1] ??
    /^(?:the\s+)?(.+?)\s+value$/i.exec(r)?.[1];
  if (label) {
    const want = normalize(label);
    const pairs = labelledValues(nodes).filter((p) => typeof p.value === 'string' && String(p.value).trim());
    let hits = pairs.filter((p) => normalize(p.label) === want);
    if (!hits.length) hits = pairs.filter((p) => coverage(label, p.label) >= 0.99 && coverage(p.label, label) >= 0.6);
    // One label shown twice (a table and a summary) is one value when both say the same.
    const values = [...new Set(hits.map((p) => String(p.value).trim()))];
    if (values.length === 1) return values[0];
    throw new Refusal(values.length ? `${values.length} values on the page go by ${JSON.stringify(label)}` : `no value on the page goes by ${JSON.stringify(label)}`);
  }
  throw new Refusal(`it names the value to type by a description (${JSON.stringify(ref.slice(0, 80))}) the built-in model cannot read off this page`);
}

/** "in all lower case", "in upper case", "reversed": a change the instruction asks of the value it names. */
export type Transform = 'lower' | 'upper' | 'reverse';

export function applyTransform(value: string, t: Transform | undefined): string {
  if (t === 'lower') return value.toLowerCase();
  if (t === 'upper') return value.toUpperCase();
  if (t === 'reverse') return [...value].reverse().join('');
  return value;
}

/**
 * The number the page shows for `subject` ("price" in "Price: $53.24", a table row "VOP | $53.24",
 * a line "Counter 7"): null when the page shows none, or several that differ.
 */
export function numberOf(subject: string, nodes: OutlineNode[]): { value: number; shown: string } | null {
  const found = new Map<number, string>();
  const num = (s: string): number | null => {
    const ms = s.match(/[-+]?\d[\d,]*(?:\.\d+)?/g);
    if (!ms || ms.length !== 1) return null;
    const v = Number(ms[0].replace(/,/g, ''));
    return Number.isFinite(v) ? v : null;
  };
  for (const p of labelledValues(nodes)) {
    if (typeof p.value !== 'string' || coverage(subject, p.label) < 0.6) continue;
    const v = num(p.value);
    if (v !== null) found.set(v, `${p.label}: ${p.value}`);
  }
  if (!found.size) {
    // A line that names the subject and shows one number ("The price is $49.20").
    for (const n of nodes) {
      if (n.id || !TEXTY.has(n.role) || coverage(subject, n.name) < 0.6) continue;
      const v = num(n.name);
      if (v !== null) found.set(v, n.name);
    }
  }
  if (found.size !== 1) return null;
  const [[value, shown]] = [...found.entries()];
  return { value, shown };
}
