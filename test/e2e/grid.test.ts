/**
 * Browsers from a real Selenium Grid 4 (standalone, on loopback, Debian's chromium and
 * chromium-driver; `npm run setup` installs both and the Grid's jars): the library's
 * gridBrowser, the HTTP service with a Grid, the Grid's sessions ended with Deckhand's, and
 * the failures a Grid has (down, full, a browser that dies) as typed errors within deadlines.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, EXTENSION_ID, gridBrowser, type BrowserHandle } from '../../src/index';
import { startService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';
import { gridSessions, startGrid } from '../../fleet/grid';

let grid: Awaited<ReturnType<typeof startGrid>>;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;

beforeAll(async () => {
  servers = await startFixtureServers();
  // A short idle timeout, so the keep-alive is what holds a quiet session open.
  grid = await startGrid({ sessionTimeoutS: 10, maxSessions: 2 });
}, 120_000);
afterAll(async () => {
  await grid?.stop();
  await servers?.close();
});

/** The Grid's session count once it has settled on `n` (a deleted session's slot frees a moment later), or what it is after 10 s. */
async function sessionsBecome(n: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  let now = await gridSessions(grid.url);
  while (now !== n && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    now = await gridSessions(grid.url);
  }
  return now;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('gridBrowser', () => {
  it(
    'acts in a Grid browser, keeps a quiet session alive past the Grid idle timeout (one no one speaks to is ended), ' + 'and ends the Grid session on close',
    async () => {
      const browser = await gridBrowser.launch({ url: grid.url });
      // The control: a session no one speaks to (started over WebDriver, not by Deckhand), which the Grid ends.
      const raw = await fetch(`${grid.url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          capabilities: { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { args: ['--headless=new', '--no-sandbox', '--disable-gpu'] } } },
        }),
      });
      expect(raw.status).toBe(200);
      const rawId = ((await raw.json()) as { value: { sessionId: string } }).value.sessionId;
      const unkept = { close: () => fetch(`${grid.url}/session/${rawId}`, { method: 'DELETE' }).then(() => undefined) };
      let closed = false;
      try {
        expect(await gridSessions(grid.url)).toBe(2);
        const dh = await Deckhand.create({ browser, model: 'deckhand/local' });
        const page = await browser.context.activePage();
        await page.goto(`${servers.origin}/form.html`);
        expect(await page.title()).toBe('Sign up');
        // Quiet for longer than the Grid's 10 s idle timeout plus its 30 s sweep.
        await new Promise((r) => setTimeout(r, 45_000));
        expect(await sessionsBecome(1)).toBe(1);
        const r = await dh.act('type Ada Lovelace in the Full name field');
        expect(r.data.success).toBe(true);
        expect(await page.evaluate('document.querySelector("#name").value')).toBe('Ada Lovelace');
        await dh.close();
        await browser.close();
        closed = true;
        await unkept.close();
        expect(await sessionsBecome(0)).toBe(0);
      } finally {
        if (!closed) await browser.close();
        await unkept.close();
      }
    },
    120_000,
  );

  it('a node without the extension folder gets it packed with the session request', async () => {
    const browser = await gridBrowser.launch({ url: grid.url, packedExtension: true, extensionDir: '/nonexistent/on/the/node' });
    try {
      expect(browser.extensionId).toBe(EXTENSION_ID);
      const page = await browser.context.activePage();
      await page.goto(`${servers.origin}/form.html`);
      expect(await page.title()).toBe('Sign up');
    } finally {
      await browser.close();
    }
    expect(await sessionsBecome(0)).toBe(0);
  }, 60_000);

  it('attach() drives a Grid session another handle started; detaching leaves it, closing ends it', async () => {
    const first = await gridBrowser.launch({ url: grid.url });
    let second: BrowserHandle | null = null;
    try {
      const dh1 = await Deckhand.create({ browser: first, model: 'deckhand/local' });
      const page1 = await first.context.activePage();
      await page1.goto(`${servers.origin}/form.html`);
      // Another process would know the Grid and the session id (a replica reads them from the registry).
      second = await gridBrowser.attach({ url: grid.url, sessionId: first.grid!.sessionId });
      const dh2 = await Deckhand.create({ browser: second, model: 'deckhand/local' });
      expect(await (await second.context.activePage()).title()).toBe('Sign up');
      await dh2.act('type Grace Hopper in the Full name field');
      expect(await page1.evaluate("document.querySelector('#name').value")).toBe('Grace Hopper');
      // The first lets go without ending the session: the second goes on.
      await dh1.close();
      await first.detach();
      expect(await (await second.context.activePage()).title()).toBe('Sign up');
      expect(await gridSessions(grid.url)).toBe(1);
      await dh2.close();
      await second.close();
      expect(await sessionsBecome(0)).toBe(0);
    } finally {
      await second?.close();
      await first.close();
    }
    await expect(gridBrowser.attach({ url: grid.url, sessionId: 'no-such-session' })).rejects.toMatchObject({ code: 'BROWSER_UNAVAILABLE' });
    await expect(gridBrowser.attach({ url: grid.url, sessionId: '../x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  }, 60_000);

  it('a Grid that is down is BROWSER_UNAVAILABLE at once; a full one is a TIMEOUT at the caller deadline', async () => {
    const t0 = Date.now();
    await expect(gridBrowser.launch({ url: `http://127.0.0.1:${await closedPort()}` })).rejects.toMatchObject({
      code: 'BROWSER_UNAVAILABLE',
      message: expect.stringMatching(/could not be reached/),
    });
    expect(Date.now() - t0).toBeLessThan(5000);
    await expect(gridBrowser.launch({ url: 'ftp://grid' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(gridBrowser.launch({ url: 'ftp://user:secret-pw@grid' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.not.stringMatching(/secret-pw/),
    });
    await expect(gridBrowser.launch({ url: 'http://user:pw@127.0.0.1:4444' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.not.stringMatching(/pw/),
    });
    // The Grid's two slots taken: the next request waits in its queue until the caller's deadline.
    const taken = [await gridBrowser.launch({ url: grid.url }), await gridBrowser.launch({ url: grid.url })];
    try {
      const t1 = Date.now();
      await expect(gridBrowser.launch({ url: grid.url, timeout: 3000 })).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/3000 ms/) });
      expect(Date.now() - t1).toBeLessThan(6000);
    } finally {
      await Promise.all(taken.map((b) => b.close()));
    }
  }, 60_000);

  it('a browser that dies fails the call with a typed error and leaves no Grid session', async () => {
    const browser: BrowserHandle = await gridBrowser.launch({ url: grid.url });
    const dh = await Deckhand.create({ browser, model: 'deckhand/local' });
    const page = await browser.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    await browser.cdp.send('Browser.crash', {}).catch(() => undefined);
    const err = await page.title().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: expect.stringMatching(/^(BROWSER_CLOSED|WORKER_GONE|CLOSED)$/) });
    await dh.close().catch(() => undefined);
    await browser.close();
    // The Grid notices the dead browser on the session's deletion (or its own check) and frees the slot.
    expect(await sessionsBecome(0)).toBe(0);
  }, 60_000);
});

describe('the HTTP service with a Grid', () => {
  it("a session's browser is a Grid session, ended with it; a caller's cdpUrl is still refused", async () => {
    process.env.DECKHAND_API_KEYS = 'grid-key';
    const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-grid-')), port: 0, grid: { url: grid.url } });
    const call = (path: string, body: unknown) =>
      fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': 'grid-key' }, body: JSON.stringify(body) }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as any }),
      );
    try {
      expect((await call('/v1/sessions/start', { cdpUrl: 'http://127.0.0.1:9222' })).body.error.code).toBe('CDP_HOST_NOT_ALLOWED');
      const started = await call('/v1/sessions/start', {});
      expect(started.status).toBe(200);
      const id = started.body.data.sessionId;
      expect(await gridSessions(grid.url)).toBe(1);
      expect((await call(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })).body.data.title).toBe('Sign up');
      const acted = await call(`/v1/sessions/${id}/act`, { input: 'click the Multi button', model: 'deckhand/local' });
      expect(acted.body.data.data.success).toBe(true);
      expect((await call(`/v1/sessions/${id}/end`, {})).body.data.ended).toBe(true);
      expect(await sessionsBecome(0)).toBe(0);
    } finally {
      await svc.close();
      delete process.env.DECKHAND_API_KEYS;
    }
  }, 90_000);
});
