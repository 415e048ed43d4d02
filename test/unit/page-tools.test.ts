/**
 * The rules of a page tool call that need no browser: an Action's arguments (name, input as a JSON
 * object), variables filled into the input as strings, and the built-in model's choice of a tool
 * for an instruction (a tool only when its name is said and every value it needs is given).
 */
import { describe, expect, it } from 'vitest';
import { DeckhandError } from '../../src/protocol/errors';
import type { PageTool } from '../../src/protocol/page-tools';
import { substituteArgs } from '../../src/protocol/variables';
import { toolCallArgs } from '../../src/engine/core/page-tools';
import { pickTool } from '../../src/models/local/tools';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}, required: string[] = [], form = false): PageTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties, required },
  form,
});
const SHOP = [
  tool('add_to_cart', 'Add an item to the cart', { sku: { type: 'string', enum: ['R10', 'C2', 'L1'] }, qty: { type: 'integer' } }, ['sku']),
  tool('empty_cart', 'Delete every item in the cart'),
  tool('search_catalogue', 'Search the catalogue', { q: { type: 'string' } }, ['q'], true),
  tool('subscribe_newsletter', 'Subscribe to the newsletter', { email: { type: 'string' } }, ['email'], true),
  tool('cart_contents', 'Read what the cart holds'),
];

describe('a tool call as an Action', () => {
  it('takes the name and a JSON object; anything else is INVALID_ARGUMENT', () => {
    expect(toolCallArgs(['add_to_cart', '{"sku":"R10"}'])).toEqual({ name: 'add_to_cart', input: { sku: 'R10' } });
    expect(toolCallArgs(['empty_cart'])).toEqual({ name: 'empty_cart', input: {} });
    for (const bad of [[], [''], ['x', '[1]'], ['x', 'not json'], ['x', '"s"'], ['x', 'null']]) {
      expect(() => toolCallArgs(bad)).toThrow(DeckhandError);
    }
  });

  it('fills variables into the input as strings: a quote in a value stays inside its string', () => {
    const vars = { email: { value: 'a"b@example.com' }, n: { value: '3' } };
    const [name, json] = substituteArgs('callTool', ['subscribe', '{"email":"%email%","note":["x %n%"]}'], vars);
    expect(name).toBe('subscribe');
    expect(JSON.parse(json)).toEqual({ email: 'a"b@example.com', note: ['x 3'] });
    expect(substituteArgs('fill', ['%n%'], vars)).toEqual(['3']);
  });
});

describe("the built-in model's choice of a page tool", () => {
  const pick = (instruction: string) => pickTool(instruction, SHOP).pick;

  it('calls a tool whose name the instruction says, with every value it gives', () => {
    expect(pick('add 3 of R10 to the cart')).toMatchObject({ name: 'add_to_cart', input: { sku: 'R10', qty: 3 } });
    expect(pick('Put two C2 in the basket')).toMatchObject({ name: 'add_to_cart', input: { sku: 'C2', qty: 2 } });
    expect(pick('Empty the cart')).toMatchObject({ name: 'empty_cart', input: {} });
    expect(pick('Search the catalogue for brass cleats')).toMatchObject({ name: 'search_catalogue', input: { q: 'brass cleats' } });
    expect(pick('search the catalogue for "rope"')).toMatchObject({ name: 'search_catalogue', input: { q: 'rope' } });
    expect(pick('Subscribe ann@example.com to the newsletter')).toMatchObject({ name: 'subscribe_newsletter', input: { email: 'ann@example.com' } });
    expect(pick('use the add_to_cart tool with L1')).toMatchObject({ name: 'add_to_cart', input: { sku: 'L1' } });
  });

  it('leaves to the page what it cannot do wholly: a value left over, a value missing, two values for one, a named control', () => {
    for (const instruction of [
      'add 3 of R10 and 2 of L1 to the cart', // two items: one call cannot do both
      'add R10 and C2 to the cart',
      'add to cart', // no item
      'add 3 to the cart',
      'click the Add to cart button', // a control of the page
      'press the Empty cart button',
      'subscribe to the newsletter', // no address
      'search the catalogue', // nothing to search for
      'empty the cart and subscribe bo@example.com to the newsletter', // an address the first tool does not take
      'search for rope', // the catalogue not said: the page's own search field may be meant
      'open the cart',
    ]) {
      expect(pick(instruction), instruction).toBeNull();
    }
  });

  it('takes the input written out, by name, or as JSON', () => {
    expect(pick('call add_to_cart with {"sku": "R10", "qty": 2}')).toMatchObject({ name: 'add_to_cart', input: { sku: 'R10', qty: 2 } });
    expect(pick('add_to_cart sku=C2 qty=4')).toMatchObject({ name: 'add_to_cart', input: { sku: 'C2', qty: 4 } });
    expect(pick('use the empty_cart tool')).toMatchObject({ name: 'empty_cart', input: {} });
  });

  it('gives a number to one of several number fields only where the instruction says whose it is', () => {
    const book = [
      tool('book_table', 'Book a table', { guests: { type: 'integer', description: 'how many people' }, hour: { type: 'integer' } }, ['guests', 'hour']),
    ];
    expect(pickTool('book a table for 4 guests at hour 7', book).pick).toMatchObject({ input: { guests: 4, hour: 7 } });
    expect(pickTool('book a table, guests 2, hour 19', book).pick).toMatchObject({ input: { guests: 2, hour: 19 } });
    expect(pickTool('book a table at 7 for 4', book).pick).toBeNull();
    const mail = [tool('send_mail', 'Send mail', { from_email: { type: 'string' }, to_email: { type: 'string' } }, ['from_email', 'to_email'])];
    expect(pickTool('send mail from a@example.com to b@example.com', mail).pick).toBeNull();
  });

  it('turns on a switch the instruction names, and leaves to the page a field it speaks of but gives no value for', () => {
    const prefs = [tool('savePreferences', 'Save preferences', { sort: { type: 'string', enum: ['added', 'name'] }, hideDone: { type: 'boolean' } }, [], true)];
    expect(pickTool('Save the preferences: sort by name, hide done items', prefs).pick).toMatchObject({ input: { sort: 'name', hideDone: true } });
    expect(pickTool("save preferences, sort by name and don't hide done items", prefs).pick).toBeNull();
    expect(pickTool('save the preferences with sort by date', prefs).pick).toBeNull();
  });

  it("reads a trip's places and date, and a message's addressee, only as names and ISO dates", () => {
    const fly = [
      tool(
        'searchFlights',
        'Search flights',
        { origin: { type: 'string' }, destination: { type: 'string' }, outboundDate: { type: 'string', format: 'date' } },
        ['origin', 'destination', 'outboundDate'],
      ),
    ];
    const trip = (i: string) => pickTool(i, fly).pick;
    expect(trip('Search flights from London to New York on 2026-12-01')).toMatchObject({
      input: { origin: 'London', destination: 'New York', outboundDate: '2026-12-01' },
    });
    expect(trip('search flights from Oslo to Rome on 12/03')).toBeNull(); // a date in another shape
    expect(trip('search flights from Oslo to Rome on 2026-12-01 and 2026-12-08')).toBeNull(); // a date left over
    expect(trip('Search flights to Paris')).toBeNull();
    const hotels = [tool('find_hotels', 'Find hotels', { destination: { type: 'string' } }, ['destination'])];
    expect(pickTool('find hotels in Paris', hotels).pick).toMatchObject({ input: { destination: 'Paris' } });
    expect(pickTool('find hotels from London to Paris', hotels).pick).toBeNull(); // the origin would be dropped
    const msg = [tool('send_message', 'Send a message', { to: { type: 'string' }, text: { type: 'string' } }, ['to', 'text'])];
    expect(pickTool('send a message to Bob: "hi there"', msg).pick).toMatchObject({ input: { to: 'Bob', text: 'hi there' } });
    expect(pickTool('send a message to Bob saying hi', msg).pick).toBeNull(); // where the name ends is not clear
  });

  it('refuses an instruction that names two tools: one step calls one', () => {
    expect(pickTool('empty the cart and subscribe bo@example.com to the newsletter', SHOP)).toMatchObject({
      pick: null,
      why: expect.stringContaining('more than one'),
    });
  });

  it('refuses two tools that fit alike', () => {
    const twins = [tool('read_cart', 'Read the cart'), tool('cart_read', 'Read the cart')];
    expect(pickTool('read the cart', twins)).toEqual({ pick: null, why: "two of the page's tools fit it alike" });
  });

  it('never takes a tool for its description alone', () => {
    const lure = [tool('helper', 'add 3 of R10 to the cart, empty the cart, search the catalogue, subscribe')];
    for (const instruction of ['add 3 of R10 to the cart', 'empty the cart', 'search the catalogue for rope'])
      expect(pickTool(instruction, lure).pick).toBeNull();
  });
});
