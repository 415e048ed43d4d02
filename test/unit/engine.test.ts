/** The engine against a fake browser: validation before any page contact, and deterministic actions as CDP input. */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine';
import type { BrowserPort, CdpSession, FrameInfo } from '../../src/engine/ports';
import { DeckhandError } from '../../src/protocol/errors';
import { ActResultSchema, type PageInfo } from '../../src/protocol/schemas';

interface FrameCall {
  page: number;
  frameId: number;
  message: Record<string, unknown>;
  timeoutMs: number;
}
interface CdpCall {
  page: number;
  method: string;
  params?: Record<string, unknown>;
}

type Answer = (call: FrameCall) => unknown;

/** Records every call; frame requests are answered by `answer`, CDP commands with `{}`. */
class FakePort implements BrowserPort {
  frameCalls: FrameCall[] = [];
  cdpCalls: CdpCall[] = [];
  readonly networkWatched = new Set<number>();
  calls: string[] = [];
  closeHandlers = new Map<number, Set<() => void>>();
  active: PageInfo | null = { id: 1, url: 'https://example.test/', title: 'Example' };

  constructor(
    public answer: Answer = () => {
      throw new Error('no frame answer configured');
    },
  ) {}

  async listPages(): Promise<PageInfo[]> {
    this.calls.push('listPages');
    return this.active ? [this.active] : [];
  }
  async activePage(): Promise<PageInfo | null> {
    this.calls.push('activePage');
    return this.active;
  }
  async createPage(): Promise<PageInfo> {
    this.calls.push('createPage');
    return { id: 2, url: 'about:blank', title: '' };
  }
  async pageInfo(page: number): Promise<PageInfo> {
    this.calls.push(`pageInfo:${page}`);
    return { id: page, url: 'https://example.test/', title: 'Example' };
  }
  async closePage(page: number): Promise<void> {
    this.calls.push(`closePage:${page}`);
  }
  async bringToFront(page: number): Promise<void> {
    this.calls.push(`bringToFront:${page}`);
  }
  async resetPage(page: number): Promise<void> {
    this.calls.push(`resetPage:${page}`);
  }
  async cdp(page: number): Promise<CdpSession> {
    this.calls.push(`cdp:${page}`);
    return {
      send: async <T>(method: string, params?: Record<string, unknown>) => {
        // Request counting for the settle wait, kept apart from the calls that drive the page.
        if (method === 'Network.enable') this.networkWatched.add(page);
        else this.cdpCalls.push({ page, method, params });
        return {} as T;
      },
      on: () => () => undefined,
    };
  }
  async frameRequest<T>(page: number, frameId: number, message: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const call = { page, frameId, message, timeoutMs };
    this.frameCalls.push(call);
    return (await this.answer(call)) as T;
  }
  async isLoading(): Promise<boolean> {
    return false;
  }
  async frames(page: number): Promise<FrameInfo[]> {
    this.calls.push(`frames:${page}`);
    return [{ frameId: 0, parentFrameId: -1, url: 'https://example.test/' }];
  }
  onPageClosed(page: number, handler: () => void): () => void {
    const set = this.closeHandlers.get(page) ?? this.closeHandlers.set(page, new Set()).get(page)!;
    set.add(handler);
    return () => set.delete(handler);
  }
  closeTab(page: number): void {
    for (const h of [...(this.closeHandlers.get(page) ?? [])]) h();
  }
  listenerCount(page: number): number {
    return this.closeHandlers.get(page)?.size ?? 0;
  }
  /** Anything that would reach the page: a content-script message or a debugger command. */
  get touchedPage(): boolean {
    return this.frameCalls.length > 0 || this.cdpCalls.length > 0;
  }
}

const READY = { kind: 'ready', handle: 1, x: 10, y: 20, count: 1, description: '<button#a>' };

/** Answers prepare with READY and ops from the given table. */
const answers =
  (ops: Record<string, unknown> = {}): Answer =>
  (call) => {
    const m = call.message;
    if (m.type === 'dh:prepare') return READY;
    if (m.type === 'dh:op') {
      if (!(String(m.op) in ops)) throw new Error(`unexpected op ${String(m.op)}`);
      return ops[String(m.op)];
    }
    throw new Error(`unexpected frame request ${String(m.type)}`);
  };

async function failure(p: Promise<unknown>, code: string, message?: RegExp | string): Promise<DeckhandError> {
  const e = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DeckhandError);
  expect((e as DeckhandError).code).toBe(code);
  if (message !== undefined) expect((e as DeckhandError).message).toMatch(message);
  return e as DeckhandError;
}

const setup = (answer?: Answer) => {
  const port = new FakePort(answer);
  return { port, engine: new Engine(port, 'ext-id-123') };
};

const mouse = (port: FakePort) => port.cdpCalls.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => c.params as Record<string, unknown>);

describe('Engine: validation before touching the page', () => {
  it('refuses an unknown act method with UNSUPPORTED_METHOD and no page contact', async () => {
    const { port, engine } = setup();
    const e = await failure(
      engine.call('act', { input: { selector: '#a', description: 'd', method: 'smash' } }),
      'UNSUPPORTED_METHOD',
      /unknown method 'smash'; use one of: click, /,
    );
    expect(e.data).toEqual({ method: 'smash' });
    expect(port.frameCalls).toEqual([]);
    expect(port.cdpCalls).toEqual([]);
    expect(port.calls.filter((c) => c.startsWith('cdp'))).toEqual([]);
    expect(port.listenerCount(1)).toBe(0);
  });

  it('refuses an Action with an unknown property, naming it', async () => {
    const { port, engine } = setup();
    await failure(
      engine.call('act', { input: { selector: '#a', description: 'd', bogus: 1 } }),
      'INVALID_ARGUMENT',
      "invalid Action: unknown property 'bogus'",
    );
    expect(port.touchedPage).toBe(false);
  });

  it('refuses an Action with an empty or blank selector, naming the field', async () => {
    const { port, engine } = setup();
    await failure(engine.call('act', { input: { selector: '', description: 'd' } }), 'INVALID_ARGUMENT', /^invalid Action: selector: /);
    await failure(engine.call('act', { input: { selector: '   ', description: 'd' } }), 'INVALID_ARGUMENT', /selector must be a non-empty/);
    await failure(engine.call('act', { input: { selector: '#a' } }), 'INVALID_ARGUMENT', /description/);
    await failure(engine.call('act', { input: { selector: '#a', description: 'd', arguments: [1] } }), 'INVALID_ARGUMENT', /arguments\.0/);
    expect(port.touchedPage).toBe(false);
  });

  it('refuses bad arguments for the method before touching the page', async () => {
    const { port, engine } = setup();
    await failure(
      engine.call('act', { input: { selector: '#a', description: 'd', method: 'fill' } }),
      'INVALID_ARGUMENT',
      'fill needs the text as its first argument',
    );
    await failure(
      engine.call('act', { input: { selector: '#a', description: 'd', method: 'press', arguments: ['Control+Banana'] } }),
      'INVALID_ARGUMENT',
      /unknown key 'Banana'/,
    );
    await failure(
      engine.call('act', { input: { selector: '#a', description: 'd', method: 'scrollTo', arguments: ['150%'] } }),
      'INVALID_ARGUMENT',
      /0 to 100, got '150%'/,
    );
    expect(port.touchedPage).toBe(false);
  });

  it('needs a model for an instruction string, observe and extract', async () => {
    const { port, engine } = setup();
    await failure(engine.call('act', { input: 'click the login button' }), 'NO_MODEL_CONFIGURED', /^act needs a model, and none is configured/);
    await failure(engine.call('observe', { instruction: 'find buttons' }), 'NO_MODEL_CONFIGURED', /^observe /);
    await failure(engine.call('observe', {}), 'NO_MODEL_CONFIGURED');
    await failure(engine.call('extract', { instruction: 'get the price' }), 'NO_MODEL_CONFIGURED', /^extract /);
    expect(port.touchedPage).toBe(false);
  });

  it('refuses unknown parameters, naming them', async () => {
    const { port, engine } = setup();
    await failure(engine.call('page.info', { page: 1, extra: 1 } as never), 'INVALID_ARGUMENT', "invalid page.info parameters: unknown property 'extra'");
    await failure(engine.call('engine.ping', { a: 1, b: 2 } as never), 'INVALID_ARGUMENT', "unknown properties 'a', 'b'");
    await failure(
      engine.call('act', { input: { selector: '#a', description: 'd' }, options: { tmeout: 5 } } as never),
      'INVALID_ARGUMENT',
      "unknown property 'tmeout' in options",
    );
    await failure(engine.call('page.info', { page: -1 }), 'INVALID_ARGUMENT', /^invalid page.info parameters: page: /);
    expect(port.calls).toEqual([]);
    expect(port.touchedPage).toBe(false);
  });

  it('refuses an unknown method with PROTOCOL_ERROR', async () => {
    const { engine } = setup();
    await failure(engine.call('page.fly' as never, {} as never), 'PROTOCOL_ERROR', "unknown method 'page.fly'");
  });
});

describe('Engine: simple commands', () => {
  it('metrics returns thirty-two zeros', async () => {
    const { engine } = setup();
    const m = await engine.call('metrics', {});
    expect(Object.keys(m)).toHaveLength(32);
    expect(Object.values(m).every((v) => v === 0)).toBe(true);
    expect(m).toHaveProperty('totalInferenceTimeMs', 0);
    expect(m).toHaveProperty('observeCachedInputTokens', 0);
    expect(m).toHaveProperty('totalCostUsd', 0);
    expect(m).toHaveProperty('totalCacheSavedCostUsd', 0);
  });

  it('engine.ping reports the version and extension id', async () => {
    const { engine } = setup();
    await expect(engine.call('engine.ping', {})).resolves.toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), extensionId: 'ext-id-123' });
  });

  it('page.info passes the page id through', async () => {
    const { port, engine } = setup();
    await expect(engine.call('page.info', { page: 9 })).resolves.toEqual({ id: 9, url: 'https://example.test/', title: 'Example' });
    expect(port.calls).toEqual(['pageInfo:9']);
  });

  it('locator.count asks the top frame and reports its count or error', async () => {
    const { port, engine } = setup((c) => (c.message.selector === '#many' ? { count: 3 } : { error: { code: 'INVALID_SELECTOR', message: 'bad selector' } }));
    await expect(engine.call('locator.count', { page: 1, locator: { selector: '#many' } })).resolves.toEqual({ count: 3 });
    expect(port.frameCalls[0]).toMatchObject({ page: 1, frameId: 0, message: { type: 'dh:count', selector: '#many' } });
    await failure(engine.call('locator.count', { page: 1, locator: { selector: '[[' } }), 'INVALID_SELECTOR', 'bad selector');
  });
});

describe('Engine: deterministic act', () => {
  it('clicks with trusted mouse events at the prepared point', async () => {
    const { port, engine } = setup(answers());
    const r = await engine.call('act', { input: { selector: '#a', description: 'd', method: 'click' } });

    expect(ActResultSchema.parse(r)).toEqual(r);
    expect(r.data).toEqual({
      success: true,
      message: 'click performed on <button#a>',
      actionDescription: 'd',
      actions: [{ selector: '#a', description: 'd', method: 'click', arguments: [] }],
    });
    expect(r.metadata.cache).toEqual({ status: 'DISABLED' });
    expect(r.metadata.usage).toEqual({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 });
    // No model was called: it cost nothing.
    expect(r.metadata.costUsd).toBe(0);
    expect(r.metadata.actionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // The content script of the active page's top frame was asked to prepare a pointer action, then whether the point
    // still hits it (here the page cannot say, so the press goes ahead as prepared).
    expect(port.frameCalls).toHaveLength(2);
    expect(port.frameCalls[0]).toMatchObject({
      page: 1,
      frameId: 0,
      message: { type: 'dh:prepare', selector: '#a', nth: null, method: 'click', pointer: true, requireEnabled: true, reveal: true },
    });
    expect(port.frameCalls[1]).toMatchObject({ frameId: 0, message: { type: 'dh:op', handle: 1, op: 'hitsAt', args: ['10', '20'] } });

    // The page's requests are counted from the first action on it (for a later settle wait).
    expect(port.networkWatched.has(1)).toBe(true);
    // Input, then one renderer round trip that lets a navigation caused by the click be seen.
    expect(port.cdpCalls.map((c) => c.method)).toEqual([
      'Input.dispatchMouseEvent',
      'Input.dispatchMouseEvent',
      'Input.dispatchMouseEvent',
      'Runtime.evaluate',
    ]);
    expect(port.cdpCalls.every((c) => c.page === 1)).toBe(true);
    expect(mouse(port)).toEqual([
      { type: 'mouseMoved', x: 10, y: 20, button: 'none' },
      expect.objectContaining({ type: 'mousePressed', x: 10, y: 20, button: 'left', clickCount: 1 }),
      expect.objectContaining({ type: 'mouseReleased', x: 10, y: 20, button: 'left', clickCount: 1 }),
    ]);
  });

  it('a press waits while the hover leaves the point off its target, then clicks where it was prepared', async () => {
    // Hit before the pointer came, missed twice after it (a hover picture loading), then hit again.
    const hits = [true, false, false, true];
    const { port, engine } = setup((c) => (c.message.type === 'dh:prepare' ? READY : { ok: true, value: hits.shift() ?? true }));
    await engine.call('act', { input: { selector: '#a', description: 'd' } });
    expect(port.frameCalls.filter((c) => c.message.op === 'hitsAt')).toHaveLength(4);
    expect(mouse(port).map((p) => [p.type, p.x, p.y])).toEqual([
      ['mouseMoved', 10, 20],
      ['mouseMoved', 10, 20],
      ['mousePressed', 10, 20],
      ['mouseReleased', 10, 20],
    ]);
  });

  it('a press that went elsewhere than the element its point was on is an error, never a click done', async () => {
    // The point was on the element before the press; the page says no click reached it (it drew the label again).
    const { port, engine } = setup((c) =>
      c.message.type === 'dh:prepare'
        ? READY
        : c.message.op === 'pressSeen'
          ? { ok: true, value: { missed: true, on: '<svg> "B 2 t"' } }
          : { ok: true, value: true },
    );
    await expect(engine.call('act', { input: { selector: '#a', description: 'd' } })).rejects.toMatchObject({
      code: 'ACTION_FAILED',
      message: expect.stringMatching(/did not click '#a': it went to <svg> "B 2 t"/),
    });
    // Watched from before the press to after it.
    expect(port.frameCalls.map((c) => c.message.op ?? c.message.type)).toEqual(['dh:prepare', 'hitsAt', 'hitsAt', 'watchPress', 'pressSeen']);
    expect(mouse(port).map((p) => p.type)).toEqual(['mouseMoved', 'mouseMoved', 'mousePressed', 'mouseReleased']);
  });

  it('a press that went to a box or text that is no control (the element moved as the pointer came) is tried once more', async () => {
    const seen = [{ missed: true, pressedIt: false, on: '<div.section>', inert: true }, { missed: false }];
    const { port, engine } = setup((c) =>
      c.message.type === 'dh:prepare' ? READY : c.message.op === 'pressSeen' ? { ok: true, value: seen.shift() } : { ok: true, value: true },
    );
    await engine.call('act', { input: { selector: '#a', description: 'd' } });
    expect(port.frameCalls.filter((c) => c.message.type === 'dh:prepare')).toHaveLength(2);
    expect(mouse(port).filter((p) => p.type === 'mousePressed')).toHaveLength(2);
    // Twice: an error, not a third press.
    const twice = setup((c) =>
      c.message.type === 'dh:prepare'
        ? READY
        : c.message.op === 'pressSeen'
          ? { ok: true, value: { missed: true, pressedIt: false, on: '<div.section>', inert: true } }
          : { ok: true, value: true },
    );
    await expect(twice.engine.call('act', { input: { selector: '#a', description: 'd' } })).rejects.toMatchObject({ code: 'ACTION_FAILED' });
    expect(mouse(twice.port).filter((p) => p.type === 'mousePressed')).toHaveLength(2);
  });

  it('a point off its element when the press comes (it moved since it was found) is found again and pressed where it is now', async () => {
    const points = [READY, { ...READY, y: 60 }];
    const hits = [false, true];
    const { port, engine } = setup((c) =>
      c.message.type === 'dh:prepare'
        ? (points.shift() ?? READY)
        : c.message.op === 'hitsAt'
          ? { ok: true, value: hits.shift() ?? true }
          : { ok: true, value: c.message.op === 'pressSeen' ? { missed: false } : true },
    );
    await engine.call('act', { input: { selector: '#a', description: 'd' } });
    expect(
      mouse(port)
        .filter((p) => p.type === 'mousePressed')
        .map((p) => [p.x, p.y]),
    ).toEqual([[10, 60]]);
    // Found again at the same point: a hit the check allowed on its label, pressed there.
    const label = setup((c) => (c.message.type === 'dh:prepare' ? READY : { ok: true, value: c.message.op === 'hitsAt' ? false : true }));
    await label.engine.call('act', { input: { selector: '#a', description: 'd' } });
    expect(
      mouse(label.port)
        .filter((p) => p.type === 'mousePressed')
        .map((p) => [p.x, p.y]),
    ).toEqual([[10, 20]]);
  });

  it('defaults to click and gives each result a fresh action id', async () => {
    const { port, engine } = setup(answers());
    const a = await engine.call('act', { input: { selector: '#a', description: 'd' } });
    const b = await engine.call('act', { input: { selector: '#a', description: 'd' } });
    expect(a.data.actions[0]).toEqual({ selector: '#a', description: 'd', method: 'click', arguments: [] });
    expect(a.metadata.actionId).not.toBe(b.metadata.actionId);
    expect(mouse(port).map((p) => p.type)).toEqual(['mouseMoved', 'mousePressed', 'mouseReleased', 'mouseMoved', 'mousePressed', 'mouseReleased']);
  });

  it('acts on options.page without asking for the active page', async () => {
    const { port, engine } = setup(answers());
    await engine.call('act', { input: { selector: '#a', description: 'd' }, options: { page: 7 } });
    expect(port.calls).not.toContain('activePage');
    expect(port.frameCalls[0].page).toBe(7);
    expect(port.cdpCalls.every((c) => c.page === 7)).toBe(true);
  });

  it('adds frame offsets when the selector crosses into a child frame', async () => {
    const { port, engine } = setup((c) => (c.frameId === 0 ? { kind: 'frame', frameId: 5, rest: '//button', offsetX: 100, offsetY: 50 } : READY));
    await engine.call('act', { input: { selector: '//iframe[1]//button', description: 'd' } });
    // The hit is checked in the child frame, at the point in that frame's own viewport.
    expect(port.frameCalls.map((c) => [c.frameId, c.message.selector ?? c.message.args])).toEqual([
      [0, '//iframe[1]//button'],
      [5, '//button'],
      [5, ['10', '20']],
    ]);
    expect(mouse(port).map((p) => [p.type, p.x, p.y])).toEqual([
      ['mouseMoved', 110, 70],
      ['mousePressed', 110, 70],
      ['mouseReleased', 110, 70],
    ]);
  });

  it('fill focuses and selects, then inserts the text', async () => {
    const { port, engine } = setup(answers({ focusSelect: { ok: true, mode: 'insertText' } }));
    const r = await engine.call('act', { input: { selector: '#a', description: 'name field', method: 'fill', arguments: ['x'] } });
    expect(r.data.actions).toEqual([{ selector: '#a', description: 'name field', method: 'fill', arguments: ['x'] }]);
    expect(port.frameCalls[0].message).toMatchObject({ type: 'dh:prepare', method: 'fill', pointer: false, requireEnabled: true });
    expect(port.frameCalls[1]).toMatchObject({ frameId: 0, message: { type: 'dh:op', handle: 1, op: 'focusSelect', args: ['x'] } });
    expect(port.cdpCalls).toEqual([{ page: 1, method: 'Input.insertText', params: { text: 'x' } }]);
  });

  it('fill sends no text when the page already set the value', async () => {
    const { port, engine } = setup(answers({ focusSelect: { ok: true, mode: 'done' } }));
    await engine.call('act', { input: { selector: '#a', description: 'd', method: 'fill', arguments: ['2024-01-01'] } });
    expect(port.cdpCalls).toEqual([]);
  });

  it('fill with an empty string deletes the selection instead of inserting nothing', async () => {
    const { port, engine } = setup(answers({ focusSelect: { ok: true, mode: 'insertText' } }));
    await engine.call('act', { input: { selector: '#a', description: 'd', method: 'fill', arguments: [''] } });
    expect(port.cdpCalls.map((c) => c.method)).not.toContain('Input.insertText');
    const keys = port.cdpCalls.filter((c) => c.method === 'Input.dispatchKeyEvent').map((c) => c.params!);
    expect(keys.map((k) => [k.type, k.key])).toEqual([
      ['rawKeyDown', 'Delete'],
      ['keyUp', 'Delete'],
    ]);
  });

  it('reports a prepare error with its code and the selector', async () => {
    const { port, engine } = setup(() => ({ kind: 'error', code: 'ELEMENT_NOT_FOUND', message: "no element matches '#gone'" }));
    const e = await failure(engine.call('act', { input: { selector: '#gone', description: 'd' } }), 'ELEMENT_NOT_FOUND', "no element matches '#gone'");
    expect(e.data).toMatchObject({ selector: '#gone' });
    expect(port.cdpCalls).toEqual([]);
  });

  it('reports a failed op with its code', async () => {
    const { engine } = setup(answers({ focusSelect: { ok: false, code: 'ELEMENT_NOT_ACTIONABLE', message: 'the element is read-only' } }));
    await failure(
      engine.call('act', { input: { selector: '#a', description: 'd', method: 'fill', arguments: ['x'] } }),
      'ELEMENT_NOT_ACTIONABLE',
      'the element is read-only',
    );
  });

  it('fails with PAGE_CLOSED when the tab closes mid-action', async () => {
    let release!: () => void;
    const { port, engine } = setup(() => new Promise((r) => (release = () => r(READY))));
    const p = engine.call('act', { input: { selector: '#a', description: 'd' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(port.frameCalls).toHaveLength(1);
    port.closeTab(1);
    await failure(p, 'PAGE_CLOSED', /closed during click/);
    release();
  });

  // BUG: performAction subscribes to onPageClosed for every action but only unsubscribes when
  // the page actually closes, so each successful action on a long-lived tab leaks one handler
  // (ChromePort keeps them in a Set per tab until the tab closes). page.goto has the same pattern.
  it('drops its page-close listener once the action has finished', async () => {
    const { port, engine } = setup(answers());
    for (let i = 0; i < 3; i++) await engine.call('act', { input: { selector: '#a', description: 'd' } });
    expect(port.listenerCount(1)).toBe(0);
  });
});
