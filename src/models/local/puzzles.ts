/**
 * Puzzles asked as a whole task: a maze of doors walked until its way out shows, the Towers of Hanoi solved by the
 * recursion every solution follows, a river crossing worked out from the rules the page states. What is pure lives
 * here (recognising the words, the moves); the agent carries it out.
 */
import { DOOR_NAMES, EATS_SAID, HANOI_SAID, MAZE_SAID, PEG_PICKERS, RIVER_SAID, SEATS_SAID } from './words/games';
import { either } from './words/grammar';
import { COUNT_WORDS } from './words/numbers';

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

const RIVER = new RegExp(`^(?:${either(RIVER_SAID)})$`, 'i');
const EATS = new RegExp(either(EATS_SAID), 'gi');
const SEATS = new RegExp(either(SEATS_SAID), 'i');
/** A control that loads an item onto the boat: (1) the item ("Load wolf"). */
export const LOAD = /^\W*load (?:the )?([a-z]+)\W*$/i;
/** A control that unloads the boat ("Unload", "Unload goat"). */
export const UNLOAD = /^\W*unload\b/i;
/** A control that moves the boat: (1) which way. */
export const MOVE_BOAT = /^\W*move (?:the )?boat (left|right)\W*$/i;

/** A clause that asks for a river crossing: what it names to take across (singular words), or null. */
export function riverSaid(clause: string): { items: string[] } | null {
  const m = RIVER.exec(clause.trim().replace(/[.!]+$/, ''));
  if (!m) return null;
  const items = m
    .slice(1)
    .find((g) => g !== undefined)!
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
    .map((x) =>
      x
        .replace(/^(?:a|an|the)\s+/i, '')
        .trim()
        .toLowerCase(),
    )
    .filter(Boolean);
  return items.length ? { items } : null;
}

/** The rules a page states: which item eats which, and how many the boat carries (one when it does not say). */
export function riverRules(lines: readonly string[], items: readonly string[]): { eats: [string, string][]; seats: number } {
  const eats: [string, string][] = [];
  let seats = 1;
  for (const line of lines) {
    for (const m of line.matchAll(EATS)) {
      const pair = [m[1]!.toLowerCase(), m[2]!.toLowerCase()].map((w) => w.replace(/s$/, '')) as [string, string];
      if (pair.every((w) => items.includes(w)) && !eats.some(([a, b]) => a === pair[0] && b === pair[1])) eats.push(pair);
    }
    const s = SEATS.exec(line);
    if (s) seats = COUNT_WORDS[s[1]!.toLowerCase()] ?? (Number(s[1]) || 1);
  }
  return { eats, seats };
}

/** One crossing: what is loaded on the boat's bank, and the bank it goes to (unloaded there). */
export interface Crossing {
  load: string[];
  to: 'left' | 'right';
}

/** The most items a crossing is worked out for. */
export const RIVER_ITEMS_MAX = 6;

/**
 * The fewest crossings that take every item from the left bank to the right, the boat starting on the left: a bank the
 * boat has just left must hold no item with the item that eats it. Null when there is none.
 */
export function riverCrossings(items: readonly string[], eats: readonly [string, string][], seats: number): Crossing[] | null {
  const n = items.length;
  if (n > RIVER_ITEMS_MAX || seats < 1) return null;
  const all = (1 << n) - 1;
  const bit = (it: string) => 1 << items.indexOf(it);
  const safe = (bank: number) => !eats.some(([a, b]) => bank & bit(a) && bank & bit(b));
  const key = (left: number, boatLeft: boolean) => left * 2 + (boatLeft ? 1 : 0);
  const from = new Map<number, { prev: number; crossing: Crossing } | null>([[key(all, true), null]]);
  const queue: [number, boolean][] = [[all, true]];
  while (queue.length) {
    const [left, boatLeft] = queue.shift()!;
    if (left === 0 && !boatLeft) {
      const out: Crossing[] = [];
      for (let k = key(left, boatLeft); from.get(k); k = from.get(k)!.prev) out.unshift(from.get(k)!.crossing);
      return out;
    }
    const here = boatLeft ? left : all & ~left;
    for (let s = 0; s <= here; s++) {
      if ((s & here) !== s || popcount(s) > seats) continue;
      const next = boatLeft ? left & ~s : left | s;
      const behind = boatLeft ? next : all & ~next;
      const k = key(next, !boatLeft);
      if (!safe(behind) || from.has(k)) continue;
      from.set(k, { prev: key(left, boatLeft), crossing: { load: items.filter((it) => s & bit(it)), to: boatLeft ? 'right' : 'left' } });
      queue.push([next, !boatLeft]);
    }
  }
  return null;
}

const popcount = (x: number) => x.toString(2).replace(/0/g, '').length;
