/** The session manager's rules, with stand-in sessions: tenants, ids, the hard deadline, /end cancelling. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionManager, type Session } from '../../src/sessions/sessions';

const ID = '7d4c1a52-9a4e-4a8e-8f5e-0c1d2e3f4a5b';

function withSession(owner = 'tenant-a') {
  const mgr = new SessionManager({ maxSessions: 2, idleTimeoutMs: 60_000 });
  const closed = { dh: 0, browser: 0 };
  const s = {
    id: ID, owner, busy: false, lastUsed: Date.now(), abort: null, deadline: 0, listener: null, ownsBrowser: true,
    dh: { close: async () => void closed.dh++ },
    browser: { close: async () => void closed.browser++, isConnected: true },
  } as unknown as Session;
  (mgr as unknown as { sessions: Map<string, Session> }).sessions.set(ID, s);
  return { mgr, closed };
}

afterEach(() => vi.useRealTimers());

describe('SessionManager', () => {
  it("another tenant's session is 404, a malformed id 400", () => {
    const { mgr } = withSession();
    expect(() => mgr.get(ID, 'tenant-b')).toThrow(expect.objectContaining({ status: 404, code: 'SESSION_NOT_FOUND' }));
    expect(() => mgr.get('../etc', 'tenant-a')).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_SESSION_ID' }));
    expect(mgr.get(ID, 'tenant-a').id).toBe(ID);
    void mgr.endAll();
  });

  it('an operation that never returns is answered at its hard deadline and its session ended', async () => {
    vi.useFakeTimers();
    const { mgr, closed } = withSession();
    let signal: AbortSignal | undefined;
    const p = mgr.run(ID, 'tenant-a', (_s, sig) => {
      signal = sig;
      return new Promise(() => undefined); // wedged
    }, { deadlineMs: 2_000 });
    const outcome = p.then(() => 'resolved', (e) => e);
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
    await expect(p).rejects.toThrow('cancelled');
    expect(closed).toEqual({ dh: 1, browser: 1 });
  });
});
