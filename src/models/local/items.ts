/**
 * Items of a list drawn as plain blocks (a post: its author's line, its text, then a row of
 * controls), which the outline shows flat, one block after another. Read back into items only
 * when the blocks are unmistakable: the same row of controls in each, words before each row,
 * and nothing but controls after the last; otherwise there are no such items.
 */
import type { OutlineNode } from './outline';
import { coverage } from './text';

/** Roles of the controls an item's row is made of. */
export const ITEM_CONTROL_ROLES = new Set(['button', 'clickable', 'link', 'menuitem']);

/** One item: its own words and its controls. */
export interface ItemBlock {
  text: string;
  controls: OutlineNode[];
  /** Every line of the item, from its first own words to its last control (its pictures too). */
  lines: OutlineNode[];
}

const isControl = (n: OutlineNode) => !!n.id && ITEM_CONTROL_ROLES.has(n.role) && n.name.trim() !== '';

/** The blocks under one parent, or null when its lines do not read as one list of them. */
export function flatItems(parent: OutlineNode): ItemBlock[] | null {
  const kids = parent.children;
  const at = new Map<string, number[]>();
  kids.forEach((n, i) => {
    if (!isControl(n)) return;
    const k = n.name.trim().toLowerCase();
    at.set(k, [...(at.get(k) ?? []), i]);
  });
  // The row: the names that come back most often, at least twice (one per block).
  const k = Math.max(0, ...[...at.values()].map((v) => v.length));
  if (k < 2) return null;
  const row = [...at.values()].filter((v) => v.length === k);
  const starts = Array.from({ length: k }, (_, i) => Math.min(...row.map((v) => v[i]!)));
  const ends = Array.from({ length: k }, (_, i) => Math.max(...row.map((v) => v[i]!)));
  // Rows that overlap are not one row per block.
  for (let i = 0; i + 1 < k; i++) if (ends[i]! >= starts[i + 1]!) return null;
  // Words after the last row would belong to a block whose row came first: which is which is unknown.
  if (kids.slice(ends[k - 1]! + 1).some((n) => !n.id)) return null;
  const words = (from: number, to: number) =>
    kids
      .slice(from, to)
      .filter((n) => !n.id)
      .map((n) => n.name);
  // What the page shows above the list (a heading, an intro) runs into the first block: it keeps only as many
  // lines before its row as the others have, so a heading never speaks for the first item.
  const keep = Math.min(...Array.from({ length: k - 1 }, (_, i) => words(ends[i]! + 1, starts[i + 1]!).length));
  const items: ItemBlock[] = [];
  for (let i = 0; i < k; i++) {
    const from = i === 0 ? 0 : ends[i - 1]! + 1;
    const before = words(from, starts[i]!);
    const own = i === 0 ? before.slice(Math.max(0, before.length - keep)) : before;
    const text = [...own, ...words(starts[i]!, ends[i]! + 1)].join(' ');
    if (!text.trim()) return null;
    // The first block begins at its first own line (what came before it is the list's, not its).
    const wordAt = kids.map((n, j) => (j >= from && j < starts[i]! && !n.id ? j : -1)).filter((j) => j >= 0);
    const first = i === 0 ? (wordAt[wordAt.length - own.length] ?? starts[0]!) : from;
    items.push({ text, controls: kids.slice(i === 0 ? starts[0]! : from, ends[i]! + 1).filter(isControl), lines: kids.slice(first, ends[i]! + 1) });
  }
  return items;
}

/**
 * Whether an item's words name `by`: a handle ("@jane") as that very handle, never as a word of
 * the text ("@mauris" is not the post that says "mauris") nor the start of another ("@jan_n");
 * a name ("Kim Park") by its words.
 */
export function isBy(by: string, text: string): boolean {
  if (/^@[\w.-]+$/.test(by)) {
    const handle = by.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Lines may run a name, the handle and the time together ("Mauris@mauris3h"): a time may follow it.
    return new RegExp(`${handle}(?=$|[^\\w.-]|\\.(?!\\w)|\\d+[smhdwy]\\b)`, 'i').test(text);
  }
  return coverage(by, text.replace(/@/g, ' ')) >= 0.99;
}

/** The flat blocks, under any parent of the page's controls, whose words name `by`. */
export function flatItemsBy(by: string, nodes: OutlineNode[]): ItemBlock[] {
  const parents = new Set(nodes.filter(isControl).map((n) => n.parent!));
  return [...parents].flatMap((p) => (flatItems(p) ?? []).filter((b) => isBy(by, b.text)));
}

/** Every flat block under any parent of the page's controls. */
export function allFlatItems(nodes: OutlineNode[]): ItemBlock[] {
  const parents = new Set(nodes.filter(isControl).map((n) => n.parent!));
  return [...parents].flatMap((p) => flatItems(p) ?? []);
}
