/**
 * Values as the person means them (issue 47, part 3): text entry leaves the field holding
 * exactly the value unless the instruction says to add to it; a date named by description is
 * written as the field takes it, or refused; the kind of a control ("the submit button", "the
 * search box") finds it when no name does, and several of the kind are a refusal.
 */
import { describe, expect, it } from 'vitest';
import { choose, parseIntent, Refusal, type Facts } from '../../src/models/local/act';
import { buildOutline } from '../../src/models/local/outline';
import { planInstruction } from '../../src/models/local/plan';
import { appendOf, dateValueFor, datesNamedIn, dayOf, exampleFormat, mentionsNamedDate, namedDate, writtenFormat } from '../../src/models/local/values';
import type { OutlineLine } from '../../src/protocol/model';

const el = (depth: number, role: string, name: string, id: string, states: Record<string, string | true> = {}): OutlineLine => ({
  depth,
  kind: 'element',
  role,
  name,
  id,
  states,
});
const text = (depth: number, t: string): OutlineLine => ({ depth, kind: 'text', text: t, states: {} });
/** 2024-05-15 is a Wednesday. */
const WED: Facts = { today: '2024-05-15' };

function act(say: string, lines: OutlineLine[], facts: Facts = WED): { id: string | null; method: string; args: string[] } | { refused: string } {
  try {
    const p = choose(parseIntent(say), buildOutline(lines), facts);
    return { id: p.node?.id ?? null, method: p.method, args: p.args };
  } catch (e) {
    if (e instanceof Refusal) return { refused: e.message };
    throw e;
  }
}

const FORM = [
  el(0, 'form', 'Order', 'e1'),
  el(1, 'spinbutton', 'Quantity', 'e2', { type: 'number', value: '1' }),
  el(1, 'textbox', 'Coupon', 'e3', { value: 'SAVE10' }),
  el(1, 'textbox', 'Delivery date', 'e4', { type: 'date', value: '' }),
  el(1, 'textbox', 'Pickup day', 'e5', { value: '', placeholder: 'MM/DD/YYYY' }),
  el(1, 'textbox', 'Notes', 'e6', { value: '' }),
  el(1, 'button', 'Place order', 'e7', { submit: true }),
];

describe('dates named by description', () => {
  it('reads the family, and nothing else', () => {
    for (const [words, days] of [
      ["today's date", 0],
      ['today', 0],
      ['todays date', 0],
      ['the current date', 0],
      ['the date today', 0],
      ['tomorrow', 1],
      ["tomorrow's date", 1],
      ['yesterday', -1],
      ['the day after tomorrow', 2],
      ['the day before yesterday', -2],
      ['in 3 days', 3],
      ['in a week', 7],
      ['two weeks from today', 14],
      ['5 days ago', -5],
      ['a week ago', -7],
    ] as const)
      expect(namedDate(words), words).toEqual({ days });
    expect(namedDate('next Monday')).toEqual({ weekday: 1, dir: 1 });
    expect(namedDate('last friday')).toEqual({ weekday: 5, dir: -1 });
    for (const words of ['Monday', 'date', 'today is fine', 'SAVE10', '2024-05-01', 'next week', 'soon']) expect(namedDate(words), words).toBeNull();
    expect(mentionsNamedDate("Enter today's date")).toBe(true);
    expect(mentionsNamedDate('set the start to next Monday')).toBe(true);
    expect(mentionsNamedDate('type "3" into the Quantity field')).toBe(false);
  });

  it('reads the day a label names inside its other words', () => {
    expect(datesNamedIn('Enter the date 32 days ago in UTC (Format: YYYY-MM-DD)')).toEqual([{ days: -32 }]);
    expect(datesNamedIn("Enter today's date (YYYY-MM-DD)")).toEqual([{ days: 0 }]);
    expect(datesNamedIn('Return date, in 2 weeks')).toEqual([{ days: 14 }]);
    expect(datesNamedIn('Date of birth')).toEqual([]);
  });

  it('counts from the page date: next and last weekday are strictly after and before it', () => {
    expect(dayOf({ days: 0 }, '2024-05-15')).toEqual([2024, 5, 15]);
    expect(dayOf({ days: 17 }, '2024-12-20')).toEqual([2025, 1, 6]);
    expect(dayOf({ days: 1 }, '2024-02-28')).toEqual([2024, 2, 29]);
    expect(dayOf({ weekday: 1, dir: 1 }, '2024-05-15')).toEqual([2024, 5, 20]);
    expect(dayOf({ weekday: 3, dir: 1 }, '2024-05-15')).toEqual([2024, 5, 22]);
    expect(dayOf({ weekday: 3, dir: -1 }, '2024-05-15')).toEqual([2024, 5, 8]);
    expect(() => dayOf({ days: 0 }, '')).toThrow(Refusal);
  });

  it('reads formats written out or shown by an unambiguous example', () => {
    expect(writtenFormat('MM/DD/YYYY')).toEqual({ parts: ['MM', 'DD', 'YYYY'], sep: '/' });
    expect(writtenFormat('Date of birth (dd.mm.yyyy)')).toEqual({ parts: ['DD', 'MM', 'YYYY'], sep: '.' });
    expect(writtenFormat('TT.MM.JJJJ')).toEqual({ parts: ['DD', 'MM', 'YYYY'], sep: '.' });
    expect(writtenFormat('JJ/MM/AAAA')).toEqual({ parts: ['DD', 'MM', 'YYYY'], sep: '/' });
    expect(writtenFormat('yyyy-mm-dd')).toEqual({ parts: ['YYYY', 'MM', 'DD'], sep: '-' });
    expect(writtenFormat('mm/yyyy')).toBeNull();
    expect(exampleFormat('e.g. 31/12/2024')).toEqual({ parts: ['DD', 'MM', 'YYYY'], sep: '/' });
    expect(exampleFormat('12/31/2024')).toEqual({ parts: ['MM', 'DD', 'YYYY'], sep: '/' });
    expect(exampleFormat('2024-12-31')).toEqual({ parts: ['YYYY', 'MM', 'DD'], sep: '-' });
    expect(exampleFormat('01/02/2024')).toBeNull();
  });

  it('writes the day as the field takes it, or refuses saying why', () => {
    const day: [number, number, number] = [2024, 5, 6];
    const field = (f: Partial<Parameters<typeof dateValueFor>[0]>) => ({ type: '', name: 'Date', beside: [], ...f });
    expect(dateValueFor(field({ type: 'date' }), day)).toBe('2024-05-06');
    expect(dateValueFor(field({ type: 'month' }), day)).toBe('2024-05');
    expect(dateValueFor(field({ type: 'week' }), [2024, 12, 30])).toBe('2025-W01');
    expect(dateValueFor(field({ placeholder: 'MM/DD/YYYY' }), day)).toBe('05/06/2024');
    expect(dateValueFor(field({ placeholder: 'dd.mm.yyyy' }), day)).toBe('06.05.2024');
    expect(dateValueFor(field({ name: 'Start (D/M/YY)' }), day)).toBe('6/5/24');
    expect(dateValueFor(field({ beside: ['Format: YYYY/MM/DD'] }), day)).toBe('2024/05/06');
    expect(dateValueFor(field({ value: '31.12.2023' }), day)).toBe('06.05.2024');
    expect(dateValueFor(field({ pattern: '\\d{4}-\\d{2}-\\d{2}' }), day)).toBe('2024-05-06');
    expect(dateValueFor(field({ placeholder: 'DD/MM/YYYY', pattern: '\\d{2}/\\d{2}/\\d{4}' }), day)).toBe('06/05/2024');
    const refusal = (f: Partial<Parameters<typeof dateValueFor>[0]>) => {
      try {
        dateValueFor(field(f), day);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refusal({})).toMatch(/does not say which date format/);
    expect(refusal({ pattern: '\\d{2}/\\d{2}/\\d{4}' })).toMatch(/does not say which date format/);
    expect(refusal({ value: '01/02/2024' })).toMatch(/does not say which date format/);
    expect(refusal({ placeholder: 'MM/DD/YYYY', name: 'Date (DD/MM/YYYY)' })).toMatch(/different date formats/);
    expect(refusal({ placeholder: 'MM/DD/YYYY', pattern: '\\d{4}-\\d{2}-\\d{2}' })).toMatch(/does not fit the field's pattern/);
    expect(refusal({ type: 'datetime-local' })).toMatch(/date and a time/);
    expect(refusal({ type: 'number' })).toMatch(/takes no date/);
  });
});

describe('text entry: the field ends up holding exactly the value', () => {
  it('every entry verb replaces; only an instruction that says so adds to the text', () => {
    const replacing = [
      'type "3" into the Quantity field',
      'enter 3 in the quantity',
      'put 3 in the Quantity field',
      'write "3" into Quantity',
      'input 3 into quantity',
      'fill the quantity with 3',
      'set Quantity to 3',
    ];
    for (const say of replacing) {
      expect(act(say, FORM), say).toEqual({ id: 'e2', method: 'fill', args: ['3'] });
    }
    expect(act('type "X1" into the Coupon field', FORM)).toEqual({ id: 'e3', method: 'fill', args: ['X1'] });
    const adding = [
      'append "X1" to the Coupon field',
      'add "X1" to the end of the coupon field',
      'type "X1" at the end of the Coupon field',
      'type X1 after the existing text in the Coupon field',
      'type "X1" into the coupon field without clearing it',
    ];
    for (const say of adding) {
      expect(act(say, FORM), say).toEqual({ id: 'e3', method: 'type', args: ['X1'] });
    }
    expect(appendOf('append QQ0 to the Coupon field')).toEqual({ value: 'QQ0', field: 'the Coupon field' });
    expect(appendOf('add QQ0 to the cart')).toBeNull();
  });

  it('a quoted key name after "type" is text; "type the Tab key" is a key', () => {
    expect(act('type "tab" into the Notes field', FORM)).toEqual({ id: 'e6', method: 'fill', args: ['tab'] });
    expect(act('type the "Tab" key in the Notes field', FORM)).toEqual({ id: 'e6', method: 'press', args: ['Tab'] });
  });

  it("a date named by description is the day in the field's format, never the words", () => {
    expect(act("enter today's date into the Delivery date field", FORM)).toEqual({ id: 'e4', method: 'fill', args: ['2024-05-15'] });
    expect(act('set the pickup day to tomorrow', FORM)).toEqual({ id: 'e5', method: 'fill', args: ['05/16/2024'] });
    expect(act('Set the Pickup day to next Monday', FORM)).toEqual({ id: 'e5', method: 'fill', args: ['05/20/2024'] });
    expect(act('type "tomorrow" into the Notes field', FORM)).toEqual({ id: 'e6', method: 'fill', args: ['tomorrow'] });
    expect(act("enter today's date into the Notes field", FORM)).toEqual({ refused: expect.stringMatching(/does not say which date format/) });
    expect(act("enter today's date into the Delivery date field", FORM, {})).toEqual({ refused: expect.stringMatching(/page's date is not known/) });
    expect(act("enter today's date into the quantity", FORM)).toEqual({ refused: expect.stringMatching(/type number, which takes no date/) });
  });

  it('"Enter today\'s date" with no field named: the one field that takes a date, or a refusal naming them', () => {
    const one = [el(0, 'textbox', 'Name', 'e1', { value: '' }), el(0, 'textbox', 'When', 'e2', { value: '', placeholder: 'dd/mm/yyyy' })];
    expect(act("Enter today's date", one)).toEqual({ id: 'e2', method: 'fill', args: ['15/05/2024'] });
    expect(act("Enter today's date", FORM)).toEqual({ refused: expect.stringMatching(/2 elements are each a field that takes a date: \[e4\].*\[e5\]/) });
    expect(act("Enter today's date", [el(0, 'textbox', 'Name', 'e1', { value: '' })])).toHaveProperty('refused');
  });
});

describe('the kind of a control', () => {
  const docs = [
    el(0, 'navigation', 'Docs', 'e1'),
    el(1, 'link', 'Getting started', 'e2'),
    el(0, 'search', '', 'e3'),
    el(1, 'textbox', '', 'e4', { value: '' }),
    el(1, 'button', 'Go', 'e5', { submit: true }),
    el(0, 'button', 'Copy', 'e6'),
  ];
  it('"the submit button" is the only control that submits a form, whatever it is called', () => {
    expect(act('click the submit button', docs)).toEqual({ id: 'e5', method: 'click', args: [] });
    expect(act('press the submit button', [...docs, el(0, 'form', '', 'e7'), el(1, 'button', 'Send', 'e8', { submit: true })])).toEqual({
      refused: expect.stringMatching(/2 elements are each a submit button: \[e5\] button "Go".*\[e8\] button "Send"/),
    });
    // Not when the page calls something else "Submit": Send is never pressed for it.
    const both = [el(0, 'button', 'Send', 'e1', { submit: true }), el(0, 'link', 'Submit', 'e2')];
    expect(act('click the submit button', both)).toHaveProperty('refused');
    const named = [el(0, 'button', 'Send', 'e1', { submit: true }), el(0, 'button', 'Submit', 'e2')];
    expect(act('click the submit button', named)).toEqual({ id: 'e2', method: 'click', args: [] });
    // "click Submit" names a control; with none so named, nothing is pressed.
    expect(act('click Submit', docs)).toHaveProperty('refused');
  });

  it('"the search box" is the one search field; "the checkbox" the one checkbox', () => {
    expect(act('type "fill" into the search box', docs)).toEqual({ id: 'e4', method: 'fill', args: ['fill'] });
    expect(act('type "fill" into the search box', [...docs, el(0, 'searchbox', 'Filter', 'e9', { value: '' })])).toEqual({
      refused: expect.stringMatching(/2 elements are each a search box/),
    });
    const boxes = [el(0, 'checkbox', 'Remember me', 'e1'), el(0, 'button', 'Sign in', 'e2')];
    expect(act('check the checkbox', boxes)).toEqual({ id: 'e1', method: 'check', args: [] });
    const two = [...boxes, el(0, 'checkbox', 'Newsletter', 'e3')];
    expect(act('check the checkbox', two)).toEqual({ refused: expect.stringMatching(/2 elements fit it equally well/) });
  });

  it('a word read as a kind or a colour ("the Color field", "the Email field") is the label of the nameless field it stands before', () => {
    const form = [text(0, 'Color:'), el(0, 'textbox', '', 'e1', { value: '' }), text(0, 'Email:'), el(0, 'textbox', '', 'e2', { value: '' })];
    expect(act('enter "white" into the Color field', form)).toEqual({ id: 'e1', method: 'fill', args: ['white'] });
    expect(act('enter "a@b.co" into the Email field', form)).toEqual({ id: 'e2', method: 'fill', args: ['a@b.co'] });
    // Labelled by neither: still a refusal.
    expect(act('enter "white" into the Colour box', [text(0, 'Shade:'), ...form.slice(1, 2), text(0, 'Tint:'), ...form.slice(3)])).toHaveProperty('refused');
  });

  it('of controls of the kind placed by the same text, one whose looks gave it a name is no better placed than the nameless', () => {
    // A page lights one of four bare buttons with a class; its inferred name must not make it "the" button by the text.
    const pad = (name: string) => [
      text(0, 'Push the buttons in the order displayed.'),
      el(0, 'button', '', 'e1'),
      el(0, 'button', '', 'e2'),
      el(0, 'button', '', 'e3'),
      { ...el(0, 'button', name, 'e4'), nameFrom: 'inferred' },
      text(0, 'Last reward:'),
    ];
    for (const name of ['push', 'lamp'])
      expect(act('Press the buttons in the displayed order', pad(name))).toEqual({ refused: expect.stringMatching(/4 elements fit it equally well/) });
    // Named by the words, it is still found.
    expect(act('Press the lamp button', pad('lamp'))).toEqual({ id: 'e4', method: 'click', args: [] });
  });
});

describe('the planner keeps values as the person wrote them', () => {
  const page = { fields: ['Coupon', 'Start date', "Today's weight"], names: ['Submit'] };
  const says = (s: string) => planInstruction(s, page).map((p) => p.say);
  it('a date named by description stays words; a quoted one is text', () => {
    expect(says("Enter today's date and click Submit")).toEqual(["Enter today's date", 'click Submit']);
    expect(says('Enter tomorrow as the start date, then click Submit')).toEqual(['Enter tomorrow as the start date', 'click Submit']);
    expect(says("Fill in the start date with yesterday's date")).toEqual(["enter yesterday's date into the start date field"]);
    expect(says('Fill in the start date with "today"')).toEqual(['enter "today" into the start date field']);
  });
  it('"fill F with V" is V, not "with V"', () => {
    expect(says('fill the coupon with SAVE20')).toEqual(['enter "SAVE20" into the coupon field']);
  });
});

describe('a value into what holds it, by the words a person uses for the field', () => {
  it('an e-mail into "the address field" is the e-mail address; other text there is no e-mail', () => {
    const form = [el(0, 'textbox', 'Email address', 'e1', { type: 'email', value: '' }), el(0, 'button', 'Subscribe', 'e2')];
    expect(act('enter "grace@navy.mil" into the address field', form)).toEqual({ id: 'e1', method: 'fill', args: ['grace@navy.mil'] });
    expect(act('type "12 Main St" into the address field', form)).toMatchObject({ refused: expect.stringMatching(/no element matches/) });
  });
  it('a group of radios set to a value is its radio of that name; a value no radio has is refused', () => {
    const form = [
      el(0, 'group', 'How often?', 'g1'),
      el(1, 'radio', 'Daily', 'r1'),
      el(1, 'radio', 'Weekly', 'r2'),
      el(0, 'group', 'Shipping method', 'g2'),
      el(1, 'radio', 'Standard', 'r3'),
      el(1, 'radio', 'Express', 'r4'),
    ];
    expect(act('enter "Daily" into the frequency field', form)).toEqual({ id: 'r1', method: 'click', args: [] });
    expect(act('set the shipping method to Express', form)).toEqual({ id: 'r4', method: 'click', args: [] });
    expect(act('set the frequency to Hourly', form)).toMatchObject({ refused: expect.any(String) });
  });
  it('"the Photos folder" is the folder named Photos, not a picture', () => {
    const tree = [
      el(0, 'tree', 'Files', 't', { clickable: true }),
      el(1, 'treeitem', '▸ Projects', 'f1'),
      el(1, 'treeitem', '▸ Photos', 'f2'),
      el(1, 'treeitem', 'notes.txt', 'f3'),
    ];
    expect(act('Open the Photos folder', tree)).toEqual({ id: 'f2', method: 'click', args: [] });
  });
});
