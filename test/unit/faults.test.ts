/**
 * The engine's answers to things going wrong under an operation, against a fake browser:
 * the document changing between finding an element and acting on it, and calls cancelled by
 * their caller (op.cancel, or the caller's transport closing).
 */
import { describe, expect, it } from 'vitest';
import { Engine, type CallContext } from '../../src/engine/engine';
import type { BrowserPort, CdpSession, FrameInfo } from '../../src/engine/ports';
import { DeckhandError, ErrorCode } from '../../src/protocol/errors';
import { RpcPeer } from '../../src/protocol/rpc';
import type { PageInfo } from '../../src/protocol/schemas';

type FrameAnswer = (message: Record<string, unknown>, frameId: number) => unknown;
type CdpAnswer = (method: string, params: Record<string, unknown> | undefined, emit: (event: string, params: unknown) => void) => unknown;

/** A browser with one page (id 1): frame requests and CDP commands are answered by the test. */
class FakePort implements BrowserPort {
  frameCalls: Record<string, unknown>[] = [];
  cdpCalls: string[] = [];
  private readonly listeners = new Map<string, Set<(p: unknown) => void>>();

  constructor(
    private readonly frame: FrameAnswer,
    private readonly cdpAnswer: CdpAnswer = () => ({}),
  ) {}

  emit(event: string, params: unknown): void {
    for (const h of [...(this.listeners.get(event) ?? [])]) h(params);
  }
  async listPages(): Promise<PageInfo[]> {
    return [{ id: 1, url: 'https://example.test/', title: 'Example' }];
  }
  async activePage(): Promise<PageInfo | null> {
    return { id: 1, url: 'https://example.test/', title: 'Example' };
  }
  async createPage(): Promise<PageInfo> {
    return { id: 2, url: 'about:blank', title: '' };
  }
  async pageInfo(page: number): Promise<PageInfo> {
    return { id: page, url: 'https://example.test/', title: 'Example' };
  }
  async closePage(): Promise<void> {}
  async resetPage(): Promise<void> {}
  async bringToFront(): Promise<void> {}
  async cdp(): Promise<CdpSession> {
    return {
      send: async <T>(method: string, params?: Record<string, unknown>) => {
        this.cdpCalls.push(method);
        return (await this.cdpAnswer(method, params, (e, p) => this.emit(e, p))) as T;
      },
      on: (event, handler) => {
        const set = this.listeners.get(event) ?? this.listeners.set(event, new Set()).get(event)!;
        set.add(handler);
        return () => set.delete(handler);
      },
    };
  }
  async frameRequest<T>(_page: number, frameId: number, message: Record<string, unknown>): Promise<T> {
    this.frameCalls.push(message);
    return (await this.frame(message, frameId)) as T;
  }
  async frames(): Promise<FrameInfo[]> {
    return [{ frameId: 0, parentFrameId: -1, url: 'https://example.test/' }];
  }
  async isLoading(): Promise<boolean> {
    return false;
  }
  onPageClosed(): () => void {
    return () => undefined;
  }
  get inputs(): string[] {
    return this.cdpCalls.filter((m) => m.startsWith('Input.'));
  }
}

const READY = { kind: 'ready', handle: 1, x: 10, y: 20, count: 1, description: '<button#go>', doc: 'doc-1' };
const CLICK = { input: { selector: '#go', description: 'the go button', method: 'click' } };
const never = () => new Promise<never>(() => undefined);

async function failure(p: Promise<unknown>): Promise<DeckhandError> {
  const e = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DeckhandError);
  return e as DeckhandError;
}

describe('act reports success only for input that reached the document the element was found in', () => {
  it('a frame navigating while the element is looked for: the frame is asked again, and another document means FRAME_DETACHED, no input sent', async () => {
    let port: FakePort;
    port = new FakePort((m) => {
      if (m.type !== 'dh:prepare') return { ok: true, url: 'https://example.test/next', doc: 'doc-2' };
      // An iframe (the element's frame, say) commits a new document while the answer is on its way.
      port.emit('Page.frameNavigated', { frame: { id: 'child', parentId: 'main', url: 'https://example.test/next' } });
      return READY;
    });
    const e = await failure(new Engine(port, 'ext').call('act', CLICK));
    expect(e.code).toBe(ErrorCode.FrameDetached);
    expect(e.message).toMatch(/the document changed .* after '#go' was found and before the click reached it; the click was not performed/);
    expect(port.inputs).toEqual([]);
  });

  it('no navigation while the element is looked for: its answer is the proof, so the only check is the one after the input', async () => {
    const port = new FakePort((m) => (m.type === 'dh:prepare' ? { ...READY, inputs: 4 } : { ok: true, url: 'https://example.test/', doc: 'doc-1', inputs: 7 }));
    await new Engine(port, 'ext').call('act', CLICK);
    // Between them only the hit at the point is asked (dh:op hitsAt), which is no navigation check.
    expect(port.frameCalls.map((m) => m.type)).toEqual(['dh:prepare', 'dh:op', 'dh:ping']);
    expect(port.inputs).toHaveLength(3);
  });

  it('input that never reached the document (the count did not move): ACTION_FAILED, not success', async () => {
    const port = new FakePort((m) => (m.type === 'dh:prepare' ? { ...READY, inputs: 4 } : { ok: true, url: 'https://example.test/', doc: 'doc-1', inputs: 4 }));
    const e = await failure(new Engine(port, 'ext').call('act', CLICK));
    expect(e.code).toBe(ErrorCode.ActionFailed);
    expect(e.message).toMatch(/was sent but never reached the page/);
  });

  it("Chromium's error page committing while the input goes out: PAGE_ERROR naming the address that failed", async () => {
    let committed = false;
    const port = new FakePort(
      (m) => (m.type === 'dh:prepare' ? READY : { ok: true, url: 'https://example.test/', doc: 'doc-1' }),
      (method, _p, emit) => {
        // The error page of a navigation started before the action commits before the press is taken.
        if (method === 'Input.dispatchMouseEvent' && !committed) {
          committed = true;
          emit('Page.frameNavigated', { frame: { id: 'main', url: 'chrome-error://chromewebdata/', unreachableUrl: 'http://127.0.0.1:9/' } });
        }
        return {};
      },
    );
    const e = await failure(new Engine(port, 'ext').call('act', CLICK));
    expect(e.code).toBe(ErrorCode.PageError);
    expect(e.message).toMatch(/went to Chromium's error page \(loading http:\/\/127\.0\.0\.1:9\/ failed\) after '#go' was found/);
    expect(e.data).toMatchObject({ url: 'http://127.0.0.1:9/' });
  });

  it('a navigation the input itself asks for is the action working, not a changed document', async () => {
    const port = new FakePort(
      (m) => (m.type === 'dh:prepare' ? READY : { ok: true, url: 'https://example.test/', doc: 'doc-1' }),
      (method, params, emit) => {
        if (method === 'Input.dispatchMouseEvent' && params?.type === 'mouseReleased') {
          emit('Page.frameRequestedNavigation', { frameId: 'main', url: 'https://example.test/next' });
          emit('Page.frameNavigated', { frame: { id: 'main', url: 'https://example.test/next' } });
        }
        return {};
      },
    );
    const r = await new Engine(port, 'ext').call('act', CLICK);
    expect(r.data.success).toBe(true);
  });

  it('a child frame commit is not the top document changing', async () => {
    const port = new FakePort(
      (m) => (m.type === 'dh:prepare' ? READY : { ok: true, url: 'https://example.test/', doc: 'doc-1' }),
      (method, _p, emit) => {
        if (method === 'Input.dispatchMouseEvent') emit('Page.frameNavigated', { frame: { id: 'ad', parentId: 'main', url: 'https://ads.test/' } });
        return {};
      },
    );
    expect((await new Engine(port, 'ext').call('act', CLICK)).data.success).toBe(true);
  });
});

describe('cancelling a call', () => {
  it('op.cancel stops an Action waiting for its element at once, and ends the wait in the page', async () => {
    const port = new FakePort((m) => (m.type === 'dh:prepare' ? never() : { cancelled: true }));
    const engine = new Engine(port, 'ext');
    const pending = failure(engine.call('act', { ...CLICK, options: { timeout: 20_000, opId: 'op-1' } }));
    await new Promise((r) => setTimeout(r, 50));
    const t = Date.now();
    expect(await engine.call('op.cancel', { opId: 'op-1' })).toEqual({ cancelled: true });
    const e = await pending;
    expect(e.code).toBe(ErrorCode.Cancelled);
    expect(Date.now() - t).toBeLessThan(200);
    const prepare = port.frameCalls.find((m) => m.type === 'dh:prepare')!;
    expect(port.frameCalls).toContainEqual({ type: 'dh:cancelWait', waitId: prepare.waitId });
    expect(port.inputs).toEqual([]);
    // Over: its opId is forgotten.
    expect(await engine.call('op.cancel', { opId: 'op-1' })).toEqual({ cancelled: false });
  });

  it('locator.act and page.press take an opId; a cancel that arrives before its call cancels it as it starts', async () => {
    const port = new FakePort((m) => (m.type === 'dh:prepare' ? never() : { count: 0 }));
    const engine = new Engine(port, 'ext');
    const pending = failure(engine.call('locator.act', { page: 1, locator: { selector: '#go' }, method: 'click', timeout: 20_000, opId: 'op-2' }));
    await new Promise((r) => setTimeout(r, 20));
    await engine.call('op.cancel', { opId: 'op-2' });
    expect((await pending).code).toBe(ErrorCode.Cancelled);

    expect(await engine.call('op.cancel', { opId: 'op-3' })).toEqual({ cancelled: false });
    const before = port.frameCalls.length;
    expect((await failure(engine.call('page.press', { page: 1, keys: 'Enter', opId: 'op-3' }))).code).toBe(ErrorCode.Cancelled);
    expect(port.frameCalls.length).toBe(before); // nothing reached the page
  });

  it('op.cancel stops a goto waiting for the page and stops the page loading', async () => {
    const port = new FakePort(
      () => ({}),
      (method) => (method === 'Page.navigate' ? never() : {}),
    );
    const engine = new Engine(port, 'ext');
    const pending = failure(engine.call('page.goto', { page: 1, url: 'https://example.test/slow', options: { timeout: 20_000 }, opId: 'nav-1' }));
    await new Promise((r) => setTimeout(r, 20));
    await engine.call('op.cancel', { opId: 'nav-1' });
    expect((await pending).code).toBe(ErrorCode.Cancelled);
    expect(port.cdpCalls).toContain('Page.stopLoading');
  });

  it("the caller's signal (its transport closing) stops its running call, and calls it sends after", async () => {
    const port = new FakePort((m) => (m.type === 'dh:prepare' ? never() : {}));
    const engine = new Engine(port, 'ext');
    const gone = new AbortController();
    const ctx: CallContext = { signal: gone.signal, invokeCallback: async () => never(), log: () => undefined };
    const pending = failure(engine.call('locator.act', { page: 1, locator: { selector: '#go' }, method: 'click', timeout: 20_000 }, ctx));
    await new Promise((r) => setTimeout(r, 20));
    gone.abort(new DeckhandError(ErrorCode.Closed, 'the connection to the local client dropped'));
    const e = await pending;
    expect(e.code).toBe(ErrorCode.Cancelled);
    expect(e.message).toBe('locator.act was stopped: its caller is gone (the connection to the local client dropped)');
    expect((await failure(engine.call('page.info', { page: 1 }, ctx))).code).toBe(ErrorCode.Cancelled);
  });
});

describe('RpcPeer.closed', () => {
  it('aborts, with the error, once the far side is gone for good, not on a passing failure', () => {
    const peer = new RpcPeer(() => undefined);
    peer.failAll(new DeckhandError(ErrorCode.WorkerGone, 'stopped'));
    expect(peer.closed.aborted).toBe(false);
    const why = new DeckhandError(ErrorCode.Closed, 'the side panel was closed');
    peer.failAll(why, true);
    expect(peer.closed.aborted).toBe(true);
    expect(peer.closed.reason).toBe(why);
  });
});
