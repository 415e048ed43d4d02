/**
 * Puzzles asked as a whole task: a maze of doors walked until its way out shows, the Towers of Hanoi solved by the
 * recursion every solution follows. What is pure lives here (recognising the words, the moves); the agent carries it out.
 */
import { DOOR_NAMES, HANOI_SAID, MAZE_SAID, PEG_PICKERS } from './words/games';
import { either } from './words/grammar';

const MAZE = new RegExp(`^(?:${either(MAZE_SAID)})$`, 'i');
const HANOI = new RegExp(`^(?:${either(HANOI_SAID)})$`, 'i');
/** A control that is a maze's door: its name is a door word with its number or mark ("🚪 Door 2", "Gate B"). */
export const DOOR = new RegExp(`^\\W*(?:${either(DOOR_NAMES)})\\s*(?:#?\\s*\\w{1,3})?\\W*$`, 'i');
/** A control that picks a peg ("Select", "Selected"). */
export const PEG_PICKER = new RegExp(`^\\W*(?:${either(PEG_PICKERS)})\\W*$`, 'i');

/** Whether a clause asks to find the way out of a maze of doors. */
export const mazeSaid = (clause: string): boolean => MAZE.test(clause.trim());

/** A clause that asks for the Towers of Hanoi: the disks it names (undefined when it names none), or null when it is not one. */
export function hanoiSaid(clause: string): { disks?: number } | null {
  const m = HANOI.exec(clause.trim());
  if (!m) return null;
  const n = m.slice(1).find((g) => g !== undefined);
  return n ? { disks: Number(n) } : {};
}

/** The most disks solved (2^n - 1 moves, two clicks each). */
export const HANOI_MAX = 8;

/** The moves that carry `n` disks from peg 0 to peg 2, fewest there are: each [from, to]. */
export function hanoiMoves(n: number, from = 0, to = 2, via = 1): [number, number][] {
  if (n <= 0) return [];
  return [...hanoiMoves(n - 1, from, via, to), [from, to], ...hanoiMoves(n - 1, via, to, from)];
}
