/** Cards dealt face down, told from the controls beside them; numbers read only as a sighted person reads them. */
import { describe, expect, it } from 'vitest';
import type { OutlineLine } from '../../src/protocol/model';
import { buildOutline } from '../../src/models/local/outline';
import { eachOrDeck, faceDownCards } from '../../src/models/local/agent/face-down';

let n = 0;
const el = (role: string, name: string, hidden = false): OutlineLine => ({
  depth: 0,
  kind: 'element',
  role,
  name,
  id: `e${++n}`,
  states: {},
  ...(hidden ? { nameFrom: 'hidden-text' } : {}),
});
const names = (x: ReturnType<typeof faceDownCards>) => (typeof x === 'string' ? x : x.map((c) => c.id));

describe('cards face down', () => {
  it('are the siblings that look alike face down, with those of their role already turned, and no other control', () => {
    const nodes = buildOutline([el('button', '?'), el('button', '7'), el('button', '?'), el('button', 'Submit')]);
    expect(names(faceDownCards(nodes))).toEqual(['e1', 'e2', 'e3']);
  });

  it('count a number in text too small to see as face down, never as shown', () => {
    const nodes = buildOutline([el('clickable', '9', true), el('clickable', '0', true), el('clickable', '1'), el('button', 'Submit')]);
    const deck = faceDownCards(nodes);
    expect(names(deck)).toHaveLength(3);
    // With the deck, a pick turns the cards; with no pick by turning, the hidden numbers are no targets.
    expect(names(eachOrDeck({ pick: 'max', turn: true }, nodes))).toHaveLength(3);
    expect(eachOrDeck({ pick: 'max' }, nodes)).toEqual([nodes[2]]);
  });

  it('are none where one odd control stands beside numbers, or two sets could be meant', () => {
    expect(names(faceDownCards(buildOutline([el('button', '3'), el('button', '8'), el('button', 'Reset')])))).toBe('the page shows no cards face down');
    const two = buildOutline([el('button', '?'), el('button', '?'), el('link', ''), el('link', '')]);
    expect(names(faceDownCards(two))).toBe('the page shows 2 sets of cards face down');
  });
});
