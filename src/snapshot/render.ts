/**
 * Serialises a snapshot tree, folding content into explicit summary lines when
 * it exceeds the token budget. Folding order: repeated siblings (table rows, list
 * items) first, then off-screen stretches of content, then a hard cut at the end.
 * Nothing is ever dropped without a line that says what went and how to see it.
 */
import { estimateTokens, pluralFor, REPEATABLE_ROLES, type Finalize, type SnapNode } from './tree';

const INDENT = '  ';
/** 12345 → "12,345" (toLocaleString is slow in a hot loop). */
const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const lineCache = new WeakMap<SnapNode, string>();

/** A node's own line; nodes never change once built, so it is computed once. */
export function lineOf(node: SnapNode): string {
  let l = lineCache.get(node);
  if (l === undefined) lineCache.set(node, (l = computeLine(node)));
  return l;
}

function computeLine(node: SnapNode): string {
  switch (node.kind) {
    case 'text':
      return JSON.stringify(node.text ?? '');
    case 'summary':
      return `… ${node.text}`;
    case 'frame':
      return node.text ?? `(frame ${node.frameId}: its content could not be captured)`;
    default: {
      let s = node.id ? `[${node.id}] ${node.role}` : `${node.role}`;
      if (node.name) s += ` ${JSON.stringify(node.name)}`;
      // A name that is not text on screen says where it came from (aria-label, alt, hidden-text, ...).
      if (node.name && node.nameFrom) s += ` namefrom=${node.nameFrom}`;
      if (node.states) s += ` ${node.states}`;
      return s;
    }
  }
}

/** Characters of the subtree when rendered (each line plus indent and newline). */
function measure(node: SnapNode, depth: number, sizes: Map<SnapNode, number>): number {
  let total = lineOf(node).length + depth * INDENT.length + 1;
  if (node.kind === 'frame' && node.text) total = node.text.length + (node.text.split('\n').length) * (depth * INDENT.length + 1);
  for (const c of node.children) total += measure(c, depth + 1, sizes);
  sizes.set(node, total);
  return total;
}

interface Group {
  parent: SnapNode;
  start: number; // index of first item in parent.children
  items: SnapNode[];
  keep: number; // items kept at the head (the last item is always kept too)
  role: string;
}

function findGroups(node: SnapNode, out: Group[]): void {
  const kids = node.children;
  let i = 0;
  while (i < kids.length) {
    const k = kids[i];
    let j = i + 1;
    if (k.kind === 'element' && k.role && REPEATABLE_ROLES.has(k.role)) {
      while (j < kids.length && kids[j].kind === 'element' && kids[j].role === k.role) j++;
      if (j - i >= 8) out.push({ parent: node, start: i, items: kids.slice(i, j), keep: j - i, role: k.role });
    }
    i = j;
  }
  for (const c of kids) findGroups(c, out);
}

function groupSize(g: Group, sizes: Map<SnapNode, number>): number {
  let s = 0;
  for (let i = 0; i < g.keep; i++) s += sizes.get(g.items[i]) ?? 0;
  if (g.keep < g.items.length) s += (sizes.get(g.items[g.items.length - 1]) ?? 0) + 120;
  return s;
}

/** Replace the middle of each folded group by one summary line, in place. */
function applyGroups(groups: Group[]): void {
  // Apply from the end of each parent's list so earlier indices stay valid.
  const byParent = new Map<SnapNode, Group[]>();
  for (const g of groups) if (g.keep < g.items.length - 1) (byParent.get(g.parent) ?? byParent.set(g.parent, []).get(g.parent)!).push(g);
  for (const [parent, gs] of byParent) {
    gs.sort((a, b) => b.start - a.start);
    for (const g of gs) {
      const first = g.keep + 1;
      const last = g.items.length - 1;
      const noun = pluralFor(g.role);
      const summary: SnapNode = {
        kind: 'summary',
        children: [],
        text: `${noun} ${fmt(first)} to ${fmt(last)} of ${fmt(g.items.length)} omitted here (same structure as above): scope a snapshot to this container or scroll to see them`,
      };
      parent.children.splice(g.start + g.keep, last - g.keep, summary);
    }
  }
}

/**
 * Fold runs of off-screen siblings into one line that names the headings inside
 * them, so the outline survives and the model knows where to scroll or scope.
 */
function foldOffscreen(node: SnapNode, margin: number, finalize?: Finalize): boolean {
  let changed = false;
  const out: SnapNode[] = [];
  let run: SnapNode[] = [];
  let where: 'above' | 'below' = 'below';
  const flush = () => {
    if (run.length >= 2 || (run.length === 1 && run[0].children.length > 2)) {
      const lines = run.reduce((n, r) => n + countLines(r), 0);
      const headings: string[] = [];
      for (const r of run) collectHeadings(r, headings, finalize);
      const shown = headings.slice(0, 8).map((h) => JSON.stringify(h)).join(', ');
      const more = headings.length > 8 ? ` and ${fmt(headings.length - 8)} more` : '';
      out.push({
        kind: 'summary',
        children: [],
        text: `${fmt(lines)} lines ${where} the viewport omitted${headings.length ? ` (headings ${shown}${more})` : ''}: scroll there or scope a snapshot to see them`,
      });
      changed = true;
    } else out.push(...run);
    run = [];
  };
  for (const c of node.children) {
    const dist = c.kind === 'summary' ? 0 : (c.offscreen?.() ?? 0);
    const off = dist > margin ? 'below' : dist < -margin ? 'above' : false;
    if (off) {
      if (run.length && off !== where) flush();
      where = off;
      run.push(c);
      continue;
    }
    flush();
    if (foldOffscreen(c, margin, finalize)) changed = true;
    out.push(c);
  }
  flush();
  node.children = out;
  return changed;
}

function collectHeadings(n: SnapNode, out: string[], finalize?: Finalize): void {
  if (n.kind === 'element' && n.role === 'heading' && n.name) {
    // A summary names only headings a person can see.
    const name = finalize ? finalize(n)?.name : n.name;
    if (name) out.push(name);
  }
  for (const c of n.children) collectHeadings(c, out, finalize);
}

/** Trees up to this many nodes are finalised before folding (exact sizes); bigger ones after, so only printed lines pay for the checks. */
const EAGER_NODES = 1000;

function countUpTo(nodes: SnapNode[], limit: number): number {
  let n = 0;
  const stack = [...nodes];
  while (stack.length && n < limit) {
    const c = stack.pop()!;
    n++;
    for (const k of c.children) stack.push(k);
  }
  return n;
}

function finalizeAll(nodes: SnapNode[], finalize: Finalize): SnapNode[] {
  const out: SnapNode[] = [];
  for (const n of nodes) {
    const f = finalize(n);
    if (f?.unwrap) out.push(...f.children);
    else if (f) out.push(f);
  }
  return out;
}

function countLines(n: SnapNode): number {
  let k = 1;
  for (const c of n.children) k += countLines(c);
  return k;
}

function emit(node: SnapNode, depth: number, out: string[]): void {
  if (node.kind === 'frame' && node.text !== undefined) {
    // A child frame's snapshot, already rendered within its own share of the budget.
    for (const l of node.text.split('\n')) out.push(INDENT.repeat(depth) + l);
    return;
  }
  out.push(INDENT.repeat(depth) + lineOf(node));
  for (const c of node.children) emit(c, depth + 1, out);
}

export interface RenderResult {
  text: string;
  tokens: number;
  folded: boolean;
}

/**
 * Render top-level nodes within `budgetTokens`. The tree is modified in place
 * when folding, so pass a tree built for this call. `finalize` (the content
 * script's visibility pass) turns nodes into what a person can see before they
 * are printed.
 */
export function render(roots: SnapNode[], budgetTokens: number, finalize?: Finalize): RenderResult {
  const budgetChars = budgetTokens * 3;
  const root: SnapNode = { kind: 'element', role: 'root', children: roots };
  let pending = !!finalize;
  if (finalize && countUpTo(roots, EAGER_NODES) < EAGER_NODES) {
    root.children = finalizeAll(root.children, finalize);
    pending = false;
  }
  const sizes = new Map<SnapNode, number>();
  // Measure root.children, not roots: folding may replace the top-level list.
  const total = () => root.children.reduce((s, r) => s + measure(r, 0, sizes), 0);
  let size = total();
  let folded = false;

  if (size > budgetChars) {
    const groups: Group[] = [];
    findGroups(root, groups);
    const minKeep = 3;
    // Shrink the largest group first, by as many items as the excess needs.
    for (let guard = 0; size > budgetChars && guard < 1000; guard++) {
      let best: Group | null = null;
      let bestSize = 0;
      for (const g of groups) {
        if (g.keep <= minKeep) continue;
        const s = groupSize(g, sizes);
        if (s > bestSize) { best = g; bestSize = s; }
      }
      if (!best) break;
      const avg = bestSize / Math.max(1, best.keep);
      const drop = Math.ceil((size - budgetChars) / Math.max(1, avg)) + 1;
      const before = groupSize(best, sizes);
      best.keep = Math.max(minKeep, best.keep - drop);
      size -= before - groupSize(best, sizes);
      folded = true;
    }
    if (folded) { applyGroups(groups); size = total(); }
  }

  // Fold what lies farthest from the viewport first, coming closer only while still over budget.
  for (const margin of [32, 16, 8, 4, 2, 1, 0.5, 0]) {
    if (size <= budgetChars) break;
    if (foldOffscreen(root, margin, finalize)) {
      folded = true;
      size = total();
    }
  }
  if (pending && finalize) {
    root.children = finalizeAll(root.children, finalize);
    size = total();
  }

  const lines: string[] = [];
  for (const r of root.children) emit(r, 0, lines);
  let text: string;
  if (size > budgetChars) {
    // Last resort: cut at the budget and say how much is missing.
    let used = 0;
    let k = 0;
    const reserve = 200;
    while (k < lines.length && used + lines[k].length + 1 <= budgetChars - reserve) used += lines[k++].length + 1;
    const rest = lines.length - k;
    text = (k ? lines.slice(0, k).join('\n') + '\n' : '') + `… ${fmt(rest)} more lines omitted at the token budget (${fmt(budgetTokens)} tokens): scope a snapshot with a locator or raise the budget to see them`;
    folded = true;
  } else text = lines.join('\n');
  return { text, tokens: estimateTokens(text.length), folded };
}
