/**
 * Cost you can see: each result's metadata.costUsd, what a cache hit saved, and the cost
 * counters of metrics(), against the scripted model server with known usage (the real
 * @ai-sdk/openai provider), a caller's own prices, the list prices, callbacks and the
 * built-in model. A browser of its own, so its counters start at zero.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { LISTED_PRICES, usageCost } from '../../src/protocol/prices';
import type { Metrics } from '../../src/protocol/schemas';
import type { ModelRequest } from '../../src/protocol/model';
import { startFixtureServers } from '../fixtures/server';
import { idFor, startModelServer, type ModelServer } from '../fixtures/model-server';
import { stopWorker } from './harness';

/** The caller's own price for the scripted model (USD per million tokens). */
const OWN = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let ms: ModelServer;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;

beforeAll(async () => {
  servers = await startFixtureServers();
  ms = await startModelServer();
  browser = await localBrowser.launch();
  dh = await Deckhand.create({
    browser,
    model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test', baseURL: ms.url },
    cache: { store: 'memory', enabled: false },
    prices: { 'openai/gpt-4.1-mini': OWN, 'my-llm': { inputPerMTok: 100, outputPerMTok: 1000 } },
  });
  page = await browser.context.activePage();
});
afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
  await ms?.close();
});
beforeEach(async () => {
  ms.requests.length = 0;
  await page.goto(`${servers.origin}/form.html`);
});

const click = (pattern: RegExp, usage: { input: number; output: number; cached?: number }) => (_r: unknown, prompt: string) => ({
  object: { found: true, elementId: idFor(prompt, pattern), method: 'click', arguments: [], description: `the ${pattern.source}`, twoStep: false, reason: '' },
  usage,
});
/** How each counter moved since `before`. */
const moved = (before: Metrics, after: Metrics) =>
  Object.fromEntries(
    Object.entries(after)
      .filter(([k, v]) => v !== before[k as keyof Metrics])
      .map(([k, v]) => [k, Math.round((v - before[k as keyof Metrics]) * 1e12) / 1e12]),
  );

describe('cost you can see', () => {
  it("each result says what it cost at the caller's price; metrics() add it up per operation and in total, and keep it when the worker stops", async () => {
    expect(await dh.metrics()).toMatchObject({ totalCostUsd: 0, totalCacheSavedCostUsd: 0, totalCacheSavedTokens: 0 });

    ms.script(click(/button "Multi"/, { input: 1000, output: 100, cached: 200 }));
    const act = await dh.act('click the Multi button');
    expect(act.data.success).toBe(true);
    expect(act.metadata.usage).toMatchObject({ inputTokens: 1000, outputTokens: 100, cachedInputTokens: 200 });
    // 800 × 2 + 200 × 0.5 + 100 × 8 per million.
    expect(act.metadata.costUsd).toBe(0.0025);

    ms.script((_r, prompt) => ({
      object: { elements: [{ elementId: idFor(prompt, /button "Reset"/), description: 'Reset', method: 'click', arguments: [] }] },
      usage: { input: 3000, output: 50 },
    }));
    const obs = await dh.observe('the reset button');
    expect(obs.metadata.costUsd).toBe(0.0064); // 3000 × 2 + 50 × 8

    ms.script({ object: { extraction: 'Sign up' }, usage: { input: 500, output: 250, cached: 500 } });
    const ext = await dh.extract('the page heading');
    expect(ext.data).toEqual({ extraction: 'Sign up' });
    expect(ext.metadata.costUsd).toBe(0.00225); // 500 × 0.5 + 250 × 8

    const m = await dh.metrics();
    expect(m).toMatchObject({ actCostUsd: 0.0025, observeCostUsd: 0.0064, extractCostUsd: 0.00225, totalCostUsd: 0.01115 });
    expect(m).toMatchObject({ actPromptTokens: 1000, observePromptTokens: 3000, extractPromptTokens: 500, totalCacheSavedCostUsd: 0 });

    // A model the caller did not price: its list price.
    ms.script(click(/button "Multi"/, { input: 1000, output: 100 }));
    const nano = await dh.act('click the Multi button', { model: { modelName: 'openai/gpt-4.1-nano', apiKey: 'sk-test', baseURL: ms.url } });
    expect(nano.metadata.costUsd).toBe(usageCost(nano.metadata.usage, LISTED_PRICES['openai/gpt-4.1-nano']));
    expect(nano.metadata.costUsd).toBe(0.00014); // 1000 × 0.10 + 100 × 0.40

    // An Action calls no model: free. An act that found nothing reports its cost, and (like its tokens) it does not count.
    const before = await dh.metrics();
    expect((await dh.act({ selector: '#multi', description: 'Multi', method: 'click' })).metadata.costUsd).toBe(0);
    ms.script({
      object: { found: false, elementId: '', method: 'click', arguments: [], description: '', twoStep: false, reason: 'there is no delete button' },
      usage: { input: 1000, output: 0 },
    });
    const nope = await dh.act('click the delete account button');
    expect(nope.data.success).toBe(false);
    expect(nope.metadata.costUsd).toBe(0.002);
    const after = await dh.metrics();
    expect(after).toEqual(before);
    expect(after.totalCostUsd).toBe(0.01129);

    // The counters outlive a stopped worker, dollars included.
    await stopWorker(browser);
    expect(await dh.metrics()).toEqual(after);
  });

  it("a cache hit costs nothing and says what it saved, at the current model's price; metrics() count the saving apart", async () => {
    ms.script(click(/button "Multi"/, { input: 1200, output: 80 }));
    const before = await dh.metrics();
    const first = await dh.act('click the Multi button', { cache: true });
    expect(first.metadata.cache).toMatchObject({ status: 'MISS' });
    expect(first.metadata.costUsd).toBe(0.00304); // 1200 × 2 + 80 × 8
    const spent = await dh.metrics();
    expect(moved(before, spent)).toMatchObject({ actCostUsd: 0.00304, totalCostUsd: 0.00304 });

    const second = await dh.act('click the Multi button', { cache: true });
    expect(second.data.success).toBe(true);
    expect(second.metadata.cache).toEqual({
      status: 'HIT',
      count: 2,
      threshold: 1,
      tokensSaved: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280 },
      costSavedUsd: 0.00304,
    });
    expect(second.metadata.usage.inputTokens).toBe(0);
    expect(second.metadata.costUsd).toBe(0);
    expect(ms.requests).toHaveLength(1); // the hit made no model call
    const saved = await dh.metrics();
    expect(moved(spent, saved)).toEqual({
      actCacheSavedTokens: 1280,
      totalCacheSavedTokens: 1280,
      actCacheSavedCostUsd: 0.00304,
      totalCacheSavedCostUsd: 0.00304,
    });

    // The same entry served to a call with another model: the saving is at that model's price.
    const third = await dh.act('click the Multi button', { cache: true, model: { modelName: 'openai/gpt-4.1-nano', apiKey: 'sk-test', baseURL: ms.url } });
    expect(third.metadata.cache).toMatchObject({ status: 'HIT', costSavedUsd: 0.000152 }); // 1200 × 0.10 + 80 × 0.40
    const local = await dh.act('click the Multi button', { cache: true, model: 'deckhand/local' });
    expect(local.metadata.cache).toMatchObject({ status: 'HIT', costSavedUsd: 0 });
    expect(moved(saved, await dh.metrics())).toEqual({
      actCacheSavedTokens: 2560,
      totalCacheSavedTokens: 2560,
      actCacheSavedCostUsd: 0.000152,
      totalCacheSavedCostUsd: 0.000152,
    });
    expect(ms.requests).toHaveLength(1);
  });

  it("a callback's cost is unknown (absent, not 0) unless priced by its name; the built-in model costs 0", async () => {
    const generate = (req: ModelRequest) => ({
      object: click(/button "Multi"/, { input: 0, output: 0 })(null, req.prompt).object,
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const before = await dh.metrics();
    const unpriced = await dh.act('click the Multi button', { model: generate });
    expect(unpriced.data.success).toBe(true);
    expect(unpriced.metadata.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(unpriced.metadata).not.toHaveProperty('costUsd');
    // Its tokens count; no dollars do.
    const d = moved(before, await dh.metrics());
    expect(d).toMatchObject({ actPromptTokens: 10, actCompletionTokens: 5, totalPromptTokens: 10 });
    expect(Object.keys(d).filter((k) => k.endsWith('Usd'))).toEqual([]);

    const priced = await dh.act('click the Multi button', { model: { modelName: 'my-llm', callback: generate } });
    expect(priced.metadata.costUsd).toBe(0.006); // 10 × 100 + 5 × 1000

    const local = await dh.act('click the Multi button', { model: 'deckhand/local' });
    expect(local.data.success).toBe(true);
    expect(local.metadata.costUsd).toBe(0);
  });

  it("an agent run's metadata.costUsd adds up its model calls, each at its own model's price", async () => {
    const step = (tool: string, args: Record<string, unknown>) => ({
      object: {
        reasoning: `next: ${tool}`,
        tool,
        instruction: null,
        url: null,
        direction: null,
        ms: null,
        keys: null,
        x: null,
        y: null,
        text: null,
        toX: null,
        toY: null,
        query: null,
        answer: null,
        success: null,
        taskCompleted: tool === 'done',
        ...args,
      },
      usage: { input: 50, output: 10 },
    });
    ms.script(step('act', { instruction: 'click the Multi button' }), step('done', { answer: 'clicked it', success: true }));
    const before = await dh.metrics();
    const r = await dh.agentExecute({
      agentConfig: { model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test', baseURL: ms.url }, executionModel: 'deckhand/local' },
      executeOptions: { instruction: 'click the Multi button, then stop' },
    });
    expect(r.result).toMatchObject({ success: true, completed: true });
    expect(ms.requests).toHaveLength(2);
    // Two planner calls at the caller's price (50 × 2 + 10 × 8 each); the built-in model's act is free.
    expect(r.result.metadata?.costUsd).toBe(0.00036);
    expect(moved(before, await dh.metrics())).toMatchObject({ actCostUsd: 0.00036, totalCostUsd: 0.00036 });
  });
});
