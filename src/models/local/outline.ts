/**
 * Reads the snapshot outline back into a tree: the local model sees exactly the
 * text a large model sees, nothing more.
 */
export interface OutlineNode {
  id: string | null;
  /** Role for element lines; 'text' for text lines; 'summary' for folded-content lines. */
  role: string;
  name: string;
  states: Record<string, string | true>;
  depth: number;
  index: number;
  parent: OutlineNode | null;
  children: OutlineNode[];
}

const LINE = /^(\s*)(?:\[((?:f\d+)?e\d+)\] )?([A-Za-z]+)(?: ("(?:[^"\\]|\\.)*"))?(.*)$/;
const STATE = /\s([a-z]+)(?:=("(?:[^"\\]|\\.)*"|\[[^\]]*\](?:\(\+\d+ more\))?|\S+))?/g;

function unquote(s: string): string {
  try {
    return JSON.parse(s);
  } catch {
    return s.replace(/^"|"$/g, '');
  }
}

/**
 * Top-level lines hang under one synthetic node of role 'root' (not in the returned list),
 * so every line has a parent and neighbours.
 */
export function parseOutline(text: string): OutlineNode[] {
  const all: OutlineNode[] = [];
  const root: OutlineNode = { id: null, role: 'root', name: '', states: {}, depth: -1, index: -1, parent: null, children: [] };
  const stack: OutlineNode[] = [root];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    const depth = (raw.length - raw.trimStart().length) / 2;
    let node: OutlineNode;
    const trimmed = raw.trim();
    if (trimmed.startsWith('"')) {
      node = { id: null, role: 'text', name: unquote(trimmed), states: {}, depth, index: all.length, parent: null, children: [] };
    } else if (trimmed.startsWith('…')) {
      node = { id: null, role: 'summary', name: trimmed.slice(1).trim(), states: {}, depth, index: all.length, parent: null, children: [] };
    } else {
      const m = LINE.exec(raw);
      if (!m) continue;
      const states: Record<string, string | true> = {};
      for (const s of (m[5] ?? '').matchAll(STATE)) states[s[1]] = s[2] === undefined ? true : s[2].startsWith('"') ? unquote(s[2]) : s[2];
      node = { id: m[2] ?? null, role: m[3], name: m[4] ? unquote(m[4]) : '', states, depth, index: all.length, parent: null, children: [] };
    }
    while (stack.length > 1 && stack[stack.length - 1].depth >= depth) stack.pop();
    node.parent = stack[stack.length - 1];
    node.parent?.children.push(node);
    stack.push(node);
    all.push(node);
  }
  return all;
}

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
