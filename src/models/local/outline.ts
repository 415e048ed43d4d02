/**
 * The snapshot outline as a tree for the local model: built from the structured lines the
 * engine sends with each request (the same lines a large model reads as text), nothing more.
 */
import type { OutlineLine } from '../../protocol/model';

export interface OutlineNode {
  id: string | null;
  /** Role for element lines; 'text' for text lines; 'summary' for folded-content lines. */
  role: string;
  name: string;
  states: Record<string, string | true>;
  /** Where a name not on screen came from ("inferred": from the element's looks). */
  nameFrom?: string;
  depth: number;
  index: number;
  parent: OutlineNode | null;
  children: OutlineNode[];
}

/**
 * Top-level lines hang under one synthetic node of role 'root' (not in the returned list),
 * so every line has a parent and neighbours. Frame notes ("frame content unavailable") are
 * not page content and are left out.
 */
export function buildOutline(lines: readonly OutlineLine[]): OutlineNode[] {
  const all: OutlineNode[] = [];
  const root: OutlineNode = { id: null, role: 'root', name: '', states: {}, depth: -1, index: -1, parent: null, children: [] };
  const stack: OutlineNode[] = [root];
  for (const line of lines) {
    if (line.kind === 'frame') continue;
    const node: OutlineNode =
      line.kind === 'element'
        ? {
            id: line.id ?? null,
            role: line.role ?? 'generic',
            name: line.name ?? '',
            states: line.states,
            ...(line.nameFrom ? { nameFrom: line.nameFrom } : {}),
            depth: line.depth,
            index: all.length,
            parent: null,
            children: [],
          }
        : {
            id: null,
            role: line.kind,
            name: line.text ?? '',
            states: line.kind === 'summary' ? line.states : {},
            depth: line.depth,
            index: all.length,
            parent: null,
            children: [],
          };
    while (stack.length > 1 && stack[stack.length - 1].depth >= node.depth) stack.pop();
    node.parent = stack[stack.length - 1];
    node.parent.children.push(node);
    stack.push(node);
    all.push(node);
  }
  return all;
}

/** Roles of lines that are something the page says, not a control (a run's new text, the answer to a guess). */
export const SAID_ROLES: ReadonlySet<string> = new Set([
  ...['text', 'heading', 'status', 'alert', 'paragraph', 'note', 'log', 'marquee', 'caption', 'strong', 'emphasis', 'listitem'],
]);

/** Options of a select line: `options=["A","B"]`. */
export function optionsOf(n: OutlineNode): string[] {
  const o = n.states.options;
  if (typeof o !== 'string') return [];
  try {
    return JSON.parse(o.replace(/\(\+\d+ more\)$/, ''));
  } catch {
    return [];
  }
}

/** The text of a node and its descendants, for nearby-text matching. */
export function textOf(n: OutlineNode, max = 400): string {
  const parts: string[] = [n.name];
  const walk = (c: OutlineNode) => {
    if (parts.join(' ').length > max) return;
    parts.push(c.name);
    c.children.forEach(walk);
  };
  n.children.forEach(walk);
  return parts.join(' ');
}

/**
 * The label of a field with no name or placeholder of its own: the short text right before it ("Username", then the box),
 * as written; '' when there is none.
 */
export function labelBefore(n: OutlineNode): string {
  if (n.name || typeof n.states.placeholder === 'string') return '';
  const sib = n.parent?.children ?? [];
  const before = sib[sib.indexOf(n) - 1];
  return before?.role === 'text' && before.name.length <= 40 ? before.name : '';
}

/** Whether `n` sits somewhere inside `box`. */
export function isInside(n: OutlineNode, box: OutlineNode): boolean {
  for (let p = n.parent; p; p = p.parent) if (p === box) return true;
  return false;
}
