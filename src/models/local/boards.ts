/**
 * Small boards: a tic-tac-toe board read off the outline (nine squares in a run, three rows of
 * three, or a table), and the move a careful player makes on it. The turns are the agent's.
 */
import { Refusal } from './act';
import type { OutlineNode } from './outline';
import { either } from './words/grammar';
import { BOARD_GAMES, CROSS_MARKS, GAME_WIN_VERBS, NOUGHT_MARKS } from './words/games';

export type Mark = 'X' | 'O';
export interface Square {
  /** The square's element, to click; null for a square the outline shows only as text. */
  node: OutlineNode | null;
  mark: Mark | '';
}

/** What a square is as a target: a box that takes clicks, a button, a cell, a picture of its mark. */
const SQUARE_ROLES = new Set(['clickable', 'button', 'cell', 'gridcell', 'img']);
const CROSS = new RegExp(`^(?:${either(CROSS_MARKS)})$`, 'iu');
const NOUGHT = new RegExp(`^(?:${either(NOUGHT_MARKS)})$`, 'iu');

/**
 * A square's mark from its name: X, O, '' (empty), or null when the node is no square (both marks,
 * a long text, a box of controls). A line of text is a square only when it is a mark alone.
 */
function squareOf(n: OutlineNode): Square | null {
  // An empty square may be named by its looks ("white square cell"), a marked one by its class ("cell mark x").
  const name = n.name.trim();
  if (name.length > 40 || n.children.some((c) => c.id)) return null;
  if (n.id && !SQUARE_ROLES.has(n.role)) return null;
  if (!n.id) return CROSS.test(name) ? { node: null, mark: 'X' } : NOUGHT.test(name) ? { node: null, mark: 'O' } : null;
  const words = name.split(/[\s,.:;()|/-]+/u).filter(Boolean);
  const x = words.some((w) => CROSS.test(w));
  const o = words.some((w) => NOUGHT.test(w));
  if (x && o) return null;
  return { node: n, mark: x ? 'X' : o ? 'O' : '' };
}

/** The runs of consecutive items that pass `take`, each as the values it gave. */
function runs<T>(items: OutlineNode[], take: (n: OutlineNode) => T | null): T[][] {
  const out: T[][] = [[]];
  for (const n of items) {
    const v = take(n);
    if (v === null) out.push([]);
    else out[out.length - 1]!.push(v);
  }
  return out.filter((r) => r.length);
}

/** Nine squares among one parent's children: a run of nine, or a run of three rows of three (a table's rows, boxes of three). */
function boardsUnder(p: OutlineNode): Square[][] {
  const kids = p.children.filter((c) => c.role !== 'text' || c.name.trim());
  const flat = runs(kids, squareOf).filter((r) => r.length === 9);
  const row = (r: OutlineNode) => {
    const sq = r.children.length === 3 ? r.children.map(squareOf) : [];
    return sq.length === 3 && sq.every((x) => x) ? (sq as Square[]) : null;
  };
  const rows = runs(kids, row)
    .filter((r) => r.length === 3)
    .map((r) => r.flat());
  return [...flat, ...rows];
}

/** Every tic-tac-toe board the page shows: nine squares, each empty or marked, at least one of them a target. */
export function boardsOf(nodes: OutlineNode[]): Square[][] {
  const parents = new Set<OutlineNode>();
  for (const n of nodes) if (n.parent) parents.add(n.parent);
  return [...parents].flatMap(boardsUnder).filter((b) => b.some((s) => s.node));
}

const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

/** Who has three in a line, 'draw' when the board is full, '' while the game goes on. */
export function winnerOf(b: Square[]): Mark | 'draw' | '' {
  for (const [a, c, d] of LINES) if (b[a]!.mark && b[a]!.mark === b[c]!.mark && b[c]!.mark === b[d]!.mark) return b[a]!.mark as Mark;
  return b.every((s) => s.mark) ? 'draw' : '';
}

const count = (b: Square[], m: Mark) => b.filter((s) => s.mark === m).length;

/**
 * Whose turn it is by the marks on the board, `first` having moved first (X, unless the page let the other player
 * open), or null when the counts cannot come from such a game.
 */
export function turnOf(b: Square[], first: Mark = 'X'): Mark | null {
  const second: Mark = first === 'X' ? 'O' : 'X';
  const d = count(b, first) - count(b, second);
  return d === 0 ? first : d === 1 ? second : null;
}

/**
 * Who opened the game, read when it is `me`'s turn: the other player when it has one mark more (a page whose computer
 * may play first), else X.
 */
export function openerOf(b: Square[], me: Mark | null): Mark {
  const other: Mark = me === 'X' ? 'O' : 'X';
  return me !== null && count(b, other) === count(b, me) + 1 ? other : 'X';
}

/** The empty squares that complete a line of two of `m`: where `m` wins at once. */
export function completing(b: Square[], m: Mark): number[] {
  const out = new Set<number>();
  for (const line of LINES) {
    const free = line.filter((k) => !b[k]!.mark);
    if (free.length === 1 && line.filter((k) => b[k]!.mark === m).length === 2) out.add(free[0]!);
  }
  return [...out];
}

/**
 * The square `me` plays: a win; else a block of the other's win; else a square that makes two
 * threats at once; else the centre, a corner across from the other's, any corner, any side.
 * Only squares that can be clicked; null when none can.
 */
export function bestMove(b: Square[], me: Mark): number | null {
  const them: Mark = me === 'X' ? 'O' : 'X';
  const open = (k: number) => !b[k]!.mark && !!b[k]!.node;
  const first = (ks: number[]) => ks.find(open) ?? null;
  const win = first(completing(b, me));
  if (win !== null) return win;
  const block = first(completing(b, them));
  if (block !== null) return block;
  for (let k = 0; k < 9; k++) {
    if (!open(k)) continue;
    const after = b.map((s, i) => (i === k ? { ...s, mark: me } : s));
    if (completing(after, me).length >= 2) return k;
  }
  const corners = [0, 2, 6, 8];
  return first([4, ...corners.filter((k) => b[8 - k]!.mark === them), ...corners, 1, 3, 5, 7]);
}

/** The step the planner writes for a game: the mark played, or "either" when the board says whose turn it is. */
export const GAME_STEP = /^win the game of tic-tac-toe as (X|O|either)$/;

const MARK = `['"“‘]?([xo])['"”’]?`;
const GAME = `(?:this\\s+|the\\s+|a\\s+)?(?:game\\s+(?:of\\s+)?)?(?:${either(BOARD_GAMES)})(?:\\s+game)?`;
/** "Playing as 'X', win this game of tic-tac-toe", "Win the tic-tac-toe game as O", "Play tic-tac-toe and win". */
const GAME_FORMS = [
  new RegExp(`^(?:(?:playing|play)\\s+as\\s+${MARK}\\s*,?\\s+)?(?:${either(GAME_WIN_VERBS)})\\s+${GAME}(?:\\s+(?:as|playing(?:\\s+as)?)\\s+${MARK})?$`, 'i'),
  new RegExp(`^play\\s+${GAME}(?:\\s+as\\s+${MARK})?\\s*,?\\s+and\\s+win(?:\\s+it)?$`, 'i'),
];

/** The canonical game step for a whole instruction that asks to win a game, or null. */
export function gameFirst(s: string): string | null {
  for (const form of GAME_FORMS) {
    const m = form.exec(s.trim());
    if (!m) continue;
    const marks = m
      .slice(1)
      .filter(Boolean)
      .map((x) => x!.toUpperCase());
    if (new Set(marks).size > 1) throw new Refusal('it names both marks as the one to play');
    return `win the game of tic-tac-toe as ${marks[0] ?? 'either'}`;
  }
  return null;
}
