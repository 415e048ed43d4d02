/**
 * Games played to their end: a number guessed by halving, a number drawn until it fits, a tic-tac-toe board played to a
 * win.
 */
import { quote } from '../../../protocol/text';
import type { OutlineNode } from '../outline';
import type { PlanStep } from '../plan';
import { bestMove, boardsOf, completing, openerOf, turnOf, winnerOf, type Mark, type Square } from '../boards';
import { drawButton, drawnNumber, isWanted, type Drawn } from '../draws';
import { answerTo, type Guess } from '../guessing';
import { GUESS_BUTTONS } from '../words/guesses';
import { exactMatch } from '../text';
import { oneOf } from '../words/grammar';
import { TEXT_ROLES, type View, look, type Outcome, actOnNode, type Run, pause } from './run';
import { WATCH_EVERY_MS } from './watch';

/**
 * Why the page's board cannot be played: none, a game already over, marks no game could leave, or a game the other
 * player opened (it has one mark more), which is taken on only when our mark wins at once: against a player who opened,
 * playing on may end in a draw or a loss, and the page's game with it.
 */
export function gameNotReady(mark: Mark | 'either', nodes: OutlineNode[]): string | null {
  const b = boardOf(nodes);
  if (typeof b === 'string') return b;
  const over = winnerOf(b);
  if (over) return over === 'draw' ? 'the game is already over: a draw' : `the game is already over: ${over} has won`;
  if (turnOf(b, 'X')) return null;
  if (!turnOf(b, 'O')) return 'the marks on the board cannot come from one game (one player, then the other, in turn)';
  return mark !== 'either' && turnOf(b, 'O') === mark && completing(b, mark).length
    ? null
    : 'the other player opened the game: a win cannot be counted on, and a game played to a draw or a loss cannot be taken back';
}

/** The one field a guess is typed into and the button it is sent with, or why there are not. */
export function guessControls(g: Guess, nodes: OutlineNode[]): { field: OutlineNode; send: OutlineNode } | string {
  const fields = nodes.filter((n) => n.id && TEXT_ROLES.has(n.role) && n.states.disabled !== true && n.states.readonly !== true);
  if (fields.length !== 1) return `the page shows ${fields.length || 'no'} fields to type a guess into`;
  const pressable = nodes.filter((n) => n.id && (n.role === 'button' || n.role === 'clickable') && n.states.disabled !== true);
  const sends = g.button ? pressable.filter((n) => exactMatch(n.name, g.button!)) : pressable.filter((n) => oneOf(GUESS_BUTTONS).test(n.name.trim()));
  if (sends.length !== 1) return `the page shows ${sends.length || 'no'} buttons ${g.button ? `named ${quote(g.button)}` : 'to send a guess with'}`;
  return { field: fields[0]!, send: sends[0]! };
}

/** The most guesses: halving finds any number of the range in fewer. */
const guessesFor = (g: Guess) => Math.ceil(Math.log2(g.hi - g.lo + 1)) + 2;

/**
 * Guess the number: the middle of what is left, typed and sent, the range halved by the page's
 * answer (higher, lower), until the page says the guess is right. An answer that does not come,
 * or answers that leave no number, end the run as a failure.
 */
export async function guessNumber(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const g = step.guess!;
  const start = current().nodes;
  let { lo, hi } = g;
  const tried: number[] = [];
  while (tried.length < guessesFor(g)) {
    if (r.signal.aborted) return { why: `cancelled after ${tried.length} guesses` };
    const c = guessControls(g, current().nodes);
    if (typeof c === 'string') return { why: c };
    const n = Math.floor((lo + hi) / 2);
    const before = current().nodes;
    const why = `${reasoning}: ${lo} to ${hi} left, ${n} is the middle`;
    if (
      !(await actOnNode(
        r,
        c.field,
        'fill',
        [String(n)],
        `enter ${quote(String(n))} into ${c.field.name ? quote(c.field.name) : `the ${c.field.role}`}`,
        why,
        current().url,
      ))
    )
      return { why: 'the field went away' };
    if (!(await actOnNode(r, c.send, 'click', [], `click ${quote(c.send.name)}`, why, current().url))) return { why: 'the button went away' };
    tried.push(n);
    await r.settle();
    set(await look(r, r.instruction));
    const said = answerTo(start, before, current().nodes);
    if (said === 'right') return { did: `guessed ${n}, which the page says is right (guesses: ${tried.join(', ')})` };
    if (!said)
      return { why: `after the guess ${n} the page said neither higher, lower nor right: whether it was right is not known (guesses: ${tried.join(', ')})` };
    if (said === 'higher') lo = n + 1;
    else hi = n - 1;
    if (lo > hi) return { why: `the page's answers leave no number from ${g.lo} to ${g.hi} (guesses: ${tried.join(', ')})` };
  }
  return { why: `no guess was right after ${tried.length} (guesses: ${tried.join(', ')})` };
}

/** The most draws: a number that fits half the time is drawn in fewer with a chance of a billion to one. */
const DRAWS_MAX = 30;

/**
 * Draw until the number fits: the page's button clicked, the number it brought up read (the one
 * changed line with a number, then that line after each draw), again until it fits. At least one
 * draw, as asked; a draw that shows no number, or lines that leave the number open, end the run.
 */
export async function drawStep(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const d = step.draw!;
  const drawn: number[] = [];
  let shown: Drawn | null = null;
  for (let k = 0; k < DRAWS_MAX; k++) {
    if (r.signal.aborted) return { why: `cancelled after ${k} draws` };
    const button = drawButton(d, current().nodes);
    if (typeof button === 'string') return { why: button };
    const before = current().nodes;
    const why = `${reasoning}: ${shown ? `${shown.value} is not ${d.text}` : 'a first draw'}`;
    if (!(await actOnNode(r, button, 'click', [], `click ${quote(button.name)}`, why, current().url))) return { why: 'the button went away' };
    await r.settle();
    set(await look(r, r.instruction));
    const read = drawnNumber(before, current().nodes, shown?.shape, shown ?? undefined);
    if (typeof read === 'string') return { why: read };
    if (!read) return { why: `clicking ${quote(button.name)} brought up no number` };
    shown = read;
    drawn.push(read.value);
    if (isWanted(d.want, read.value)) return { did: `drew ${read.value}, which is ${d.text} (draws: ${drawn.join(', ')})` };
  }
  return { why: `no number drawn was ${d.text} after ${DRAWS_MAX} draws (${drawn.join(', ')})` };
}

/** The page's one tic-tac-toe board, or why there is not one. */
function boardOf(nodes: OutlineNode[]): Square[] | string {
  const boards = boardsOf(nodes);
  return boards.length === 1
    ? boards[0]!
    : boards.length
      ? `the page shows ${boards.length} boards of nine squares`
      : 'the page shows no board of nine squares';
}

/** How long the other player may take to answer a move. */
const REPLY_MS = 5_000;
const ROWS = ['top', 'middle', 'bottom'];
const COLUMNS = ['left', 'centre', 'right'];
const squareName = (k: number) => (k === 4 ? 'the centre' : `the ${ROWS[Math.floor(k / 3)]} ${COLUMNS[k % 3]}`.replace('middle centre', 'centre'));

/**
 * Play the page's board until it shows three of our mark in a line: each turn a win, a block, a
 * fork, the centre, a corner or a side (boards.ts), after the other player has answered. A
 * square that does not take the mark, a lost or drawn game, or an answer that never comes ends
 * the run as a failure; done only when the board shows the line.
 */
export async function playGame(r: Run, step: PlanStep, reasoning: string, current: () => View, set: (v: View) => void): Promise<Outcome> {
  const said = step.game!.mark;
  let me: Mark | null = said === 'either' ? null : said;
  const moves: string[] = [];
  // Who opened: read from the board as the game is handed over, on our turn.
  const start = boardOf(current().nodes);
  const first = typeof start === 'string' ? 'X' : openerOf(start, me);
  for (let turn = 0; turn <= 9; turn++) {
    let b = boardOf(current().nodes);
    // The other player's answer may come a moment later: read the board again until it is our turn or the game is over.
    for (const t0 = Date.now(); typeof b !== 'string' && !winnerOf(b) && me !== null && turnOf(b, first) !== me && Date.now() - t0 < REPLY_MS;) {
      await pause(WATCH_EVERY_MS, r.signal);
      set(await look(r, r.instruction));
      b = boardOf(current().nodes);
    }
    if (typeof b === 'string') return { why: b };
    const played = moves.length ? ` after playing ${moves.join(', ')}` : '';
    const over = winnerOf(b);
    if (over && over === me) return { did: `won as ${me}: three in a line${played}` };
    if (over) return { why: over === 'draw' ? `the game ended in a draw${played}` : `${over} won the game${played}` };
    const next = turnOf(b, first);
    if (!next) return { why: `the board shows marks that cannot come from one game${played}` };
    me ??= next;
    if (next !== me) return { why: `the other player did not move within ${REPLY_MS / 1000} s${played}` };
    const k = bestMove(b, me);
    if (k === null) return { why: `no empty square on the board can be clicked${played}` };
    const say = `click ${squareName(k)} square`;
    if (!(await actOnNode(r, b[k]!.node!, 'click', [], say, `${reasoning}: ${me} to ${squareName(k)}`, current().url))) return { why: 'the square went away' };
    moves.push(squareName(k));
    await r.settle();
    set(await look(r, r.instruction));
    const after = boardOf(current().nodes);
    if (typeof after !== 'string' && after[k]!.mark !== me) return { why: `clicked ${squareName(k)}, but the square does not show ${me}` };
  }
  return { why: `no line after ${moves.length} moves` };
}
