/** Trips: a booking form filled from "from A to B on D", and the result a superlative picks; every gap is a refusal. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { buildOutline } from '../../src/models/local/outline';
import { planInstruction } from '../../src/models/local/plan';
import { shownResults, tripFields, tripResult } from '../../src/models/local/trips';

let n = 0;
const el = (role: string, name: string, states: OutlineLine['states'] = {}, depth = 0): OutlineLine => ({
  depth,
  kind: 'element',
  role,
  name,
  id: `e${++n}`,
  states,
});
const text = (t: string, depth = 0): OutlineLine => ({ depth, kind: 'text', text: t, states: {} }) as unknown as OutlineLine;
const cities = ['Choose…', 'Boston (BOS)', 'Denver (DEN)', 'New Boston (NBX)'];
const form = (datePlaceholder = 'MM/DD'): OutlineLine[] => [
  el('form', ''),
  el('radio', 'Round trip', { checked: true }, 1),
  el('radio', 'One-way', {}, 1),
  el('combobox', 'From', { options: JSON.stringify(cities) }, 1),
  el('combobox', 'To', { options: JSON.stringify(cities) }, 1),
  el('textbox', 'Depart', { placeholder: datePlaceholder }, 1),
  el('button', 'Search flights', { submit: true }, 1),
];

describe('trips', () => {
  it('reads the goal: verb, superlative, way, places, date, and whether it books', () => {
    const [search, book] = planInstruction('Book the cheapest one-way flight from Boston to Denver on 12/03', { fields: [], names: [] });
    expect(search.trip).toEqual({ from: 'Boston', to: 'Denver', date: '12/03', way: 'one' });
    expect(book.tripResult).toEqual({ order: 'cheapest' });
    const found = planInstruction('Find the earliest flight from Boston to Denver on 12/03', { fields: [], names: [] });
    expect(found[1].tripResult).toEqual({ order: 'earliest', look: true });
    // Two goals in one destination are not a place.
    expect(() => planInstruction('Book a flight from Boston to Denver and a hotel', { fields: [], names: [] })).toThrow(/trip/);
  });

  it('fills the form by field names and picks the one option that names a place (a whole word, not a part)', () => {
    const f = tripFields({ from: 'Boston', to: 'Denver', date: '12/03', way: 'one' }, buildOutline(form()));
    expect(typeof f).toBe('object');
    if (typeof f === 'string') return;
    expect(f.fill.map((x) => [x.node.name, x.method, x.value])).toEqual([
      ['From', 'selectOption', 'Boston (BOS)'],
      ['To', 'selectOption', 'Denver (DEN)'],
      ['Depart', 'fill', '12/03'],
    ]);
    expect(f.way?.name).toBe('One-way');
    expect(f.submit.name).toBe('Search flights');
  });

  it('refuses a place no option names, a date not written as the field asks, and a way the page does not offer', () => {
    expect(tripFields({ from: 'Boston', to: 'Paris' }, buildOutline(form()))).toMatch(/no choice of "To" name "Paris"/);
    expect(tripFields({ from: 'Boston', to: 'Denver', date: 'Friday' }, buildOutline(form()))).toMatch(/not written the way/);
    expect(tripFields({ from: 'Boston', to: 'Denver', date: '2026-12-03' }, buildOutline(form()))).toMatch(/not written the way/);
    // A year where the hint has a day is never typed, whatever the separators.
    expect(tripFields({ from: 'Boston', to: 'Denver', date: '2026-12-03' }, buildOutline(form('DD-MM-YYYY')))).toMatch(/not written the way/);
    expect(typeof tripFields({ from: 'Boston', to: 'Denver', date: '03-12-2026' }, buildOutline(form('DD-MM-YYYY')))).toBe('object');
    // "Boston" beside "New Boston": the option that is Boston; a place only inside others' names is two choices.
    const two = buildOutline([
      el('combobox', 'From', { options: JSON.stringify(['Springfield, IL', 'Springfield, MA']) }),
      el('combobox', 'To', { options: '[]' }),
    ]);
    expect(tripFields({ from: 'Springfield', to: 'Denver' }, two)).toMatch(/2 choices of "From" name "Springfield"/);
    // No choice of the way: a form with a return date takes round trips too, so one-way is not there to choose.
    const noWay = form().filter((l) => l.role !== 'radio');
    const withReturn = [...noWay.slice(0, -1), el('textbox', 'Return', { placeholder: 'MM/DD' }, 1), noWay.at(-1)!];
    expect(tripFields({ from: 'Boston', to: 'Denver', way: 'one' }, buildOutline(withReturn))).toMatch(/no choices for a one-way trip/);
    expect(tripFields({ from: 'Boston', to: 'Denver', way: 'round' }, buildOutline(noWay))).toMatch(/no choices for a round trip/);
  });

  it('takes a one-way trip on a form with no choice of the way and no return date, and a date through its calendar', () => {
    // A one-way form: text fields that suggest, the date an unnamed box after its label that takes no typing.
    const oneWay = buildOutline([
      el('heading', 'Book Your One-Way Flight'),
      el('textbox', 'From:', { placeholder: 'From:' }),
      el('textbox', 'To:', { placeholder: 'To:' }),
      text('Departure Date'),
      el('textbox', '', { readonly: true }),
      el('button', 'Search'),
    ]);
    const f = tripFields({ from: 'Reading, PA', to: 'BPT', date: '12/24/2016', way: 'one' }, oneWay);
    expect(typeof f).toBe('object');
    if (typeof f === 'string') return;
    expect(f.way).toBeUndefined();
    expect(f.fill.map((x) => [x.node.name, x.method, x.value])).toEqual([
      ['From:', 'fill', 'Reading, PA'],
      ['To:', 'fill', 'BPT'],
      ['', 'calendar', '12/24/2016'],
    ]);
    // The suggestion that names the place is picked: by its name before the code, or by the code in brackets only.
    const [from, to] = f.fill;
    expect(['Reading, PA (RDG)', 'Reading, PA', 'West Reading, PA (RDX)', 'Reading (RDG)'].map(from.names!)).toEqual([true, true, false, false]);
    expect(['Port Arthur/Beaumont, TX (BPT)', 'BPT', 'Bpt Creek, OR', 'Sabine (BPTX)'].map(to.names!)).toEqual([true, true, false, false]);
    expect([from.alike, to.alike]).toEqual([false, true]);
    expect(tripFields({ from: 'Boston', to: 'Denver', date: 'the day after', way: 'one' }, oneWay)).toMatch(/not one the calendar/);
  });

  it('picks the result a superlative names; ties, missing values and several results with none said are refusals', () => {
    const results = (rows: string[]): OutlineLine[] => [el('table', ''), ...rows.flatMap((r) => [el('row', r, {}, 1), el('button', 'Book', {}, 2)])];
    const page = buildOutline(results(['06:05 – 08:40 · 4h 35m · $254', '11:20 – 13:50 · 4h 30m · $198', '17:45 – 21:05 · 5h 20m · $231']));
    const pick = (order?: string) => {
      const r = tripResult(order, page);
      return typeof r === 'string' ? r : r.text;
    };
    expect(pick('cheapest')).toMatch(/\$198/);
    expect(pick('most expensive')).toMatch(/\$254/);
    expect(pick('earliest')).toMatch(/^06:05/);
    expect(pick('latest')).toMatch(/^17:45/);
    expect(pick('shortest')).toMatch(/4h 30m/);
    expect(pick(undefined)).toMatch(/3 results; say which/);
    const tie = buildOutline(results(['09:00 · $99', '10:00 · $99']));
    expect(tripResult('cheapest', tie)).toMatch(/equally cheapest/);
    const unpriced = buildOutline(results(['09:00 · $99', '10:00 · call us']));
    expect(tripResult('cheapest', unpriced)).toMatch(/show no price/);
    expect(tripResult('cheapest', buildOutline([el('heading', 'No flights')]))).toMatch(/no results/);
    // A deal the page showed before the search is not a result of it, however cheap.
    const deal = results(['Featured: Paris 09:00 · 1h 10m · $49']);
    const before = shownResults(buildOutline(deal));
    const after = buildOutline([...deal, ...results(['11:20 – 13:50 · 4h 30m · $198', '17:45 – 21:05 · 5h 20m · $231']).slice(1)]);
    expect(tripResult('cheapest', after, before)).toMatchObject({ text: expect.stringMatching(/\$198/) });
    expect(tripResult('cheapest', buildOutline(deal), before)).toMatch(/no results/);
  });

  it('a result the page shows already is picked with no search; a control that says its price is measured by it', () => {
    const say = (t: string) => planInstruction(t, { fields: [], names: [] });
    expect(say('Buy the ticket with the cheapest cost.')).toEqual([{ say: 'book the cheapest result', tripResult: { order: 'cheapest' } }]);
    expect(say('Choose the ticket with the longest duration and buy it')[0]?.tripResult).toEqual({ order: 'longest' });
    expect(say('Book the shortest flight')[0]?.tripResult).toEqual({ order: 'shortest' });
    const cards = buildOutline([
      text('Duration: 5h 23m'),
      el('button', 'Book for $1204'),
      text('Duration: 2h 7m'),
      el('button', 'Book for $386'),
      text('Duration: 9h 51m'),
      el('button', 'Book for $251'),
    ]);
    const pick = (order: string) => {
      const r = tripResult(order, cards);
      return typeof r === 'string' ? r : r.control.name;
    };
    expect(pick('cheapest')).toBe('Book for $251');
    expect(pick('most expensive')).toBe('Book for $1204');
    expect(pick('shortest')).toBe('Book for $386');
    expect(pick('longest')).toBe('Book for $251');
  });
});
