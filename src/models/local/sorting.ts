/**
 * "Sort the numbers in increasing order", "put the guests in alphabetical order": the planner's
 * reading of a sort (one canonical step), and the list on the page it acts on. The moves are the
 * agent's (a drag, or Move up / Move down, to each item's place in turn).
 */
import { Refusal } from './act';
import { optionsOf, type OutlineNode } from './outline';
import { either } from './words/grammar';
import { BY_LETTER_DOWN, BY_LETTER_UP, LARGEST, LIST_ENDS, LIST_STARTS, SMALLEST, SORT_DOWN, SORT_UP, SORT_VERBS } from './words/orders';

export interface SortSpec {
  /** By the number each item is, by its name (A to Z), or by numbers when every item is one and by name otherwise. */
  by: 'number' | 'name' | 'auto';
  order: 'ascending' | 'descending';
}

const EXTREME = `(${either([...SMALLEST, ...LARGEST])})(?:\\s+(?:number|one|value|item|digit))?`;
/**
 * One way of saying the order: "in increasing order", "alphabetically", "from largest to smallest", "from A to Z",
 * "smallest first", "starting with the lowest number at the top of the list". Its groups are read by `wayOf`.
 */
const PHRASE =
  `(?:in(?:to)?\\s+(?:an?\\s+|the\\s+)?(${either([...BY_LETTER_DOWN, ...BY_LETTER_UP, ...SORT_DOWN, ...SORT_UP])})\\s+order` +
  '|(alphabetically|numerically)' +
  `|from\\s+(?:the\\s+)?${EXTREME}\\s+to\\s+(?:the\\s+)?${EXTREME}` +
  '|from\\s+([az])\\s+to\\s+([az])' +
  `|(?:with\\s+)?(?:the\\s+)?${EXTREME}\\s+first` +
  `|(?:starting|beginning)\\s+with\\s+(?:the\\s+)?${EXTREME}\\s+(?:at|on)\\s+(?:the\\s+)?(${either([...LIST_STARTS, ...LIST_ENDS])})` +
  '(?:\\s+of\\s+the\\s+(?:list|column|row|page))?)';
/**
 * A sort clause at the start of an instruction: the verb, what is sorted (one word or more, never "to ..." nor the order's own words), then the
 * order. "Move the largest number first" names no list: it is one item's move, not a sort.
 */
const SORT_HEAD = new RegExp(
  `^(?:${either(SORT_VERBS)})\\s+(?:all\\s+)?(?:of\\s+)?(?:the\\s+)?(?:(?!(?:to|into|onto|the|${either([...SMALLEST, ...LARGEST])})\\b)[\\w'-]+\\s+){1,5}?` +
    `(?:so\\s+(?:that\\s+)?(?:they|it)\\s+(?:are|is|reads?)\\s+)?${PHRASE}`,
  'i',
);
/** The order said again after a comma ("..., smallest first"), and "by dragging them". */
const MORE = new RegExp(`^\\s*,?\\s+(?:and\\s+)?${PHRASE}`, 'i');
const BY_DRAGGING = /^\s*,?\s+by\s+dragging(?:\s+(?:them|it|the\s+[\w-]+))?(?:\s+(?:up|down|around))?/i;
/** Where a sort clause may end: the end, or the next clause. */
const CLAUSE_END = /^\s*(?:[,;.]|\band\b|\bthen\b|$)/i;

/** The step the planner writes for a sort. */
export const SORT_STEP = /^sort the list by (number|name|auto) (ascending|descending)$/;

const small = (w: string) => SMALLEST.includes(w.toLowerCase());
type Way = { order: SortSpec['order']; by: SortSpec['by'] };

/** The order one phrase says (the groups of PHRASE, after the whole match). */
function wayOf(g: (string | undefined)[]): Way {
  const [said, adverb, from, to, fromLetter, toLetter, first, startWord, startAt] = g;
  if (said) {
    const w = said.toLowerCase().replace(/\s+/g, ' ');
    if (BY_LETTER_DOWN.includes(w)) return { order: 'descending', by: 'name' };
    if (BY_LETTER_UP.includes(w)) return { order: 'ascending', by: 'name' };
    if (w === 'ascending' || w === 'descending') return { order: w, by: 'auto' };
    return { order: SORT_DOWN.includes(w) ? 'descending' : 'ascending', by: 'number' };
  }
  if (adverb) return { order: 'ascending', by: adverb.toLowerCase() === 'alphabetically' ? 'name' : 'number' };
  if (from && to) {
    if (small(from) === small(to)) throw new Refusal(`it asks for an order from ${from} to ${to}, which is no order`);
    return { order: small(from) ? 'ascending' : 'descending', by: 'number' };
  }
  if (fromLetter && toLetter) {
    if (fromLetter.toLowerCase() === toLetter.toLowerCase()) throw new Refusal(`it asks for an order from ${fromLetter} to ${toLetter}, which is no order`);
    return { order: fromLetter.toLowerCase() === 'a' ? 'ascending' : 'descending', by: 'name' };
  }
  if (first) return { order: small(first) ? 'ascending' : 'descending', by: 'number' };
  return { order: small(startWord!) === LIST_STARTS.includes(startAt!.toLowerCase()) ? 'ascending' : 'descending', by: 'number' };
}

/**
 * "Sort the numbers in increasing order, starting with the lowest number at the top, then
 * submit": the canonical sort step, then the rest. Two orders that disagree are a refusal.
 */
export function sortFirst(s: string): string | null {
  let m = SORT_HEAD.exec(s);
  if (!m) return null;
  const ways = [wayOf(m.slice(1))];
  let rest = s.slice(m[0].length);
  while ((m = MORE.exec(rest))) {
    ways.push(wayOf(m.slice(1)));
    rest = rest.slice(m[0].length);
  }
  rest = rest.replace(BY_DRAGGING, '');
  if (!CLAUSE_END.test(rest)) return null;
  const order = ways[0]!.order;
  if (ways.some((w) => w.order !== order)) throw new Refusal('it names two orders for the list that disagree');
  // A word order ("alphabetical") decides what is compared; "starting with the lowest number" alone does not make names numbers.
  const way = ways.find((w) => w.by === 'name') ?? ways.find((w) => w.by === 'number') ?? ways[0]!;
  return `sort the list by ${way.by} ${order}${rest}`;
}

/** A list the page shows whose items can change places: a native list box's options, or a run of like items. */
export interface SortableList {
  /** The list box whose options these are (moved by its Move up / Move down buttons). */
  box?: OutlineNode;
  /** The items, in page order (empty for a list box). */
  items: OutlineNode[];
  names: string[];
}

/** Roles of items that lists are sorted by moving (rows of a table are sorted by its headers instead). */
const ITEM_ROLES = new Set(['listitem', 'option', 'clickable', 'treeitem']);

/** Every list of two or more like items with names: list boxes, and runs of like siblings that take input. */
function lists(nodes: OutlineNode[]): SortableList[] {
  const out: SortableList[] = [];
  const parents = new Set<OutlineNode>();
  for (const n of nodes) {
    if (n.parent) parents.add(n.parent);
    // A list the snapshot cut short ("(+3 more)") has an order nobody can see whole.
    if (n.id && n.role === 'listbox' && optionsOf(n).length >= 2 && !/\(\+\d+ more\)$/.test(String(n.states.options)))
      out.push({ box: n, items: [], names: optionsOf(n) });
  }
  for (const p of parents) {
    let run: OutlineNode[] = [];
    const flush = () => {
      if (run.length >= 2) out.push({ items: run, names: run.map((x) => x.name.trim()) });
      run = [];
    };
    for (const c of p.children) {
      const item = !!c.id && ITEM_ROLES.has(c.role) && c.name.trim() !== '';
      if (!item || (run.length && run[0]!.role !== c.role)) flush();
      if (item) run.push(c);
    }
    flush();
  }
  return out;
}

/** The number an item is ("7", "-3", "1,250.5"), or null. */
function itemNumber(name: string): number | null {
  const t = name.trim().replace(/^[−–]/, '-');
  if (!/^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(t)) return null;
  return Number(t.replace(/,/g, ''));
}
const allNumbers = (names: string[]) => names.every((n) => itemNumber(n) !== null);
const allWords = (names: string[]) => names.every((n) => /\p{L}/u.test(n));

/**
 * The one list on the page the sort is about, with the order its items must end in; or why none.
 * `names`, once known, keeps to the same list as its items move.
 */
export function sortTarget(spec: SortSpec, nodes: OutlineNode[], names?: string[]): { list: SortableList; want: string[] } | string {
  const fits = (l: SortableList) =>
    spec.by === 'number' ? allNumbers(l.names) : spec.by === 'name' ? allWords(l.names) : allNumbers(l.names) || allWords(l.names);
  const same = (l: SortableList) => !names || [...l.names].sort().join('\u0000') === [...names].sort().join('\u0000');
  const found = lists(nodes).filter((l) => fits(l) && same(l));
  const what = spec.by === 'number' ? 'numbers' : spec.by === 'name' ? 'names' : 'items';
  if (!found.length) return names ? 'the list went away' : `the page shows no list of ${what} whose items can be moved`;
  if (found.length > 1) return `the page shows ${found.length} lists of ${what}, and the instruction does not say which one to sort`;
  const list = found[0]!;
  if (new Set(list.names).size !== list.names.length) return 'the list shows the same item twice, so which goes where is not known';
  const byNumber = spec.by === 'number' || (spec.by === 'auto' && allNumbers(list.names));
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  const want = [...list.names].sort((a, b) => (byNumber ? itemNumber(a)! - itemNumber(b)! : collator.compare(a, b)));
  if (spec.order === 'descending') want.reverse();
  return { list, want };
}
