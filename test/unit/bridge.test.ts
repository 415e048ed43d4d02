/**
 * The WebSocket bridge without a browser: the worker's WorkerBridge (with fake
 * storage and alarms, and `ws` standing in for the browser's WebSocket) against
 * the real Node-side BridgeLink on 127.0.0.1.
 */
import WsClient from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_GIVE_UP_MS, WorkerBridge, type BridgeEnv, type BridgeSocket, type StoredPairing } from '../../src/worker/bridge';
import { BridgeLink, bridgeHost, newPairingToken, refuseUpgrade } from '../../src/client/bridge';
import { EXTENSION_ID } from '../../src/client/extension-link';
import { DeckhandError } from '../../src/protocol/errors';
import { BRIDGE_REFUSED, BRIDGE_TRY_LATER, type BridgeStatus } from '../../src/protocol/panel';
import { RpcPeer } from '../../src/protocol/rpc';
import { freePort } from '../fixtures/ports';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as DeckhandError;
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close().catch(() => undefined);
});

/** A worker: WorkerBridge over fake session storage and alarm, and `ws` sockets sent with the extension's Origin. */
function worker(store: { pairing?: unknown; wake: boolean } = { wake: false }, origin = `chrome-extension://${EXTENSION_ID}`) {
  const sockets: WsClient[] = [];
  const statuses: BridgeStatus[] = [];
  const peers: RpcPeer[] = [];
  const env: BridgeEnv = {
    openSocket: (url) => {
      const ws = new WsClient(url, { origin });
      sockets.push(ws);
      return ws as unknown as BridgeSocket;
    },
    loadPairing: async () => store.pairing,
    savePairing: async (p: StoredPairing) => void (store.pairing = structuredClone(p)),
    forgetPairing: async () => void (store.pairing = undefined),
    setWakeUp: async (on) => void (store.wake = on),
  };
  const bridge = new WorkerBridge({
    extensionId: EXTENSION_ID,
    version: 'test',
    env,
    onStatus: (s) => statuses.push(s),
    serve: (send) => {
      const peer = new RpcPeer(send, 'local client');
      peer.handle('engine.ping', () => ({ version: 'test', extensionId: EXTENSION_ID }));
      peers.push(peer);
      return peer;
    },
  });
  open.push({ close: () => bridge.disconnect() });
  return { bridge, store, sockets, statuses, peers };
}

async function client(opts: { token?: string; reconnectTimeoutMs?: number } = {}) {
  const token = opts.token ?? newPairingToken();
  const link = await BridgeLink.listen({
    host: '127.0.0.1',
    port: 0,
    token,
    extensionId: EXTENSION_ID,
    reconnectTimeoutMs: opts.reconnectTimeoutMs ?? 3000,
    clientName: 'unit client',
  });
  open.push(link);
  return { link, token };
}

async function until(ok: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(10);
  }
}

describe('WorkerBridge with BridgeLink', () => {
  it('pairs with the token, stores the secret and the wake-up, and carries RPC both ways', async () => {
    const { link, token } = await client();
    const w = worker();
    const status = await w.bridge.connect(link.port, token);
    expect(status).toMatchObject({ state: 'attached', port: link.port, message: `attached to unit client on 127.0.0.1:${link.port}` });
    expect(w.statuses.map((s) => s.state)).toEqual(['connecting', 'attached']);
    await link.paired(1000);
    expect(await link.call('engine.ping', {})).toEqual({ version: 'test', extensionId: EXTENSION_ID });
    const lines: unknown[] = [];
    link.serve('log', (p) => {
      lines.push(p);
      return null;
    });
    expect(await w.peers[0].request('log', { level: 'info', message: 'hi' }, 1000)).toBeNull();
    expect(lines).toEqual([{ level: 'info', message: 'hi' }]);
    // Params the method's schema refuses never reach the handler.
    await expect(w.peers[0].request('log', { level: 'loud', message: 'hi' }, 1000)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('level'),
    });
    expect(lines).toHaveLength(1);
    await until(() => w.store.wake, 'the wake-up alarm');
    expect(w.store.pairing).toEqual({ port: link.port, secret: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/) });
  });

  it('a dropped socket: calls in flight fail WORKER_GONE, the worker retries with its secret, the next call works', async () => {
    const { link, token } = await client();
    const w = worker();
    await w.bridge.connect(link.port, token);
    w.peers[0].handle('engine.ping', () => new Promise(() => undefined)); // never answers
    const inFlight = failure(link.call('engine.ping', {}));
    await sleep(50);
    w.sockets[0].terminate();
    expect(await inFlight).toMatchObject({ code: 'WORKER_GONE', message: expect.stringMatching(/next call waits for it to reconnect$/) });
    expect(await link.call('engine.ping', {})).toEqual({ version: 'test', extensionId: EXTENSION_ID });
    expect(w.sockets).toHaveLength(2);
    expect(w.statuses.map((s) => s.state)).toEqual(['connecting', 'attached', 'reconnecting', 'attached']);
  });

  it('a new worker resumes the stored pairing; a secret the client does not know is refused and forgotten', async () => {
    const { link, token } = await client();
    const first = worker();
    await first.bridge.connect(link.port, token);
    await until(() => first.store.wake, 'saving the pairing');
    // A second WorkerBridge over the same storage is what the worker is after a restart.
    const second = worker({ pairing: structuredClone(first.store.pairing), wake: true });
    await second.bridge.resume();
    expect(second.bridge.status()).toMatchObject({ state: 'attached' });
    expect(await link.call('engine.ping', {})).toMatchObject({ version: 'test' });

    const stranger = worker({ pairing: { port: link.port, secret: 'not-the-secret' }, wake: true });
    await stranger.bridge.resume();
    expect(stranger.bridge.status()).toMatchObject({
      state: 'refused',
      message: expect.stringMatching(/refused this browser's earlier pairing; pair again with a new token: unknown pairing/),
    });
    expect(stranger.store).toEqual({ pairing: undefined, wake: false });
  });

  it('a wrong token is refused and the client keeps waiting; nothing is stored', async () => {
    const { link } = await client();
    const w = worker();
    const s = await w.bridge.connect(link.port, 'wrong-token');
    expect(s).toMatchObject({
      state: 'refused',
      message: `the client on 127.0.0.1:${link.port} refused the pairing token (wrong or already used): the pairing token is wrong or already used`,
    });
    expect(w.store).toEqual({ pairing: undefined, wake: false });
    expect(await failure(link.paired(200))).toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(new RegExp(`^waited 200 ms for the Deckhand extension to pair on port ${link.port}`)),
    });
  });

  it('another origin is refused at the upgrade; nothing listening is an error naming the port', async () => {
    const { link, token } = await client();
    const w = worker({ wake: false }, 'https://example.com');
    expect(await w.bridge.connect(link.port, token)).toMatchObject({
      state: 'error',
      message: expect.stringMatching(/could not connect to a local client on 127.0.0.1:\d+: nothing is listening there, or it refused the connection/),
    });
    const port = await freePort();
    const w2 = worker();
    expect(await w2.bridge.connect(port, token)).toMatchObject({ state: 'error', port });
  });

  it('goodbyes: the client closing turns the worker off and forgets; the worker disconnecting fails calls with BROWSER_CLOSED', async () => {
    const a = await client();
    const wa = worker();
    await wa.bridge.connect(a.link.port, a.token);
    await a.link.close();
    await until(() => wa.bridge.status().state === 'off', 'the worker turning off');
    expect(wa.bridge.status().message).toBe(`the local client on 127.0.0.1:${a.link.port} ended the connection (the program closed it)`);
    await until(() => !wa.store.wake, 'forgetting the pairing');
    expect(wa.store.pairing).toBeUndefined();

    const b = await client();
    const wb = worker();
    await wb.bridge.connect(b.link.port, b.token);
    expect(await wb.bridge.disconnect()).toMatchObject({ state: 'off', message: 'disconnected from the local client' });
    await until(() => !b.link.isConnected, 'the client seeing the goodbye');
    expect(await failure(b.link.call('engine.ping', {}))).toMatchObject({
      code: 'BROWSER_CLOSED',
      message: 'the person disconnected this client in the Deckhand side panel',
    });
  });

  it('gives up on a client that has not answered for the give-up period', async () => {
    const port = await freePort();
    const w = worker({ pairing: { port, secret: 's', failingSince: Date.now() - BRIDGE_GIVE_UP_MS - 1 }, wake: true });
    await w.bridge.resume();
    expect(w.bridge.status()).toMatchObject({
      state: 'error',
      message: expect.stringMatching(/^gave up reconnecting: the local client on 127.0.0.1:\d+ has not answered for 5 minutes/),
    });
    expect(w.store).toEqual({ pairing: undefined, wake: false });
  });

  it('an unreachable client is retried with backoff while the pairing is stored', async () => {
    const port = await freePort();
    const w = worker({ pairing: { port, secret: 's' }, wake: true });
    await w.bridge.resume();
    expect(w.bridge.status()).toMatchObject({ state: 'reconnecting', message: expect.stringMatching(/nothing is listening there.*; retrying in 0.5 s$/) });
    expect(w.store.pairing).toMatchObject({ failingSince: expect.any(Number) });
    await until(() => w.sockets.length >= 2, 'the first retry', 2000);
    await until(() => /retrying in 1.0 s$/.test(w.bridge.status().message ?? ''), 'the doubled delay', 2000);
  });
});

/** One pairing attempt on a socket of its own, as fast as a local process can make it: how it ended, and when. */
function hello(port: number, credentials: { token: string } | { secret: string }): Promise<{ code: number; reason: string; at: number; welcome: boolean }> {
  return new Promise((resolve) => {
    const ws = new WsClient(`ws://127.0.0.1:${port}`, { origin: `chrome-extension://${EXTENSION_ID}` });
    let welcome = false;
    ws.on('open', () => ws.send(JSON.stringify({ kind: 'hello', ...credentials, extensionId: EXTENSION_ID, version: '0' })));
    ws.on('message', (d) => {
      if (JSON.parse(d.toString()).kind === 'welcome') {
        welcome = true;
        ws.close();
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now(), welcome }));
  });
}

describe('wrong tokens and secrets back off', () => {
  it('wrong tokens sent one after another as fast as possible are judged ever more slowly; the right one still pairs within the cap', async () => {
    const { link, token } = await client();
    const t0 = Date.now();
    const judged: number[] = [];
    // Every refusal closes its socket, so each guess is a new connection: the backoff is the bridge's, not the socket's.
    while (Date.now() - t0 < 4_000) {
      const r = await hello(link.port, { token: 'zzzz-zzzz-zzzz-zzzz' });
      expect(r.code).toBe(BRIDGE_REFUSED); // held for its turn, never more than 4 s away here
      judged.push(r.at - t0);
    }
    // 100 ms after the first refusal, then 200, 400, 800, 1600: at most 6 guesses checked in 4 s
    // (the last one sent may be held past the 4 s and judged after them).
    expect(judged.filter((t) => t < 4_000).length).toBeGreaterThanOrEqual(4);
    expect(judged.filter((t) => t < 4_000).length).toBeLessThanOrEqual(6);
    // The n-th guess cannot be judged before the backoffs of those before it have passed. Measured
    // from the start, not from the previous answer: a busy machine delivers an answer late, never
    // early, so only a total since the start bounds the bridge's own timing from below.
    let due = 0;
    judged.forEach((t, i) => {
      expect(t, `guess ${i + 1}`).toBeGreaterThanOrEqual(due - 15);
      due += 100 * 2 ** i;
    });

    // The right token gets in once its turn comes, retried like the worker does on 1013.
    const start = Date.now();
    let r = await hello(link.port, { token });
    while (!r.welcome && r.code === BRIDGE_TRY_LATER && Date.now() - start < 10_000) {
      await sleep(500);
      r = await hello(link.port, { token });
    }
    expect(r.welcome).toBe(true);
    expect(Date.now() - start).toBeLessThan(5_000 + 1_500); // the cap, and the 500 ms between retries
    // A pairing resets the backoff: the next wrong guess is judged at once.
    const next = await hello(link.port, { secret: 'not-the-secret' });
    expect(next).toMatchObject({ code: BRIDGE_REFUSED, reason: 'unknown pairing; pair again with a new token' });
    expect(next.at - r.at).toBeLessThan(100);
  }, 20_000);

  it('20 wrong tokens sent at once are judged one backoff apart, the rest told to come back; nothing is held past the bound', async () => {
    const { link } = await client();
    const t0 = Date.now();
    const all = await Promise.all(Array.from({ length: 20 }, () => hello(link.port, { token: 'zzzz-zzzz-zzzz-zzzz' })));
    const judged = all
      .filter((r) => r.code === BRIDGE_REFUSED)
      .map((r) => r.at - t0)
      .sort((a, b) => a - b);
    // Turns at 0, 0.1, 0.3, 0.7, 1.5 and 3.1 s; the next would be 6.3 s away, past the 4 s a hello may be held.
    expect(judged.length).toBeLessThanOrEqual(6);
    expect(judged.at(-1)!).toBeGreaterThanOrEqual(1_500);
    expect(Math.max(...all.map((r) => r.at - t0))).toBeLessThan(4_000 + 500);
    const later = all.filter((r) => r.code === BRIDGE_TRY_LATER);
    expect(later).toHaveLength(20 - judged.length);
    for (const r of later) expect(r.reason).toMatch(/^too many refused pairing attempts; try again in \d+ s$/);
  }, 20_000);

  it('a paired worker that dials back in just after a burst of wrong tokens keeps its pairing and gets back in', async () => {
    const { link, token } = await client();
    const w = worker();
    const t = Date.now();
    await w.bridge.connect(link.port, token);
    expect(Date.now() - t).toBeLessThan(1_000); // the first attempt pairs at once
    await Promise.all(Array.from({ length: 10 }, () => hello(link.port, { token: 'zzzz-zzzz-zzzz-zzzz' })));
    w.sockets[0].terminate();
    await until(() => w.bridge.status().state === 'attached' && w.sockets.length > 1, 'the worker back in', 15_000);
    expect(w.store.pairing).toMatchObject({ port: link.port });
    expect(w.statuses.map((s) => s.state)).not.toContain('refused');
    expect(await link.call('engine.ping', {})).toMatchObject({ version: 'test' });
  }, 20_000);
});

describe('the pure pieces', () => {
  it('bridgeHost: loopback only, and the address the extension dials', () => {
    expect(bridgeHost(undefined)).toBe('127.0.0.1');
    expect(bridgeHost('localhost')).toBe('127.0.0.1');
    expect(bridgeHost('127.0.0.1')).toBe('127.0.0.1');
    for (const h of ['0.0.0.0', '::', '10.0.0.1', 'example.com']) expect(() => bridgeHost(h)).toThrow(/must be a loopback address/);
    expect(() => bridgeHost('::1')).toThrow(/dials 127.0.0.1 only/);
  });

  it('refuseUpgrade: loopback peers, the extension origin and a local Host only', () => {
    const ok = { remoteAddress: '127.0.0.1', origin: `chrome-extension://${EXTENSION_ID}`, host: '127.0.0.1:5000' };
    const expected = { extensionId: EXTENSION_ID, port: 5000 };
    expect(refuseUpgrade(ok, expected)).toBeNull();
    expect(refuseUpgrade({ ...ok, remoteAddress: '::ffff:127.0.0.1', host: 'localhost:5000' }, expected)).toBeNull();
    expect(refuseUpgrade({ ...ok, remoteAddress: '192.0.2.7' }, expected)).toMatch(/192.0.2.7 are refused/);
    expect(refuseUpgrade({ ...ok, remoteAddress: '::ffff:10.0.0.1' }, expected)).toMatch(/refused/);
    expect(refuseUpgrade({ ...ok, origin: 'http://127.0.0.1:5000' }, expected)).toMatch(/^Origin http/);
    expect(refuseUpgrade({ ...ok, origin: undefined }, expected)).toMatch(/^Origin \(none\)/);
    expect(refuseUpgrade({ ...ok, host: 'attacker.example:5000' }, expected)).toMatch(/^Host attacker/);
    expect(refuseUpgrade({ ...ok, host: '127.0.0.1:5001' }, expected)).toMatch(/^Host/);
  });

  it('pairing tokens are readable, URL-safe and not repeated', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => newPairingToken()));
    expect(tokens.size).toBe(200);
    for (const t of tokens) expect(t).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
  });
});
