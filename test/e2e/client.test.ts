/** The client library's lifecycle: create/close, handles, connect, worker restarts, vanishing browsers and pages. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, EXTENSION_ID, localBrowser } from '../../src/index';
import { chromiumWithPort, stopWorker, useBrowser, type PortedChromium } from './harness';

const h = useBrowser();
const started: PortedChromium[] = [];
afterAll(() => Promise.all(started.map((c) => c.kill())));

/** A Chromium with a remote debugging port, as a person or a remote machine would run it; killed after the file. */
async function remoteChromium(withExtension: boolean): Promise<string> {
  const c = await chromiumWithPort({ extension: withExtension });
  started.push(c);
  return c.devtoolsUrl;
}

describe('Deckhand.create and close', () => {
  it('has no public constructor and validates its input', async () => {
    expect(() => new (Deckhand as unknown as new (...a: unknown[]) => unknown)(Symbol('x'), h.browser)).toThrow(/Deckhand.create/);
    await expect(Deckhand.create({} as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('one handle backs one instance; close releases it, leaves the browser open, and can be repeated', async () => {
    await expect(Deckhand.create({ browser: h.browser })).rejects.toMatchObject({ code: 'ALREADY_IN_USE', message: expect.stringMatching(/already backs/) });
    const browser = await localBrowser.launch();
    try {
      const dh = await Deckhand.create({ browser });
      expect(dh.initialized).toBe(true);
      expect(dh.browser).toBe(browser);
      expect(() => {
        (dh as unknown as { browser: unknown }).browser = null;
      }).toThrow();
      await dh.close();
      await dh.close();
      expect(dh.initialized).toBe(false);
      await expect(dh.act({ selector: 'body', description: 'x' })).rejects.toMatchObject({ code: 'CLOSED' });
      // The browser is still there and can back a new instance.
      expect(browser.isConnected).toBe(true);
      const again = await Deckhand.create({ browser });
      expect(await again.metrics()).toMatchObject({ totalPromptTokens: 0, actInferenceTimeMs: 0 });
      expect(Object.keys(await again.metrics())).toHaveLength(32);
      await again.close();
    } finally {
      await browser.close();
      await browser.close();
    }
  });
});

describe('pages', () => {
  it('newPage, pages, activePage, goto, url, title, evaluate, screenshot, close', async () => {
    const ctx = h.browser.context;
    const page = await ctx.newPage(`${h.origin}/form.html`);
    expect(await page.url()).toBe(`${h.origin}/form.html`);
    expect(await page.title()).toBe('Sign up');
    expect((await ctx.activePage()).id).toBe(page.id);
    expect((await ctx.pages()).map((p) => p.id)).toContain(page.id);
    expect(await page.evaluate((n: number) => n * 2, 21)).toBe(42);
    expect(await page.evaluate('document.title')).toBe('Sign up');
    expect(await page.evaluate(async () => new Promise((r) => setTimeout(() => r('later'), 10)))).toBe('later');
    await expect(
      page.evaluate(() => {
        throw new Error('boom in page');
      }),
    ).rejects.toMatchObject({ code: 'EVALUATION_FAILED', message: expect.stringContaining('boom in page') });
    const png = await page.screenshot();
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const path = join(tmpdir(), `shot-${Date.now()}.jpeg`);
    const jpeg = await page.screenshot({ type: 'jpeg', fullPage: true, path });
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    await expect(page.goto('not a url')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/absolute URL/) });
    await page.goto(`${h.origin}/target.html`);
    expect(await page.title()).toBe('Target');
    await page.close();
    expect((await ctx.pages()).map((p) => p.id)).not.toContain(page.id);
    await expect(page.title()).rejects.toMatchObject({ code: 'PAGE_CLOSED' });
  });

  it('navigation waits have a deadline that names what timed out', async () => {
    const page = await h.browser.context.newPage();
    await expect(page.goto(`${h.origin}/slow?ms=3000&to=/form.html`, { timeout: 500 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/slow\?ms=3000.*500 ms/),
    });
    await page.close();
  });
});

describe('security', () => {
  it('a web page cannot reach the extension or its engine', async () => {
    const page = await h.open('/form.html');
    const reach = await page.evaluate(() => {
      const g = globalThis as unknown as { chrome?: { runtime?: { sendMessage?: unknown; connect?: unknown } }; __deckhand?: unknown };
      return { sendMessage: typeof g.chrome?.runtime?.sendMessage, connect: typeof g.chrome?.runtime?.connect, engine: typeof g.__deckhand };
    });
    expect(reach).toEqual({ sendMessage: 'undefined', connect: 'undefined', engine: 'undefined' });
    // A page posting the frame-id query to itself gets nothing back from the extension.
    const answered = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => resolve(true);
          window.postMessage({ __deckhandFrameQuery: true }, '*', [ch.port2]);
          setTimeout(() => resolve(false), 300);
        }),
    );
    expect(answered).toBe(false);
  });
});

describe('connect to a running Chromium', () => {
  it('attaches to a browser that has the extension', async () => {
    const ws = await remoteChromium(true);
    const httpUrl = ws.replace(/^ws:\/\/([^/]+)\/.*$/, 'http://$1');
    const browser = await localBrowser.connect({ cdpUrl: httpUrl });
    expect(browser.extensionId).toBe(EXTENSION_ID);
    const dh = await Deckhand.create({ browser });
    const page = await browser.context.activePage();
    await page.goto(`${h.origin}/form.html`);
    await dh.act({ selector: '#terms', description: 'tick', method: 'check' });
    expect(await page.evaluate(() => (document.getElementById('terms') as HTMLInputElement).checked)).toBe(true);
    await dh.close();
    await browser.close();
  });

  it('fails at once, clearly, when the browser has no extension', async () => {
    const ws = await remoteChromium(false);
    const t = Date.now();
    const err = await localBrowser.connect({ cdpUrl: ws }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeckhandError);
    expect((err as DeckhandError).code).toBe('EXTENSION_MISSING');
    expect((err as DeckhandError).message).toMatch(/no Deckhand extension/);
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it('rejects a malformed or unreachable cdpUrl', async () => {
    await expect(localBrowser.connect({ cdpUrl: 'ftp://x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(localBrowser.connect({ cdpUrl: 'http://127.0.0.1:9', timeout: 1000 })).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
  });
});

describe('the worker, the browser or the tab going away', () => {
  it('a call in flight when the worker stops fails with WORKER_GONE; the next call restarts the worker and works', async () => {
    const page = await h.open('/form.html');
    const pending = h.dh.act({ selector: '#never-there', description: 'x' }, { timeout: 20_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    const t = Date.now();
    await stopWorker(h.browser);
    expect(await pending).toMatchObject({ code: 'WORKER_GONE' });
    expect(Date.now() - t).toBeLessThan(5000);
    await h.dh.act({ selector: '#terms', description: 'after restart', method: 'check' });
    expect(await page.evaluate(() => (document.getElementById('terms') as HTMLInputElement).checked)).toBe(true);
    // And again while idle: stop, then call.
    await stopWorker(h.browser);
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.title()).toBe('Sign up');
    expect((await page.snapshot()).text).toContain('checkbox "I accept the terms" checked');
  });

  it('a call in flight when the browser closes fails with BROWSER_CLOSED at once', async () => {
    const browser = await localBrowser.launch();
    const dh = await Deckhand.create({ browser });
    const page = await browser.context.activePage();
    await page.goto(`${h.origin}/form.html`);
    const pending = dh.act({ selector: '#never-there', description: 'x' }, { timeout: 20_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    const t = Date.now();
    await browser.close();
    expect(await pending).toMatchObject({ code: 'BROWSER_CLOSED' });
    expect(Date.now() - t).toBeLessThan(6000);
    await expect(dh.metrics()).rejects.toBeInstanceOf(DeckhandError);
  });
});

describe('idempotency keys', () => {
  it('an act sent again with its idempotency key runs once: retries, concurrent or later, get the first run’s outcome', async () => {
    const page = await h.open('/form.html');
    await page.evaluate(() => {
      document.body.innerHTML = '<button id="add" onclick="window.clicks = (window.clicks || 0) + 1">Add one</button>';
    });
    const clicks = () => page.evaluate(() => (window as unknown as { clicks?: number }).clicks ?? 0);
    const add = { selector: '#add', description: 'Add one', method: 'click' as const };
    const key = `retry-${Date.now()}`;
    const [a, b] = await Promise.all([h.dh.act(add, { idempotencyKey: key }), h.dh.act(add, { idempotencyKey: key })]);
    expect(a.data.success && b.data.success).toBe(true);
    expect(await clicks()).toBe(1);
    expect(await h.dh.act(add, { idempotencyKey: key })).toEqual(a);
    expect(await clicks()).toBe(1);
    // The same key for something else is refused, naming the key; a new key runs again.
    await expect(h.dh.act({ ...add, description: 'Add two' }, { idempotencyKey: key })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/other parameters/),
    });
    await h.dh.act(add, { idempotencyKey: `${key}-2` });
    await h.dh.act(add);
    expect(await clicks()).toBe(3);
    await expect(h.dh.act(add, { idempotencyKey: 'short' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/idempotency/) });
  });
});
