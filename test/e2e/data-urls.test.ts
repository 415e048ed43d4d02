/**
 * goto a data: URL on a page that is already open. Chromium refuses an extension's navigation
 * of an open tab to data:, so the engine opens the document in a new tab and moves the page
 * onto it (src/engine/core/pages.ts, adoptPage in src/worker/chrome-port.ts): the caller's page
 * keeps its id and its place, and everything done with it afterwards reaches the new document.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, localBrowser, type BrowserHandle } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { stopWorker, useService } from './harness';

const GO_PAGE =
  'data:text/html,<title>Inline</title>' +
  "<button onclick=\"document.title='clicked';document.getElementById('out').textContent='went'\">Go</button><p id=out>waiting</p>";
const SECOND = 'data:text/html,<title>Second</title><p id=x>second inline page</p>';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let browser: BrowserHandle;
let dh: Deckhand;

beforeAll(async () => {
  servers = await startFixtureServers();
  browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  dh = await Deckhand.create({ browser, model: 'deckhand/local' });
});
afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
});

const ids = async () => (await browser.context.pages()).map((p) => p.id);

describe('page.goto(data:) on an open page', () => {
  it('opens it in the same page: act, evaluate, url, screenshot and the page list all see the new document', async () => {
    const page = await browser.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    const before = await ids();

    const info = await page.goto(GO_PAGE);
    expect(info).toMatchObject({ id: page.id, url: GO_PAGE });
    expect(await page.url()).toBe(GO_PAGE);
    expect(await ids()).toEqual(before);
    expect((await browser.context.activePage()).id).toBe(page.id);

    const r = await dh.act('click the Go button');
    expect(r.data.success).toBe(true);
    expect(await page.evaluate(() => [document.title, document.getElementById('out')?.textContent])).toEqual(['clicked', 'went']);
    expect((await dh.observe('the Go button')).data[0]).toMatchObject({ method: 'click' });
    expect((await page.screenshot()).length).toBeGreaterThan(1000);

    // To the web and back to another data: page, still the same page.
    await page.goto(`${servers.origin}/form.html`);
    expect(await page.title()).toBe('Sign up');
    expect(await page.evaluate(() => location.href)).toBe(`${servers.origin}/form.html`);
    const again = await page.goto(SECOND);
    expect(again.id).toBe(page.id);
    expect(await page.evaluate(() => document.getElementById('x')?.textContent)).toBe('second inline page');
    expect(await page.url()).toBe(SECOND);
    expect(await ids()).toEqual(before);
    // And from one data: page straight to another.
    await page.goto(GO_PAGE);
    expect(await page.evaluate(() => document.title)).toBe('Inline');
    expect(await ids()).toEqual(before);
  });

  it('keeps the tab in its place: order and active page unchanged when the page is in the background', async () => {
    const first = await browser.context.activePage();
    await first.goto(`${servers.origin}/form.html`);
    const second = await browser.context.newPage(`${servers.origin}/store.html`);
    try {
      const order = await ids();
      expect(order.indexOf(first.id)).toBeLessThan(order.indexOf(second.id));
      expect((await browser.context.activePage()).id).toBe(second.id);

      await first.goto(SECOND);
      expect(await ids()).toEqual(order);
      expect((await browser.context.activePage()).id).toBe(second.id);
      expect(await first.evaluate(() => document.title)).toBe('Second');
      expect(await second.evaluate(() => location.pathname)).toBe('/store.html');

      await second.goto(GO_PAGE);
      expect(await ids()).toEqual(order);
      expect((await browser.context.activePage()).id).toBe(second.id);
      const r = await dh.act('click the Go button', { page: second });
      expect(r.data.success).toBe(true);
      expect(await second.evaluate(() => document.title)).toBe('clicked');
      expect(await first.evaluate(() => document.title)).toBe('Second');
    } finally {
      await second.close();
    }
    expect(await ids()).toEqual([first.id]);
  });

  it('closing the page afterwards closes it; the tab it left was never reported as the page closing', async () => {
    const page = await browser.context.newPage(`${servers.origin}/form.html`);
    await page.goto(SECOND);
    // Still open: the old tab's closing did not end it.
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    await page.close();
    expect(await ids()).not.toContain(page.id);
    const e = await page.evaluate(() => 1).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DeckhandError);
    expect((e as DeckhandError).code).toBe('PAGE_CLOSED');
  });

  it('a data: page that does not load in time is a TIMEOUT and leaves the page where it was', async () => {
    const page = await browser.context.activePage();
    await page.goto(`${servers.origin}/form.html`);
    const before = await ids();
    const started = Date.now();
    // A script that keeps the parser (and so the load) busy for 3 s.
    const busy = 'data:text/html,<p>busy</p><script>const t = Date.now(); while (Date.now() - t < 3000);</script>';
    const e = await page.goto(busy, { timeout: 800 }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DeckhandError);
    expect((e as DeckhandError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await page.evaluate(() => location.href)).toBe(`${servers.origin}/form.html`);
    // The tab opened for it is gone again.
    await expect.poll(ids, { timeout: 3000 }).toEqual(before);
  });

  it('the page keeps its new tab when the worker is stopped and starts again', async () => {
    const page = await browser.context.activePage();
    await page.goto(GO_PAGE);
    await stopWorker(browser);
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.url()).toBe(GO_PAGE);
    expect((await browser.context.activePage()).id).toBe(page.id);
    expect((await dh.act('click the Go button')).data.success).toBe(true);
    expect(await page.evaluate(() => document.title)).toBe('clicked');
  });

  it("reaches the agent's goto steps (a recorded run replayed, no model call)", async () => {
    const page = await browser.context.activePage();
    await page.goto('about:blank');
    const recording = {
      version: 1 as const,
      instruction: 'open it',
      startUrl: 'about:blank',
      steps: [
        { tool: 'goto', args: { url: SECOND } },
        { tool: 'done', args: { answer: 'opened', success: true } },
      ],
      finalMessage: 'opened',
    };
    // A model that is never called (the built-in local model does not run agents; a replay needs none).
    const never = { modelName: 'openai/gpt-4.1-mini', apiKey: 'unused', baseURL: 'http://127.0.0.1:9/v1' };
    const r = await dh.agentExecute({ agentConfig: { model: never }, executeOptions: { instruction: 'open it' } } as never, { replay: recording });
    expect(r.result).toMatchObject({ success: true, metadata: { replayed: true } });
    expect(await page.evaluate(() => document.title)).toBe('Second');
    expect(await page.url()).toBe(SECOND);
  });
});

describe('a fresh tab and about:blank', () => {
  it('read as an empty page; what a script writes there is snapshot, observed, filled and clicked', async () => {
    const page = await browser.context.newPage();
    expect((await page.snapshot()).text).toBe('');
    expect((await dh.observe('the buttons')).data).toEqual([]);
    await page.evaluate(() => {
      document.body.innerHTML = '<label>Name <input id="n"></label><button id="b" onclick="window.__clicks = (window.__clicks || 0) + 1">Go</button>';
    });
    expect((await page.snapshot()).text).toMatch(/textbox "Name"[\s\S]*button "Go"/);
    await dh.act({ selector: '#n', description: 'Name', method: 'fill', arguments: ['Ada'] }, { page });
    expect((await dh.act('click the Go button', { page })).data.success).toBe(true);
    expect(
      await page.evaluate(() => [(document.getElementById('n') as HTMLInputElement).value, (window as unknown as { __clicks?: number }).__clicks]),
    ).toEqual(['Ada', 1]);
    // about:blank reached by a navigation reads the same way.
    await page.goto('about:blank');
    expect((await page.snapshot()).text).toBe('');
    await page.close();
  });
});

describe('the HTTP service and the MCP server', () => {
  const KEY = 'data-urls-key';
  const service = useService(KEY);
  const post = service.post;

  it('navigate opens a data: URL in the session page, which then acts on it', async () => {
    const id = (await post('/v1/sessions/start', {})).body.data.sessionId as string;
    try {
      const nav = await post(`/v1/sessions/${id}/navigate`, { url: GO_PAGE });
      expect(nav.status).toBe(200);
      expect(nav.body.data).toMatchObject({ url: GO_PAGE });
      const act = await post(`/v1/sessions/${id}/act`, { input: { selector: 'button', description: 'Go', method: 'click' } });
      expect(act.body.data?.data?.success).toBe(true);
      const obs = await post(`/v1/sessions/${id}/observe`, { instruction: 'the Go button' });
      expect(obs.body.data?.data?.[0]).toMatchObject({ method: 'click' });
      expect((await post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })).body.data).toMatchObject({ title: 'Sign up' });
      expect((await post(`/v1/sessions/${id}/navigate`, { url: SECOND })).body.data).toMatchObject({ url: SECOND });
    } finally {
      await post(`/v1/sessions/${id}/end`, {});
    }
  });

  it("MCP's navigate opens a data: URL too", async () => {
    const c = new Client({ name: 'data-urls', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${service.svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
    try {
      const r = (await c.callTool({ name: 'navigate', arguments: { url: SECOND } })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(r.content[0].text).toContain('data:text/html');
    } finally {
      await c.callTool({ name: 'end', arguments: {} }).catch(() => undefined);
      await c.close();
    }
  });
});
