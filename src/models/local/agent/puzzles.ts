/**
 * Puzzles solved move by move: a maze walked, a river crossed, the Towers of Hanoi, a file removed through the page's
 * terminal.
 */
import { clip, quote } from '../../../protocol/text';
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { lineKey, secretsShown } from '../secrets';
import { DOOR, HANOI_MAX, hanoiMoves, LOAD, MOVE_BOAT, PEG_PICKER, riverCrossings, riverRules, UNLOAD, type Crossing } from '../puzzles';
import { describeFile, failure, filesIn, fits, printed } from '../shell';
import { SHELL_COMMANDS } from '../words/shell';
import { type View, look, type Outcome, actOnNode, whyNot, type Run, pause } from './run';
import { WATCH_EVERY_MS } from './watch';

/** The most moves through a maze: doors taken and ways back together. */
const MAZE_MOVES_MAX = 60;
const DOOR_ROLES = new Set(['button', 'link', 'clickable']);
/** A maze's doors: controls named as doors, open or shut. */
export const doorsOf = (nodes: OutlineNode[]) => nodes.filter((n) => n.id && DOOR_ROLES.has(n.role) && DOOR.test(n.name));

/**
 * A maze walked until its way out shows (a secret the page did not show before): in each room (an address) the first
 * open door not yet taken from it, and from a room with none (a dead end, its doors shut) back to the room before (the
 * browser's Back, else its address). A door that leaves the address as it was cannot be come back through: the walk stops there.
 */
export async function mazeStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const shownFirst = new Set(r.first?.nodes.map((n) => lineKey(n.name)));
  const rooms: { url: string; tried: Set<string>; door?: string }[] = [{ url: current().url, tried: new Set() }];
  const way = () => rooms.flatMap((x) => (x.door ? [quote(x.door)] : [])).join(' > ');
  for (let moves = 0; moves < MAZE_MOVES_MAX; moves++) {
    if (secretsShown(current().nodes, shownFirst).length) return { did: `went through the maze by ${way() || 'no door'}` };
    const room = rooms[rooms.length - 1]!;
    const door = doorsOf(current().nodes).find((n) => n.states.disabled !== true && !room.tried.has(n.name));
    if (door) {
      room.tried.add(door.name);
      const why = `${reasoning}: ${room.tried.size === 1 ? 'the first door' : 'the next door'} not yet taken from this room`;
      if (!(await actOnNode(r, door, 'click', [], `click ${quote(door.name)}`, why, current().url))) return { why: `${quote(door.name)} went away` };
      await r.settle();
      set(await look(r, r.instruction));
      if (current().url === room.url) return { why: `${quote(door.name)} did not lead to another address, so the way back from it is not known` };
      rooms.push({ url: current().url, tried: new Set(), door: door.name });
      continue;
    }
    rooms.pop();
    const back = rooms[rooms.length - 1];
    if (!back) return { why: 'every door was tried, and none led out' };
    // The browser's Back first (a site that draws its rooms itself may not serve their addresses); else the room by its address.
    let at = (await r.back()).url;
    let how = 'went back to';
    if (at !== back.url) ((at = (await r.open(back.url)).url), (how = 'opened'));
    r.note(`go back to ${back.url}`, `${reasoning}: no door left to try here`, `${how} ${at}`, at, null);
    await r.settle();
    set(await look(r, r.instruction));
  }
  return { why: `no way out showed within ${MAZE_MOVES_MAX} moves (${way()})` };
}

const RIVER_ROLES = new Set(['button', 'clickable']);
/** The page's enabled controls whose name fits. */
const enabledNamed = (nodes: OutlineNode[], re: RegExp) =>
  nodes.filter((n) => n.id && RIVER_ROLES.has(n.role) && n.states.disabled !== true && re.test(n.name));

/**
 * A river crossing worked out before anything is done: the items are those the page loads ("Load wolf"), all on the boat's
 * bank, the left one; the rules are the page's ("the wolf will eat the goat", "the boat can carry up to two items").
 */
export function riverPlan(said: { items: string[] }, nodes: OutlineNode[]): Crossing[] | string {
  const loads = nodes.filter((n) => n.id && RIVER_ROLES.has(n.role) && LOAD.test(n.name));
  const items = [...new Set(loads.map((n) => LOAD.exec(n.name)![1]!.toLowerCase()))];
  const missing = said.items.filter((it) => !items.includes(it.replace(/s$/, '')) && !items.includes(it));
  if (missing.length) return `the page loads no ${missing.join(' or ')} onto a boat`;
  if (loads.length !== items.length || loads.some((n) => n.states.disabled === true)) return 'the items are not all waiting on the bank the boat is at';
  const right = enabledNamed(nodes, MOVE_BOAT).map((n) => MOVE_BOAT.exec(n.name)![1]!.toLowerCase());
  if (right.join() !== 'right') return 'the boat is not at the left bank, ready to cross';
  const rules = riverRules(
    nodes.filter((n) => !n.id || n.role === 'listitem').map((n) => n.name),
    items,
  );
  if (!rules.eats.length) return 'the page says nothing of which item eats which';
  return riverCrossings(items, rules.eats, rules.seats) ?? `no crossings take them all over safely, ${rules.seats} at a time`;
}

/** The crossings made: each load, the boat moved, everything unloaded; a control missing on the way stops the run there. */
export async function riverStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const plan = riverPlan(step.river!, current().nodes);
  if (typeof plan === 'string') return { why: plan };
  const click = async (re: RegExp, what: string, why: string): Promise<string | null> => {
    const [node] = enabledNamed(current().nodes, re);
    if (!node) return `the page shows no ${what} to click`;
    if (!(await actOnNode(r, node, 'click', [], `click ${quote(node.name)}`, why, current().url))) return `${quote(node.name)} went away`;
    set(await look(r, r.instruction));
    return null;
  };
  for (const [k, c] of plan.entries()) {
    const why = `${reasoning}: crossing ${k + 1} of ${plan.length}, ${c.load.length ? c.load.join(' and ') : 'nothing'} to the ${c.to} bank`;
    for (const it of c.load) {
      // Items are words of letters (LOAD): nothing in them is read as a pattern.
      const failed = await click(new RegExp(`^\\W*load (?:the )?${it}\\W*$`, 'i'), `"Load ${it}"`, why);
      if (failed) return { why: `${failed} (crossing ${k + 1} of ${plan.length})` };
    }
    const moved = await click(new RegExp(`^\\W*move (?:the )?boat ${c.to}\\W*$`, 'i'), `"Move boat ${c.to}"`, why);
    if (moved) return { why: `${moved} (crossing ${k + 1} of ${plan.length})` };
    for (let u = 0; u < c.load.length; u++) {
      const failed = await click(UNLOAD, 'control that unloads the boat', why);
      if (failed) return { why: `${failed} (crossing ${k + 1} of ${plan.length})` };
    }
  }
  return { did: `took everything across in ${plan.length} crossings` };
}

const HANOI_UNSAID = 'how many disks there are is not said, and the built-in model does not count them in the drawing';
const PEG_PLACES = ['left', 'middle', 'right'];
/** The count of moves a puzzle page shows ("Moves: 12"). */
const MOVES_SHOWN = /^moves(?: made)?\s*:\s*(\d+)$/i;
const movesShown = (nodes: OutlineNode[]) => {
  const m = nodes.map((n) => (n.role === 'text' ? MOVES_SHOWN.exec(n.name.trim()) : null)).find(Boolean);
  return m ? Number(m[1]) : null;
};

/**
 * Why the Towers of Hanoi cannot start: the disks not said, no three peg pickers, or no count of moves (without it a move
 * the page did not take would go unseen, and the run would say done with the disks where they were).
 */
export function hanoiNotReady(h: NonNullable<PlanStep['hanoi']>, nodes: OutlineNode[]): string | null {
  if (h.disks === undefined) return HANOI_UNSAID;
  if (h.disks < 1 || h.disks > HANOI_MAX) return `it names ${h.disks} disks, and the built-in model moves 1 to ${HANOI_MAX}`;
  return whyNot(pegPickers(nodes)) ?? (movesShown(nodes) === null ? 'the page shows no count of moves ("Moves: 0") to check each move by' : null);
}

/** The three controls that pick a peg, left to right ("Select" under each), or why the page does not show three. */
function pegPickers(nodes: OutlineNode[]): OutlineNode[] | string {
  const pickers = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && PEG_PICKER.test(n.name) && n.states.disabled !== true);
  return pickers.length === 3 ? pickers : `the page shows ${pickers.length || 'no'} controls that pick a peg, not three`;
}

/**
 * The Towers of Hanoi: each move of the fewest that carry the disks from the left peg to the right one, made by picking
 * its peg and then the peg it goes to. A page that counts moves must count each one, or the run stops there.
 */
export async function hanoiStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const not = hanoiNotReady(step.hanoi!, current().nodes);
  if (not) return { why: not };
  const n = step.hanoi!.disks!;
  const moves = hanoiMoves(n);
  const shownFirst = new Set(r.first?.nodes.map((x) => lineKey(x.name)));
  for (const [k, [a, b]] of moves.entries()) {
    if (r.signal.aborted) return { why: `cancelled after ${k} of ${moves.length} moves` };
    const before = movesShown(current().nodes);
    const why = `${reasoning}: move ${k + 1} of ${moves.length}, the top disk of the ${PEG_PLACES[a]} peg onto the ${PEG_PLACES[b]} one`;
    for (const i of [a, b]) {
      const pegs = pegPickers(current().nodes);
      if (typeof pegs === 'string') return { why: `${pegs}, after ${k} of ${moves.length} moves` };
      const peg = pegs[i]!;
      if (!(await actOnNode(r, peg, 'click', [], `click ${quote(peg.name)} under the ${PEG_PLACES[i]} peg`, why, current().url))) {
        return { why: `the ${PEG_PLACES[i]} peg's ${quote(peg.name)} went away after ${k} of ${moves.length} moves` };
      }
      set(await look(r, r.instruction));
    }
    const after = movesShown(current().nodes);
    // A page that puts its prize in the puzzle's place once it is solved counts no more moves.
    if (k === moves.length - 1 && after === null && secretsShown(current().nodes, shownFirst).length) break;
    if (before === null || after !== before + 1) {
      return {
        why: `after move ${k + 1} of ${moves.length} the page counts ${after ?? 'no'} moves, not ${(before ?? -1) + 1}: it did not take the move`,
      };
    }
  }
  return { did: `moved the ${n} disks to the right peg in ${moves.length} moves` };
}

/** How long a terminal may take to print what a command did. */
const PRINT_MS = 2_000;

/** The page's terminal: its one text field a command is typed into, or why there is not one. */
export function terminalField(nodes: OutlineNode[]): OutlineNode | string {
  const fields = nodes.filter((n) => n.id && n.role === 'textbox' && (n.states.type === undefined || n.states.type === 'text'));
  return fields.length === 1
    ? fields[0]!
    : fields.length
      ? `the page shows ${fields.length} text fields, not one terminal`
      : 'the page shows no terminal to type in';
}

/**
 * Remove one file through the page's command line: list the files, remove the one the
 * instruction describes (only when exactly one fits), list again. Done only when the listing no
 * longer shows it; a command the terminal says failed ends the run there.
 */
export async function removeFileStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const want = step.removeFile!;
  const run = async (command: string): Promise<string[] | null> => {
    const field = terminalField(current().nodes);
    if (typeof field === 'string') return null;
    const before = current().nodes;
    const why = `${reasoning}: type ${quote(command)} in the terminal`;
    if (!(await actOnNode(r, field, 'fill', [command], `type ${quote(command)} in the terminal`, why, current().url))) return null;
    if (!(await actOnNode(r, field, 'press', ['Enter'], 'press Enter in the terminal', why, current().url))) return null;
    // What the command prints may come a moment later, and a line at a time: read until two looks agree.
    let last: string[] = [];
    for (const t0 = Date.now(); ;) {
      await r.settle();
      set(await look(r, r.instruction));
      const lines = printed(before, current().nodes, command);
      if ((lines.length && lines.join('\n') === last.join('\n')) || Date.now() - t0 > PRINT_MS || r.signal.aborted) return lines;
      last = lines;
      await pause(WATCH_EVERY_MS, r.signal);
    }
  };
  const field = terminalField(current().nodes);
  if (typeof field === 'string') return { why: field };
  const said = (lines: string[]) => quote(clip(lines.join(' / '), 120));
  const listed = await run(SHELL_COMMANDS.list);
  if (!listed) return { why: 'the terminal went away' };
  const wrong = failure(listed);
  if (wrong) return { why: `the terminal answered ${quote(SHELL_COMMANDS.list)} with ${quote(clip(wrong, 120))}` };
  const files = filesIn(listed);
  if (!files.length) return { why: `the terminal listed no files${listed.length ? `: it printed ${said(listed)}` : ''}` };
  const found = [...new Set(files.filter(fits(want)))];
  if (found.length !== 1)
    return { why: `${found.length ? `${found.length} files fit` : 'no file fits'} ${describeFile(want).replace(/^the file /, '')} among ${said(files)}` };
  const file = found[0]!;
  const removed = await run(`${SHELL_COMMANDS.remove} ${file}`);
  if (!removed) return { why: 'the terminal went away' };
  const failed = failure(removed);
  if (failed) return { why: `the terminal answered the removal of ${file} with ${quote(clip(failed, 120))}` };
  const after = await run(SHELL_COMMANDS.list);
  if (!after) return { why: 'the terminal went away' };
  const left = filesIn(after);
  if (left.includes(file)) return { why: `${file} is still listed after ${quote(`${SHELL_COMMANDS.remove} ${file}`)}` };
  if (!left.length && files.length > 1) return { why: `the terminal listed nothing after the removal of ${file}: whether it is gone is not known` };
  return { did: `deleted ${file} in the terminal (${quote(SHELL_COMMANDS.list)} no longer lists it)` };
}
