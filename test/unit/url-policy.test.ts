/** The URL policy every navigation goes through: what opens by default, what an operator may add, what never opens. */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine';
import type { BrowserPort, CdpSession, FrameInfo } from '../../src/engine/ports';
import { DeckhandError } from '../../src/protocol/errors';
import { Methods } from '../../src/protocol/methods';
import { AgentRunParamsSchema } from '../../src/protocol/agent';
import { GotoOptionsSchema, type PageInfo } from '../../src/protocol/schemas';
import { OPTIONAL_URL_SCHEMES, assertUrlAllowed, parseAllowSchemes, schemeOf, urlRefusal } from '../../src/protocol/url-policy';

const refused = (url: string, allow: string[] = []) => urlRefusal(url, allow);

describe('urlRefusal', () => {
  it('opens http, https, data and about:blank by default', () => {
    for (const url of [
      'http://example.com/',
      'https://example.com/a?b#c',
      'HTTPS://EXAMPLE.COM',
      'data:text/html,<p>hi</p>',
      'about:blank',
      'about:blank#x',
      'about:blank?y',
    ]) {
      expect(refused(url), url).toBeNull();
    }
  });

  it('refuses file:, browser pages, extensions, view-source:, ftp: and unknown schemes with URL_NOT_ALLOWED naming the scheme', () => {
    const cases: [string, string][] = [
      ['file:///etc/passwd', 'file'],
      ['FILE:///etc/passwd', 'file'],
      ['chrome://version', 'chrome'],
      ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html', 'chrome-extension'],
      ['devtools://devtools/bundled/inspector.html', 'devtools'],
      ['view-source:https://example.com/', 'view-source'],
      ['ftp://example.com/file', 'ftp'],
      ['blob:https://example.com/0d5c4d0e-8b3f-4a57-9a0b-0b1f4f7a1f63', 'blob'],
      ['mailto:ada@example.com', 'mailto'],
    ];
    for (const [url, scheme] of cases) {
      const e = refused(url);
      expect(e, url).toBeInstanceOf(DeckhandError);
      expect(e!.code).toBe('URL_NOT_ALLOWED');
      expect(e!.message).toContain(`${scheme}:`);
      expect(e!.data).toMatchObject({ scheme });
    }
  });

  it('says how the operator opens an optional scheme, and that remote callers cannot', () => {
    const e = refused('file:///etc/passwd')!;
    expect(e.message).toContain("allowUrlSchemes: ['file']");
    expect(e.message).toMatch(/HTTP service and the MCP server cannot widen/);
    // An unknown scheme has no opt-in: the message suggests what was probably meant.
    expect(refused('localhost:3000')!.message).toMatch(/'localhost:' is not a scheme Deckhand opens.*include http:\/\//);
  });

  it('opens only about:blank of the about: pages unless about is allowed', () => {
    expect(refused('about:version')).toMatchObject({ code: 'URL_NOT_ALLOWED', message: expect.stringMatching(/only about:blank/) });
    expect(refused('about:srcdoc')?.code).toBe('URL_NOT_ALLOWED');
    expect(refused('about:version', ['about'])).toBeNull();
  });

  it('widens by the opt-in list only for the schemes listed', () => {
    expect(refused('file:///tmp/x.html', ['file'])).toBeNull();
    expect(refused('chrome://version', ['file'])?.code).toBe('URL_NOT_ALLOWED');
    expect(refused('chrome://version', ['chrome'])).toBeNull();
  });

  it('refuses javascript: always, even when asked for', () => {
    for (const allow of [[], ['javascript'], [...OPTIONAL_URL_SCHEMES]]) {
      const e = refused('javascript:alert(1)', allow);
      expect(e?.code).toBe('URL_NOT_ALLOWED');
      expect(e?.message).toMatch(/never opened.*page\.evaluate/);
    }
    expect(refused('JavaScript:void(0)')?.code).toBe('URL_NOT_ALLOWED');
  });

  it('treats a relative or malformed URL as INVALID_ARGUMENT', () => {
    expect(refused('example.com')).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/not an absolute URL/) });
    expect(() => assertUrlAllowed('/path')).toThrow(/not an absolute URL/);
    expect(() => assertUrlAllowed('https://example.com')).not.toThrow();
  });

  it('words a redirect refusal with where the navigation started and that the page went to about:blank', () => {
    const e = urlRefusal('file:///etc/passwd', [], 'http://127.0.0.1:8000/go')!;
    expect(e.code).toBe('URL_NOT_ALLOWED');
    expect(e.message).toMatch(
      /^navigation to http:\/\/127\.0\.0\.1:8000\/go was redirected to file:\/\/\/etc\/passwd; the page was sent to about:blank\. file: URLs are not allowed/,
    );
    expect(e.data).toMatchObject({ scheme: 'file', redirected: true, from: 'http://127.0.0.1:8000/go' });
    // Somewhere the extension cannot read at all (another extension's page): no URL to name.
    expect(urlRefusal('', [], 'http://a.test/')).toMatchObject({
      code: 'URL_NOT_ALLOWED',
      message: expect.stringMatching(/ended on a page Deckhand cannot read/),
    });
  });

  it('keeps long URLs short in messages', () => {
    const e = refused(`file:///${'a'.repeat(5000)}`)!;
    expect(e.message.length).toBeLessThan(700);
  });

  it('schemeOf names the scheme in lower case, or nothing', () => {
    expect(schemeOf('HTTPS://x.test')).toBe('https');
    expect(schemeOf('not a url')).toBe('');
  });
});

describe('parseAllowSchemes', () => {
  it('normalises case and a trailing colon, drops duplicates and schemes already open', () => {
    expect(parseAllowSchemes(['FILE:', 'file', 'chrome', 'https', 'data'])).toEqual(['file', 'chrome']);
    expect(parseAllowSchemes(undefined)).toEqual([]);
  });

  it('refuses unknown names with INVALID_ARGUMENT listing the allowed values', () => {
    for (const bad of [['gopher'], ['file', 42], 'file', [null]]) {
      const e = (() => {
        try {
          parseAllowSchemes(bad);
        } catch (err) {
          return err as DeckhandError;
        }
        throw new Error(`expected ${JSON.stringify(bad)} to be refused`);
      })();
      expect(e.code).toBe('INVALID_ARGUMENT');
      for (const s of OPTIONAL_URL_SCHEMES) expect(e.message).toContain(`'${s}'`);
    }
  });

  it('refuses javascript with a reason', () => {
    expect(() => parseAllowSchemes(['javascript'])).toThrow(/never opened.*page\.evaluate/);
  });
});

describe('where the opt-in travels', () => {
  it('is a per-call parameter of page.goto, context.newPage and agent.run, checked against the known schemes', () => {
    expect(Methods['page.goto'].params.safeParse({ page: 1, url: 'file:///x', allowSchemes: ['file'] }).success).toBe(true);
    expect(Methods['page.goto'].params.safeParse({ page: 1, url: 'file:///x', allowSchemes: ['javascript'] }).success).toBe(false);
    expect(Methods['context.newPage'].params.safeParse({ url: 'file:///x', allowSchemes: ['file'] }).success).toBe(true);
    expect(AgentRunParamsSchema.shape.allowSchemes.safeParse(['file', 'chrome']).success).toBe(true);
    expect(AgentRunParamsSchema.shape.allowSchemes.safeParse(['gopher']).success).toBe(false);
  });

  it('is not part of GotoOptions, which HTTP and MCP callers supply', () => {
    expect(GotoOptionsSchema.safeParse({ allowSchemes: ['file'] }).success).toBe(false);
    expect(GotoOptionsSchema.safeParse({ allowUrlSchemes: ['file'] }).success).toBe(false);
  });
});

/** A page whose navigations land on `lands` (a redirect), recording what the engine did to it. */
class LandingPort implements BrowserPort {
  calls: string[] = [];
  /** What isLoading answers (a data: tab that never finishes loading). */
  loading = false;
  constructor(
    public lands: string | null,
    public errorText?: string,
  ) {}
  async listPages(): Promise<PageInfo[]> {
    return [];
  }
  async activePage(): Promise<PageInfo | null> {
    return { id: 1, url: 'https://start.test/', title: '' };
  }
  async createPage(url?: string, options?: { beside?: number }): Promise<PageInfo> {
    this.calls.push(`createPage:${url ?? ''}${options?.beside !== undefined ? ` beside ${options.beside}` : ''}`);
    return { id: 2, url: url ?? 'about:blank', title: '' };
  }
  async pageInfo(page: number): Promise<PageInfo> {
    return { id: page, url: this.lands ?? '', title: '' };
  }
  async closePage(page: number): Promise<void> {
    this.calls.push(`closePage:${page}`);
  }
  async adoptPage(page: number, tab: number): Promise<void> {
    this.calls.push(`adoptPage:${page}:${tab}`);
  }
  async resetPage(page: number): Promise<void> {
    this.calls.push(`resetPage:${page}`);
    this.lands = 'about:blank';
  }
  async bringToFront(): Promise<void> {}
  async cdp(page: number): Promise<CdpSession> {
    const load = new Set<(params: unknown) => void>();
    return {
      send: async <T>(method: string, params?: Record<string, unknown>) => {
        this.calls.push(`${method}:${page}:${String(params?.url ?? '')}`);
        if (method === 'Page.navigate') {
          setTimeout(() => load.forEach((h) => h({})), 1);
          return (this.errorText ? { errorText: this.errorText, loaderId: 'l' } : { loaderId: 'l' }) as T;
        }
        return {} as T;
      },
      on: (event, handler) => {
        if (event === 'Page.loadEventFired') load.add(handler);
        return () => load.delete(handler);
      },
    };
  }
  async frameRequest<T>(): Promise<T> {
    throw new Error('not used');
  }
  async frames(): Promise<FrameInfo[]> {
    return this.lands === null ? [] : [{ frameId: 0, parentFrameId: -1, url: this.lands }];
  }
  async isLoading(): Promise<boolean> {
    return this.loading;
  }
  onPageClosed(): () => void {
    return () => undefined;
  }
}

describe('the engine enforces it where navigations land', () => {
  it('refuses before touching the page', async () => {
    const port = new LandingPort('https://start.test/');
    const engine = new Engine(port, 'ext');
    await expect(engine.call('page.goto', { page: 1, url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    await expect(engine.call('context.newPage', { url: 'chrome://version' })).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    expect(port.calls).toEqual([]);
  });

  it('opens an allowed scheme when the call carries the opt-in', async () => {
    const port = new LandingPort('file:///tmp/x.html');
    const engine = new Engine(port, 'ext');
    await expect(engine.call('page.goto', { page: 1, url: 'file:///tmp/x.html', allowSchemes: ['file'] })).resolves.toMatchObject({
      url: 'file:///tmp/x.html',
    });
    expect(port.calls).toContain('Page.navigate:1:file:///tmp/x.html');
  });

  it('sends a page redirected into a refused scheme to about:blank and names where it went', async () => {
    const port = new LandingPort('chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html');
    const engine = new Engine(port, 'ext');
    const e = await engine.call('page.goto', { page: 1, url: 'https://a.test/go' }).catch((err: DeckhandError) => err);
    expect(e).toMatchObject({
      code: 'URL_NOT_ALLOWED',
      message: expect.stringMatching(/^navigation to https:\/\/a\.test\/go was redirected to chrome-extension:/),
    });
    expect(port.calls).toContain('resetPage:1');
  });

  it('refuses when it cannot tell where the page went, and maps an unsafe redirect to URL_NOT_ALLOWED', async () => {
    const lost = new LandingPort(null);
    await expect(new Engine(lost, 'ext').call('page.goto', { page: 1, url: 'https://a.test/' })).rejects.toMatchObject({
      code: 'URL_NOT_ALLOWED',
      message: expect.stringMatching(/cannot read/),
    });
    expect(lost.calls).toContain('resetPage:1');
    const unsafe = new LandingPort('https://a.test/go', 'net::ERR_UNSAFE_REDIRECT');
    await expect(new Engine(unsafe, 'ext').call('page.goto', { page: 1, url: 'https://a.test/go' })).rejects.toMatchObject({
      code: 'URL_NOT_ALLOWED',
      data: { redirected: true },
    });
    expect(unsafe.calls).toContain('resetPage:1');
  });

  it('reports an ordinary failed navigation as NAVIGATION_FAILED and leaves the page alone', async () => {
    const port = new LandingPort('chrome-error://chromewebdata/', 'net::ERR_CONNECTION_REFUSED');
    await expect(new Engine(port, 'ext').call('page.goto', { page: 1, url: 'http://127.0.0.1:9/' })).rejects.toMatchObject({ code: 'NAVIGATION_FAILED' });
    expect(port.calls).not.toContain('resetPage:1');
  });

  it('opens a data: URL in a new page by creating the tab at it', async () => {
    const port = new LandingPort('data:text/html,hi');
    await expect(new Engine(port, 'ext').call('context.newPage', { url: 'data:text/html,hi' })).resolves.toMatchObject({ id: 2 });
    expect(port.calls).toEqual(['createPage:data:text/html,hi']);
  });

  it('goes to a data: URL in an open page through a new tab the page then moves onto, keeping its id', async () => {
    const port = new LandingPort('data:text/html,hi');
    await expect(new Engine(port, 'ext').call('page.goto', { page: 1, url: 'data:text/html,hi' })).resolves.toMatchObject({ id: 1, url: 'data:text/html,hi' });
    expect(port.calls).toEqual(['createPage:data:text/html,hi beside 1', 'adoptPage:1:2']);
  });

  it('a data: URL that does not load in time is a TIMEOUT: the new tab is closed and the page left alone', async () => {
    const port = new LandingPort('data:text/html,hi');
    port.loading = true;
    const t = Date.now();
    await expect(new Engine(port, 'ext').call('page.goto', { page: 1, url: 'data:text/html,hi', options: { timeout: 200 } })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(Date.now() - t).toBeLessThan(1000);
    expect(port.calls).toEqual(['createPage:data:text/html,hi beside 1', 'closePage:2']);
  });

  it('passes the agent run opt-in to its goto steps (replayed here, no model)', async () => {
    const port = new LandingPort('file:///tmp/x.html');
    const engine = new Engine(port, 'ext');
    const model = { kind: 'callback', name: 'mine', callbackId: 'cb' } as const;
    const base = {
      instruction: 'open it',
      mode: 'dom',
      model,
      executionModel: model,
      maxSteps: 1,
      toolTimeout: 5000,
      highlightCursor: false,
      page: 1,
    } as const;
    const replay = {
      version: 1 as const,
      instruction: 'open it',
      startUrl: 'https://start.test/',
      steps: [{ tool: 'goto', args: { url: 'file:///tmp/x.html' } }],
      finalMessage: 'done',
    };
    const logs: string[] = [];
    const ctx = { invokeCallback: async () => Promise.reject(new Error('no model in this test')), log: (e: { message: string }) => void logs.push(e.message) };
    // Without the opt-in the replayed goto is refused (and the run falls back to the model, which fails here).
    await engine.call('agent.run', { ...base, replay }, ctx).catch(() => undefined);
    expect(logs.join('\n')).toMatch(/replay stopped \(step goto failed: file: URLs are not allowed/);
    expect(port.calls.filter((c) => c.startsWith('Page.navigate'))).toEqual([]);
    const r = await engine.call('agent.run', { ...base, replay, allowSchemes: ['file'] }, ctx);
    expect(r.result).toMatchObject({ success: true });
    expect(port.calls.filter((c) => c.startsWith('Page.navigate'))).toEqual(['Page.navigate:1:file:///tmp/x.html']);
  });
});
