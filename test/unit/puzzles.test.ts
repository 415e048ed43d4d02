/**
 * A tic-tac-toe board read off the outline and the move played on it; a number guessed with the page's answers; a file
 * removed through the page's terminal; the Towers of Hanoi and a maze of doors.
 */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { bestMove, boardsOf, openerOf, turnOf, winnerOf, type Square } from '../../src/models/local/boards';
import { buildOutline } from '../../src/models/local/outline';
import { planInstruction } from '../../src/models/local/plan';
import { Refusal } from '../../src/models/local/act';
import { drawButton, drawnNumber, isWanted } from '../../src/models/local/draws';
import { answerTo } from '../../src/models/local/guessing';
import { failure, fileToRemove, filesIn, fits, printed } from '../../src/models/local/shell';
import { DOOR, hanoiMoves, hanoiSaid, mazeSaid, PEG_PICKER, riverCrossings, riverRules, riverSaid } from '../../src/models/local/puzzles';

let n = 0;
const el = (role: string, name: string, depth = 0, states = {}): OutlineLine => ({ depth, kind: 'element', role, name, id: `e${++n}`, states });
const text = (t: string, depth = 0): OutlineLine => ({ depth, kind: 'text', text: t, states: {} }) as unknown as OutlineLine;
/** Nine squares from a board written as nine characters ("X-O-O---X"). */
const squares = (b: string): Square[] =>
  b.split('').map((c) => ({ node: buildOutline([el('clickable', c === '-' ? '' : c)])[0]!, mark: c === '-' ? '' : (c as 'X' | 'O') }));
const marks = (b: Square[]) => b.map((s) => s.mark || '-').join('');

describe('a board of nine squares', () => {
  it('nine like squares in a run, with text around them; marks by name, an empty square by its looks', () => {
    const cells = 'X-O-O---X'.split('').map((c) => (c === '-' ? el('clickable', 'white square cell', 0, { namefrom: 'inferred' }) : el('clickable', c)));
    const boards = boardsOf(buildOutline([el('heading', 'Tic-tac-toe'), ...cells, text('X wins!')]));
    expect(boards.map(marks)).toEqual(['X-O-O---X']);
  });
  it('three rows of three (a table), squares named "Square 2, empty" or by a mark alone', () => {
    const row = (a: string) => [el('row', '', 1), ...a.split('').map((c) => el('cell', c === '-' ? '' : c, 2))];
    expect(boardsOf(buildOutline([el('table', ''), ...row('XX-'), ...row('OO-'), ...row('---')])).map(marks)).toEqual(['XX-OO----']);
    const named = 'X-O------'.split('').map((c, i) => el('button', `Square ${i + 1}, ${c === '-' ? 'empty' : c}`));
    expect(boardsOf(buildOutline(named)).map(marks)).toEqual(['X-O------']);
  });
  it('no board: eight squares, a row of ten, a square that holds controls, a table with no square to click', () => {
    expect(boardsOf(buildOutline('X-O-O---'.split('').map((c) => el('clickable', c))))).toEqual([]);
    expect(boardsOf(buildOutline('X-O-O---XX'.split('').map((c) => el('clickable', c))))).toEqual([]);
    expect(boardsOf(buildOutline([el('row', ''), text('X', 1), text('X', 1), text('O', 1)]))).toEqual([]);
  });
});

describe('the move played', () => {
  it('a win first, then a block, then a square making two threats, then the centre', () => {
    expect(bestMove(squares('XX-OO----'), 'X')).toBe(2);
    expect(bestMove(squares('XX-O-O-X-'), 'O')).toBe(4);
    expect(bestMove(squares('X-O-O---X'), 'X')).toBe(6);
    expect(bestMove(squares('X-------O'), 'X')).toBe(4);
  });
  it('whose turn by the counts, and who won', () => {
    expect(turnOf(squares('X-O-O---X'))).toBe('X');
    expect(turnOf(squares('XX-O-O-X-'))).toBe('O');
    expect(turnOf(squares('XXX------'))).toBeNull();
    // A page whose computer may open as O: on X's turn O has one mark more, and then plays after each X.
    expect(openerOf(squares('----O----'), 'X')).toBe('O');
    expect(openerOf(squares('X---O----'), 'X')).toBe('X');
    expect(openerOf(squares('----O----'), null)).toBe('X');
    expect(turnOf(squares('----O----'), 'O')).toBe('X');
    expect(turnOf(squares('X---O---O'), 'O')).toBe('X');
    expect(turnOf(squares('X---O----'), 'O')).toBe('O');
    expect(turnOf(squares('----O----'))).toBeNull();
    expect(winnerOf(squares('XXXOO----'))).toBe('X');
    expect(winnerOf(squares('XOXXOOOXX'))).toBe('draw');
    expect(winnerOf(squares('X-O-O---X'))).toBe('');
  });
  it('the planner reads the game and the mark; two marks are refused', () => {
    expect(planInstruction("Playing as 'X', win this game of tic-tac-toe.", { fields: [], names: [] })[0]?.game).toEqual({ mark: 'X' });
    expect(planInstruction('Beat the computer at noughts and crosses', { fields: [], names: [] })[0]?.game).toEqual({ mark: 'either' });
    expect(() => planInstruction('Playing as X, win the tic-tac-toe game as O', { fields: [], names: [] })).toThrow(Refusal);
  });
});

describe('a number guessed with the page answers', () => {
  const lines = (...ts: string[]) => buildOutline(ts.map((t) => text(t)));
  it('the planner reads the range and the button; a range of no width is refused; another clause is no guess', () => {
    const say = 'Guess the number between 0-9 and press Submit. Use the feedback below to find the right number.';
    expect(planInstruction(say, { fields: [], names: [] })[0]?.guess).toEqual({ lo: 0, hi: 9, button: 'Submit' });
    expect(planInstruction('Find the secret number from 1 to 20. Keep guessing until you get it', { fields: [], names: [] })[0]?.guess).toEqual({
      lo: 1,
      hi: 20,
    });
    expect(() => planInstruction('Guess the number between 9-0', { fields: [], names: [] })).toThrow(Refusal);
    expect(planInstruction('Guess the number between 0-9 and press Submit and then click Reset', { fields: [], names: [] })[0]?.guess).toBeUndefined();
    expect(planInstruction('Find the number between 5 and 9 and click it', { fields: [], names: [] })[0]?.guess).toBeUndefined();
  });
  it('the answer: a new line first, the same line again next, never the page own instructions', () => {
    const start = lines('Guess the number between 0-9. Use the feedback to find the right number.');
    expect(answerTo(start, start, lines('Guess the number between 0-9. Use the feedback to find the right number.', 'The number is higher than 4.'))).toBe(
      'higher',
    );
    expect(answerTo(start, lines('Too low!'), lines('Too low!'))).toBe('higher');
    expect(answerTo(start, start, lines('Correct! The number was 7.'))).toBe('right');
    expect(answerTo(start, start, lines('Not correct, try again'))).toBeNull();
    // Nothing new, and only the instructions: no answer (the instructions say "right").
    expect(answerTo(start, start, start)).toBeNull();
  });
});

describe("a file removed through the page's terminal", () => {
  const plan = (say: string) => planInstruction(say, { fields: [], names: [] })[0]?.removeFile;
  it('the planner reads the file by its extension, its name or its start, only when a terminal is named', () => {
    expect(plan('Use the terminal below to delete a file ending with the extension .gif')).toEqual({ ends: '.gif' });
    expect(plan('In the terminal, remove the file named notes.txt')).toEqual({ name: 'notes.txt' });
    expect(plan('Delete readme.md using the command line below')).toEqual({ name: 'readme.md' });
    expect(plan('Use the shell to get rid of the .xls file')).toEqual({ ends: '.xls' });
    expect(plan('Delete the file with the extension gif using the terminal')).toEqual({ ends: '.gif' });
    expect(plan('Use the console to delete a file starting with tmp')).toEqual({ starts: 'tmp' });
    expect(plan('Use the terminal to delete the .tar.gz file')).toEqual({ ends: '.tar.gz' });
    // No terminal named: a page's own Delete buttons; a file described by no name or extension: not read.
    expect(plan('Delete readme.md')).toBeUndefined();
    expect(plan('Use the terminal below to delete the old file')).toBeUndefined();
    expect(plan('Use the terminal to delete a file, then delete another')).toBeUndefined();
  });
  it('what a command printed: new lines only (a listing again counts), never the echo, a file ending like the command kept', () => {
    const lines = (...ts: string[]) => buildOutline(ts.map((t) => text(t)));
    const before = lines('Welcome!', 'user$ ls', 'a.txt b.gif');
    expect(printed(before, lines('Welcome!', 'user$ ls', 'a.txt b.gif', 'user$ ls', 'a.txt b.gif', 'budget.xls'), 'ls')).toEqual(['a.txt b.gif', 'budget.xls']);
    expect(printed(before, lines('Welcome!', 'user$ ls', 'a.txt b.gif', 'user$ rm b.gif'), 'rm b.gif')).toEqual([]);
    expect(filesIn(['notes.txt   holiday.gif', 'budget.xls'])).toEqual(['notes.txt', 'holiday.gif', 'budget.xls']);
    expect(failure(['ls: command not found'])).toBe('ls: command not found');
    expect(failure(['error.log notes.txt'])).toBeUndefined();
    expect(['a.GIF', 'b.gif.txt', 'c.gif'].filter(fits({ ends: '.gif' }))).toEqual(['a.GIF', 'c.gif']);
  });
});

describe('a number drawn until it fits', () => {
  const plan = (say: string) => planInstruction(say, { fields: [], names: [] });
  const lines = (...ts: string[]) => buildOutline(ts.map((t) => text(t)));
  it('the planner reads the button, what the number must be, and the steps after it', () => {
    const first = plan('Generate a number less than 7, then press submit');
    expect(first.map((s) => s.say)).toEqual(['generate until the number is less than 7', 'press submit']);
    expect(first[0]?.draw).toEqual({ verb: 'generate', want: { op: '<', value: 7 }, text: 'less than 7' });
    expect(plan('Generate an odd number, then press submit')[0]?.draw?.want).toEqual({ op: 'odd' });
    expect(plan('Keep clicking Generate until the number is even. Then click Submit.')[0]?.draw).toMatchObject({ button: 'Generate', want: { op: 'even' } });
    expect(plan('Roll the die until you get a 6, then click Done')[0]?.draw).toMatchObject({ verb: 'roll', want: { op: '=', value: 6 } });
    expect(plan('Keep tapping Spin until the result is 10 or more')[0]?.draw).toMatchObject({ button: 'Spin', want: { op: '>=', value: 10 } });
    expect(plan('Generate a number between 3 and 6 and click Submit')[0]?.draw?.want).toEqual({ op: 'between', lo: 3, hi: 6 });
    // Nothing the number must be: one click. Something else drawn: no draw.
    expect(plan('Generate a number, then press submit')[0]?.draw).toBeUndefined();
    expect(plan('Draw a circle around the number 5')[0]?.draw).toBeUndefined();
    expect(() => plan('Click Next until you see the Lighthouse tour')).toThrow(Refusal);
  });
  it('what fits', () => {
    expect([1, 2, 3, 4].filter((n) => isWanted({ op: 'odd' }, n))).toEqual([1, 3]);
    expect([-2, 0, 5].filter((n) => isWanted({ op: 'even' }, n))).toEqual([-2, 0]);
    expect([2, 3, 6, 7].filter((n) => isWanted({ op: 'between', lo: 3, hi: 6 }, n))).toEqual([3, 6]);
    expect([6, 7].filter((n) => isWanted({ op: '<', value: 7 }, n))).toEqual([6]);
  });
  it('the drawn number: the changed line with one number, by what it says beside a count; then that line after each draw', () => {
    const start = lines('Generate a number less than 7', '-');
    expect(drawnNumber(start, lines('Generate a number less than 7', '8'))).toEqual({ value: 8, shape: '#', at: 1, count: 2 });
    // In place of "-", though a score panel shows the same digit: the line that changed, read there after each draw.
    const panel = (n: string) => lines('Generate a number less than 8', n, 'Episodes done:', '0');
    const first = drawnNumber(panel('-'), panel('0'));
    expect(first).toEqual({ value: 0, shape: '#', at: 1, count: 4 });
    expect(drawnNumber(panel('0'), panel('10'), '#', first as Exclude<typeof first, string | null>)).toMatchObject({ value: 10, at: 1 });
    expect(drawnNumber(start, start)).toBeNull();
    const card = drawnNumber(lines('Your number: none', 'Draws so far: 0'), lines('Your number: 8', 'Draws so far: 1'));
    expect(card).toEqual({ value: 8, shape: 'Your number: #' });
    // The same number again: the count changed, the number's line did not, and it is still read.
    expect(drawnNumber(lines('Your number: 8', 'Draws so far: 1'), lines('Your number: 8', 'Draws so far: 2'), 'Your number: #')).toEqual({
      value: 8,
      shape: 'Your number: #',
    });
    // Two bare numbers changed, or a line with two: left open.
    expect(typeof drawnNumber(lines('-', '0'), lines('8', '1'))).toBe('string');
    expect(typeof drawnNumber(lines('-'), lines('You rolled 3 and 4'))).toBe('string');
  });
  it('the button: the one the instruction names, or the one its verb names', () => {
    const nodes = buildOutline([el('button', 'Generate'), el('button', 'Submit')]);
    const d = plan('Generate an odd number, then press submit')[0]!.draw!;
    expect((drawButton(d, nodes) as { name: string }).name).toBe('Generate');
    expect(drawButton(d, buildOutline([el('button', 'Submit')]))).toBe('the page shows no control to generate a number with');
    expect(drawButton(d, buildOutline([el('button', 'Generate'), el('button', 'Generate')]))).toBe('the page shows 2 controls to generate a number with');
  });
});

describe('the Towers of Hanoi', () => {
  it('moves every disk to the right peg in 2^n - 1 moves, never a larger onto a smaller', () => {
    for (const n of [1, 3, 6]) {
      const pegs: number[][] = [Array.from({ length: n }, (_, i) => n - i), [], []];
      const moves = hanoiMoves(n);
      expect(moves).toHaveLength(2 ** n - 1);
      for (const [a, b] of moves) {
        const disk = pegs[a]!.pop()!;
        expect(disk).toBeDefined();
        expect(pegs[b]!.at(-1) ?? Infinity).toBeGreaterThan(disk);
        pegs[b]!.push(disk);
      }
      expect(pegs).toEqual([[], [], Array.from({ length: n }, (_, i) => n - i)]);
    }
  });

  it('is read from the words with the disks they name, or none', () => {
    expect(hanoiSaid('Stack 3 disks on the rightmost peg following the rules')).toEqual({ disks: 3 });
    expect(hanoiSaid('Stack 6 disks on the rightmost peg in the minimum number of moves')).toEqual({ disks: 6 });
    expect(hanoiSaid('Stack the disks on the rightmost peg following the rules')).toEqual({});
    expect(hanoiSaid('Solve the Towers of Hanoi with 4 disks')).toEqual({ disks: 4 });
    expect(hanoiSaid('Stack the boxes on the shelf')).toBeNull();
  });

  it('picks pegs with controls named for picking, nothing else', () => {
    for (const name of ['Select', 'Selected', '✓ Selected']) expect(PEG_PICKER.test(name), name).toBe(true);
    for (const name of ['Select all', 'Submit', 'Reset']) expect(PEG_PICKER.test(name), name).toBe(false);
  });
});

describe('a maze of doors', () => {
  it('is asked as finding the way out', () => {
    expect(mazeSaid('Navigate a simpler maze to find the exit')).toBe(true);
    expect(mazeSaid('Navigate a complex maze with more dead ends to find the exit')).toBe(true);
    expect(mazeSaid('Navigate through a series of doors to find the exit')).toBe(true);
    expect(mazeSaid('Find the exit sign')).toBe(false);
  });

  it('goes through controls named as doors with their number', () => {
    for (const name of ['🚪 Door 1', 'Door 3', 'Gate B']) expect(DOOR.test(name), name).toBe(true);
    for (const name of ['Door hinges for sale', 'Close the door', 'Submit']) expect(DOOR.test(name), name).toBe(false);
  });
});

describe('a river crossing', () => {
  const rules = ['The wolf will eat the goat if left alone', 'The goat will eat the cabbage if left alone', 'The boat can only carry one item at a time'];
  it('reads what is taken across, and the rules the page states', () => {
    expect(riverSaid('Transport a wolf, goat, and cabbage across the river safely.')).toEqual({ items: ['wolf', 'goat', 'cabbage'] });
    expect(riverSaid('Take the boat to the shop')).toBeNull();
    expect(riverRules(rules, ['wolf', 'goat', 'cabbage'])).toEqual({
      eats: [
        ['wolf', 'goat'],
        ['goat', 'cabbage'],
      ],
      seats: 1,
    });
    expect(riverRules(['The boat can carry up to two items at a time.'], ['wolf']).seats).toBe(2);
  });

  it('never leaves an item with what eats it on the bank the boat has left', () => {
    const check = (items: string[], eats: [string, string][], seats: number) => {
      const plan = riverCrossings(items, eats, seats);
      expect(plan).not.toBeNull();
      let left = new Set(items);
      let boatLeft = true;
      for (const c of plan!) {
        expect(c.load.length).toBeLessThanOrEqual(seats);
        for (const it of c.load) expect(boatLeft ? left.has(it) : !left.has(it)).toBe(true);
        left = new Set([...left].filter((it) => (boatLeft ? !c.load.includes(it) : true)).concat(boatLeft ? [] : c.load));
        boatLeft = !boatLeft;
        const behind = boatLeft ? items.filter((it) => !left.has(it)) : [...left];
        expect(eats.some(([a, b]) => behind.includes(a) && behind.includes(b))).toBe(false);
      }
      expect(left.size).toBe(0);
      return plan!;
    };
    expect(check(['wolf', 'goat', 'cabbage'], riverRules(rules, ['wolf', 'goat', 'cabbage']).eats, 1)).toHaveLength(7);
    const four: [string, string][] = [
      ['wolf', 'goat'],
      ['goat', 'cabbage'],
      ['fox', 'wolf'],
      ['goat', 'fox'],
    ];
    expect(check(['wolf', 'goat', 'cabbage', 'fox'], four, 2)).toHaveLength(5);
    expect(riverCrossings(['wolf', 'goat', 'cabbage', 'fox'], four, 1)).toBeNull();
  });
});
