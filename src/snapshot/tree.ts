import type { OutlineLine } from '../protocol/model';

/**
 * The snapshot's intermediate tree. The DOM walker (content script) builds it;
 * `render` (pure, unit-tested in Node) turns it into text within a token budget.
 */
export interface SnapNode {
  kind: 'element' | 'text' | 'frame' | 'summary';
  /** element: ARIA role; text: unused. */
  role?: string;
  name?: string;
  /** Short id printed in brackets, e.g. "e12" or "f1e3". */
  id?: string;
  /** Pre-rendered states, e.g. `checked required value="x"`. */
  states?: string;
  /** Text content for text and summary nodes. */
  text?: string;
  children: SnapNode[];
  /** frame: the extension frame id whose snapshot goes here (filled by the worker). */
  frameId?: number;
  /** frame: the child frame's snapshot as structured lines, one per line of `text`. */
  lines?: OutlineLine[];
  /** Lazily answers how far outside the viewport the node lies, in viewport heights (negative above, 0 inside); used only when folding. */
  offscreen?: () => number;
  /** element: where a name that is not text on screen came from (aria-label, title, alt, hidden-text, ...), printed as `namefrom=...`. */
  nameFrom?: string;
  /**
   * Content-script side only (never rendered): what the finaliser needs to leave out what a
   * person cannot see. `el` is the element of an element line; `parts` the pieces of a text
   * line with the element holding each (null for separators); `absorbed` the text line that
   * became an item's name; `final` marks a node already checked.
   */
  el?: Element;
  parts?: { texts: string[]; from: (Element | null)[] };
  absorbed?: SnapNode;
  final?: boolean;
  /** Characters of the text or name cut from this line to keep it within its share of the budget. */
  cutChars?: number;
  /** A clickable that holds other lines or much text: named by its own label only, never by its content or looks. */
  container?: boolean;
  /**
   * An item of a long list that was not read (walker.ts, walkLongRun): it counts in its list and
   * measures what the items read beside it do, so folding leaves it out; it is never printed as a line.
   */
  unread?: true;
  /** summary: it stands for items of a list folded in place ("rows 12 to 4,990 of 5,000 omitted here"), told apart in its line's states. */
  fold?: 'items';
  /**
   * A block far from the viewport that was not read (walker.ts, walkFar): it measures this many
   * characters and holds only its headings, so folding folds it into a summary; never printed as is.
   */
  far?: number;
  /** A finalised line that has nothing to say of its own (a region whose name went): print its children in its place. */
  unwrap?: boolean;
}

/** Turns a node built from the DOM into what a sighted user can see of it (null: nothing). */
export type Finalize = (node: SnapNode) => SnapNode | null;

/** Roles whose lines can be folded into "items 12 to 4,990 omitted" summaries. */
export const REPEATABLE_ROLES = new Set(['row', 'listitem', 'article', 'option', 'link', 'treeitem', 'menuitem', 'gridcell', 'figure', 'group', 'region']);

const PLURAL: Record<string, string> = { row: 'rows', listitem: 'items', option: 'options', link: 'links', article: 'articles' };
export const pluralFor = (role: string): string => PLURAL[role] ?? `${role} items`;

/** The token estimate the budget counts with (one rule: protocol/text.ts). */
export { estimateTokens } from '../protocol/text';
