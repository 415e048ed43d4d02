/** The engine's cache policy against the store port, with the in-memory store: thresholds, miss reasons, self-heal. */
import { describe, expect, it } from 'vitest';
import { cacheKeys, cacheUrl, ContentChanged, runCached, type CachedRun } from '../../src/engine/memory/cache';
import { TargetChanged } from '../../src/engine/memory/targets';
import { ReplayFailed } from '../../src/engine/memory/replay';
import { forTenant, MemoryStore } from '../../src/client/cache/store';
import type { CacheInfo, CacheRun, Usage } from '../../src/protocol/schemas';
import { cacheForCall } from '../../src/protocol/cache';

const usage: Usage = { inputTokens: 400, outputTokens: 30, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 5 };
interface R {
  data: string[];
  cache?: CacheInfo;
  healed?: boolean;
}

/** One act-like call on a page with `fingerprint`; `replay` decides what a hit does. */
function call(
  page: { fingerprint: string; computes: number },
  replay: CachedRun<R>['replay'] = async (e) => ({ result: { data: e.result as string[] } }),
): CachedRun<R> {
  return {
    op: 'act',
    keyParts: async () => ({ instruction: 'click the Multi button', url: 'https://a.test/', variableNames: [], screenshot: false }),
    compute: async () => {
      page.computes++;
      return { data: [`#multi-${page.fingerprint}`] };
    },
    replay,
    cacheable: (r) => (r.data.length ? r.data : undefined),
    usageOf: () => usage,
    withCache: (r, cache) => ({ ...r, cache }),
  };
}
const setting = (threshold = 1, selfHeal = true): CacheRun => ({ threshold, selfHeal, store: 'caller' });

describe('the cache policy', () => {
  it('no setting or no store: DISABLED, computed, nothing stored', async () => {
    const store = forTenant(new MemoryStore(), 't');
    const page = { fingerprint: 'f1', computes: 0 };
    expect((await runCached(store, undefined, call(page))).cache).toEqual({ status: 'DISABLED' });
    expect((await runCached(null, setting(), call(page))).cache).toEqual({ status: 'DISABLED' });
    expect((await runCached(store, setting(), call(page))).cache).toMatchObject({ status: 'MISS', missReason: 'not_found', count: 1 });
    expect(page.computes).toBe(3);
  });

  it('threshold n: n agreeing results before the first hit; a hit reports what it saved', async () => {
    const store = forTenant(new MemoryStore(), 't');
    const page = { fingerprint: 'f1', computes: 0 };
    const infos = [];
    for (let i = 0; i < 4; i++) infos.push((await runCached(store, setting(3), call(page))).cache);
    expect(infos).toEqual([
      { status: 'MISS', count: 1, threshold: 3, missReason: 'not_found' },
      { status: 'MISS', count: 2, threshold: 3, missReason: 'below_threshold' },
      { status: 'MISS', count: 3, threshold: 3, missReason: 'below_threshold' },
      { status: 'HIT', count: 4, threshold: 3, tokensSaved: { inputTokens: 400, outputTokens: 30, totalTokens: 430 } },
    ]);
    expect(page.computes).toBe(3);
  });

  it('a result that disagrees starts the count over; an uncacheable result stores nothing', async () => {
    const store = forTenant(new MemoryStore(), 't');
    const page = { fingerprint: 'f1', computes: 0 };
    await runCached(store, setting(2), call(page));
    const other = { ...call(page), compute: async () => ({ data: ['#elsewhere'] }) };
    await runCached(store, setting(2), other);
    expect((await runCached(store, setting(2), call(page))).cache).toMatchObject({ status: 'MISS', missReason: 'below_threshold' });
    const failed = {
      ...call(page),
      keyParts: async () => ({ ...(await call(page).keyParts()), instruction: 'nothing here' }),
      compute: async () => ({ data: [] }),
    };
    await runCached(store, setting(), failed);
    expect((await runCached(store, setting(), failed)).cache).toMatchObject({ status: 'MISS', missReason: 'not_found' });
  });

  it("the page's content is not part of the key: what the replay finds decides (target_changed, content_changed)", async () => {
    const store = forTenant(new MemoryStore(), 't');
    const page = { fingerprint: 'f1', computes: 0 };
    await runCached(store, setting(), call(page));
    // Another version of the page: the same key, served.
    expect((await runCached(store, setting(), call({ fingerprint: 'f2', computes: 0 }))).cache).toMatchObject({ status: 'HIT' });
    const gone = call(page, async () => {
      throw new TargetChanged('button "Multi" is no longer on the page', 'gone');
    });
    expect((await runCached(store, setting(), gone)).cache).toMatchObject({ status: 'MISS', missReason: 'target_changed' });
    const changed = call(page, async () => {
      throw new ContentChanged('the part of the page the data came from has changed');
    });
    expect((await runCached(store, setting(), changed)).cache).toMatchObject({ status: 'MISS', missReason: 'content_changed' });
    expect(page.computes).toBe(3);
  });

  it('cacheUrl: sorted query, tracking parameters and non-route fragments dropped', () => {
    expect(cacheUrl('https://Shop.Test/p?b=2&utm_source=news&a=1&gclid=x#reviews')).toBe('https://shop.test/p?a=1&b=2');
    expect(cacheUrl('https://shop.test/p?fbclid=1&msclkid=2&_ga=3')).toBe('https://shop.test/p');
    expect(cacheUrl('https://shop.test/')).toBe(cacheUrl('https://shop.test/?utm_campaign=x#top'));
    expect(cacheUrl('https://shop.test/app#/cart')).toBe('https://shop.test/app#/cart');
    expect(cacheUrl('https://shop.test/app#!/cart')).not.toBe(cacheUrl('https://shop.test/app#!/orders'));
    expect(cacheUrl('https://shop.test/p?id=1')).not.toBe(cacheUrl('https://shop.test/p?id=2'));
    expect(cacheUrl('not a url')).toBe('not a url');
  });

  it('self-heal: a healed replay is a HIT and replaces the entry without counting as agreement', async () => {
    const mem = new MemoryStore();
    const store = forTenant(mem, 't');
    const page = { fingerprint: 'f1', computes: 0 };
    await runCached(store, setting(), call(page));
    const healed = await runCached(
      store,
      setting(),
      call(page, async () => ({ result: { data: ['#renamed'], healed: true }, healed: ['#renamed'] })),
    );
    expect(healed).toMatchObject({ data: ['#renamed'], healed: true, cache: { status: 'HIT', count: 2 } });
    const { key, baseKey } = await cacheKeys({ op: 'act', ...(await call(page).keyParts()) });
    expect((await store.lookup(key, baseKey)).entry).toMatchObject({ result: ['#renamed'], agree: 1, usage });
    expect(page.computes).toBe(1);
  });

  it('a replay that fails is a MISS (replay_failed): the entry is dropped and the computed result stored', async () => {
    const store = forTenant(new MemoryStore(), 't');
    const page = { fingerprint: 'f1', computes: 0 };
    await runCached(store, setting(), call(page));
    const broken = call(page, async () => {
      throw new ReplayFailed('step "Multi button" failed');
    });
    expect((await runCached(store, setting(), broken)).cache).toEqual({ status: 'MISS', count: 2, threshold: 1, missReason: 'replay_failed' });
    expect(page.computes).toBe(2);
    // The entry starts afresh from the computed result.
    expect((await runCached(store, setting(), call(page))).cache).toMatchObject({ status: 'HIT', count: 2 });
    // Other errors of a replay are the operation's own.
    await expect(
      runCached(
        store,
        setting(),
        call(page, async () => {
          throw new Error('page closed');
        }),
      ),
    ).rejects.toThrow('page closed');
  });

  it("keys: no variable values, nothing of the page's content, SHA-256 hex of the call", async () => {
    const a = await cacheKeys({ op: 'act', instruction: ' type %who% ', url: 'u', variableNames: ['who'], screenshot: false });
    const b = await cacheKeys({ op: 'act', instruction: 'type %who%', url: 'u', variableNames: ['who'], screenshot: false });
    const c = await cacheKeys({ op: 'observe', instruction: 'type %who%', url: 'u', variableNames: ['who'], screenshot: false });
    expect(a.key).toMatch(/^[0-9a-f]{64}$/);
    expect(a.key).toBe(b.key);
    expect(a.baseKey).toBe(a.key);
    expect(c.key).not.toBe(a.key);
    const { createHash } = await import('node:crypto');
    const base = { v: 2, op: 'act', instruction: 'type %who%', url: 'u', schema: null, vars: ['who'], screenshot: false };
    expect(a.key).toBe(createHash('sha256').update(JSON.stringify(base)).digest('hex'));
  });
});

describe("a call's cache option over its instance's (the library and batch callbacks alike)", () => {
  const base = setting(2, false);
  it('no option follows the instance; false opts out; true or { threshold } opt in even when the instance is off by default', () => {
    expect(cacheForCall(base, true, undefined)).toEqual(base);
    expect(cacheForCall(base, false, undefined)).toBeUndefined();
    expect(cacheForCall(base, true, false)).toBeUndefined();
    expect(cacheForCall(base, false, true)).toEqual(base);
    expect(cacheForCall(base, false, { threshold: 5 })).toEqual({ ...base, threshold: 5 });
  });
  it('no store: nothing to look up whatever the call asks', () => {
    expect(cacheForCall(undefined, true, true)).toBeUndefined();
  });
  it('a malformed option is INVALID_ARGUMENT naming the field, store or not', () => {
    expect(() => cacheForCall(undefined, true, { threshold: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('threshold') }),
    );
    expect(() => cacheForCall(base, true, 'yes')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
