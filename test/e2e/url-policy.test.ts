/**
 * The URL policy in real Chromium: what a launched browser opens by default, redirects out
 * of the web, the operator's allowUrlSchemes opt-in, and the HTTP service, whose callers
 * cannot widen it.
 */
import { pathToFileURL, fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, EXTENSION_ID, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { useBrowser, useService } from './harness';

const h = useBrowser();
const FORM_FILE = pathToFileURL(fileURLToPath(new URL('../fixtures/pages/form.html', import.meta.url))).href;

async function refusal(p: Promise<unknown>): Promise<DeckhandError> {
  const e = await p.then(
    () => {
      throw new Error('expected the navigation to be refused');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DeckhandError);
  return e as DeckhandError;
}

const href = (page: Page) => page.evaluate(() => location.href);

describe('by default', () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.browser.context.newPage(`${h.origin}/form.html`);
  });

  it('refuses file: with URL_NOT_ALLOWED naming the scheme and the opt-in, and leaves the page where it was', async () => {
    const e = await refusal(page.goto('file:///etc/passwd'));
    expect(e.code).toBe('URL_NOT_ALLOWED');
    expect(e.message).toMatch(/^file: URLs are not allowed \(file:\/\/\/etc\/passwd\)/);
    expect(e.message).toContain("allowUrlSchemes: ['file']");
    expect(e.data).toMatchObject({ scheme: 'file' });
    expect(await href(page)).toBe(`${h.origin}/form.html`);
    // A folder listing is the same scheme.
    expect((await refusal(page.goto('file:///etc/'))).code).toBe('URL_NOT_ALLOWED');
  });

  it('refuses chrome:, view-source:, javascript:, devtools: and other about: pages', async () => {
    for (const [url, pattern] of [
      ['chrome://version', /^chrome: URLs are not allowed/],
      [`view-source:${h.origin}/form.html`, /^view-source: URLs are not allowed/],
      ['javascript:document.title="owned"', /^javascript: URLs are never opened; run script in a page with page\.evaluate/],
      ['devtools://devtools/bundled/inspector.html', /^devtools: URLs are not allowed/],
      ['about:version', /only about:blank/],
    ] as const) {
      const e = await refusal(page.goto(url));
      expect(e.code, url).toBe('URL_NOT_ALLOWED');
      expect(e.message, url).toMatch(pattern);
    }
    expect(await page.title()).toBe('Sign up');
  });

  it('context.newPage refuses before opening a tab', async () => {
    const before = (await h.browser.context.pages()).length;
    expect((await refusal(h.browser.context.newPage('file:///etc/passwd'))).code).toBe('URL_NOT_ALLOWED');
    expect((await refusal(h.browser.context.newPage('chrome://settings'))).code).toBe('URL_NOT_ALLOWED');
    expect((await h.browser.context.pages()).length).toBe(before);
  });

  it('a web redirect into file: is refused and the page is sent to about:blank', async () => {
    const e = await refusal(page.goto(`${h.origin}/redirect/file`));
    expect(e.code).toBe('URL_NOT_ALLOWED');
    expect(e.message).toMatch(/^navigation to http:\/\/127\.0\.0\.1:\d+\/redirect\/file was redirected to a URL a web page may not redirect to, such as file:/);
    expect(e.message).toMatch(/the page was sent to about:blank/);
    expect(e.data).toMatchObject({ redirected: true });
    expect(await href(page)).toBe('about:blank');
    expect(await page.url()).toBe('about:blank');
  });

  it("a redirect onto this extension's own page is refused naming chrome-extension:, and the page stays usable", async () => {
    const e = await refusal(page.goto(`${h.origin}/redirect/extension?id=${EXTENSION_ID}`));
    expect(e.code).toBe('URL_NOT_ALLOWED');
    expect(e.message).toMatch(
      new RegExp(
        `was redirected to chrome-extension://${EXTENSION_ID}/sidepanel\\.html; the page was sent to about:blank\\. chrome-extension: URLs are not allowed`,
      ),
    );
    expect(await href(page)).toBe('about:blank');
    await page.goto(`${h.origin}/form.html`);
    expect(await page.title()).toBe('Sign up');
  });

  it("a redirect onto another extension's page is refused although the extension cannot read where it went", async () => {
    const e = await refusal(page.goto(`${h.origin}/redirect/extension`));
    expect(e.code).toBe('URL_NOT_ALLOWED');
    expect(e.message).toMatch(/ended on a page Deckhand cannot read.*sent to about:blank/);
    expect(await href(page)).toBe('about:blank');
  });

  it('opens about:blank, and data: URLs in a new page', async () => {
    await page.goto(`${h.origin}/form.html`);
    const info = await page.goto('about:blank');
    expect(info.url).toBe('about:blank');
    expect(await href(page)).toBe('about:blank');

    const data = await h.browser.context.newPage('data:text/html,<title>Inline</title><p id=x>inline page</p>');
    expect(await data.evaluate(() => document.getElementById('x')?.textContent)).toBe('inline page');
    // (page.title() reads the tabs API, which hides data: pages' titles from the extension.)
    expect(await data.evaluate(() => document.title)).toBe('Inline');
    expect(await data.url()).toMatch(/^data:text\/html,/);
    await data.close();
  });

  it('opens data: URLs in a page that is already open too (test/e2e/data-urls.test.ts has the rest)', async () => {
    const before = (await h.browser.context.pages()).length;
    const info = await page.goto('data:text/html,<title>Here</title><p id=x>in place</p>');
    expect(info.id).toBe(page.id);
    expect(await page.evaluate(() => document.getElementById('x')?.textContent)).toBe('in place');
    expect((await h.browser.context.pages()).length).toBe(before);
    await page.goto(`${h.origin}/form.html`);
    expect(await page.title()).toBe('Sign up');
  });

  it('an ordinary failed navigation stays NAVIGATION_FAILED', async () => {
    const e = await refusal(page.goto('http://127.0.0.1:9/'));
    expect(e.code).toBe('NAVIGATION_FAILED');
  });
});

describe('allowUrlSchemes', () => {
  let browser: BrowserHandle;
  beforeAll(async () => {
    browser = await localBrowser.launch({ allowUrlSchemes: ['FILE:'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is validated: unknown names are INVALID_ARGUMENT listing the allowed values, before anything starts', async () => {
    const t = Date.now();
    const e = await localBrowser.launch({ allowUrlSchemes: ['file', 'gopher'] }).catch((err: DeckhandError) => err);
    expect(e).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/"gopher" is not a scheme.*'file', 'about', 'chrome'/) });
    expect(Date.now() - t).toBeLessThan(500);
    await expect(localBrowser.launch({ allowUrlSchemes: ['javascript'] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/never opened/),
    });
    await expect(localBrowser.connect({ cdpUrl: 'http://127.0.0.1:9', allowUrlSchemes: 'file' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('opens file: for a browser launched with it, through goto and newPage', async () => {
    expect(browser.allowUrlSchemes).toEqual(['file']);
    const page = await browser.context.activePage();
    const info = await page.goto(FORM_FILE);
    expect(info.url).toBe(FORM_FILE);
    expect(await page.title()).toBe('Sign up');
    const other = await browser.context.newPage(FORM_FILE);
    expect(await other.evaluate(() => location.protocol)).toBe('file:');
    await other.close();
  });

  it('widens only what it lists: chrome: and javascript: stay refused', async () => {
    const page = await browser.context.activePage();
    expect((await refusal(page.goto('chrome://version'))).code).toBe('URL_NOT_ALLOWED');
    expect((await refusal(page.goto('javascript:1'))).code).toBe('URL_NOT_ALLOWED');
  });

  it("reaches the agent's goto steps (a recorded run replayed, no model call)", async () => {
    const dh = await Deckhand.create({ browser, model: async () => ({ object: {} }) });
    try {
      const page = await browser.context.activePage();
      await page.goto('about:blank');
      const recording = {
        version: 1 as const,
        instruction: 'open the form',
        startUrl: 'about:blank',
        steps: [
          { tool: 'goto', args: { url: FORM_FILE } },
          { tool: 'done', args: { answer: 'opened', success: true } },
        ],
        finalMessage: 'opened',
      };
      const r = await dh.agentExecute({ executeOptions: { instruction: 'open the form' } } as never, { replay: recording });
      expect(r.result).toMatchObject({ success: true, metadata: { replayed: true } });
      expect(await href(page)).toBe(FORM_FILE);
    } finally {
      await dh.close();
    }
  });
});

describe('the HTTP service', () => {
  const KEY = 'url-policy-key';
  const service = useService(KEY);
  const post = service.post;

  it('refuses file: for its callers, who cannot widen the policy through navigate options', async () => {
    const id = (await post('/v1/sessions/start', {})).body.data.sessionId as string;
    try {
      const refused = await post(`/v1/sessions/${id}/navigate`, { url: 'file:///etc/passwd' });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'URL_NOT_ALLOWED', message: expect.stringMatching(/^file: URLs are not allowed/) });
      const widened = await post(`/v1/sessions/${id}/navigate`, { url: 'file:///etc/passwd', options: { allowSchemes: ['file'] } });
      expect(widened.status).toBe(400);
      expect(widened.body.error?.code).toBe('INVALID_ARGUMENT');
    } finally {
      await post(`/v1/sessions/${id}/end`, {});
    }
  });
});
