/**
 * Several sessions in one browser, each in an isolated context: its own cookies, storage, pages
 * and engine (the extension runs split, a worker per context). The library's newContext() and
 * the service's contextsPerBrowser, which never puts two tenants in one browser.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle } from '../../src/index';
import { startService } from '../../src/server/service';
import type { Session } from '../../src/sessions/sessions';
import { startCounterPages, type CounterPages } from '../fixtures/counter-pages';

let pages: CounterPages;
beforeAll(async () => {
  pages = await startCounterPages();
});
afterAll(async () => {
  await pages?.close();
});

describe('isolated contexts in one browser', () => {
  it('each context has its own pages, cookies, storage and engine; closing one leaves the others', async () => {
    const browser = await localBrowser.launch({ isolatedContexts: true });
    const contexts: { ctx: BrowserHandle; dh: Deckhand }[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const ctx = await browser.newContext({ viewport: { width: 900, height: 700 } });
        contexts.push({ ctx, dh: await Deckhand.create({ browser: ctx, model: 'deckhand/local' }) });
      }
      await Promise.all(
        contexts.map(async ({ dh }, i) => {
          const page = await dh.context.activePage();
          await page.goto(`${pages.origin}/?s=${100 + i}`);
          await page.evaluate(`document.cookie = 'who=${i}'; localStorage.setItem('who', '${i}')`);
          // No page named: the context's own active page is the one acted on.
          await dh.act({ selector: 'button', description: 'Add one', method: 'click', arguments: [] });
          expect(await pages.hitsBecome(100 + i, 1)).toBe(1);
        }),
      );
      for (const [i, { dh }] of contexts.entries()) {
        const list = await dh.context.pages();
        expect(list).toHaveLength(1);
        const page = await dh.context.activePage();
        expect(await page.title()).toBe(`Counter ${100 + i}`);
        expect(await page.evaluate('document.cookie')).toBe(`who=${i}`);
        expect(await page.evaluate("localStorage.getItem('who')")).toBe(String(i));
        expect(await page.evaluate('innerWidth')).toBe(900);
      }
      // A new page opens in its own context, beside the one there.
      const extra = await contexts[1].dh.context.newPage();
      await extra.goto(`${pages.origin}/?s=111`);
      expect(await extra.evaluate('document.cookie')).toBe('who=1');
      expect(await contexts[0].dh.context.pages()).toHaveLength(1);
      expect(await contexts[1].dh.context.pages()).toHaveLength(2);
      // One context closed: its pages are gone, the others and the browser go on.
      await contexts[0].dh.close();
      await contexts[0].ctx.close();
      const { targetInfos } = await browser.cdp.send<{ targetInfos: { url: string }[] }>('Target.getTargets');
      expect(targetInfos.some((t) => t.url.includes('s=100'))).toBe(false);
      expect(await (await contexts[2].dh.context.activePage()).title()).toBe('Counter 102');
      expect(browser.isConnected).toBe(true);
    } finally {
      for (const { dh, ctx } of contexts) {
        await dh.close();
        await ctx.close();
      }
      await browser.close();
    }
  }, 60_000);

  it('a browser launched without isolatedContexts refuses newContext with a typed error, in time', async () => {
    const browser = await localBrowser.launch();
    try {
      const t0 = Date.now();
      await expect(browser.newContext({ timeout: 3000 })).rejects.toMatchObject({
        code: 'EXTENSION_MISSING',
        message: expect.stringMatching(/isolatedContexts/),
      });
      expect(Date.now() - t0).toBeLessThan(8000);
      await expect(localBrowser.launch({ isolatedContexts: true, userDataDir: '/tmp/x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    } finally {
      await browser.close();
    }
  }, 30_000);
});

describe('the service with contextsPerBrowser', () => {
  it("puts one tenant's sessions in shared browsers, never two tenants in one, and closes a browser with its last session", async () => {
    process.env.DECKHAND_API_KEYS = 'ctx-key-a,ctx-key-b';
    const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-ctx-')), port: 0, maxSessions: 8, contextsPerBrowser: 3, mcp: false });
    const call = (key: string, path: string, body: unknown) =>
      fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': key }, body: JSON.stringify(body) }).then(
        async (r) => (await r.json()) as any,
      );
    try {
      const a = await Promise.all(Array.from({ length: 4 }, () => call('ctx-key-a', '/v1/sessions/start', {})));
      const b = await call('ctx-key-b', '/v1/sessions/start', {});
      const tenantA = (await svc.keys.tenantOf('ctx-key-a'))!;
      const tenantB = (await svc.keys.tenantOf('ctx-key-b'))!;
      const sa: Session[] = await Promise.all(a.map((r) => svc.sessions.get(r.data.sessionId, tenantA)));
      const sb = await svc.sessions.get(b.data.sessionId, tenantB);
      const browsersOfA = new Set(sa.map((s) => s.pooled));
      expect(browsersOfA.size).toBe(2); // 3 + 1
      expect(sa.every((s) => s.pooled)).toBe(true);
      expect(browsersOfA.has(sb.pooled)).toBe(false);
      // Each session drives its own page; what one sets, another in the same browser does not see.
      await Promise.all(
        sa.map(async (s, i) => {
          expect((await call('ctx-key-a', `/v1/sessions/${s.id}/navigate`, { url: `${pages.origin}/?s=${200 + i}` })).data.title).toBe(`Counter ${200 + i}`);
          const acted = await call('ctx-key-a', `/v1/sessions/${s.id}/act`, { input: 'click the Add one button', model: 'deckhand/local' });
          expect(acted.data?.data?.success, JSON.stringify(acted)).toBe(true);
          expect(await pages.hitsBecome(200 + i, 1)).toBe(1);
          await (await s.dh.context.activePage()).evaluate(`document.cookie = 'who=${i}'`);
        }),
      );
      for (const [i, s] of sa.entries()) expect(await (await s.dh.context.activePage()).evaluate('document.cookie')).toBe(`who=${i}`);
      // The shared browser closes with its last session, not before.
      const shared = await sa[0].pooled!.ready;
      await call('ctx-key-a', `/v1/sessions/${sa[0].id}/end`, {});
      await call('ctx-key-a', `/v1/sessions/${sa[1].id}/end`, {});
      expect(shared.isConnected).toBe(true);
      expect(await (await sa[2].dh.context.activePage()).title()).toMatch(/^Counter 20[0-9]$/);
      await call('ctx-key-a', `/v1/sessions/${sa[2].id}/end`, {});
      expect(shared.isConnected).toBe(false);
    } finally {
      await svc.close();
      delete process.env.DECKHAND_API_KEYS;
    }
  }, 90_000);
});
