/** The built-in model counts ("the third link", "the last one") only over what its view shows whole. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { choose, parseIntent, Refusal } from '../../src/models/local/act';
import { buildOutline } from '../../src/models/local/outline';

const link = (n: number): OutlineLine => ({ depth: 0, kind: 'element', role: 'link', name: `Topic ${n}`, id: `e${n}`, states: {} });
const omitted = (where: string): OutlineLine => ({ depth: 0, kind: 'summary', text: `40 lines ${where} the viewport omitted: scroll there`, states: {} });
const pick = (say: string, lines: OutlineLine[]) => choose(parseIntent(say), buildOutline(lines)).node?.id;

describe('ordinals over a view of part of the page', () => {
  it('counts over the whole of what is shown', () => {
    const lines = [1, 2, 3, 4].map(link);
    expect(pick('click the last link', lines)).toBe('e4');
    expect(pick('click the second link', lines)).toBe('e2');
  });

  it('refuses to count past content left out: before the pick, or after the last', () => {
    const below = [link(1), link(2), link(3), omitted('below')];
    expect(() => pick('click the last link', below)).toThrow(Refusal);
    expect(pick('click the second link', below)).toBe('e2');
    const above = [omitted('above'), link(5), link(6)];
    expect(() => pick('click the first link', above)).toThrow(Refusal);
    expect(pick('click the last link', above)).toBe('e6');
    // A list folded in the middle: its last item is kept, so "last" holds; counting past the fold does not.
    const folded: OutlineLine = { depth: 0, kind: 'summary', text: '… links 3 to 99 of 100 omitted here', states: { fold: 'items' } };
    const list = [link(1), link(2), folded, link(100)];
    expect(pick('click the last link', list)).toBe('e100');
    expect(() => pick('click the third link', list)).toThrow(Refusal);
  });

  it('a named target counts past a list folded in place only when it is counting that list', () => {
    const dl = (n: number): OutlineLine => ({ depth: 1, kind: 'element', role: 'link', name: 'Download', id: `e${n}`, states: {} });
    const downloads: OutlineLine[] = [
      { depth: 0, kind: 'element', role: 'list', name: '', id: 'e0', states: {} },
      dl(1),
      dl(2),
      dl(3),
      { depth: 1, kind: 'summary', text: '… links 4 to 99 of 100 omitted here', states: { fold: 'items' } },
      dl(100),
      { depth: 0, kind: 'element', role: 'textbox', name: 'Quick search', id: 'e200', states: {} },
    ];
    expect(pick('click the second Download link', downloads)).toBe('e2');
    expect(pick('click the last Download link', downloads)).toBe('e100');
    expect(() => pick('click the 4th Download link', downloads)).toThrow(Refusal);
    // One named target after a folded list it is not counting.
    expect(pick('click the first Quick search box', downloads)).toBe('e200');
  });

  it('a list folded in place counts only when what is counted is in it', () => {
    const nav: OutlineLine[] = [
      { depth: 0, kind: 'element', role: 'navigation', name: 'Main', id: 'e1', states: {} },
      { depth: 1, kind: 'element', role: 'link', name: 'Home', id: 'e2', states: {} },
      { depth: 1, kind: 'summary', text: '… links 2 to 11 of 12 omitted here', states: { fold: 'items' } },
      { depth: 1, kind: 'element', role: 'link', name: 'Contact', id: 'e3', states: {} },
      { depth: 0, kind: 'element', role: 'textbox', name: 'Search', id: 'e4', states: {} },
      { depth: 0, kind: 'element', role: 'textbox', name: 'Email', id: 'e5', states: {} },
    ];
    expect(pick('click the first text field', nav)).toBe('e4');
    expect(() => pick('click the second link', nav)).toThrow(Refusal);
  });
});

describe('names said with small words, twins in a sentence, copies and sentences before shapes', () => {
  const el = (id: string, role: string, name = '', states: OutlineLine['states'] = {}, nameFrom?: string): OutlineLine => ({
    depth: 0,
    kind: 'element',
    role,
    name,
    id,
    states,
    ...(nameFrom ? { nameFrom } : {}),
  });
  const text = (t: string): OutlineLine => ({ depth: 0, kind: 'text', text: t, states: {} });

  it('a field labelled only "to:" is the to field; "it" never names a button', () => {
    const lines = [text('to:'), el('e1', 'textbox', '', { value: '' }), el('e2', 'button', 'Got it')];
    expect(pick('enter "Ola" into the to field', lines)).toBe('e1');
    expect(() => pick('click it', lines)).toThrow(Refusal);
  });

  it('"the Last name field" is the field labelled so, not the last field; "the last field" still counts', () => {
    const lines = [text('Last name:'), el('e1', 'textbox', '', { value: '' }), text('First name:'), el('e2', 'textbox', '', { value: '' })];
    expect(pick('enter "Swanson" into the Last name field', lines)).toBe('e1');
    expect(pick('enter "Ursa" into the First name field', lines)).toBe('e2');
    expect(pick('enter "Ursa" into the last field', lines)).toBe('e2');
  });

  it('of twin swatches, the one inside the sentence is the words, the one alone is the control', () => {
    const sw = (id: string) => el(id, 'clickable', 'red square color', {}, 'inferred');
    const lines = [text('Click on the'), sw('e1'), text('colored box.'), sw('e2'), el('e3', 'clickable', 'blue square color', {}, 'inferred')];
    expect(pick('Click on the red colored box', lines)).toBe('e2');
  });

  it('a copy goes to the field that does not hold it; "the text input" is a one-line field', () => {
    const lines = [el('e1', 'textbox', '', { multiline: true, value: 'Nisl. Dui nunc.' }), el('e2', 'textbox', '', { multiline: true, value: '' })];
    expect(pick('enter "Nisl. Dui nunc." into the textbox', lines)).toBe('e2');
    const more = [...lines, el('e3', 'textbox', '', { value: '' })];
    expect(pick('enter "Nisl. Dui nunc." into the text input', more)).toBe('e3');
  });

  it("\"press login\": the password form's one button that goes on, never a pop-up's OK while the form's is disabled", () => {
    const form = [text('Username'), el('e1', 'textbox', '', { value: '' }), text('Password'), el('e2', 'textbox', '', { type: 'password', value: '' })];
    expect(pick('press login', [...form, el('e3', 'button', 'OK')])).toBe('e3');
    expect(() => pick('press login', [...form, el('e3', 'button', 'Delete account')])).toThrow(Refusal);
    const held = [...form, el('e3', 'button', 'OK', { disabled: true }), text('Exit to home page?'), el('e4', 'button', 'OK'), el('e5', 'button', 'Cancel')];
    expect(() => pick('press login', held)).toThrow(Refusal);
  });

  it('a sentence before a shape is no label: "the black box" is not a red circle', () => {
    const lines = [text('Drag all rectangles into the black box.'), el('e1', 'clickable', 'red circle', { fill: 'red' }, 'inferred')];
    expect(() => pick('click the black box', lines)).toThrow(Refusal);
  });

  it('a whole paragraph by its place; one broken by a link is refused', () => {
    const paras = [text('Highlight the text in the 2nd paragraph.'), text('Tempor orci dapibus ultrices in.'), text('Vitae congue mauris rhoncus aenean.')];
    const sel = choose(parseIntent('Highlight the text in the 2nd paragraph'), buildOutline(paras));
    expect(sel.args).toEqual(['Vitae congue mauris rhoncus aenean.']);
    const broken = [...paras.slice(0, 2), text('Vitae congue'), el('e1', 'link', 'mauris rhoncus'), text('aenean vel elit.')];
    expect(() => choose(parseIntent('Highlight the text in the 2nd paragraph'), buildOutline(broken))).toThrow(Refusal);
  });

  it('a paragraph of three words counts only where no longer one is, and a label ending in a colon never does', () => {
    const say = 'Highlight the text in the paragraph below';
    const page = (p: string) => [
      text('Highlight the text in the paragraph below and click submit.'),
      el('e1', 'button', 'Submit'),
      text(p),
      text('Last reward:'),
      text('-'),
      text('Last 10 average:'),
    ];
    expect(choose(parseIntent(say), buildOutline(page('In vitae, tortor'))).args).toEqual(['In vitae, tortor']);
    // Beside a longer block, the short line is no paragraph: the longer one is.
    const both = [...page('In vitae, tortor'), text('Tempor orci dapibus ultrices in.')];
    expect(choose(parseIntent(say), buildOutline(both)).args).toEqual(['Tempor orci dapibus ultrices in.']);
    // Two short ones: which is not settled.
    expect(() => choose(parseIntent(say), buildOutline([...page('In vitae, tortor'), text('Sed ut perspiciatis')]))).toThrow(Refusal);
    expect(() => choose(parseIntent(say), buildOutline(page('Vitae tortor')))).toThrow(Refusal);
  });
});

describe('quoted names that differ only in case', () => {
  const el = (id: string, name: string): OutlineLine => ({ depth: 0, kind: 'element', role: 'clickable', name, id, states: {} });
  it('take the one written as quoted; with none written so, it stays a refusal', () => {
    expect(pick('click on the link "eu"', [el('e1', 'Eu'), el('e2', 'dictum.'), el('e3', 'eu')])).toBe('e3');
    expect(pick('click on the link "Eu"', [el('e1', 'Eu'), el('e3', 'eu')])).toBe('e1');
    expect(() => pick('click on the link "EU"', [el('e1', 'Eu'), el('e3', 'eu')])).toThrow(Refusal);
  });
});
