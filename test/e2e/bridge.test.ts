/**
 * The WebSocket bridge in real Chromium: a Node client that the extension's worker
 * dials out to after a person pairs it in the side panel.
 *
 * `person` is a Chromium with the extension: it plays the person's own Chrome, and
 * its CDP link plays the person at the side panel (it calls the panel's own methods
 * in the worker) and stops the worker. The handle under test comes from
 * localBrowser.attach() and talks to the worker over the bridge only.
 */
import { connect as netConnect } from 'node:net';
import { networkInterfaces } from 'node:os';
import WsClient from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, EXTENSION_ID, localBrowser, type AttachOptions, type BrowserHandle, type PairingInfo } from '../../src/index';
import type { BridgeLink } from '../../src/client/bridge';
import { BRIDGE_REFUSED, type BridgeStatus } from '../../src/protocol/panel';
import { BRIDGE_ALARM } from '../../src/worker/bridge';
import { startFixtureServers, type FixtureServers } from '../fixtures/server';
import { chromiumWithPort, stopWorker, workerEval as evalInWorker, type PortedChromium } from './harness';

let servers: FixtureServers;
let chromium: PortedChromium;
let devtoolsUrl: string;
let person: BrowserHandle;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  servers = await startFixtureServers();
  chromium = await chromiumWithPort({ extension: true, args: ['--window-size=1000,700'] });
  devtoolsUrl = chromium.devtoolsUrl;
  person = await localBrowser.connect({ cdpUrl: devtoolsUrl });
});
afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  await person?.close();
  await chromium?.kill();
  await servers?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as DeckhandError;

const workerTarget = async () =>
  ((await person.cdp.send('Target.getTargets')).targetInfos as { targetId: string; type: string; url: string }[]).find(
    (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
  );

/** Evaluate in the worker of the person's browser. */
const workerEval = (expression: string) => evalInWorker(person, expression);

/** Call one of the side panel's methods in the worker, with the same validation the panel port gets. */
const panel = async (method: 'bridge.connect' | 'bridge.disconnect' | 'bridge.status', params: Record<string, unknown> = {}): Promise<BridgeStatus> =>
  (await workerEval(`globalThis.__deckhand.panel(${JSON.stringify(method)}, ${JSON.stringify(params)})`)) as BridgeStatus;

/** Poll the panel's status until it satisfies `ok`, with a deadline. */
async function statusUntil(ok: (s: BridgeStatus) => boolean, what: string, ms = 10_000): Promise<BridgeStatus> {
  const deadline = Date.now() + ms;
  let s = await panel('bridge.status');
  while (!ok(s)) {
    if (Date.now() > deadline) throw new Error(`the bridge status did not become ${what} within ${ms} ms; last: ${JSON.stringify(s)}`);
    await sleep(100);
    s = await panel('bridge.status');
  }
  return s;
}

/** Start attach() and report the pairing it offers, without waiting for it to pair. */
async function startAttach(opts: AttachOptions = {}): Promise<{ pairing: PairingInfo; handle: Promise<BrowserHandle> }> {
  let offered!: (p: PairingInfo) => void;
  const got = new Promise<PairingInfo>((r) => (offered = r));
  const handle = localBrowser.attach({ ...opts, onPairing: offered });
  handle.then(
    (b) => cleanup.push(() => b.close()),
    () => undefined,
  );
  // attach() fails before offering a pairing only on bad options: surface that instead of hanging.
  const pairing = await Promise.race([got, handle.then(() => Promise.reject(new Error('attach resolved before pairing')))]);
  return { pairing, handle };
}

/** attach() + the person entering port and token in the side panel. */
async function attachPaired(opts: AttachOptions = {}): Promise<{ remote: BrowserHandle; pairing: PairingInfo; status: BridgeStatus }> {
  const { pairing, handle } = await startAttach(opts);
  const status = await panel('bridge.connect', { port: pairing.port, token: pairing.token });
  return { remote: await handle, pairing, status };
}

const events = (page: { evaluate: <T>(fn: () => T) => Promise<T> }) => page.evaluate(() => (window as unknown as { __events?: string[] }).__events ?? []);

// First, while no batch has run: experimentalBatch leaves the worker attached to its own
// debugger target, and a worker with a debugger attached neither idles out nor stays stopped.
describe("the worker's lifetime, with nothing else holding it", () => {
  it('a stopped worker with no debugger attached is woken by the alarm and dials back in by itself', { timeout: 90_000 }, async () => {
    const { remote } = await attachPaired();
    expect(await workerEval(`chrome.alarms.get(${JSON.stringify(BRIDGE_ALARM)}).then((a) => a && a.periodInMinutes)`)).toBe(0.5);
    const page = await remote.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    await sleep(1000); // let the navigation's own extension events settle: they would wake the worker too
    await stopWorker(person);
    await sleep(1000);
    expect(await workerTarget()).toBeUndefined(); // really stopped, and nothing else restarted it
    // Nothing starts the worker from outside now; the call waits for the alarm to wake it and the bridge to come back.
    const t = Date.now();
    expect(await page.title()).toBe('Sign up');
    const waited = Date.now() - t;
    console.log(`the alarm brought the bridge back after ${waited} ms`);
    expect(waited).toBeLessThan(35_000);
    expect(await panel('bridge.status')).toMatchObject({ state: 'attached' });
    await remote.close();
    expect(await workerEval(`chrome.alarms.get(${JSON.stringify(BRIDGE_ALARM)}).then((a) => a ?? null)`)).toBeNull();
  });

  it('while attached, the keepalive holds the worker past the 30 s idle limit', { timeout: 90_000 }, async () => {
    const { remote } = await attachPaired();
    // A mark in the worker's globals: a worker that was stopped (and woken again) would not have it.
    await workerEval('globalThis.__bridgeMark = 42');
    // No CDP client at all now (an attached one keeps the worker alive by itself): only the bridge.
    await person.close();
    await sleep(40_000);
    person = await localBrowser.connect({ cdpUrl: devtoolsUrl });
    expect(await workerEval('globalThis.__bridgeMark')).toBe(42);
    expect(await remote.context.pages()).not.toHaveLength(0);
    await remote.close();
  });
});

describe('pairing and driving the browser over the bridge', () => {
  it('pairs with the token entered in the side panel; act, observe, extract and a batch work over it', async () => {
    const { remote, pairing, status } = await attachPaired({ name: 'bridge e2e' });
    expect(pairing.host).toBe('127.0.0.1');
    expect(pairing.token).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/);
    expect(status).toMatchObject({ state: 'attached', port: pairing.port, message: `attached to bridge e2e on 127.0.0.1:${pairing.port}` });
    expect(remote.isConnected).toBe(true);
    expect(remote.extensionId).toBe(EXTENSION_ID);
    expect(() => remote.cdp).toThrow(expect.objectContaining({ code: 'UNAVAILABLE', message: expect.stringMatching(/WebSocket bridge/) }));

    const dh = await Deckhand.create({ browser: remote });
    const page = await remote.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    expect(await page.title()).toBe('Sign up');

    // A deterministic action, then a plain-language one with the default local model.
    await dh.act({ selector: '#terms', description: 'accept the terms', method: 'check' });
    expect(await page.evaluate(() => (document.getElementById('terms') as HTMLInputElement).checked)).toBe(true);
    await page.goto(`${servers.origin}/store.html`);
    const acted = await dh.act('click the Billing tab');
    expect(acted.data.success).toBe(true);
    expect(await events(page)).toContain('click:tab-billing');

    const observed = await dh.observe('delete buttons');
    expect(observed.data.map((a) => a.selector)).toEqual(["//*[@id='del-alice']", "//*[@id='del-bob']", "//*[@id='del-carol']"]);
    await dh.act(observed.data[1]);
    expect(await events(page)).toContain('click:del-bob');

    const extracted = await dh.extract('the order number', { type: 'object', properties: { orderNumber: { type: 'string' } } });
    expect(extracted.data).toEqual({ orderNumber: 'A-1042' });

    const batch = await dh.experimentalBatch(
      async ({ page: p }, input: { times: number }) => {
        for (let i = 0; i < input.times; i++) await p.locator('#tab-profile').click();
        return { title: await p.title(), url: await p.url() };
      },
      { times: 2 },
    );
    expect(batch).toEqual({ title: 'Acme Store', url: `${servers.origin}/store.html` });
    expect((await events(page)).filter((e) => e === 'click:tab-profile')).toHaveLength(2);

    await dh.close();
    await remote.close();
    expect(remote.isConnected).toBe(false);
  });

  it('a call in flight when the worker stops fails with WORKER_GONE; the worker dials back in when it starts and the next call works', async () => {
    const { remote } = await attachPaired();
    const dh = await Deckhand.create({ browser: remote });
    const page = await remote.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    const pending = dh.act({ selector: '#never-there', description: 'x' }, { timeout: 20_000 }).catch((e: unknown) => e);
    await sleep(200);
    const t = Date.now();
    await stopWorker(person);
    expect(await pending).toMatchObject({ code: 'WORKER_GONE', message: expect.stringMatching(/next call waits for it to reconnect/) });
    expect(Date.now() - t).toBeLessThan(5000);
    expect(remote.isConnected).toBe(true);
    // Start the worker again (as any extension event would): it finds its stored pairing and dials back.
    await person.context.pages();
    await dh.act({ selector: '#terms', description: 'after restart', method: 'check' });
    expect(await page.evaluate(() => (document.getElementById('terms') as HTMLInputElement).checked)).toBe(true);
    expect(await panel('bridge.status')).toMatchObject({ state: 'attached' });
    await dh.close();
    await remote.close();
  });

  it('a worker that does not come back fails the next call with WORKER_GONE after reconnectTimeout', async () => {
    const { remote, pairing } = await attachPaired({ reconnectTimeout: 1500 });
    const page = await remote.context.activePage();
    // Forget the pairing in the worker without telling the client (as a browser restart would).
    await workerEval('chrome.storage.session.clear()');
    await stopWorker(person);
    await person.context.pages(); // the worker restarts and finds nothing to resume
    const t = Date.now();
    const e = await failure(page.title());
    expect(e).toMatchObject({
      code: 'WORKER_GONE',
      message: `'page.info' waited 1500 ms for the extension's service worker to reconnect to the bridge on 127.0.0.1:${pairing.port}, and it did not`,
    });
    expect(Date.now() - t).toBeGreaterThanOrEqual(1400);
    expect((await panel('bridge.status')).state).toBe('off');
    await remote.close();
  });
});

describe('who may pair', () => {
  it('a wrong token is refused and attach keeps waiting; the right one pairs; a spent token cannot pair again', async () => {
    const { pairing, handle } = await startAttach();
    let settled = false;
    handle.then(
      () => (settled = true),
      () => (settled = true),
    );
    const wrong = await panel('bridge.connect', { port: pairing.port, token: 'zzzz-zzzz-zzzz-zzzz' });
    expect(wrong).toMatchObject({
      state: 'refused',
      port: pairing.port,
      message: `the client on 127.0.0.1:${pairing.port} refused the pairing token (wrong or already used): the pairing token is wrong or already used`,
    });
    await sleep(300);
    expect(settled).toBe(false);

    expect(await panel('bridge.connect', { port: pairing.port, token: pairing.token })).toMatchObject({ state: 'attached' });
    const remote = await handle;
    const page = await remote.context.activePage();
    await page.goto(`${servers.origin}/form.html`);

    // The token is spent: even the extension's own origin cannot pair with it again.
    const replay = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WsClient(`ws://127.0.0.1:${pairing.port}`, { origin: `chrome-extension://${EXTENSION_ID}` });
      ws.on('open', () => ws.send(JSON.stringify({ kind: 'hello', token: pairing.token, extensionId: EXTENSION_ID, version: '0' })));
      ws.on('error', () => undefined);
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    expect(replay).toEqual({ code: BRIDGE_REFUSED, reason: 'the pairing token is wrong or already used' });
    expect(await page.title()).toBe('Sign up');

    // Entering the token again in the panel replaces the pairing: the old client is told and stops listening.
    const again = await panel('bridge.connect', { port: pairing.port, token: pairing.token });
    expect(again).toMatchObject({ state: 'error', port: pairing.port });
    const e = await failure(page.title());
    expect(e).toMatchObject({
      code: 'BROWSER_CLOSED',
      message: 'the person disconnected this client in the Deckhand side panel (replaced by a new pairing from the side panel)',
    });
    expect(remote.isConnected).toBe(false);
  });

  it('bad panel input is INVALID_ARGUMENT; nothing listening is an error status naming the port', async () => {
    await expect(panel('bridge.connect', { port: 80, token: 'abcdef' })).rejects.toThrow(/INVALID_ARGUMENT|port must be 1024 or above/);
    await expect(panel('bridge.connect', { port: 4000, token: 'no spaces allowed' })).rejects.toThrow(/pairing token is 6 to 128/);
    const { pairing, handle } = await startAttach({ timeout: 500 });
    await handle.catch(() => undefined); // times out; its port is free again
    const s = await panel('bridge.connect', { port: pairing.port, token: pairing.token });
    expect(s).toMatchObject({
      state: 'error',
      port: pairing.port,
      message: `could not connect to a local client on 127.0.0.1:${pairing.port}: nothing is listening there, or it refused the connection`,
    });
  });

  it('refuses web pages, other origins and forged hosts; the extension origin with a wrong token gets close code 4001', async () => {
    const { pairing, handle } = await startAttach({ timeout: 5_000 });
    const url = `ws://127.0.0.1:${pairing.port}`;
    // A real web page in the browser: it can open WebSockets to localhost, but not with the extension's Origin.
    const page = await person.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    const fromPage = await page.evaluate(
      (u: string) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(u);
          ws.onopen = () => resolve('open');
          ws.onclose = (e) => resolve(`closed ${e.code}`);
        }),
      url,
    );
    expect(fromPage).toBe('closed 1006');

    const upgrade = (headers: Record<string, string>, origin?: string) =>
      new Promise<{ status?: number; body?: string; code?: number; reason?: string }>((resolve) => {
        const ws = new WsClient(url, { headers, ...(origin ? { origin } : {}) });
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        });
        ws.on('error', () => undefined);
        ws.on('open', () => ws.send(JSON.stringify({ kind: 'hello', token: 'zzzz-zzzz-zzzz-zzzz', extensionId: EXTENSION_ID, version: '0' })));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      });
    expect(await upgrade({})).toEqual({ status: 403, body: 'Origin (none) is refused: only the Deckhand extension may connect\n' });
    expect(await upgrade({}, 'http://127.0.0.1:1234')).toMatchObject({
      status: 403,
      body: expect.stringMatching(/^Origin http:\/\/127.0.0.1:1234 is refused/),
    });
    expect(await upgrade({}, 'chrome-extension://abcdefghijklmnopabcdefghijklmnop')).toMatchObject({ status: 403 });
    expect(await upgrade({ host: `rebound.example:${pairing.port}` }, `chrome-extension://${EXTENSION_ID}`)).toMatchObject({
      status: 403,
      body: expect.stringMatching(/^Host rebound.example/),
    });
    expect(await upgrade({}, `chrome-extension://${EXTENSION_ID}`)).toEqual({ code: BRIDGE_REFUSED, reason: 'the pairing token is wrong or already used' });

    // None of that paired anything: attach gives up at its deadline, naming the port.
    const e = await failure(handle);
    expect(e).toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(new RegExp(`^waited 5000 ms for the Deckhand extension to pair on port ${pairing.port}`)),
    });
  });

  it('listens on loopback only: unreachable on a network interface; non-loopback hosts are rejected', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.2', 'example.com']) {
      await expect(localBrowser.attach({ host, onPairing: () => undefined })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/loopback/),
      });
    }
    await expect(localBrowser.attach({ host: '::1', onPairing: () => undefined })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/dials 127.0.0.1 only/),
    });
    await expect(localBrowser.attach({ port: 80, onPairing: () => undefined })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(localBrowser.attach({ token: 'a b', onPairing: () => undefined })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });

    const { remote, pairing } = await attachPaired({ host: 'localhost' });
    expect((remote.link as BridgeLink).address).toMatchObject({ address: '127.0.0.1', port: pairing.port });
    const reach = (host: string) =>
      new Promise<string>((resolve) => {
        const s = netConnect({ host, port: pairing.port, timeout: 2000 });
        s.on('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.on('timeout', () => {
          s.destroy();
          resolve('timeout');
        });
        s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
    expect(await reach('127.0.0.1')).toBe('connected');
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === 'IPv4')
      .map((a) => a!.address);
    for (const address of external) expect(await reach(address)).toBe('ECONNREFUSED');
    await remote.close();
  });
});

describe('ending the pairing', () => {
  it('disconnecting in the side panel fails calls with BROWSER_CLOSED and ends the handle', async () => {
    const { remote } = await attachPaired();
    const dh = await Deckhand.create({ browser: remote });
    const page = await remote.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    const off = await panel('bridge.disconnect');
    expect(off).toMatchObject({ state: 'off', message: 'disconnected from the local client' });
    const e = await failure(dh.act({ selector: '#terms', description: 'x', method: 'check' }));
    // The call may start before or after the client learns of the disconnect: either way it fails with the reason.
    expect(e).toMatchObject({ code: 'BROWSER_CLOSED', message: expect.stringContaining('the person disconnected this client in the Deckhand side panel') });
    expect(remote.isConnected).toBe(false);
    await dh.close();
    await expect(Deckhand.create({ browser: remote })).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    // The worker forgot the pairing: a restart does not dial anywhere.
    await stopWorker(person);
    expect(await panel('bridge.status')).toMatchObject({ state: 'off' });
    await remote.close();
  });

  it('closing the handle says goodbye: the panel shows who left, the pairing is forgotten; closing twice is safe', async () => {
    const { remote, pairing } = await attachPaired();
    await remote.close();
    await remote.close();
    expect(remote.isConnected).toBe(false);
    const s = await statusUntil((x) => x.state === 'off', 'off');
    expect(s.message).toBe(`the local client on 127.0.0.1:${pairing.port} ended the connection (the program closed it)`);
    await stopWorker(person);
    await sleep(300);
    expect(await panel('bridge.status')).toMatchObject({ state: 'off' });
    // The port is free again.
    const next = await startAttach({ port: pairing.port, timeout: 300 });
    expect(next.pairing.port).toBe(pairing.port);
    await expect(next.handle).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});
