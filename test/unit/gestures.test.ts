/** Gestures worked out before they are made: a press held for a time, a bisector's end, a circle around a dot. */
import { describe, expect, it } from 'vitest';
import type { DrawnShape } from '../../src/protocol/content-messages';
import { spotMove } from '../../src/models/local/geometry';
import { planInstruction } from '../../src/models/local/plan';

const page = { fields: [], names: ['Submit', 'Hold me'] };
const plan = (say: string) => planInstruction(say, page);
const line = (x1: number, y1: number, x2: number, y2: number): DrawnShape => ({
  tag: 'line',
  x: (x1 + x2) / 2,
  y: (y1 + y2) / 2,
  w: Math.abs(x2 - x1),
  h: Math.abs(y2 - y1),
  fill: 'none',
  ends: [x1, y1, x2, y2],
});
const dot = (x: number, y: number): DrawnShape => ({ tag: 'circle', x, y, w: 8, h: 8, fill: 'green' });
const size = { width: 300, height: 220 };

describe('a press held for a time', () => {
  it('holds the control named for the time said, "at least" a little longer', () => {
    expect(plan('Hold the button for exactly 3 seconds')).toEqual([{ say: 'hold the button for 3000 ms', hold: { target: 'the button', ms: 3000 } }]);
    expect(plan('Press and hold Record for 1.5 seconds')[0]!.hold).toEqual({ target: 'Record', ms: 1500 });
    expect(plan('Hold the button down for half a second')[0]!.hold).toEqual({ target: 'the button', ms: 500 });
    expect(plan('Keep pressing the button for at least 2 seconds')[0]!.hold).toEqual({ target: 'the button', ms: 2250 });
    expect(plan('Click and hold the circle for 500 ms')[0]!.hold).toEqual({ target: 'the circle', ms: 500 });
    expect(plan('Long-press the photo')[0]!.hold).toEqual({ target: 'the photo', ms: 1000 });
  });

  it('is not read into words that hold nothing, and refuses a key or a hold past the longest wait', () => {
    expect(plan('Hold on to the receipt')[0]!.hold).toBeUndefined();
    expect(() => plan('Hold the space bar for 2 seconds')).toThrow(/a key/);
    expect(() => plan('Hold the Shift key for 1 second')).toThrow(/a key/);
    expect(() => plan('Hold the button for 2 minutes')).toThrow(/longer than the built-in agent waits/);
  });
});

describe('an angle bisected', () => {
  it('ends a line from the corner along the bisector, inside the angle', () => {
    // A right angle at (100, 100): arms to the right and down; the bisector goes down and right at 45°.
    const m = spotMove('bisect', undefined, [line(100, 100, 200, 100), line(100, 100, 100, 180), dot(100, 100)], size);
    if (typeof m === 'string' || !('click' in m)) throw new Error(String(m));
    expect(Math.abs(m.click.x - 100 - (m.click.y - 100))).toBeLessThanOrEqual(1);
    expect(m.click.x).toBeGreaterThan(110);
    // Arms given end first: the corner is still the shared end.
    const n = spotMove('bisect', undefined, [line(200, 100, 100, 100), line(100, 20, 100, 100)], size);
    if (typeof n === 'string' || !('click' in n)) throw new Error(String(n));
    expect(Math.abs(n.click.x - 100 - (100 - n.click.y))).toBeLessThanOrEqual(1);
  });

  it('clicks a one-pixel square at its own pixel, not half a pixel past it', () => {
    const box = (x: number, y: number, w: number): DrawnShape => ({ tag: 'box', x: x + w / 2, y: y + w / 2, w, h: w, fill: 'red' });
    expect(spotMove('mark', undefined, [box(340, 260, 1)], size)).toMatchObject({ click: { x: 340, y: 260 } });
    expect(spotMove('mark', undefined, [box(340.3, 260.6, 1)], size)).toMatchObject({ click: { x: 341, y: 261 } });
    expect(spotMove('mark', undefined, [box(340, 260, 5)], size)).toMatchObject({ click: { x: 343, y: 263 } });
    expect(spotMove('mark', undefined, [box(10, 10, 1), box(50, 50, 1)], size)).toMatch(/2 small squares, not one/);
  });

    it('refuses lines that make no one angle', () => {
    expect(spotMove('bisect', undefined, [line(10, 10, 100, 10)], size)).toMatch(/1 line, not the two arms/);
    expect(spotMove('bisect', undefined, [line(10, 10, 100, 10), line(150, 50, 200, 90)], size)).toMatch(/do not meet/);
    expect(spotMove('bisect', undefined, [line(50, 100, 150, 100), line(150, 100, 250, 100)], size)).toMatch(/180°/);
    expect(spotMove('bisect', undefined, [line(10, 10, 100, 10), line(10, 10, 100, 10)], size)).toMatch(/both ends/);
  });
});

describe('a circle around a dot', () => {
  it('is a closed stroke around the one dot, smaller near the edge', () => {
    const m = spotMove('circle', undefined, [dot(150, 110)], size);
    if (typeof m === 'string' || !('stroke' in m)) throw new Error(String(m));
    expect(m.stroke[0]).toEqual(m.stroke.at(-1));
    for (const p of m.stroke) expect(Math.abs(Math.hypot(p.x - 150, p.y - 110) - 25)).toBeLessThanOrEqual(1);
    const near = spotMove('circle', undefined, [dot(20, 110)], size);
    if (typeof near === 'string' || !('stroke' in near)) throw new Error(String(near));
    expect(near.what).toMatch(/radius 17 px/);
  });

  it('refuses no dot, two dots, or a dot at the edge', () => {
    expect(spotMove('circle', undefined, [], size)).toMatch(/no dots, not one/);
    expect(spotMove('circle', undefined, [dot(50, 50), dot(90, 90)], size)).toMatch(/2 dots, not one/);
    expect(spotMove('circle', undefined, [dot(5, 110)], size)).toMatch(/too near the drawing's edge/);
  });
});
