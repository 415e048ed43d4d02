/** The session manager's rules, with stand-in sessions: tenants, ids, the hard deadline, /end cancelling. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionManager, cdpHostAllowed, type Session } from '../../src/sessions/sessions';

const ID = '7d4c1a52-9a4e-4a8e-8f5e-0c1d2e3f4a5b';

function withSession(owner = 'tenant-a') {
  const mgr = new SessionManager({ maxSessions: 2, idleTimeoutMs: 60_000 });
  const closed = { dh: 0, browser: 0 };
  const s = {
    id: ID,
    owner,
    busy: false,
    lastUsed: Date.now(),
    abort: null,
    deadline: 0,
    listener: null,
    ownsBrowser: true,
    tail: Promise.resolve(),
    waiting: 0,
    dh: { close: async () => void closed.dh++ },
    browser: { close: async () => void closed.browser++, isConnected: true },
  } as unknown as Session;
  (mgr as unknown as { sessions: Map<string, Session> }).sessions.set(ID, s);
  return { mgr, closed };
}

afterEach(() => vi.useRealTimers());

describe('SessionManager', () => {
  it("another tenant's session is 404, a malformed id 400", async () => {
    const { mgr } = withSession();
    await expect(mgr.get(ID, 'tenant-b')).rejects.toMatchObject({ status: 404, code: 'SESSION_NOT_FOUND' });
    await expect(mgr.get('../etc', 'tenant-a')).rejects.toMatchObject({ status: 400, code: 'INVALID_SESSION_ID' });
    expect((await mgr.get(ID, 'tenant-a')).id).toBe(ID);
    void mgr.endAll();
  });

  it('an operation that never returns is answered at its hard deadline and its session ended', async () => {
    vi.useFakeTimers();
    const { mgr, closed } = withSession();
    let signal: AbortSignal | undefined;
    const p = mgr.run(
      ID,
      'tenant-a',
      (_s, sig) => {
        signal = sig;
        return new Promise(() => undefined); // wedged
      },
      { deadlineMs: 2_000 },
    );
    const outcome = p.then(
      () => 'resolved',
      (e) => e,
    );
    await vi.advanceTimersByTimeAsync(11_999);
    expect(closed.browser).toBe(0);
    await vi.advanceTimersByTimeAsync(2);
    const e = await outcome;
    expect(e).toMatchObject({ status: 504, code: 'TIMEOUT' });
    expect(signal?.aborted).toBe(true);
    expect(closed).toEqual({ dh: 1, browser: 1 });
    expect(mgr.size).toBe(0);
  });

  it('ending a session aborts what runs in it', async () => {
    const { mgr, closed } = withSession();
    let signal: AbortSignal | undefined;
    const p = mgr.run(ID, 'tenant-a', (_s, sig) => {
      signal = sig;
      return new Promise((_, reject) => sig.addEventListener('abort', () => reject(new Error('cancelled'))));
    });
    await expect(mgr.end(ID, 'tenant-b')).rejects.toMatchObject({ status: 404 });
    expect(signal?.aborted).toBe(false);
    await mgr.end(ID, 'tenant-a');
    // The caller hears at once that its session ended, whatever the operation does next.
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED', message: expect.stringContaining('ended (ended by its caller)') });
    expect(closed).toEqual({ dh: 1, browser: 1 });
  });

  it('queued operations run one at a time in arrival order; an unqueued one meets 409 while any runs or waits', async () => {
    const { mgr } = withSession();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = mgr.run(
      ID,
      'tenant-a',
      async () => {
        order.push('first:start');
        await new Promise<void>((r) => (releaseFirst = r));
        order.push('first:end');
      },
      { queue: true },
    );
    const second = mgr.run(ID, 'tenant-a', async () => void order.push('second'), { queue: true });
    const third = mgr.run(ID, 'tenant-a', async () => void order.push('third'), { queue: true });
    await expect(mgr.run(ID, 'tenant-a', async () => 'x')).rejects.toMatchObject({ status: 409, code: 'SESSION_BUSY' });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['first:start']);
    releaseFirst();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first:start', 'first:end', 'second', 'third']);
    void mgr.endAll();
  });

  it('a waiter that is cancelled never runs, and those behind it still run in order', async () => {
    const { mgr } = withSession();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = mgr.run(ID, 'tenant-a', () => new Promise<void>((r) => (releaseFirst = () => (order.push('first'), r()))), { queue: true });
    const ctl = new AbortController();
    const cancelled = mgr.run(ID, 'tenant-a', async () => void order.push('cancelled'), { queue: true, signal: ctl.signal });
    const last = mgr.run(ID, 'tenant-a', async () => void order.push('last'), { queue: true });
    ctl.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    releaseFirst();
    await Promise.all([first, last]);
    expect(order).toEqual(['first', 'last']);
    void mgr.endAll();
  });
});

describe('cdpHostAllowed', () => {
  it('opens only the hosts the operator listed, by name or name and port', () => {
    expect(cdpHostAllowed('http://127.0.0.1:9222', [])).toBe(false);
    expect(cdpHostAllowed('http://127.0.0.1:9222', undefined)).toBe(false);
    expect(cdpHostAllowed('http://127.0.0.1:9222', ['127.0.0.1'])).toBe(true);
    expect(cdpHostAllowed('ws://127.0.0.1:9222/devtools/browser/x', ['127.0.0.1:9222'])).toBe(true);
    expect(cdpHostAllowed('ws://127.0.0.1:9333/devtools/browser/x', ['127.0.0.1:9222'])).toBe(false);
    expect(cdpHostAllowed('http://Browsers.Internal:9222', ['browsers.internal'])).toBe(true);
    expect(cdpHostAllowed('http://browsers.internal.evil.example:9222', ['browsers.internal'])).toBe(false);
    expect(cdpHostAllowed('http://[::1]:9222', ['[::1]:9222'])).toBe(true);
    expect(cdpHostAllowed('http://[::1]:9222', ['::1'])).toBe(true);
    expect(cdpHostAllowed('https://cdp.example', ['cdp.example:443'])).toBe(true);
    expect(cdpHostAllowed('not a url', ['*'])).toBe(true);
    expect(cdpHostAllowed('not a url', ['not a url'])).toBe(false);
    expect(cdpHostAllowed('http://10.0.0.5:9222', ['*'])).toBe(true);
  });
});
