import { describe, expect, it } from 'vitest';
import { asksForChange, changesBetween, EffectWatch, type PageMark } from '../../src/engine/agent/effect';
import type { FrameMark } from '../../src/protocol/content-messages';
import type { BrowserPort } from '../../src/engine/ports';

const frame = (o: Partial<FrameMark> = {}): FrameMark => ({
  url: 'http://x/',
  doc: 'd1',
  elements: 0,
  attributes: 0,
  text: 0,
  style: 0,
  values: 'v',
  selection: 's',
  focus: -1,
  scrolls: 0,
  taken: 0,
  downloads: 0,
  presses: 0,
  ...o,
});
const mark = (...frames: [number, Partial<FrameMark>][]): PageMark => ({ frames: new Map(frames.map(([id, f]) => [id, frame(f)])) });

describe("a step's effect, from the page's marks", () => {
  it('kinds of change between two marks', () => {
    expect([...changesBetween(mark([0, {}]), mark([0, {}]))]).toEqual([]);
    expect([...changesBetween(mark([0, {}]), mark([0, { doc: 'd2' }]))]).toEqual(['navigated']);
    expect([...changesBetween(mark([0, {}]), mark([0, { url: 'http://x/#b' }]))]).toEqual(['navigated']);
    expect([...changesBetween(mark([0, {}]), mark([0, { values: 'w', text: 2, taken: 1 }]))].sort()).toEqual(['taken', 'text', 'values']);
    // A press counts as movement only when the element pressed on moved since.
    expect([...changesBetween(mark([0, {}]), mark([0, { presses: 1, moved: false }]))]).toEqual([]);
    expect([...changesBetween(mark([0, {}]), mark([0, { presses: 1, moved: true }]))]).toEqual(['moved']);
    expect([...changesBetween(mark([0, {}]), mark([0, { downloads: 1 }]))]).toEqual(['download']);
    expect([...changesBetween(mark([0, {}]), mark([0, { scrolls: 3 }]))]).toEqual(['scrolled']);
    // An iframe added or removed changes the page's elements.
    expect([...changesBetween(mark([0, {}]), mark([0, {}], [7, {}]))]).toEqual(['elements']);
    expect([...changesBetween(mark([0, {}], [7, {}]), mark([0, {}]))]).toEqual(['elements']);
  });

  it('what counts depends on what the step meant; what the page changes by itself is not credited', async () => {
    const marks: PageMark[] = [];
    const port = {
      frames: async () => [{ frameId: 0, parentFrameId: -1, url: '' }],
      frameRequest: async () => marks.shift()!.frames.get(0),
    } as unknown as BrowserPort;
    const watch = new EffectWatch(port, 1, true);
    const step = async (before: Partial<FrameMark>, after: Partial<FrameMark>, kind: Parameters<EffectWatch['end']>[0]) => {
      marks.push(mark([0, before]), mark([0, after]));
      await watch.begin();
      return watch.end(kind);
    };
    // A click: any change, or the click taken by a control.
    expect(await step({}, { taken: 1 }, 'click')).toEqual({ shows: true, seen: ['taken'] });
    // A value typed: a focus change alone is not it; a download shows nothing.
    expect(await step({}, { focus: 3 }, 'fill')).toEqual({ shows: false, seen: ['focus'] });
    expect(await step({}, { scrolls: 1 }, 'scroll')).toEqual({ shows: true, seen: ['scrolled'] });
    expect(await step({}, {}, 'scroll')).toEqual({ shows: false, seen: [] });
    expect(await step({}, { downloads: 1 }, 'click')).toEqual({ shows: false, seen: ['download'] });
    // A drag that moved nothing: hover styles do not make it one.
    expect(await step({}, { presses: 1, moved: false, attributes: 2 }, 'drag')).toEqual({ shows: false, seen: ['attributes'] });
    // A ticker's text changed while the page was left alone: its text changes are not the step's.
    marks.push(mark([0, { text: 10 }]));
    await watch.rest();
    expect(await step({ text: 12 }, { text: 13 }, 'click')).toEqual({ shows: false, seen: [] });
    // A page that cannot be read is not held against the step.
    const port2 = { frames: async () => [], frameRequest: async () => frame() } as unknown as BrowserPort;
    const blind = new EffectWatch(port2, 1);
    await blind.begin();
    expect((await blind.end('click')).shows).toBeNull();
  });

  it('a task that asks for a change, or only for information', () => {
    const change = ['Upload any file', 'Transcribe the bar chart into CSV', 'log in as ada', 'Find the cheapest laptop and add it to the cart'];
    for (const t of [...change, 'How many blocks are there? Enter the number and submit.']) {
      expect(asksForChange(t), t).toBe(true);
    }
    const info = ['What is the price of the blue kettle?', 'find the docs', 'Tell me the title of the first post', 'Which fruits does the chart show?'];
    for (const t of [...info, 'Check whether the store is open on Sunday']) {
      expect(asksForChange(t), t).toBe(false);
    }
  });
});
