/**
 * Serialises a snapshot tree, folding content into explicit summary lines when
 * it exceeds the token budget. Folding order: repeated siblings (table rows, list
 * items) first, then off-screen stretches of content, then a hard cut at the end.
 * Nothing is ever dropped without a line that says what went and how to see it.
 */
import type { OutlineLine } from '../protocol/model';
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
      return JSON.stringify(node.text ?? '') + cutMark(node);
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
      return s + cutMark(node);
    }
  }
}

const cutMark = (node: SnapNode): string => (node.cutChars ? ` (cut: ${fmt(node.cutChars)} more characters; scope a snapshot to it to read them)` : '');

/**
 * The node as printed within a line's share of the budget: a longer text or name is cut, with a
 * mark, so one long line never costs the rest of the page.
 */
function clipped(node: SnapNode, share: number, memo: Map<SnapNode, SnapNode>): SnapNode {
  let c = memo.get(node);
  if (c) return c;
  c = node;
  const over = lineOf(node).length - share;
  if (over > 0) {
    const field = node.kind === 'text' ? 'text' : node.kind === 'element' ? 'name' : null;
    const value = field ? node[field] : undefined;
    if (field && value && value.length > over) {
      // Room for the mark too; the cut falls on a word boundary when there is one near.
      const keep = Math.max(40, value.length - over - 80);
      const head = value.slice(0, keep).replace(/\s+\S*$/, '') || value.slice(0, keep);
      c = { ...node, [field]: `${head}…`, cutChars: value.length - head.length };
    }
  }
  memo.set(node, c);
  return c;
}

/**
 * A state string as the walker writes it (`checked required value="x" options=["A","B"](+3 more)`)
 * read back into a record: flags are true, quoted values are unquoted, lists stay JSON text.
 * Our own format, written one step earlier; read here once so no model parses printed lines.
 */
export function parseStates(s: string): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  let i = 0;
  while (i < s.length) {
    if (s[i] === ' ') {
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] !== ' ' && s[j] !== '=') j++;
    const key = s.slice(i, j);
    if (s[j] !== '=') {
      out[key] = true;
      i = j;
      continue;
    }
    const start = j + 1;
    let end: number;
    if (s[start] === '"') end = endOfJson(s, start);
    else if (s[start] === '[') {
      end = endOfJson(s, start);
      const more = /^\(\+\d+ more\)/.exec(s.slice(end, end + 24));
      if (more) end += more[0].length;
    } else {
      end = s.indexOf(' ', start);
      if (end < 0) end = s.length;
    }
    const raw = s.slice(start, end);
    let value: string = raw;
    if (raw.startsWith('"')) {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw.slice(1, -1);
      }
    }
    out[key] = value;
    i = end;
  }
  return out;
}

/** Index just past the JSON string or array starting at `from` (the end of `s` if it never closes). */
function endOfJson(s: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i + 1;
  }
  return s.length;
}

type LineData = Omit<OutlineLine, 'depth'>;
const dataCache = new WeakMap<SnapNode, LineData>();

/** A node's own line as data (the structured twin of lineOf). */
export function lineDataOf(node: SnapNode): LineData {
  let d = dataCache.get(node);
  if (d === undefined) dataCache.set(node, (d = computeLineData(node)));
  return d;
}

function computeLineData(node: SnapNode): LineData {
  switch (node.kind) {
    case 'text':
      return { kind: 'text', text: node.text ?? '', states: node.cutChars ? { cut: String(node.cutChars) } : {} };
    case 'summary':
      return { kind: 'summary', text: node.text ?? '', states: node.fold ? { fold: node.fold } : {} };
    case 'frame':
      return { kind: 'frame', text: lineOf(node), states: {} };
    default: {
      const d: LineData = { kind: 'element', role: `${node.role}`, states: node.states ? parseStates(node.states) : {} };
      if (node.id) d.id = node.id;
      if (node.name) {
        d.name = node.name;
        if (node.nameFrom) d.nameFrom = node.nameFrom;
      }
      if (node.cutChars) d.states.cut = String(node.cutChars);
      return d;
    }
  }
}

/** How one render prints lines: each within its share of the budget. */
interface Printer {
  share: number;
  memo: Map<SnapNode, SnapNode>;
}

/** Characters of the subtree when rendered (each line plus indent and newline). */
function measure(node: SnapNode, depth: number, sizes: Map<SnapNode, number>, pr: Printer): number {
  if (node.far !== undefined) {
    sizes.set(node, node.far);
    return node.far;
  }
  let total = lineOf(clipped(node, pr.share, pr.memo)).length + depth * INDENT.length + 1;
  if (node.kind === 'frame' && node.text) total = node.text.length + node.text.split('\n').length * (depth * INDENT.length + 1);
  // An unread item of a long list measures what the items read beside it do on average.
  let read = 0;
  let readSize = 0;
  let unread = 0;
  const role = node.children.find((c) => c.unread)?.role;
  for (const c of node.children) {
    if (c.unread) {
      unread++;
      continue;
    }
    const size = measure(c, depth + 1, sizes, pr);
    total += size;
    if (c.role === role) {
      read++;
      readSize += size;
    }
  }
  if (unread) {
    const each = Math.ceil(readSize / Math.max(1, read));
    for (const c of node.children) if (c.unread) sizes.set(c, each);
    total += unread * each;
  }
  sizes.set(node, total);
  return total;
}

interface Group {
  parent: SnapNode;
  start: number; // index of first item in parent.children
  items: SnapNode[];
  keep: number; // items kept at the head (the last item is always kept too)
  role: string;
  /** Indices of items the instruction names ("the row for User 4321"): kept wherever they are. */
  pinned: number[];
}

function findGroups(node: SnapNode, out: Group[]): void {
  const kids = node.children;
  let i = 0;
  while (i < kids.length) {
    const k = kids[i];
    let j = i + 1;
    if (k.kind === 'element' && k.role && REPEATABLE_ROLES.has(k.role)) {
      while (j < kids.length && kids[j].kind === 'element' && kids[j].role === k.role) j++;
      if (j - i >= 8) out.push({ parent: node, start: i, items: kids.slice(i, j), keep: j - i, role: k.role, pinned: [] });
    }
    i = j;
  }
  for (const c of kids) findGroups(c, out);
}

/** Items kept after the head: pinned ones, then the last item, in order. */
function tailOf(g: Group): number[] {
  const last = g.items.length - 1;
  const tail = g.pinned.filter((i) => i >= g.keep && i < last);
  tail.push(last);
  return tail;
}

function groupSize(g: Group, sizes: Map<SnapNode, number>): number {
  let s = 0;
  for (let i = 0; i < g.keep; i++) s += sizes.get(g.items[i]) ?? 0;
  if (g.keep >= g.items.length) return s;
  // Each kept item after the head costs its size, and the gap before it a summary line.
  for (const i of tailOf(g)) s += (sizes.get(g.items[i]) ?? 0) + 120;
  return s;
}

/** Replace the folded stretches of each group by summary lines, in place. */
function applyGroups(groups: Group[]): void {
  // Apply from the end of each parent's list so earlier indices stay valid.
  const byParent = new Map<SnapNode, Group[]>();
  for (const g of groups) if (g.keep < g.items.length - 1) (byParent.get(g.parent) ?? byParent.set(g.parent, []).get(g.parent)!).push(g);
  for (const [parent, gs] of byParent) {
    gs.sort((a, b) => b.start - a.start);
    for (const g of gs) {
      const n = g.items.length;
      const noun = pluralFor(g.role);
      const kept: SnapNode[] = g.items.slice(0, g.keep);
      let next = g.keep; // first item not yet placed
      for (const i of tailOf(g)) {
        if (i > next + 1) {
          kept.push({
            kind: 'summary',
            fold: 'items',
            children: [],
            text:
              `${noun} ${fmt(next + 1)} to ${fmt(i)} of ${fmt(n)} omitted here (same structure as above): ` +
              'scope a snapshot to this container or scroll to see them',
          });
        } else if (i === next + 1) kept.push(g.items[next]); // a gap of one item: the item itself is no longer than its summary
        kept.push(g.items[i]);
        next = i + 1;
      }
      parent.children.splice(g.start, n, ...kept);
    }
  }
}

const FOCUS_STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'on',
  'in',
  'into',
  'of',
  'for',
  'with',
  'at',
  'and',
  'or',
  'then',
  'please',
  'this',
  'that',
  'it',
  'its',
  'click',
  'press',
  'type',
  'fill',
  'select',
  'choose',
  'check',
  'uncheck',
  'open',
  'find',
  'get',
  'extract',
  'row',
  'item',
  'button',
  'link',
]);
const tokens = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 || /\d/.test(w));

/** At most this many items of one group are kept for naming what the instruction names. */
const PIN_MAX = 5;

/**
 * Pin the items of each group that the instruction picks out: those with the most of its
 * words that few items share ("4321" in "Edit in the row for User 4321", not "Edit", which
 * every row has). A folded list then still shows the row the instruction is about.
 */
/** The instruction's words that can pick out a line. */
export const focusWords = (focus: string): string[] => [...new Set(tokens(focus))].filter((w) => !FOCUS_STOP.has(w));

/** Whether a word on `df` of a list's `n` items picks out a few of them (worth pinning those). */
export const picksOut = (df: number, n: number): boolean => df > 0 && df <= Math.max(PIN_MAX, n / 8);

/** The characters a snapshot of `budgetTokens` may print. */
export const budgetChars = (budgetTokens: number): number => budgetTokens * 3;

/** The characters a node takes when printed at the top level within `budgetTokens` (no less than it takes deeper). */
export function printedSize(node: SnapNode, budgetTokens: number): number {
  const chars = budgetChars(budgetTokens);
  return measure(node, 0, new Map(), { share: Math.max(LINE_SHARE_MIN, Math.floor(chars / LINE_SHARES)), memo: new Map() });
}

function pinFocus(groups: Group[], focus: string): void {
  const want = focusWords(focus);
  if (!want.length) return;
  for (const g of groups) {
    const has = g.items.map((item) => {
      const parts: string[] = [];
      collectText(item, parts, { left: 2000 });
      // Substrings, not words: before the finaliser, a row's name is its cells' text run together ("4321User 4321").
      const text = parts.join(' ').toLowerCase();
      return want.map((w) => text.includes(w));
    });
    // A word is telling when it picks out a few items, and worth more the fewer it picks.
    const weight = want.map((_, k) => {
      const df = has.reduce((n, h) => n + (h[k] ? 1 : 0), 0);
      return picksOut(df, g.items.length) ? Math.log(g.items.length / df) : 0;
    });
    const score = has.map((h) => h.reduce((t, on, k) => t + (on ? weight[k] : 0), 0));
    const best = Math.max(...score);
    if (best <= 0) continue;
    g.pinned = score.flatMap((sc, i) => (sc >= best - 1e-9 ? [i] : [])).slice(0, PIN_MAX);
  }
}

/** Text of a subtree's lines, bounded by a character budget. */
function collectText(n: SnapNode, out: string[], budget: { left: number }): void {
  const own = n.kind === 'element' ? `${n.name ?? ''} ${n.states ?? ''}` : (n.text ?? '');
  budget.left -= own.length;
  out.push(own);
  for (const c of n.children) if (budget.left > 0) collectText(c, out, budget);
}

/**
 * Nodes that hold a pinned item or, outside the items of lists, a line with one of the
 * instruction's words, so folding off-screen content leaves the way to them open: "Delete"
 * far down the page stays beside the "Delete draft" on screen, and a model choosing between
 * them sees both. (Which items of a list show is the list's folding: pinned ones.)
 */
function pinnedPaths(root: SnapNode, groups: Group[], focus: string): Set<SnapNode> {
  const pins = new Set<SnapNode>();
  const items = new Set<SnapNode>();
  for (const g of groups) {
    for (const i of g.pinned) pins.add(g.items[i]);
    for (const it of g.items) items.add(it);
  }
  // Lines outside lists, and which of the instruction's words each has.
  const want = focusWords(focus);
  const has = new Map<SnapNode, boolean[]>();
  const parents = new Map<SnapNode, SnapNode>();
  const gather = (n: SnapNode, inItem: boolean): void => {
    const item = inItem || items.has(n);
    const own = item ? '' : (n.kind === 'element' ? (n.name ?? '') : n.kind === 'text' ? (n.text ?? '') : '').toLowerCase();
    if (own) {
      const h = want.map((w) => own.includes(w));
      if (h.some(Boolean)) has.set(n, h);
    }
    for (const c of n.children) {
      parents.set(c, n);
      gather(c, item);
    }
  };
  if (want.length) gather(root, false);
  // Only words that pick out a few lines: a word on every other line ("section" in the docs) keeps nothing in particular.
  const telling = want.map((_, k) => {
    let df = 0;
    for (const h of has.values()) if (h[k]) df++;
    return df <= TELLING_LINES;
  });
  for (const [n, h] of has) {
    if (!h.some((on, k) => on && telling[k])) continue;
    pins.add(n);
    // With the targets beside it ("Details" under the heading "Plan 17"): the controls among its siblings.
    const siblings = parents.get(n)?.children ?? [];
    if (siblings.length <= CONTEXT_SIBLINGS) for (const x of siblings) if (x.id) pins.add(x);
  }
  const out = new Set<SnapNode>();
  if (!pins.size) return out;
  const visit = (n: SnapNode): boolean => {
    let hit = pins.has(n);
    for (const c of n.children) if (visit(c)) hit = true;
    if (hit) out.add(n);
    return hit;
  };
  visit(root);
  return out;
}
/** A word of the instruction on at most this many lines (outside lists) keeps each of them from folding. */
const TELLING_LINES = 12;
/** A line kept so also keeps the controls beside it, when it has at most this many siblings. */
const CONTEXT_SIBLINGS = 16;

/**
 * Fold runs of off-screen siblings into one line that names the headings inside
 * them, so the outline survives and the model knows where to scroll or scope.
 */
function foldOffscreen(node: SnapNode, margin: number, finalize?: Finalize, keep?: Set<SnapNode>): boolean {
  let changed = false;
  const out: SnapNode[] = [];
  let run: SnapNode[] = [];
  let where: 'above' | 'below' = 'below';
  const flush = () => {
    if (run.length >= 2 || (run.length === 1 && run[0].children.length > 2)) {
      const lines = run.reduce((n, r) => n + countLines(r), 0);
      const headings: string[] = [];
      for (const r of run) collectHeadings(r, headings, finalize);
      out.push({
        kind: 'summary',
        children: [],
        text: `${fmt(lines)} lines ${where} the viewport omitted${headingsNote(headings)}: scroll there or scope a snapshot to see them`,
      });
      changed = true;
    } else out.push(...run);
    run = [];
  };
  for (const c of node.children) {
    const dist = c.kind === 'summary' || keep?.has(c) ? 0 : (c.offscreen?.() ?? 0);
    const off = dist > margin ? 'below' : dist < -margin ? 'above' : false;
    if (off) {
      if (run.length && off !== where) flush();
      where = off;
      run.push(c);
      continue;
    }
    flush();
    if (foldOffscreen(c, margin, finalize, keep)) changed = true;
    out.push(c);
  }
  flush();
  node.children = out;
  return changed;
}

/** ` (headings "A", "B" and 3 more)` for a summary line, or nothing. */
function headingsNote(headings: string[]): string {
  if (!headings.length) return '';
  const shown = headings
    .slice(0, 8)
    .map((h) => JSON.stringify(h))
    .join(', ');
  return ` (headings ${shown}${headings.length > 8 ? ` and ${fmt(headings.length - 8)} more` : ''})`;
}

function collectHeadings(n: SnapNode, out: string[], finalize?: Finalize): void {
  if (n.kind === 'element' && n.role === 'heading' && n.name) {
    // A summary names only headings a person can see.
    const name = finalize ? finalize(n)?.name : n.name;
    if (name) out.push(name);
  }
  for (const c of n.children) collectHeadings(c, out, finalize);
}

/** A line takes at most 1/LINE_SHARES of the budget (and never less room than LINE_SHARE_MIN characters). */
const LINE_SHARES = 16;
const LINE_SHARE_MIN = 240;

/**
 * Trees up to this many nodes, and up to EAGER_OVER times the budget before the checks, are finalised
 * before folding (exact sizes); others after, so only printed lines pay for the checks.
 */
const EAGER_NODES = 1000;
const EAGER_OVER = 2;

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
    if (n.unread) {
      out.push(n);
      continue;
    }
    const f = finalize(n);
    if (f?.unwrap) out.push(...f.children);
    else if (f) out.push(f);
  }
  return out;
}

function countLines(n: SnapNode): number {
  // A block left unread: about one line per sentence-long stretch of its text.
  if (n.far !== undefined) return Math.max(1, Math.round(n.far / 80));
  let k = 1;
  for (const c of n.children) k += countLines(c);
  return k;
}

/**
 * Unread items that folding kept (none should be: the walk reads as many as the budget can
 * print) become one summary line per run, never lines that look read.
 */
function sayUnread(node: SnapNode): void {
  if (!node.children.some((c) => c.unread || c.far !== undefined)) {
    for (const c of node.children) sayUnread(c);
    return;
  }
  const out: SnapNode[] = [];
  let unreadRun = false;
  for (const c of node.children) {
    if (c.far !== undefined) {
      const headings: string[] = [];
      for (const h of c.children) collectHeadings(h, headings);
      const where = (c.offscreen?.() ?? 1) < 0 ? 'above' : 'below';
      const text = `${fmt(countLines(c))} lines ${where} the viewport not read here${headingsNote(headings)}: scroll there to see them`;
      out.push({ kind: 'summary', children: [], text });
    } else if (!c.unread) {
      sayUnread(c);
      out.push(c);
    } else if (!unreadRun) {
      out.push({ kind: 'summary', children: [], text: `more ${pluralFor(c.role ?? 'item')}: scope a snapshot to this container to see them` });
    }
    unreadRun = !!c.unread;
  }
  node.children = out;
}

/** Print a subtree; `data` (when asked for) gets the same lines as data, one for one. */
function emit(node: SnapNode, depth: number, out: string[], data: OutlineLine[] | null, pr: Printer): void {
  if (node.kind === 'frame' && node.text !== undefined) {
    // A child frame's snapshot, already rendered within its own share of the budget.
    const texts = node.text.split('\n');
    for (const [i, l] of texts.entries()) {
      out.push(INDENT.repeat(depth) + l);
      if (!data) continue;
      const line = node.lines?.length === texts.length ? node.lines[i] : undefined;
      // Without the frame's own lines (an older content script), its text stands as a frame note.
      data.push(line ? { ...line, depth: line.depth + depth } : { depth, kind: 'frame', text: l.trim(), states: {} });
    }
    return;
  }
  const shown = clipped(node, pr.share, pr.memo);
  out.push(INDENT.repeat(depth) + lineOf(shown));
  data?.push({ depth, ...lineDataOf(shown) });
  for (const c of node.children) emit(c, depth + 1, out, data, pr);
}

export interface RenderResult {
  text: string;
  tokens: number;
  folded: boolean;
  /** The printed lines as data, when asked for (`lines: true`). */
  lines?: OutlineLine[];
}

export interface RenderOptions {
  /** Also return the printed lines as data. */
  lines?: boolean;
  /** The instruction the snapshot is for: items of folded lists that it names are kept. */
  focus?: string;
}

/**
 * Render top-level nodes within `budgetTokens`. The tree is modified in place
 * when folding, so pass a tree built for this call. `finalize` (the content
 * script's visibility pass) turns nodes into what a person can see before they
 * are printed.
 */
export function render(roots: SnapNode[], budgetTokens: number, finalize?: Finalize, opts: RenderOptions = {}): RenderResult {
  const budget = budgetChars(budgetTokens);
  const root: SnapNode = { kind: 'element', role: 'root', children: roots };
  let pending = !!finalize;
  const sizes = new Map<SnapNode, number>();
  const pr: Printer = { share: Math.max(LINE_SHARE_MIN, Math.floor(budget / LINE_SHARES)), memo: new Map() };
  // Measure root.children, not roots: folding may replace the top-level list.
  const total = () => root.children.reduce((s, r) => s + measure(r, 0, sizes, pr), 0);
  let size = total();
  // Near the budget, exact sizes decide what folds: a small tree is finalised first. Far over it, what
  // is hidden changes little of that, and only the lines printed are checked.
  if (finalize && size <= EAGER_OVER * budget && countUpTo(roots, EAGER_NODES) < EAGER_NODES) {
    root.children = finalizeAll(root.children, finalize);
    pending = false;
    size = total();
  }
  let folded = false;
  let keep: Set<SnapNode> | undefined;

  if (size > budget) {
    const groups: Group[] = [];
    findGroups(root, groups);
    if (opts.focus) {
      pinFocus(groups, opts.focus);
      keep = pinnedPaths(root, groups, opts.focus);
    }
    const minKeep = 3;
    // Shrink the largest group first, by as many items as the excess needs.
    for (let guard = 0; size > budget && guard < 1000; guard++) {
      let best: Group | null = null;
      let bestSize = 0;
      for (const g of groups) {
        if (g.keep <= minKeep) continue;
        const s = groupSize(g, sizes);
        if (s > bestSize) {
          best = g;
          bestSize = s;
        }
      }
      if (!best) break;
      const avg = bestSize / Math.max(1, best.keep);
      const drop = Math.ceil((size - budget) / Math.max(1, avg)) + 1;
      const before = groupSize(best, sizes);
      best.keep = Math.max(minKeep, best.keep - drop);
      size -= before - groupSize(best, sizes);
      folded = true;
    }
    if (folded) {
      applyGroups(groups);
      size = total();
    }
  }

  // Fold what lies farthest from the viewport first, coming closer only while still over budget.
  for (const margin of [32, 16, 8, 4, 2, 1, 0.5, 0]) {
    if (size <= budget) break;
    if (foldOffscreen(root, margin, finalize, keep)) {
      folded = true;
      size = total();
    }
  }
  if (pending && finalize) {
    root.children = finalizeAll(root.children, finalize);
    size = total();
  }

  sayUnread(root);
  const lines: string[] = [];
  let data: OutlineLine[] | null = opts.lines ? [] : null;
  for (const r of root.children) emit(r, 0, lines, data, pr);
  let text: string;
  if (size > budget) {
    // Last resort: cut at the budget and say how much is missing.
    let used = 0;
    let k = 0;
    const reserve = 200;
    while (k < lines.length && used + lines[k].length + 1 <= budget - reserve) used += lines[k++].length + 1;
    const rest = lines.length - k;
    const cut =
      `${fmt(rest)} more lines omitted at the token budget (${fmt(budgetTokens)} tokens): ` + 'scope a snapshot with a locator or raise the budget to see them';
    text = (k ? lines.slice(0, k).join('\n') + '\n' : '') + `… ${cut}`;
    if (data) data = [...data.slice(0, k), { depth: 0, kind: 'summary', text: cut, states: {} }];
    folded = true;
  } else text = lines.join('\n');
  return data ? { text, tokens: estimateTokens(text.length), folded, lines: data } : { text, tokens: estimateTokens(text.length), folded };
}
