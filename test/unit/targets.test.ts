/**
 * How a replay tells a stored action's element from others (engine/core/targets.ts records it,
 * engine/memory/targets.ts finds it again) and what an extraction's check reads (memory/cache-checks.ts).
 */
import { describe, expect, it } from 'vitest';
import { elementsOf, sameName, sameSurroundings } from '../../src/engine/core/targets';
import { placeIn, TargetChanged } from '../../src/engine/memory/targets';
import { valuesOf } from '../../src/engine/memory/cache-checks';

const target = { role: 'button', name: 'Delete', context: 'Bob bob@example.test', count: 3, alike: 1 };
const action = { selector: '//tr[2]//button', description: "Bob's Delete button", method: 'click', arguments: [], target };

describe('targets', () => {
  it('reads elements from printed snapshot lines, frames and quoted names included', () => {
    const text = ['[e1] heading "Team"', '  [e4] button "Delete" ', '  [f2e7] link "Say \\"hi\\""', 'plain text line', '[e9] textbox'].join('\n');
    expect(elementsOf(text)).toEqual([
      { id: 'e1', role: 'heading', name: 'Team' },
      { id: 'e4', role: 'button', name: 'Delete' },
      { id: 'f2e7', role: 'link', name: 'Say "hi"' },
      { id: 'e9', role: 'textbox', name: '' },
    ]);
  });

  it('names compare without case or extra spaces; a clipped name by its start; otherwise not at all', () => {
    expect(sameName('Place  order', 'place order')).toBe(true);
    expect(sameName('A very long product name that was…', 'A very long product name that was clipped here')).toBe(true);
    expect(sameName('Place order', 'Cancel order')).toBe(false);
    expect(sameName('Delete', 'Delete all')).toBe(false);
  });

  it('surroundings hold while every stored word is still there', () => {
    expect(sameSurroundings('Bob bob@example.test', 'Bob bob@example.test Admin')).toBe(true);
    expect(sameSurroundings('Bob bob@example.test', 'Alice alice@example.test')).toBe(false);
    expect(sameSurroundings('Tea Towel $6.50', 'Tea Towel $7.25')).toBe(false);
    expect(sameSurroundings('', 'anything')).toBe(true);
  });

  it('one match: there (healed if it moved); several where several were, by its place; else gone or ambiguous, and nothing is done', () => {
    expect(placeIn(action, { selectors: ['//tr[2]//button'], sameRoleAndName: 3 })).toEqual({ selector: '//tr[2]//button', moved: false });
    expect(placeIn(action, { selectors: ['//tr[1]//button'], sameRoleAndName: 3 })).toEqual({ selector: '//tr[1]//button', moved: true });
    // Three alike (no surroundings tell them apart): by place, while the same three are there.
    const alike = { ...action, target: { ...target, context: '', alike: 3 } };
    expect(placeIn(alike, { selectors: ['//a', '//tr[2]//button', '//c'], sameRoleAndName: 3 })).toEqual({ selector: '//tr[2]//button', moved: false });
    const more = placeIn(alike, { selectors: ['//a', '//tr[2]//button', '//c', '//d'], sameRoleAndName: 4 });
    expect(more).toBeInstanceOf(TargetChanged);
    expect((more as TargetChanged).reason).toBe('ambiguous');
    // Two of the three gone: the one left may not be the one chosen.
    const left = placeIn(alike, { selectors: ['//c'], sameRoleAndName: 1 });
    expect((left as TargetChanged).reason).toBe('ambiguous');
    expect((left as TargetChanged).message).toMatch(/told apart by its place only/);
    // A twin appears beside a target that was one of a kind.
    expect(placeIn(action, { selectors: ['//tr[2]//button', '//tr[2]//button[2]'], sameRoleAndName: 4 })).toBeInstanceOf(TargetChanged);
    const gone = placeIn(action, { selectors: [], sameRoleAndName: 2 });
    expect((gone as TargetChanged).reason).toBe('gone');
    expect((gone as TargetChanged).message).toMatch(/button "Delete" \(in "Bob bob@example.test"\) is no longer on the page.*nothing was done/);
  });

  it('an extraction is checked by the strings and numbers it holds, at most 200', () => {
    expect(
      valuesOf({
        plan: 'Pro',
        seats: 5,
        items: [
          { n: 'Mug', p: 12.5 },
          { n: ' ', ok: true },
        ],
        none: null,
      }),
    ).toEqual(['Pro', '5', 'Mug', '12.5']);
    expect(valuesOf(Array.from({ length: 500 }, (_, i) => `v${i}`))).toHaveLength(200);
  });
});
