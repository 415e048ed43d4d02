/** The built-in model reading a value the instruction describes ("the text below") off the page outline. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { Refusal } from '../../src/models/local/act';
import { buildOutline } from '../../src/models/local/outline';
import { applyTransform, isReference, numberOf, resolveReference } from '../../src/models/local/refs';

const el = (depth: number, role: string, name: string, id: string, states: Record<string, string | true> = {}): OutlineLine => ({
  depth,
  kind: 'element',
  role,
  name,
  id,
  states,
});
const text = (depth: number, t: string): OutlineLine => ({ depth, kind: 'text', text: t, states: {} });

describe('isReference', () => {
  it('tells a description of something on the page from text to type', () => {
    for (const v of [
      'the text below',
      'the value of Year of Birth',
      'the total number of blocks',
      'the 3rd word of the paragraph',
      'the last word in the text area',
      'what the label says',
      'number of rows',
    ])
      expect(isReference(v), v).toBe(true);
    for (const v of ['Kasey', 'hello world', 'the quick brown fox', 'ada@example.com', 'The Beatles']) expect(isReference(v), v).toBe(false);
  });
});

describe('resolveReference', () => {
  const nodes = buildOutline([
    text(0, 'Type the text below into the text field and press Submit.'),
    text(0, 'Lorem ipsum dolor sit amet.'),
    el(0, 'table', '', 'e1'),
    el(1, 'row', 'First name | Ada', 'e2'),
    el(1, 'row', 'Year of Birth | 1815', 'e3'),
    el(0, 'textbox', 'Notes', 'e4', { multiline: true, value: 'one two three four' }),
    el(0, 'textbox', 'Answer', 'e5', { value: '' }),
    el(0, 'button', 'Submit', 'e6'),
  ]);
  const instruction = 'Type the text below into the text field and press Submit.';

  it('reads label-value pairs, the text below the instruction, words by position, a text area', () => {
    expect(resolveReference('the value of Year of Birth', nodes, instruction)).toBe('1815');
    expect(resolveReference('the Year of Birth value', nodes, instruction)).toBe('1815');
    expect(resolveReference('the text below', nodes, instruction)).toBe('Lorem ipsum dolor sit amet.');
    expect(resolveReference('the 2nd word of the paragraph', nodes, instruction)).toBe('ipsum');
    expect(resolveReference('the last word in the text area', nodes, instruction)).toBe('four');
    // A value named by its label alone ("the code") is the one the page shows by it.
    const tip = buildOutline([text(0, 'Your voucher:'), el(0, 'tooltip', 'Code: SEA-4417', 'e9'), el(0, 'textbox', 'Voucher code', 'e10', { value: '' })]);
    expect(resolveReference('the code', tip, '')).toBe('SEA-4417');
    expect(() => resolveReference('the coupon', tip, '')).toThrow(/no value on the page goes by "coupon"/);
  });

  it('refuses what the page does not settle, naming why', () => {
    expect(() => resolveReference('the value of Height', nodes, instruction)).toThrow(/no value on the page goes by "Height"/);
    expect(() => resolveReference('the total number of blocks', nodes, instruction)).toThrow(Refusal);
    const two = buildOutline([text(0, 'First paragraph here.'), text(0, 'Second paragraph here.')]);
    expect(() => resolveReference('the text below', two, '')).toThrow(/2 blocks of text/);
  });
});

describe('numberOf and transforms', () => {
  it('finds the one number the page shows for a subject', () => {
    const page = buildOutline([text(0, 'Stock: VOP'), text(0, 'Price: $53.24'), el(0, 'button', 'Buy', 'e1')]);
    expect(numberOf('price', page)).toEqual({ value: 53.24, shown: 'Price: $53.24' });
    expect(numberOf('temperature', page)).toBeNull();
    const two = buildOutline([text(0, 'Price: $1.00'), text(0, 'Price: $2.00')]);
    expect(numberOf('price', two)).toBeNull();
  });
  it('changes case and order', () => {
    expect(applyTransform('Hello World', 'lower')).toBe('hello world');
    expect(applyTransform('Hello World', 'upper')).toBe('HELLO WORLD');
    expect(applyTransform('stressed', 'reverse')).toBe('desserts');
  });
});

describe('the answer to an expression on the page', () => {
  it('works out the one expression shown, and refuses when there is none or several', () => {
    const page = (...lines: string[]) => buildOutline(lines.map((l) => text(0, l)));
    expect(resolveReference('the answer', page('Solve: 12 x 3 + 4 =', 'Enter the answer below.'))).toBe('40');
    expect(resolveReference('the result of the expression', page('(2 + 3) * 4'))).toBe('20');
    expect(resolveReference('the answer', page('8 ÷ 2'))).toBe('4');
    expect(() => resolveReference('the answer', page('No maths here.'))).toThrow(/no arithmetic expression/);
    expect(() => resolveReference('the answer', page('1 + 1', '2 + 2'))).toThrow(/2 expressions/);
  });
});

describe('the unknown of an equation on the page', () => {
  it('solves one linear equation in one letter, and reads "2 x 3" as a product', () => {
    const page = (...lines: string[]) => buildOutline(lines.map((l) => text(0, l)));
    expect(resolveReference('the answer', page('3x - 4 = 11', 'Lesson 4 of 12'))).toBe('5');
    expect(resolveReference('the answer', page('-2 + x = 5'))).toBe('7');
    expect(resolveReference('the answer', page('12 = y + 4'))).toBe('8');
    // "5 + 3" is part of the equation, not a sum of its own.
    expect(resolveReference('the answer', page('5 + 3x = 11'))).toBe('2');
    expect(resolveReference('the answer', page('2 x 3 = ?'))).toBe('6');
    // No solution, or not linear: nothing to type.
    expect(() => resolveReference('the answer', page('x = x + 1'))).toThrow(/no arithmetic expression/);
    expect(() => resolveReference('the answer', page('x * x = 4'))).toThrow(/no arithmetic expression/);
  });
});

describe('what is not an expression', () => {
  it('a date or a phone number is never worked out', () => {
    const page = (...lines: string[]) => buildOutline(lines.map((l) => text(0, l)));
    expect(() => resolveReference('the answer', page('Due 06/07/2024', 'Call 555-1234'))).toThrow(/no arithmetic expression/);
  });
});

describe('values named by their label in a sentence, a table or a card', () => {
  it('reads them, and refuses when they differ', () => {
    const msg = buildOutline([
      text(0, 'Thank you! Your order number is A-48213. Keep it for tracking.'),
      el(0, 'textbox', 'Order number', 'e1', { value: '' }),
    ]);
    expect(resolveReference('the order number from the message', msg)).toBe('A-48213');
    const table = buildOutline([el(0, 'table', '', 'e1'), el(1, 'row', 'Name | City | Zip', 'e2'), el(1, 'row', 'Ada | Paris | 75001', 'e3')]);
    expect(resolveReference('the City shown in the table', table)).toBe('Paris');
    const staff = buildOutline([
      el(0, 'table', '', 'e1'),
      el(1, 'row', 'Name | Employee ID | Team', 'e2'),
      el(1, 'row', 'Maria Lopez | E-5521 | Ops', 'e3'),
      el(1, 'row', 'Tom Lee | E-1002 | Web', 'e4'),
    ]);
    expect(resolveReference("Maria Lopez's employee ID", staff)).toBe('E-5521');
    expect(() => resolveReference("Ana Diaz's employee ID", staff)).toThrow(/no "employee ID" for "Ana Diaz"/);
  });
});

describe('parseDate', () => {
  it('reads dates as people write them, and nothing else', async () => {
    const { parseDate } = await import('../../src/models/local/refs');
    expect(parseDate('06/14/2024')).toEqual({ y: 2024, m: 5, d: 14 });
    expect(parseDate('2024-06-14')).toEqual({ y: 2024, m: 5, d: 14 });
    expect(parseDate('July 3, 2024')).toEqual({ y: 2024, m: 6, d: 3 });
    expect(parseDate('3rd of Jul 2024')).toEqual({ y: 2024, m: 6, d: 3 });
    for (const bad of ['06/31/2024', 'Smarch 3, 2024', '14', 'June 2024']) expect(parseDate(bad), bad).toBeNull();
  });
});

describe('numberOf with money', () => {
  it('takes an amount shown on its own, never one a label claims for something else', () => {
    const ticker = buildOutline([text(0, 'VOP Vopak Holdings'), text(0, '$57.80 -0.70 today'), el(0, 'button', 'Buy', 'e1')]);
    expect(numberOf('price', ticker, true)).toEqual({ value: 57.8, shown: '$57.80' });
    const account = buildOutline([text(0, 'Balance: $20.00'), el(0, 'button', 'Buy', 'e1')]);
    expect(numberOf('price', account, true)).toBeNull();
  });
});

describe("counting the pieces of the page's drawings", () => {
  const page = buildOutline([
    el(0, 'figure', '7 shapes: 3 red squares, 1 red circle, 2 blue circles, 1 dark blue square', 'e1'),
    text(0, '+'),
    el(0, 'figure', '2 shapes: 2 green triangles', 'e2'),
    el(0, 'textbox', 'Answer', 'e3'),
  ]);
  it('counts all the drawings, or the pieces of a colour or a shape', () => {
    expect(resolveReference('the total number of blocks', page)).toBe('9');
    expect(resolveReference('the number of circles', page)).toBe('3');
    expect(resolveReference('the number of blue shapes', page)).toBe('3');
    expect(resolveReference('the number of red squares', page)).toBe('3');
    expect(resolveReference('the number of yellow items', page)).toBe('0');
  });
  it('refuses a count by what the snapshot does not say (size), and reads no drawing where there is none', () => {
    expect(() => resolveReference('the number of large blocks', page)).toThrow(Refusal);
    const none = buildOutline([text(0, 'Items in cart: 3'), el(0, 'textbox', 'Answer', 'e1')]);
    expect(() => resolveReference('the number of blocks', none)).toThrow(Refusal);
  });
  it('counts a letter in its case only where each drawn letter is named; letters counted unnamed, or none drawn, give no count', () => {
    const drawn = buildOutline([
      el(0, 'clickable', 'K', 'e1', { size: '20x20', fill: 'red' }),
      el(0, 'clickable', 'k', 'e2', { size: '20x20', fill: 'red' }),
      el(0, 'clickable', 'K', 'e3', { size: '20x20', fill: 'blue' }),
      el(0, 'clickable', 'red circle', 'e4', { size: '20x20' }),
    ]);
    expect(resolveReference('the number of Ks', drawn)).toBe('2');
    expect(resolveReference('the number of red Ks', drawn)).toBe('1');
    expect(resolveReference('the number of Ws', drawn)).toBe('0');
    // A figure line says "2 red letters", not which: how many are Ks is not on the page.
    const unnamed = buildOutline([el(0, 'figure', '3 shapes: 2 red letters, 1 blue circle', 'e1'), el(0, 'textbox', 'Answer', 'e2')]);
    expect(() => resolveReference('the number of Ks', unnamed)).toThrow(Refusal);
    expect(() => resolveReference('the number of Ks', page)).toThrow(Refusal);
  });
});

describe('the one shape a page draws', () => {
  it('by name or by its sides; several shapes, or a round one for sides, are refused', () => {
    const one = buildOutline([el(0, 'figure', '1 shape: 1 red triangle', 'e1'), el(0, 'button', 'Triangle', 'e2')]);
    expect(resolveReference('the shape of the figure', one)).toBe('triangle');
    expect(resolveReference('the number of sides of the shape', one)).toBe('3');
    const round = buildOutline([el(0, 'figure', '1 shape: 1 blue circle', 'e1')]);
    expect(() => resolveReference('the number of sides of the shape', round)).toThrow(Refusal);
    const many = buildOutline([el(0, 'figure', '2 shapes: 2 red squares', 'e1')]);
    expect(() => resolveReference('the shape of the figure', many)).toThrow(Refusal);
  });
});
