/**
 * Faults found by killing and breaking things: the last tab closed, a navigation that fails
 * (Chromium's error page), a caller that gives up (cancellation), a caller that disappears
 * (its batch must stop).
 */
import { spawn } from 'node:child_process';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, localBrowser, type BrowserHandle, type Page, type PairingInfo } from '../../src/index';
import { chromiumWithPort, useBrowser, workerEval, workerLog, type PortedChromium } from './harness';

const h = useBrowser();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as DeckhandError;

/**
 * This file's own pages: a form whose button reports each click to the server (a beacon, so
 * a click is known to have reached the document even when the document is gone right after),
 * a click counter, a response that never comes, and a connection that is reset.
 */
interface Site {
  origin: string;
  /** Clicks reported for `key`. */
  beacons(key: string): number;
  /** Requests for /hang still open (the browser has not given up on them). */
  hanging(): number;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const beacons = new Map<string, number>();
  const held = new Set<ServerResponse>();
  const html = (res: ServerResponse, title: string, body: string) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`);
  };
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://site.invalid');
    switch (url.pathname) {
      case '/form': {
        const key = JSON.stringify(url.searchParams.get('key') ?? '');
        return html(
          res,
          'Form',
          '<form onsubmit="event.preventDefault()"><input id="name" aria-label="Name">' +
            `<button id="go" type="button" onclick="navigator.sendBeacon('/beacon?key=' + encodeURIComponent(${key}))">Go</button></form>`,
        );
      }
      case '/counter':
        return html(res, 'Counter', `<button id="inc" onclick="window.__count = (window.__count || 0) + 1">Add one</button>`);
      case '/beacon': {
        const key = url.searchParams.get('key') ?? '';
        beacons.set(key, (beacons.get(key) ?? 0) + 1);
        res.writeHead(204).end();
        return;
      }
      case '/hang':
        // Never answered: a page that never finishes loading (the server drops it when it closes).
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      case '/reset':
        req.socket.destroy();
        return;
      default:
        res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    beacons: (key) => beacons.get(key) ?? 0,
    hanging: () => held.size,
    close: async () => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A localhost port nothing listens on: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** Poll until `ok` holds, with a deadline that names what was awaited. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms (last: ${JSON.stringify(v)})`);
    await sleep(100);
  }
}

describe('a page whose main thread hangs', () => {
  it('a deterministic act answers by its own deadline; goto leaves the page for a fresh tab that keeps its id', async () => {
    const page = await h.open('/hang.html?ms=60000');
    const tabs = (await h.browser.context.pages()).length;
    // The page's own script starts the endless work, so this call is not the one that hangs.
    await page.evaluate(() => void setTimeout(() => document.getElementById('hang')!.click(), 50));
    await sleep(300);
    const t = Date.now();
    const err = await h.dh.act({ selector: '#other', description: 'Other', method: 'click' }, { timeout: 3000 }).catch((e: unknown) => e);
    // By its deadline, not the page's 60 s: with the page spinning one of two cores and other
    // test files running, the worker's own timer can fire a few hundred ms late.
    expect(Date.now() - t).toBeLessThan(4000);
    expect(err).toMatchObject({ code: 'TIMEOUT' });
    await page.goto(`${h.origin}/form.html`, { timeout: 10_000 });
    expect(await page.url()).toBe(`${h.origin}/form.html`);
    expect(await page.evaluate(() => document.querySelector('h1')?.textContent ?? '')).not.toBe('');
    expect((await h.browser.context.pages()).length).toBe(tabs);
    // The page works as before: a click lands.
    await h.dh.act({ selector: '#name', description: 'Name', method: 'fill', arguments: ['after the hang'] }, { page });
    expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('after the hang');
  });
});

describe('closing the last tab', () => {
  it('after page.close() on the only page, activePage, newPage and acts open a new window and work', async () => {
    for (const p of await h.browser.context.pages()) await p.close();
    expect(await h.browser.context.pages()).toHaveLength(0);
    // The next call that needs a page opens one (in a new window: there is none left).
    const active = await h.browser.context.activePage();
    await active.goto(`${site.origin}/form`);
    const r = await h.dh.act({ selector: '#name', description: 'the name box', method: 'fill', arguments: ['after the last tab'] });
    expect(r.data.success).toBe(true);
    expect(await active.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('after the last tab');
    const fresh = await h.browser.context.newPage(`${site.origin}/counter`);
    expect(await fresh.title()).toBe('Counter');

    // Again, with no page at all: the active page is a new one, as is newPage's.
    for (const p of await h.browser.context.pages()) await p.close();
    const blank = await h.browser.context.activePage();
    expect(await blank.evaluate(() => 1 + 1)).toBe(2);
    const another = await h.browser.context.newPage();
    expect(another.id).not.toBe(blank.id);
    expect(await h.browser.context.pages()).toHaveLength(2);
  });

  it('after the last tab is closed through CDP (Target.closeTarget), newPage and activePage work', async () => {
    const cdp = h.browser.cdp;
    const pages = async () => ((await cdp.send('Target.getTargets')).targetInfos as { targetId: string; type: string }[]).filter((t) => t.type === 'page');
    for (const t of await pages()) await cdp.send('Target.closeTarget', { targetId: t.targetId });
    await until(
      () => h.browser.context.pages(),
      (l) => l.length === 0,
      'every tab closing',
    );
    const page = await h.browser.context.newPage(`${site.origin}/counter`);
    await page.locator('#inc').click();
    expect(await page.evaluate(() => (window as unknown as { __count: number }).__count)).toBe(1);
    for (const t of await pages()) await cdp.send('Target.closeTarget', { targetId: t.targetId });
    await until(
      () => h.browser.context.pages(),
      (l) => l.length === 0,
      'every tab closing',
    );
    const active = await h.browser.context.activePage();
    await active.goto(`${site.origin}/form`);
    expect(await active.title()).toBe('Form');
  });
});

describe("a failed navigation and Chromium's error page", () => {
  it('goto fails with NAVIGATION_FAILED; every operation on the error page fails with PAGE_ERROR naming the URL and net error', async () => {
    const page = await h.browser.context.activePage();
    await page.goto(`${site.origin}/form`);
    const bad = `http://127.0.0.1:${await closedPort()}/signup`;
    const nav = await failure(page.goto(bad));
    expect(nav).toMatchObject({ code: 'NAVIGATION_FAILED', data: { url: bad, errorText: 'net::ERR_CONNECTION_REFUSED' } });
    expect(nav.message).toBe(`navigation to ${bad} failed: net::ERR_CONNECTION_REFUSED`);

    const onErrorPage = (e: DeckhandError) => {
      expect(e, 'expected PAGE_ERROR').toBeInstanceOf(DeckhandError);
      expect(e.code).toBe('PAGE_ERROR');
      expect(e.message).toContain(`loading ${bad} failed (net::ERR_CONNECTION_REFUSED)`);
      expect(e.data).toMatchObject({ page: page.id, url: bad, errorText: 'net::ERR_CONNECTION_REFUSED' });
    };
    // A deterministic Action, an instruction (the built-in model), observe, extract, a locator, a key press, the snapshot.
    onErrorPage(await failure(h.dh.act({ selector: '#go', description: 'the go button', method: 'click' }, { timeout: 3000 })));
    onErrorPage(await failure(h.dh.act('click the Go button', { timeout: 5000 })));
    onErrorPage(await failure(h.dh.observe('buttons', { timeout: 5000 })));
    onErrorPage(await failure(h.dh.extract('the heading', undefined, { timeout: 5000 })));
    onErrorPage(await failure(page.locator('#name').fill('x', { timeout: 3000 })));
    onErrorPage(await failure(page.press('Enter', { timeout: 3000 })));
    onErrorPage(await failure(page.snapshot()));
    expect((await failure(page.extract())).code).toBe('PAGE_ERROR');

    // Navigating again is the way out.
    await page.goto(`${site.origin}/form`);
    expect((await h.dh.act({ selector: '#name', description: 'the name box', method: 'fill', arguments: ['back'] })).data.success).toBe(true);
  });

  it('a connection reset: NAVIGATION_FAILED, then PAGE_ERROR, never a success', async () => {
    const page = await h.browser.context.activePage();
    for (let i = 0; i < 5; i++) {
      await page.goto(`${site.origin}/form?key=reset-${i}`);
      const nav = await failure(page.goto(`${site.origin}/reset`));
      expect(nav.code).toBe('NAVIGATION_FAILED');
      expect(nav.message).toMatch(/failed: net::ERR_/);
      const e = await failure(h.dh.act({ selector: '#go', description: 'the go button', method: 'click' }, { timeout: 3000 }));
      expect(e.code).toBe('PAGE_ERROR');
      expect(e.message).toContain(`loading ${site.origin}/reset failed (net::ERR_`);
    }
    await sleep(300);
    for (let i = 0; i < 5; i++) expect(site.beacons(`reset-${i}`)).toBe(0);
  });

  it("act's success means the click reached the document it was found in, even with a failing navigation racing it", async () => {
    const page = await h.browser.context.activePage();
    const bad = `http://127.0.0.1:${await closedPort()}/`;
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const key = `race-${i}`;
      await page.goto(`${site.origin}/form?key=${key}`);
      // The navigation and the act are sent together: the error page commits while the act runs.
      const nav = page.goto(bad).then(
        () => 'ok',
        (e: DeckhandError) => e.code,
      );
      const act = h.dh.act({ selector: '#go', description: 'the go button', method: 'click' }, { timeout: 3000 }).then(
        (r) => (r.data.success ? 'success' : 'unsuccessful'),
        (e: DeckhandError) => e.code,
      );
      const [navOutcome, outcome] = await Promise.all([nav, act]);
      expect(navOutcome).toBe('NAVIGATION_FAILED');
      outcomes.push(outcome);
      if (outcome === 'success') {
        // Reported done: the page must have seen the click (its beacon reached the server).
        await until(
          async () => site.beacons(key),
          (n) => n === 1,
          `the click of round ${i} reaching the page`,
          3000,
        );
      } else {
        expect(['PAGE_ERROR', 'FRAME_DETACHED']).toContain(outcome);
      }
    }
    console.log(`act racing a failing goto: ${outcomes.join(', ')}`);
  });
});

/** A button with the id the cancelled actions waited for, appearing only now; it counts its clicks. */
const addLateButton = (page: Page) =>
  page.evaluate(() =>
    document.body.insertAdjacentHTML('beforeend', '<button id="never-there" onclick="window.__late = (window.__late || 0) + 1">Late</button>'),
  );
const lateClicks = (page: Page) => page.evaluate(() => (window as unknown as { __late?: number }).__late ?? 0);

/**
 * Abort `ac` while `pending` waits for #never-there: it fails with CANCELLED within a second,
 * and the worker stopped waiting too (the element appearing now is not clicked).
 */
async function expectStoppedAtOnce(page: Page, ac: AbortController, pending: Promise<DeckhandError>): Promise<void> {
  await sleep(300);
  const t = Date.now();
  ac.abort();
  expect((await pending).code).toBe('CANCELLED');
  expect(Date.now() - t).toBeLessThan(1000);
  await addLateButton(page);
  await sleep(800);
  expect(await lateClicks(page)).toBe(0);
}

describe('cancelling deterministic work and navigation', () => {
  it('an Action waiting for an element that never appears stops at once when its signal aborts; the page is free right after', async () => {
    const page = await h.browser.context.activePage();
    await page.goto(`${site.origin}/form`);
    const ac = new AbortController();
    await expectStoppedAtOnce(
      page,
      ac,
      failure(h.dh.act({ selector: '#never-there', description: 'nothing', method: 'click' }, { timeout: 20_000, signal: ac.signal })),
    );
    // And the next act on the page runs at once.
    const t2 = Date.now();
    await h.dh.act({ selector: '#name', description: 'the name box', method: 'fill', arguments: ['free'] });
    expect(Date.now() - t2).toBeLessThan(2000);
    expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('free');
  });

  it('locator actions and page.press take a signal too', async () => {
    const page = await h.browser.context.activePage();
    await page.goto(`${site.origin}/form`);
    const ac = new AbortController();
    await expectStoppedAtOnce(page, ac, failure(page.locator('#never-there').click({ timeout: 20_000, signal: ac.signal })));
    await page.locator('#name').fill('after', { timeout: 2000 });
    // Already aborted: nothing is sent.
    expect((await failure(page.press('Enter', { signal: AbortSignal.abort() }))).code).toBe('CANCELLED');
    expect((await failure(page.locator('#go').click({ signal: AbortSignal.abort() }))).code).toBe('CANCELLED');
    expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('after');
  });

  it('an experimentalBatch stops in the worker when its signal aborts: the running wait ends, no later operation starts', async () => {
    const page = await h.browser.context.activePage();
    await page.goto(`${site.origin}/form`);
    const ac = new AbortController();
    const batch = h.dh.experimentalBatch(
      async (b) => {
        await b.page.locator('#never-there').click({ timeout: 20_000 });
        await b.page.locator('#name').fill('after the cancel');
      },
      undefined,
      { timeout: 30_000, signal: ac.signal },
    );
    await expectStoppedAtOnce(page, ac, failure(batch));
    expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('');
    expect((await failure(h.dh.experimentalBatch(async () => 1, undefined, { signal: AbortSignal.abort() }))).code).toBe('CANCELLED');
  });

  it('a goto waiting for a page that never finishes loading stops (and stops the page loading) when its signal aborts', async () => {
    const page = await h.browser.context.activePage();
    await page.goto(`${site.origin}/form`);
    const ac = new AbortController();
    const pending = failure(page.goto(`${site.origin}/hang`, { timeout: 20_000, signal: ac.signal }));
    await until(
      async () => site.hanging(),
      (n) => n === 1,
      'the request for /hang reaching the server',
    );
    const t = Date.now();
    ac.abort();
    const e = await pending;
    expect(e.code).toBe('CANCELLED');
    expect(Date.now() - t).toBeLessThan(1000);
    // The page stopped loading (the browser dropped the request): it is where it was, and the next navigation runs at once.
    await until(
      async () => site.hanging(),
      (n) => n === 0,
      'the browser giving up the request for /hang',
      2000,
    );
    expect(await page.url()).toBe(`${site.origin}/form`);
    const t2 = Date.now();
    await page.goto(`${site.origin}/counter`);
    expect(Date.now() - t2).toBeLessThan(2000);
    expect(await page.title()).toBe('Counter');
  });
});

describe('a batch whose caller disconnects stops driving the page', () => {
  let chromium: PortedChromium;
  /** A second client: it watches the page while the batch's client goes away. */
  let observer: BrowserHandle;
  const cleanup: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    chromium = await chromiumWithPort({ extension: true, args: ['--window-size=1000,700'] });
    observer = await localBrowser.connect({ cdpUrl: chromium.devtoolsUrl });
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    await observer?.close();
    await chromium?.kill();
  });

  const count = (page: { evaluate: <T>(fn: () => T) => Promise<T> }) => page.evaluate(() => (window as unknown as { __count?: number }).__count ?? 0);

  /** Start a batch that clicks #inc until its operations are refused; resolves once clicks are landing. */
  async function startClicking(dh: Deckhand, pageId: number): Promise<{ running: Promise<unknown> }> {
    const running = dh
      .experimentalBatch(
        async ({ page }) => {
          for (;;) await page.locator('#inc').click();
        },
        undefined,
        { page: pageId, timeout: 120_000 },
      )
      .catch((e: unknown) => e);
    const page = observer.context.page(pageId);
    await until(
      () => count(page),
      (n) => n >= 3,
      'the batch clicking',
    );
    return { running };
  }

  /** The count must stop growing within `ms` of the disconnect, and stay put. */
  async function expectStopped(pageId: number, ms: number): Promise<void> {
    const page = observer.context.page(pageId);
    let last = await count(page);
    const deadline = Date.now() + ms;
    for (;;) {
      await sleep(1000);
      const now = await count(page);
      if (now === last) break;
      if (Date.now() > deadline) throw new Error(`the batch still clicks ${ms} ms after its client left (${last} → ${now})`);
      last = now;
    }
    await sleep(1500);
    expect(await count(page)).toBe(last);
  }

  it('a CDP client whose connection drops: its batch stops', { timeout: 60_000 }, async () => {
    const page = await observer.context.newPage(`${site.origin}/counter`);
    const client = await localBrowser.connect({ cdpUrl: chromium.devtoolsUrl });
    cleanup.push(() => client.close());
    const dh = await Deckhand.create({ browser: client });
    const { running } = await startClicking(dh, page.id);
    // The connection drops as a process that dies drops it: no goodbye to the worker.
    client.cdp.close();
    expect(await running).toMatchObject({ code: 'BROWSER_CLOSED' });
    // The worker finds the client gone when its question goes unanswered (10 s) and stops the batch.
    await expectStopped(page.id, 16_000);
  });

  it('a client process killed with SIGKILL: its batch stops within the ping window, and the worker says so', { timeout: 60_000 }, async () => {
    const page = await observer.context.newPage(`${site.origin}/counter`);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/batch-and-wait.ts', chromium.devtoolsUrl, String(page.id)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    cleanup.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    await until(
      () => count(page),
      (n) => n >= 3,
      'the child clicking',
    );
    const worker = await workerLog(observer);
    child.kill('SIGKILL');
    await exited;
    await expectStopped(page.id, 16_000);
    const lines = await worker.lines();
    await worker.close();
    expect(
      lines.some((l) => /stopped answering.*stopped/.test(l)),
      lines.join('\n'),
    ).toBe(true);
  });

  it('a client over the WebSocket bridge that goes away: its batch stops', { timeout: 60_000 }, async () => {
    const page = await observer.context.newPage(`${site.origin}/counter`);
    let offered!: (p: PairingInfo) => void;
    const pairing = new Promise<PairingInfo>((r) => (offered = r));
    const attaching = localBrowser.attach({ onPairing: offered });
    attaching.then(
      (b) => cleanup.push(() => b.close()),
      () => undefined,
    );
    const { port, token } = await pairing;
    // The person pairs it from the side panel (its methods, called in the worker over CDP).
    await workerEval(observer, `globalThis.__deckhand.panel('bridge.connect', ${JSON.stringify({ port, token })})`);
    const remote = await attaching;
    const dh = await Deckhand.create({ browser: remote });
    const { running } = await startClicking(dh, page.id);
    await remote.close();
    expect(await running).toBeInstanceOf(DeckhandError);
    await expectStopped(page.id, 3000);
  });
});
