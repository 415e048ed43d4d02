/** What model calls cost: the list prices, a caller's own prices (checked), the arithmetic, and a cache hit's saving. */
import { describe, expect, it } from 'vitest';
import {
  costOf,
  findPrice,
  LISTED_PRICES,
  ModelPriceSchema,
  parsePrices,
  priceNames,
  priceOf,
  PRICES_LISTED,
  usageCost,
  type ModelPrice,
} from '../../src/protocol/prices';
import { GenericModelConfigSchema, KNOWN_PROVIDERS, ResolvedModelSchema, type ResolvedModel } from '../../src/protocol/model';
import { CallbackRegistry, resolveModel, withPrice } from '../../src/client/models';
import { Deckhand } from '../../src/client/deckhand';
import { DeckhandError } from '../../src/protocol/errors';
import { runCached, type CachedRun } from '../../src/engine/memory/cache';
import { forTenant, MemoryStore } from '../../src/client/cache/store';
import type { CacheInfo, Usage } from '../../src/protocol/schemas';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0, inferenceTimeMs = 10): Usage => ({
  inputTokens,
  outputTokens,
  reasoningTokens: 0,
  cachedInputTokens,
  inferenceTimeMs,
});
const provider = (name: string, price?: ModelPrice): ResolvedModel => {
  const [p, ...id] = name.split('/');
  return { kind: 'provider', name, provider: p as 'openai', modelId: id.join('/'), ...(price ? { price } : {}) };
};
const callback = (name: string, price?: ModelPrice): ResolvedModel => ({ kind: 'callback', name, callbackId: 'cb-1', ...(price ? { price } : {}) });
const LOCAL: ResolvedModel = { kind: 'local', name: 'deckhand/local' };

function invalid(fn: () => unknown): DeckhandError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DeckhandError);
    expect((e as DeckhandError).code).toBe('INVALID_ARGUMENT');
    return e as DeckhandError;
  }
  throw new Error('expected INVALID_ARGUMENT');
}

describe('the arithmetic', () => {
  it('input not read from the cache at the input price, cached input at its own, output at the output price', () => {
    const price = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
    // (800 × 2 + 200 × 0.5 + 100 × 8) / 1e6
    expect(usageCost(usage(1000, 100, 200), price)).toBe(0.0025);
    expect(usageCost(usage(1_000_000, 0), price)).toBe(2);
    expect(usageCost(usage(0, 1_000_000), price)).toBe(8);
    expect(usageCost(usage(1_000_000, 0, 1_000_000), price)).toBe(0.5);
  });

  it('cached input is priced as input when the price gives no cached rate; counts never go negative', () => {
    expect(usageCost(usage(1000, 0, 400), { inputPerMTok: 3, outputPerMTok: 15 })).toBe(0.003);
    // A callback that says more was cached than was sent: at most the input is cached.
    expect(usageCost(usage(100, 0, 500), { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 1 })).toBe(0.0001);
    expect(usageCost(usage(-5, -5, -5), { inputPerMTok: 3, outputPerMTok: 15 })).toBe(0);
  });

  it('results read as written, with no binary fractions left over', () => {
    // 120 × 0.40 + 12 × 1.60 per million: the gpt-4.1-mini list price.
    expect(usageCost(usage(120, 12), LISTED_PRICES['openai/gpt-4.1-mini'])).toBe(0.0000672);
    expect(usageCost(usage(321, 12, 100), LISTED_PRICES['openai/gpt-4.1-mini'])).toBe(0.0001176);
  });
});

describe('which price a call is priced at', () => {
  it('the built-in model is free; a provider model without a price of its own takes its list price', () => {
    expect(priceOf(LOCAL)).toEqual({ inputPerMTok: 0, outputPerMTok: 0, cachedInputPerMTok: 0 });
    expect(costOf(usage(5000, 500), LOCAL)).toBe(0);
    expect(priceOf(provider('openai/gpt-4.1-mini'))).toEqual({ inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 });
    expect(costOf(usage(1_000_000, 1_000_000, 500_000), provider('anthropic/claude-sonnet-4-5'))).toBe(16.65);
  });

  it('unknown is not free: a callback, or a model no list has, has no cost (undefined)', () => {
    expect(costOf(usage(100, 10), callback('myModel'))).toBeUndefined();
    expect(costOf(usage(100, 10), provider('openai-compatible/llama-3-70b'))).toBeUndefined();
    expect(costOf(usage(100, 10), provider('azure/my-deployment'))).toBeUndefined();
    expect(costOf(usage(100, 10), provider('openai/gpt-from-the-future'))).toBeUndefined();
  });

  it('usage with no model work in it costs nothing, whatever the model (a replay that healed nothing)', () => {
    expect(costOf(usage(0, 0, 0, 0), callback('myModel'))).toBe(0);
    expect(costOf(usage(0, 0, 0, 0), provider('azure/my-deployment'))).toBe(0);
    // Time spent is model work: a callback that reported no tokens is still of unknown cost.
    expect(costOf(usage(0, 0, 0, 12), callback('myModel'))).toBeUndefined();
  });

  it("the caller's own price wins over the list price, and prices a callback", () => {
    const own = { inputPerMTok: 1, outputPerMTok: 2 };
    expect(costOf(usage(1_000_000, 1_000_000), provider('openai/gpt-4.1-mini', own))).toBe(3);
    expect(costOf(usage(1_000_000, 0), callback('my-llm', own))).toBe(1);
  });

  it('names: as given, provider in lower case, without a snapshot date; Vertex Gemini at the Gemini API price', () => {
    expect(priceNames('OpenAI/gpt-4.1-mini-2025-04-14')).toEqual(['OpenAI/gpt-4.1-mini-2025-04-14', 'openai/gpt-4.1-mini-2025-04-14', 'openai/gpt-4.1-mini']);
    expect(findPrice('openai/gpt-4.1-mini-2025-04-14', LISTED_PRICES)).toBe(LISTED_PRICES['openai/gpt-4.1-mini']);
    expect(findPrice('anthropic/claude-sonnet-4-5-20250929', LISTED_PRICES)).toBe(LISTED_PRICES['anthropic/claude-sonnet-4-5']);
    expect(findPrice('anthropic/claude-haiku-4-5-20251001', LISTED_PRICES)).toBe(LISTED_PRICES['anthropic/claude-haiku-4-5']);
    expect(findPrice('vertex/gemini-2.5-flash', LISTED_PRICES)).toBe(LISTED_PRICES['google/gemini-2.5-flash']);
    expect(findPrice('google/gemini-2.5-flash-preview', LISTED_PRICES)).toBeUndefined();
    expect(priceNames('my-llm')).toEqual(['my-llm']);
  });

  it('the list: one entry per real model of a supported provider, with a date; cached input never dearer than input', () => {
    expect(PRICES_LISTED).toMatch(/^\d{4}-\d{2}$/);
    const providers = new Set<string>(KNOWN_PROVIDERS);
    expect(Object.keys(LISTED_PRICES).length).toBeGreaterThan(20);
    for (const [name, price] of Object.entries(LISTED_PRICES)) {
      expect(name).toMatch(/^[a-z]+\/[a-z0-9.-]+$/);
      expect(providers.has(name.split('/')[0]), name).toBe(true);
      expect(ModelPriceSchema.parse(price)).toEqual(price);
      expect(price.outputPerMTok, name).toBeGreaterThanOrEqual(price.inputPerMTok);
      if (price.cachedInputPerMTok !== undefined) expect(price.cachedInputPerMTok, name).toBeLessThanOrEqual(price.inputPerMTok);
    }
    // The models Deckhand picks by default when a provider's key is set are all priced.
    for (const m of ['openai/gpt-4.1-mini', 'anthropic/claude-sonnet-4-5', 'google/gemini-2.5-flash']) expect(LISTED_PRICES[m], m).toBeDefined();
  });
});

describe("a caller's own prices", () => {
  it('are checked: INVALID_ARGUMENT naming the entry and the field at fault', () => {
    expect(parsePrices({ 'openai/gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 } })).toEqual({
      'openai/gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
    });
    expect(parsePrices({})).toEqual({});
    let e = invalid(() => parsePrices({ 'openai/gpt-4.1-mini': { inputPerMTok: -1, outputPerMTok: 1.6 } }));
    const said = [
      /^invalid prices: "openai\/gpt-4\.1-mini"\.inputPerMTok: must not be negative /,
      /\(give each model as \{ inputPerMTok, outputPerMTok, cachedInputPerMTok\? \}/,
    ];
    expect(e.message).toMatch(new RegExp(said.map((r) => r.source).join('')));
    e = invalid(() => parsePrices({ ok: { inputPerMTok: 1, outputPerMTok: 1 }, 'anthropic/claude-haiku-4-5': { inputPerMTok: '1', outputPerMTok: 5 } }));
    expect(e.message).toMatch(/"anthropic\/claude-haiku-4-5"\.inputPerMTok: Expected number, received string/);
    expect(e.message).not.toMatch(/"ok"/);
    e = invalid(() => parsePrices({ 'openai/o3': { inputPerMTok: 2 } }));
    expect(e.message).toMatch(/"openai\/o3"\.outputPerMTok: Required/);
    e = invalid(() => parsePrices({ 'openai/o3': { inputPerMTok: 2, outputPerMTok: 8, input: 2 } }));
    expect(e.message).toMatch(/"openai\/o3": unknown property 'input'/);
    e = invalid(() => parsePrices({ 'openai/o3': { inputPerMTok: Infinity, outputPerMTok: 8 } }));
    expect(e.message).toMatch(/"openai\/o3"\.inputPerMTok: /);
    e = invalid(() => parsePrices(['openai/o3']));
    expect(e.message).toMatch(/^invalid prices: prices: Expected object, received array/);
    e = invalid(() => parsePrices({ '  ': { inputPerMTok: 1, outputPerMTok: 1 } }, 'prices in /etc/deckhand/prices.json'));
    expect(e.message).toMatch(/^invalid prices in \/etc\/deckhand\/prices\.json: .*a model name must not be empty/);
  });

  it('Deckhand.create checks them before it needs a browser', () => {
    const e = invalid(() => Deckhand.checkOptions({ prices: { 'openai/gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 'cheap' } } as never }));
    expect(e.message).toMatch(/"openai\/gpt-4\.1-mini"\.outputPerMTok: Expected number, received string/);
    expect(() => Deckhand.checkOptions({ prices: { 'openai/gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 } } })).not.toThrow();
  });

  it('travel with the resolved model, by name; the built-in model takes none; the worker accepts what is sent', () => {
    const prices = {
      'openai/gpt-4.1-mini': { inputPerMTok: 1, outputPerMTok: 2 },
      'my-llm': { inputPerMTok: 3, outputPerMTok: 4 },
      'deckhand/local': { inputPerMTok: 9, outputPerMTok: 9 },
    };
    const env = { OPENAI_API_KEY: 'sk-env' };
    const registry = new CallbackRegistry();
    const dated = withPrice(resolveModel('openai/gpt-4.1-mini-2025-04-14', registry, env), prices);
    expect(dated).toMatchObject({ kind: 'provider', name: 'openai/gpt-4.1-mini-2025-04-14', price: { inputPerMTok: 1, outputPerMTok: 2 } });
    expect(ResolvedModelSchema.parse(dated)).toEqual(dated);
    const cb = withPrice(resolveModel({ callback: () => ({ object: {} }), modelName: 'my-llm' }, registry, env), prices);
    expect(cb).toMatchObject({ kind: 'callback', name: 'my-llm', price: { inputPerMTok: 3, outputPerMTok: 4 } });
    expect(ResolvedModelSchema.parse(cb)).toEqual(cb);
    expect(withPrice(resolveModel('deckhand/local', registry, env), prices)).toEqual({ kind: 'local', name: 'deckhand/local' });
    // Not named: no price of its own (the engine uses the list price, if any).
    expect(withPrice(resolveModel('openai/gpt-4.1', registry, env), prices)).not.toHaveProperty('price');
    expect(withPrice(resolveModel('openai/gpt-4.1', registry, env), undefined)).not.toHaveProperty('price');
  });

  it('cannot come from a remote caller: a model configuration has no price field', () => {
    const r = GenericModelConfigSchema.safeParse({ modelName: 'openai/gpt-4.1-mini', price: { inputPerMTok: 0, outputPerMTok: 0 } });
    expect(r.success).toBe(false);
  });
});

describe('a cache hit', () => {
  const stored: Usage = { inputTokens: 1000, outputTokens: 100, reasoningTokens: 0, cachedInputTokens: 200, inferenceTimeMs: 50 };
  const run = (costOf?: CachedRun<{ cache?: CacheInfo }>['costOf'], hits: CacheInfo[] = []): CachedRun<{ cache?: CacheInfo }> => ({
    op: 'act',
    keyParts: async () => ({ instruction: 'click the Multi button', url: 'https://a.test/', fingerprint: 'f1', variableNames: [], screenshot: false }),
    compute: async () => ({}),
    replay: async () => ({ result: {} }),
    cacheable: () => ['#multi'],
    usageOf: () => stored,
    withCache: (r, cache) => ({ ...r, cache }),
    costOf,
    onHit: (info) => void hits.push(info),
  });
  const setting = { threshold: 1, selfHeal: true, store: 'caller' as const };

  it("reports the stored usage priced at the current model's price, and tells the engine what it saved", async () => {
    const store = forTenant(new MemoryStore(), 't');
    const hits: CacheInfo[] = [];
    const price = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
    const miss = await runCached(
      store,
      setting,
      run((u) => usageCost(u, price), hits),
    );
    expect(miss.cache).not.toHaveProperty('costSavedUsd');
    expect(hits).toEqual([]);
    const hit = await runCached(
      store,
      setting,
      run((u) => usageCost(u, price), hits),
    );
    expect(hit.cache).toEqual({
      status: 'HIT',
      count: 2,
      threshold: 1,
      tokensSaved: { inputTokens: 1000, outputTokens: 100, totalTokens: 1100 },
      costSavedUsd: 0.0025,
    });
    expect(hits).toEqual([hit.cache]);
  });

  it('has no costSavedUsd when the price is unknown', async () => {
    const store = forTenant(new MemoryStore(), 't');
    await runCached(
      store,
      setting,
      run(() => undefined),
    );
    const hit = await runCached(
      store,
      setting,
      run(() => undefined),
    );
    expect(hit.cache).toEqual({ status: 'HIT', count: 2, threshold: 1, tokensSaved: { inputTokens: 1000, outputTokens: 100, totalTokens: 1100 } });
  });
});
