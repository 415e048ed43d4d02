/** The result cache: MISS then HIT, thresholds, self-healing, bypasses, the SQLite-backed service. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { RemoteStore } from '../../src/client/cache/store';
import { startService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';
import { idFor, startModelServer, type ModelServer } from '../fixtures/model-server';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let ms: ModelServer;
let browser: BrowserHandle;
let page: Page;
const model = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test', baseURL: ms.url });

beforeAll(async () => {
  servers = await startFixtureServers();
  ms = await startModelServer();
  browser = await localBrowser.launch();
  page = await browser.context.activePage();
});
afterAll(async () => {
  await browser?.close();
  await servers?.close();
  await ms?.close();
});
beforeEach(() => {
  ms.requests.length = 0;
  ms.script((_r, prompt) => ({
    object: {
      found: true,
      elementId: idFor(prompt, /button "Multi"/),
      method: 'click',
      arguments: [],
      description: 'Multi button',
      twoStep: false,
      reason: '',
    },
    usage: { input: 400, output: 30 },
  }));
});

async function withDeckhand<T>(opts: Partial<Parameters<typeof Deckhand.create>[0]>, fn: (dh: Deckhand) => Promise<T>): Promise<T> {
  const dh = await Deckhand.create({ browser, model: model(), ...opts });
  try {
    return await fn(dh);
  } finally {
    await dh.close();
  }
}
const clicks = () => page.evaluate(() => (window as unknown as { __log: string[] }).__log.filter((l) => l === 'click:multi').length);

describe('MISS, then HIT', () => {
  it('an act that names a date by description is never served from the cache: tomorrow the words mean another day', async () => {
    await withDeckhand({ cache: { store: 'memory' } }, async (dh) => {
      await page.goto(`${servers.origin}/form.html`);
      ms.script((_r, prompt) => {
        const today = /Today's date on the page: (\d{4}-\d{2}-\d{2})/.exec(prompt)?.[1] ?? 'no date';
        const answer = { found: true, elementId: idFor(prompt, /"Date of birth"/), method: 'fill', arguments: [today], description: 'Date of birth field' };
        return { object: { ...answer, twoStep: false, reason: '' } };
      });
      for (let i = 0; i < 2; i++) {
        const r = await dh.act("enter today's date into the Date of birth field");
        expect(r.data.success, r.data.message).toBe(true);
        expect(r.metadata.cache).toEqual({ status: 'DISABLED' });
      }
      expect(ms.requests).toHaveLength(2);
      const today = await page.evaluate(() => {
        const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      });
      expect(await page.evaluate(() => (document.getElementById('dob') as HTMLInputElement).value)).toBe(today);
    });
  });

  it('threshold 1: the second identical act is served from the cache, with no model call and nothing spent in metrics', async () => {
    await withDeckhand({ cache: { store: 'memory' } }, async (dh) => {
      await page.goto(`${servers.origin}/form.html`);
      const first = await dh.act('click the Multi button');
      expect(first.metadata.cache).toEqual({ status: 'MISS', count: 1, threshold: 1, missReason: 'not_found' });
      const metrics = await dh.metrics();
      expect(ms.requests).toHaveLength(1);
      const second = await dh.act('click the Multi button');
      expect(second.data.success).toBe(true);
      // 400 × 0.40 + 30 × 1.60 per million: gpt-4.1-mini's list price.
      expect(second.metadata.cache).toEqual({
        status: 'HIT',
        count: 2,
        threshold: 1,
        tokensSaved: { inputTokens: 400, outputTokens: 30, totalTokens: 430 },
        costSavedUsd: 0.000208,
      });
      expect(second.metadata.usage.inputTokens).toBe(0);
      expect(ms.requests).toHaveLength(1); // no request on the hit
      // Only what the hit saved is counted.
      const saved = ['actCacheSavedTokens', 'actCacheSavedCostUsd', 'totalCacheSavedTokens', 'totalCacheSavedCostUsd'] as const;
      const after = await dh.metrics();
      expect({ ...after, ...Object.fromEntries(saved.map((n) => [n, metrics[n]])) }).toEqual(metrics);
      expect(after.actCacheSavedTokens - metrics.actCacheSavedTokens).toBe(430);
      expect(after.actCacheSavedCostUsd - metrics.actCacheSavedCostUsd).toBeCloseTo(0.000208, 12);
      expect(await clicks()).toBe(2); // the hit really acted on the page
      expect(second.data.actions).toEqual(first.data.actions);
    });
  });

  it('threshold 2: two agreeing results before the first hit; extract is cached too', async () => {
    await withDeckhand({ cache: { store: 'memory', threshold: 2 } }, async (dh) => {
      await page.goto(`${servers.origin}/form.html`);
      const a = await dh.act('click the Multi button');
      const b = await dh.act('click the Multi button');
      const c = await dh.act('click the Multi button');
      expect([a, b, c].map((r) => r.metadata.cache.status)).toEqual(['MISS', 'MISS', 'HIT']);
      expect(b.metadata.cache).toMatchObject({ count: 2, threshold: 2, missReason: 'below_threshold' });
      expect(c.metadata.cache.count).toBe(3);
      expect(ms.requests).toHaveLength(2);
      ms.script({ object: { extraction: 'Sign up' }, usage: { input: 50, output: 5 } });
      const e1 = await dh.extract('the heading', undefined, { cache: { threshold: 1 } });
      const e2 = await dh.extract('the heading', undefined, { cache: { threshold: 1 } });
      expect(e2.data).toEqual({ extraction: 'Sign up' });
      expect([e1.metadata.cache.status, e2.metadata.cache.status]).toEqual(['MISS', 'HIT']);
      expect(e2.metadata.cache.tokensSaved?.totalTokens).toBe(55);
    });
  });

  it(
    'an unrelated change hits; a renamed target misses (target_changed) and is never clicked; ' +
      'locator, ignoreLocators and cache:false skip the lookup; bad settings are clear errors',
    async () => {
      await withDeckhand({ cache: { store: 'memory' } }, async (dh) => {
        await page.goto(`${servers.origin}/form.html`);
        await dh.act('click the Multi button');
        // Another control goes and a new one comes: the same call, served.
        await page.evaluate(() => {
          document.getElementById('submit')!.remove();
          document.body.insertAdjacentHTML('afterbegin', '<button type="button">Delayed</button>');
        });
        expect((await dh.act('click the Multi button')).metadata.cache).toMatchObject({ status: 'HIT' });
        expect(ms.requests).toHaveLength(1);
        expect(await clicks()).toBe(2);
        // The button at the stored selector now means something else: not replayed; computed with the model.
        await page.evaluate(() => (document.getElementById('multi')!.textContent = 'Delete account'));
        ms.script(() => ({
          object: { found: false, elementId: '', method: 'click', arguments: [], description: '', twoStep: false, reason: 'there is no Multi button' },
          usage: { input: 400, output: 30 },
        }));
        const changed = await dh.act('click the Multi button');
        expect(changed.metadata.cache).toMatchObject({ status: 'MISS', missReason: 'target_changed' });
        expect(changed.data.success).toBe(false);
        expect(await clicks()).toBe(2);
        expect(ms.requests).toHaveLength(2);
        await page.evaluate(() => (document.getElementById('multi')!.textContent = 'Multi'));
        expect((await dh.act('click the Multi button', { locator: 'body' })).metadata.cache).toEqual({ status: 'DISABLED' });
        expect((await dh.act('click the Multi button', { ignoreLocators: ['#log'] })).metadata.cache).toEqual({ status: 'DISABLED' });
        expect((await dh.act('click the Multi button', { cache: false })).metadata.cache).toEqual({ status: 'DISABLED' });
        await expect(dh.act('click the Multi button', { cache: { threshold: 0 } })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: expect.stringMatching(/threshold/),
        });
        await expect(dh.act('click the Multi button', { cache: 'yes' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      });
      await expect(Deckhand.create({ browser, cache: { threshold: -1 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await withDeckhand({}, async (dh) => {
        expect((await dh.act('click the Multi button')).metadata.cache).toEqual({ status: 'DISABLED' });
      });
    },
  );
});

describe('replay and self-heal', () => {
  it('an element that moved replays; one whose selector no longer resolves is found again by what it was, with no model call', async () => {
    await withDeckhand({ cache: { store: 'memory' } }, async (dh) => {
      await page.goto(`${servers.origin}/form.html`);
      await dh.act('click the Multi button');
      // Move it: the id-based selector still finds it; no model call.
      await page.evaluate(() => document.body.prepend(document.getElementById('multi')!));
      expect((await dh.act('click the Multi button')).metadata.cache.status).toBe('HIT');
      expect(ms.requests).toHaveLength(1);
      // Rename its id: the stored selector no longer resolves; its role, name and surroundings find it.
      await page.evaluate(() => (document.getElementById('multi')!.id = 'multi-renamed'));
      const before = await dh.metrics();
      const healed = await dh.act('click the Multi button');
      expect(healed.data.success).toBe(true);
      expect(healed.metadata.cache.status).toBe('HIT');
      expect(healed.data.message).toMatch(/self-healed/);
      expect(healed.data.actions[0].selector).toBe("//*[@id='multi-renamed']");
      expect(healed.metadata.usage.inputTokens).toBe(0);
      const after = await dh.metrics();
      expect([after.totalPromptTokens, after.totalCompletionTokens, after.totalCostUsd]).toEqual([
        before.totalPromptTokens,
        before.totalCompletionTokens,
        before.totalCostUsd,
      ]);
      expect(ms.requests).toHaveLength(1);
      // The entry was updated: the next replay goes straight to it.
      expect((await dh.act('click the Multi button')).metadata.cache.status).toBe('HIT');
      expect(ms.requests).toHaveLength(1);
      expect(await clicks()).toBe(4);
    });
  });

  it('with selfHeal on or off, a moved element found again by its recorded target is a HIT with no model call', async () => {
    for (const selfHeal of [true, false]) {
      ms.requests.length = 0;
      await withDeckhand({ cache: { store: 'memory' }, selfHeal }, async (dh) => {
        await page.goto(`${servers.origin}/form.html`);
        const first = await dh.act('click the Multi button');
        expect(first.data.actions[0].target).toMatchObject({ role: 'button', name: 'Multi' });
        await page.evaluate(() => (document.getElementById('multi')!.id = 'other-id'));
        const r = await dh.act('click the Multi button');
        expect(r.data.success).toBe(true);
        expect(r.metadata.cache.status).toBe('HIT'); // found again by its target, either way
        expect(ms.requests).toHaveLength(1);
      });
    }
  });
});

describe('the cache service and its SQLite store', () => {
  it('serves clients with apiKey/apiUrl, keeps no variable values, survives a restart, and loses nothing to concurrent writers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dh-cache-home-'));
    const env = { ...process.env, DECKHAND_HOME: home, DECKHAND_API_KEYS: 'test-key-1' };
    const start = () =>
      new Promise<{ url: string; stop: () => Promise<void> }>((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        const t = setTimeout(() => reject(new Error(`service did not start: ${out}`)), 20_000);
        p.stdout!.on('data', (d) => {
          out += d;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(t);
            resolve({
              url: m[1],
              stop: () =>
                new Promise((r) => {
                  p.once('exit', () => r());
                  p.kill('SIGTERM');
                }),
            });
          }
        });
        p.stderr!.on('data', (d) => (out += d));
      });
    let svc = await start();
    try {
      ms.script((_r, prompt) => ({
        object: {
          found: true,
          elementId: idFor(prompt, /textbox "Full name"/),
          method: 'fill',
          arguments: ['%who%'],
          description: 'Full name field',
          twoStep: false,
          reason: '',
        },
        usage: { input: 300, output: 20 },
      }));
      await page.goto(`${servers.origin}/form.html`);
      const opts = { variables: { who: 'Very Secret Name 4411' } };
      await withDeckhand({ apiKey: 'test-key-1', apiUrl: svc.url }, async (dh) => {
        expect((await dh.act('type %who% into the name field', opts)).metadata.cache.status).toBe('MISS');
      });
      await svc.stop();
      svc = await start(); // a restart: the SQLite file keeps the entry
      await withDeckhand({ apiKey: 'test-key-1', apiUrl: svc.url }, async (dh) => {
        const hit = await dh.act('type %who% into the name field', { variables: { who: 'Another Name' } });
        expect(hit.metadata.cache).toMatchObject({ status: 'HIT', count: 2 });
        expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('Another Name');
      });
      expect(ms.requests).toHaveLength(1);
      const db = readFileSync(join(home, 'cache.db')).toString('latin1') + readFileSync(join(home, 'cache.db-wal')).toString('latin1');
      expect(db).toContain('%who%');
      expect(db).not.toContain('Very Secret Name 4411');
      expect(db).not.toContain('sk-test');
      // Two writers at once: every lookup of an entry is counted.
      const a = new RemoteStore(svc.url, 'test-key-1');
      const b = new RemoteStore(svc.url, 'test-key-1');
      const key = 'k'.repeat(32);
      await a.record({
        key,
        baseKey: 'b'.repeat(32),
        op: 'extract',
        result: { v: 1 },
        usage: { inputTokens: 1, outputTokens: 1, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 1 },
      });
      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).lookup(key, 'b'.repeat(32))));
      expect((await a.lookup(key, 'b'.repeat(32))).count).toBe(42);
      // A lookup of a key with no entry adds nothing: the file cannot be grown by lookups.
      const before = (await a.lookup('m'.repeat(32), 'n'.repeat(32))).count;
      await Promise.all(Array.from({ length: 20 }, () => b.lookup('m'.repeat(32), 'n'.repeat(32))));
      expect(before).toBe(1);
      expect((await a.lookup('m'.repeat(32), 'n'.repeat(32))).count).toBe(1);
      // A wrong key is refused.
      await expect(new RemoteStore(svc.url, 'wrong').lookup(key, key)).rejects.toThrow(/401/);
    } finally {
      await svc.stop();
    }
  });

  it('the in-process service answers the documented error body', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dh-cache-home-'));
    const saved = process.env.DECKHAND_API_KEYS;
    delete process.env.DECKHAND_API_KEYS;
    const svc = await startService({ home, port: 0 });
    try {
      expect(svc.keys.generated).toMatch(/^dh_/);
      const post = (path: string, body: string, key?: string) =>
        fetch(svc.url + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(key ? { 'x-dh-api-key': key } : {}) } });
      let r = await post('/v1/cache/lookup', '{}');
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'missing or wrong x-dh-api-key' } });
      r = await post('/v1/cache/lookup', '{not json', svc.keys.generated);
      expect(r.status).toBe(400);
      r = await post('/v1/cache/lookup', JSON.stringify({ key: 'x'.repeat(20), baseKey: 'y'.repeat(20), extra: 1 }), svc.keys.generated);
      expect(r.status).toBe(400);
      expect((await r.json()).error.message).toMatch(/unknown property 'extra'/);
    } finally {
      await svc.close();
      if (saved !== undefined) process.env.DECKHAND_API_KEYS = saved;
    }
  });
});
