/** Take over: the pause gate (wait, Resume, PAUSED after the budget, abort), its place in Engine.call, and the failed-run memory. */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine';
import { GATED_METHODS, PauseGate, pauseBudget, RESUMED_BY_PERSON } from '../../src/engine/people/pause';
import { KEEP_FAILED_MS, KEEP_FAILED_RUNS, OWN_RUN_TAIL_MS, Takeover, type TakeoverHooks } from '../../src/engine/people/takeover';
import type { BrowserPort, CallContext } from '../../src/engine/ports';
import { DeckhandError } from '../../src/protocol/errors';
import type { Params, Parsed } from '../../src/protocol/methods';
import type { Action } from '../../src/protocol/schemas';
import type { TakeoverState } from '../../src/protocol/panel';

const settledWithin = async (p: Promise<unknown>, ms: number) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, ms));
  return done;
};

describe('PauseGate', () => {
  it('lets calls through at once when not paused', async () => {
    const gate = new PauseGate();
    expect(await gate.wait('act', 1000)).toBeNull();
    expect(gate.state()).toEqual({ paused: false, waiting: 0 });
  });

  it('holds calls while paused and lets them go on Resume, saying why and how long they waited', async () => {
    const gate = new PauseGate();
    const seen: number[] = [];
    gate.onChange((s) => seen.push(s.waiting));
    gate.pause();
    const waited: string[] = [];
    const a = gate.wait('act', 5000, undefined, () => waited.push('act'));
    const b = gate.wait('observe', 5000);
    expect(waited).toEqual(['act']);
    expect(gate.state()).toMatchObject({ paused: true, waiting: 2 });
    expect(await settledWithin(a, 50)).toBe(false);
    gate.resume();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra!.reason).toBe(RESUMED_BY_PERSON);
    expect(ra!.waitedMs).toBeGreaterThanOrEqual(40);
    expect(rb!.reason).toBe(RESUMED_BY_PERSON);
    expect(gate.state()).toEqual({ paused: false, waiting: 0 });
    expect(seen).toContain(2);
    expect(seen.at(-1)).toBe(0);
  });

  it('says why when it was not the person who resumed', async () => {
    const gate = new PauseGate();
    gate.pause();
    const w = gate.wait('act', 5000);
    gate.resume('every side panel was closed');
    expect((await w)!.reason).toBe('every side panel was closed');
  });

  it('fails with PAUSED once the budget runs out, naming the side panel, and stops counting the call', async () => {
    const gate = new PauseGate();
    gate.pause();
    const t0 = Date.now();
    const e = await gate.wait('act', 120).catch((x: unknown) => x);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    expect(e).toBeInstanceOf(DeckhandError);
    expect((e as DeckhandError).code).toBe('PAUSED');
    expect((e as DeckhandError).message).toMatch(/act waited 120 ms.*paused the run in Deckhand's side panel/);
    expect(gate.state().waiting).toBe(0);
  });

  it('ends a wait with the reason of its signal (the caller went away)', async () => {
    const gate = new PauseGate();
    gate.pause();
    const c = new AbortController();
    const w = gate.wait('act', 5000, c.signal);
    c.abort(new DeckhandError('CANCELLED', 'gone'));
    await expect(w).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(gate.state().waiting).toBe(0);
  });
});

describe('pauseBudget', () => {
  it("is the call's own timeout, else its caller's default", () => {
    expect(pauseBudget('act', { input: 'click it', options: { timeout: 2500 } })).toBe(2500);
    expect(pauseBudget('act', { input: 'click it' })).toBe(120_000);
    expect(pauseBudget('act', { input: { selector: '#a', description: 'a' } })).toBe(15_000);
    expect(pauseBudget('locator.act', { page: 1, locator: { selector: '#a' }, method: 'click', timeout: 700 })).toBe(700);
    expect(pauseBudget('page.goto', { page: 1, url: 'https://a.test/' })).toBe(30_000);
    expect(pauseBudget('act', { input: 'x', options: { timeout: 10_000_000 } })).toBe(600_000);
  });

  it('covers what acts on or reads the page, not ping, metrics or cancel', () => {
    for (const m of [
      'act',
      'act.replay',
      'observe',
      'extract',
      'agent.run',
      'batch.run',
      'flow.replay',
      'page.goto',
      'locator.act',
      'page.press',
      'page.evaluate',
      'page.tools',
      'page.callTool',
    ] as const)
      expect(GATED_METHODS.has(m)).toBe(true);
    for (const m of ['engine.ping', 'metrics', 'op.cancel'] as const) expect(GATED_METHODS.has(m)).toBe(false);
  });
});

/** Enough of a browser for page.close and page.info: records what reached it. */
function fakePort(): BrowserPort & { calls: string[] } {
  const calls: string[] = [];
  const info = (id: number) => ({ id, url: 'https://shop.test/cart?utm_source=x', title: 'Cart' });
  return {
    calls,
    listPages: async () => [info(1)],
    activePage: async () => info(1),
    createPage: async () => info(2),
    pageInfo: async (id: number) => info(id),
    closePage: async (id: number) => void calls.push(`close:${id}`),
    bringToFront: async () => undefined,
    resetPage: async () => undefined,
    cdp: async () => {
      throw new Error('no CDP in this test');
    },
    frameRequest: async () => {
      throw new Error('no frames in this test');
    },
    isLoading: async () => false,
    frames: async () => [],
    onPageClosed: () => () => undefined,
  } as unknown as BrowserPort & { calls: string[] };
}

const ctxWith = (gate: PauseGate, extra: Partial<CallContext> = {}): CallContext => ({
  invokeCallback: async () => {
    throw new Error('no model in this test');
  },
  log: () => undefined,
  pause: gate,
  ...extra,
});

describe('Engine.call with the pause gate', () => {
  it('holds a page operation until Resume, and lets ping through; a call without the gate (the panel) is never held', async () => {
    const port = fakePort();
    const engine = new Engine(port, 'ext');
    const gate = new PauseGate();
    gate.pause();
    const lines: string[] = [];
    const held = engine.call('page.close', { page: 1 }, ctxWith(gate, { log: (e) => lines.push(e.message) }));
    expect(await engine.call('engine.ping', {}, ctxWith(gate))).toMatchObject({ extensionId: 'ext' });
    await engine.call('page.close', { page: 3 }); // the panel's own call: no gate in its context
    expect(port.calls).toEqual(['close:3']);
    expect(await settledWithin(held, 100)).toBe(false);
    expect(lines.join('\n')).toMatch(/page.close waits: the run is paused in Deckhand's side panel/);
    gate.resume();
    await held;
    expect(port.calls).toEqual(['close:3', 'close:1']);
    expect(lines.join('\n')).toMatch(/page.close goes on after \d+ ms paused: the person pressed Resume/);
  });

  it('answers PAUSED (not TIMEOUT) when the operation deadline passes while paused, and nothing reaches the page', async () => {
    const port = fakePort();
    const engine = new Engine(port, 'ext');
    const gate = new PauseGate();
    gate.pause();
    const e = await engine
      .call('locator.act', { page: 1, locator: { selector: '#buy' }, method: 'click', timeout: 150 }, ctxWith(gate))
      .catch((x: unknown) => x);
    expect((e as DeckhandError).code).toBe('PAUSED');
    expect(port.calls).toEqual([]);
  });
});

describe('Engine.storeFix', () => {
  it("stores the person's steps under the key the same act looks up, in the caller's store or the extension's", async () => {
    const recorded: { key: string; op: string; result: unknown; replace?: boolean }[] = [];
    const store = {
      lookup: async () => ({ count: 1, entry: null }),
      record: async (r: (typeof recorded)[number]) => (recorded.push(r), { agree: 1 }),
      invalidate: async () => undefined,
    };
    const ext: typeof recorded = [];
    const extStore = { ...store, record: async (r: (typeof recorded)[number]) => (ext.push(r), { agree: 1 }) };
    const engine = new Engine(fakePort(), 'ext', undefined, undefined, undefined, extStore as never);
    const steps: Action[] = [{ selector: '//button[3]', method: 'click', arguments: [], description: 'button with no name' }];
    const ctx = ctxWith(new PauseGate(), { cache: store as never });
    const p = { input: 'archive this message', options: { variables: { who: 'x' } } } as Parsed<'act'>;
    const a = await engine.storeFix(p, 'https://shop.test/cart?utm_source=x', ctx, steps);
    const b = await engine.storeFix(p, 'https://shop.test/cart', ctx, steps);
    expect(a).toEqual({ store: 'caller', key: b.key }); // tracking parameters do not make another key
    expect(recorded).toHaveLength(2);
    expect(recorded[0]).toMatchObject({ key: a.key, op: 'act', result: steps, replace: true });
    // Another instruction or another set of variable names: another key.
    expect((await engine.storeFix({ ...p, input: 'archive it' }, 'https://shop.test/cart', ctx, steps)).key).not.toBe(a.key);
    expect((await engine.storeFix({ ...p, options: {} }, 'https://shop.test/cart', ctx, steps)).key).not.toBe(a.key);
    const inExt = await engine.storeFix(
      { ...p, options: { ...p.options, cache: { threshold: 1, selfHeal: false, store: 'extension' } } } as never,
      'https://shop.test/cart',
      ctx,
      steps,
    );
    expect(inExt).toEqual({ store: 'extension', key: a.key });
    expect(ext).toHaveLength(1);
    await expect(engine.storeFix(p, 'https://shop.test/cart', ctxWith(new PauseGate()), steps)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(engine.storeFix(p, 'https://shop.test/cart', ctx, [{ ...steps[0], method: 'smash' }])).rejects.toMatchObject({ code: 'UNSUPPORTED_METHOD' });
    await expect(engine.storeFix({ ...p, options: { locator: '#main' } } as never, 'https://shop.test/cart', ctx, steps)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('Takeover', () => {
  const click: Action = { selector: '//button[3]', method: 'click', arguments: [], description: 'button with no name' };
  const setup = () => {
    const gate = new PauseGate();
    const states: TakeoverState[] = [];
    const recording: boolean[] = [];
    const stored: { p: Params<'act'>; url: string; actions: Action[] }[] = [];
    let now = 1_000_000;
    const hooks: TakeoverHooks = { changed: (s) => states.push(s), record: async (on) => void recording.push(on), pageUrl: async () => 'https://a.test/inbox' };
    const engine = {
      storeFix: async (p: Params<'act'>, url: string, _ctx: CallContext, actions: Action[]) => (stored.push({ p, url, actions }), { key: 'k'.repeat(64) }),
    };
    const t = new Takeover(gate, engine, hooks, () => now);
    return { gate, t, states, recording, stored, tick: (ms: number) => (now += ms) };
  };
  const ref = (runId: string) => ({ runId, callerId: 'c1', description: 'archive this message' });
  const ctx = {} as CallContext;
  const act = { input: 'archive this message' } as Params<'act'>;

  it('records only while paused, merges typing into one step, and starts afresh at the next Pause', async () => {
    const { t, recording } = setup();
    t.recorded(click, false);
    expect(t.state().recorded).toEqual([]);
    await t.pause();
    t.recorded({ selector: '#q', method: 'fill', arguments: ['a'], description: 'q' }, false);
    t.recorded({ selector: '#q', method: 'fill', arguments: ['ab'], description: 'q' }, true);
    t.recorded(click, false);
    expect(t.state().recorded.map((a) => a.arguments)).toEqual([['ab'], []]);
    await t.resume();
    expect(t.state().recorded).toHaveLength(2); // still there to be saved after Resume
    await t.pause();
    expect(t.state().recorded).toEqual([]);
    expect(recording).toEqual([true, false, true]);
  });

  it("does not take the panel's own run for the person's steps, nor its input arriving just after", async () => {
    const { t, tick } = setup();
    await t.pause();
    const end = t.ownRun();
    t.recorded(click, false);
    end();
    tick(OWN_RUN_TAIL_MS - 1);
    t.recorded(click, false);
    expect(t.state().recorded).toEqual([]);
    tick(2);
    t.recorded(click, false);
    expect(t.state().recorded).toEqual([click]);
  });

  it('previews and stores a fix for a remembered failed act, with typed refusals', async () => {
    const { t, stored } = setup();
    const closed = new AbortController();
    expect(() => t.preview('r1', 'c1')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    await t.failed(ref('r1'), act, ctx, closed.signal);
    await t.failed(ref('r2'), { input: { selector: '#a', description: 'a' } } as Params<'act'>, ctx, closed.signal); // an Action: nothing to fix
    expect(() => t.preview('r2', 'c1')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => t.preview('r1', 'other-caller')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    await t.pause();
    expect(() => t.preview('r1', 'c1')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/nothing was recorded/) }));
    t.recorded(click, false);
    expect(t.preview('r1', 'c1')).toEqual({ runId: 'r1', instruction: 'archive this message', url: 'https://a.test/inbox', actions: [click], store: 'caller' });
    const saved = await t.save('r1', 'c1');
    expect(saved.key).toHaveLength(64);
    expect(stored).toEqual([{ p: act, url: 'https://a.test/inbox', actions: [click] }]);
    closed.abort();
    await expect(t.save('r1', 'c1')).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it(`keeps the last ${KEEP_FAILED_RUNS} failed runs for ${KEEP_FAILED_MS / 60_000} minutes`, async () => {
    const { t, tick } = setup();
    const live = new AbortController().signal;
    for (let i = 0; i <= KEEP_FAILED_RUNS; i++) await t.failed(ref(`r${i}`), act, ctx, live);
    await t.pause();
    t.recorded(click, false);
    expect(() => t.preview('r0', 'c1')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(t.preview(`r${KEEP_FAILED_RUNS}`, 'c1').runId).toBe(`r${KEEP_FAILED_RUNS}`);
    tick(KEEP_FAILED_MS + 1);
    expect(() => t.preview(`r${KEEP_FAILED_RUNS}`, 'c1')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
