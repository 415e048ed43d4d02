/**
 * A real OpenAI-compatible server (llama-cpp-python with the Gemma 3 270M GGUF, test/fixtures/
 * llama.ts) driven by act, observe, extract with a schema and the agent, once per
 * structured-output mode the server takes, with nothing configured but baseURL and a model
 * name. What is asserted is the wire (what was sent, that the server took it, that an
 * abandoned call stops generating), never the tiny model's accuracy: each operation ends in a
 * result or in a typed error that shows the model's reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, localBrowser, type BrowserHandle, type Page } from '../../src';
import { startFixtureServers, type FixtureServers } from '../fixtures/server';
import { startLlamaServer, type Exchange, type LlamaServer } from '../fixtures/llama';
import { OPERATIONS } from '../../src/protocol/methods';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../src/server/service';

let llama: LlamaServer;
let servers: FixtureServers;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;

beforeAll(async () => {
  [llama, servers] = await Promise.all([startLlamaServer(), startFixtureServers()]);
  browser = await localBrowser.launch();
  dh = await Deckhand.create({ browser, model: { modelName: 'gemma-3-270m', baseURL: llama.url } });
  page = await browser.context.activePage();
}, 120_000);
afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
  await llama?.stop();
});

const PAGE = 'data:text/html,<h1>Garden shop</h1><p>Trowel: 12 EUR</p><button onclick="document.title=%27saved%27">Save</button>';

/** Runs `op`, answering its result or its typed error (the tiny model may well answer badly). */
async function outcome(op: () => Promise<unknown>): Promise<{ ok: unknown } | { error: DeckhandError }> {
  try {
    return { ok: await op() };
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(DeckhandError);
    return { error: e as DeckhandError };
  }
}

/** The chat requests made since `from`, each taken by the server and answered in full. */
function taken(from: number): Exchange[] {
  const chats = llama.exchanges.slice(from).filter((x) => x.path === '/v1/chat/completions');
  expect(chats.length).toBeGreaterThan(0);
  return chats;
}

describe('an OpenAI-compatible server with only baseURL and a model name', () => {
  it('gets Chat Completions, streamed, with the output budget, and auto settles on the shape it takes', async () => {
    await page.goto(PAGE);
    const from = llama.exchanges.length;
    const r = await outcome(() => dh.act('click the Save button', { timeout: 90_000 }));
    if ('error' in r) expect(r.error.code).toBe('MODEL_OUTPUT_INVALID');
    const chats = taken(from);
    // Strict json_schema and json_schema are refused by this server (HTTP 500 naming response_format); json_object is taken.
    expect(chats.map((x) => [x.body.response_format?.type, x.status])).toEqual([
      ['json_schema', 500],
      ['json_schema', 500],
      ['json_object', 200],
    ]);
    expect(chats[0].body.response_format.json_schema.strict).toBe(true);
    expect(chats[1].body.response_format.json_schema.strict).toBeUndefined();
    const last = chats.at(-1)!;
    expect(last.body).toMatchObject({ stream: true, max_tokens: OPERATIONS.act!.outputTokens });
    expect(last.body.response_format.schema).toMatchObject({ type: 'object' });
    // Text only: no array content for a server not declared able to read images.
    expect(typeof last.body.messages.at(-1).content).toBe('string');
    expect(last.body.messages.at(-1).content).toContain('click the Save button');
    expect(last.reply).toContain('data: ');
    // The next call starts at the shape auto settled on.
    const next = llama.exchanges.length;
    await outcome(() => dh.observe('the Save button', { timeout: 90_000 }));
    expect(taken(next).map((x) => x.body.response_format?.type)).toEqual(['json_object']);
  }, 240_000);

  it('takes an agent run and an extract in the shape auto settled on', async () => {
    await page.goto(PAGE);
    const from = llama.exchanges.length;
    const r = await outcome(() => dh.extract('the price of the trowel', PRICE, { timeout: 90_000 }));
    if ('error' in r) expect(r.error.message).toMatch(/its reply began "/);
    const run = await dh.agent().execute({ instruction: 'save the page', maxSteps: 2 });
    expect(typeof run.success).toBe('boolean');
    for (const x of taken(from)) {
      expect(x.status).toBe(200);
      expect(x.body.response_format.type).toBe('json_object');
      expect(typeof x.body.messages.at(-1).content).toBe('string');
    }
    expect(taken(from).some((x) => x.body.max_tokens === OPERATIONS['agent.run']!.outputTokens)).toBe(true);
  }, 300_000);
});

describe("a page's own tools with a real small model", () => {
  it('the prompt lists them and callTool is a method the model may answer; whatever it answers, the cart holds only a valid call', async () => {
    await page.goto(`${servers.origin}/tools.html`);
    const from = llama.exchanges.length;
    const r = await outcome(() => dh.act('add 3 of R10 to the cart', { timeout: 90_000 }));
    const last = taken(from).at(-1)!;
    expect(last.status).toBe(200);
    expect(last.body.messages.at(-1).content).toContain('- tool page_add_to_cart(sku: "R10"|"C2"|"L1" (the item code), qty?: integer (how many))');
    expect(JSON.stringify(last.body)).toContain('callTool');
    // A call the tiny model got wrong (a SKU the tool does not take) is refused before the page sees it; on a slow machine its
    // reply may not finish within the deadline (TIMEOUT), and then nothing at all reaches the page.
    const refusals = ['MODEL_OUTPUT_INVALID', 'INVALID_ARGUMENT', 'TOOL_NOT_FOUND', 'ELEMENT_NOT_FOUND', 'ACTION_FAILED', 'TIMEOUT'];
    if ('error' in r) expect(refusals).toContain(r.error.code);
    const cart = await page.evaluate(() => document.getElementById('cart')!.textContent ?? '');
    expect(cart).toMatch(/^((R10|C2|L1) × \d+)*$/);
  }, 240_000);
});

const PRICE = { type: 'object', properties: { item: { type: 'string' }, price: { type: 'number' } }, required: ['item', 'price'] };

/** What each forced shape puts on the wire. */
const SHAPES: Record<string, (body: any) => void> = {
  json_object: (b) => expect(b.response_format).toMatchObject({ type: 'json_object', schema: { type: 'object' } }),
  text: (b) => {
    expect(b.response_format).toBeUndefined();
    expect(b.messages.at(-1).content).toContain('JSON Schema');
  },
  tool: (b) => {
    expect(b.response_format).toBeUndefined();
    expect(b.tools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'answer' }) })]);
    expect(b.tool_choice).toEqual({ type: 'function', function: { name: 'answer' } });
  },
};

describe.each(Object.keys(SHAPES))('structuredOutput %s', (mode) => {
  it('act, observe, extract with a schema and the agent are each taken by the server in that shape', async () => {
    await page.goto(PAGE);
    const model = { modelName: 'gemma-3-270m', baseURL: llama.url, structuredOutput: mode as 'text' };
    const ops: [string, () => Promise<unknown>][] = [
      ['act', () => dh.act('click the Save button', { model, timeout: 60_000 })],
      ['observe', () => dh.observe('the Save button', { model, timeout: 60_000 })],
      ['extract', () => dh.extract('the price of the trowel', PRICE, { model, timeout: 60_000 })],
      ['agent', () => dh.agentExecute({ agentConfig: { model }, executeOptions: { instruction: 'save the page', maxSteps: 2 } })],
    ];
    for (const [name, op] of ops) {
      const from = llama.exchanges.length;
      const r = await outcome(op);
      // A reply that does not fit shows itself; one still going at the deadline is stopped there.
      if ('error' in r) expect(['MODEL_OUTPUT_INVALID', 'TIMEOUT'], `${name}: ${r.error.message}`).toContain(r.error.code);
      // Nothing is left generating once the operation has answered.
      await expect.poll(() => llama.exchanges.slice(from).every((x) => x.endedAt !== undefined), { timeout: 3000, message: name }).toBe(true);
      for (const x of taken(from)) {
        expect(x.status, `${name}: ${x.reply.slice(0, 300)}`).toBe(200);
        // An event stream; a slow server may send comment lines (': ping') before the first event.
        expect(x.reply.replace(/^(:[^\n]*\n+)+/, ''), name).toMatch(/^data: /);
        expect(x.body.stream, name).toBe(true);
        expect(x.body.max_tokens, name).toBeGreaterThan(0);
        SHAPES[mode](x.body);
      }
    }
  }, 420_000);
});

describe('failures and abandoned calls', () => {
  it('a shape the server refuses, when forced, is a typed error naming the path and the setting', async () => {
    await page.goto(PAGE);
    const forced = { modelName: 'g', baseURL: llama.url, structuredOutput: 'json_schema' as const };
    const e = (await outcome(() => dh.act('click Save', { model: forced }))) as { error: DeckhandError };
    expect(e.error.code).toBe('MODEL_PROVIDER_ERROR');
    expect(e.error.message).toMatch(/HTTP 500 at POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*Input should be 'text' or 'json_object'/);
    expect(e.error.message).toMatch(/set structuredOutput to 'auto' or 'json_object' or 'text'/);
    // The Responses API where the server has none: the path and the setting that fixes it.
    const responses = { modelName: 'g', baseURL: llama.url, openaiEndpointFormat: 'responses' as const };
    const r = (await outcome(() => dh.act('click Save', { model: responses }))) as { error: DeckhandError };
    expect(r.error.message).toMatch(/HTTP 404 at POST http:\/\/127\.0\.0\.1:\d+\/v1\/responses.*set openaiEndpointFormat: 'chat'/);
  }, 120_000);

  /** A schema the server's grammar makes slow to fill: a call on it runs a minute or more unless stopped. */
  const LONG = { type: 'object', properties: { items: { type: 'array', items: { type: 'string' }, minItems: 300 } }, required: ['items'] };
  const slow = () => ({ modelName: 'gemma-3-270m', baseURL: llama.url, structuredOutput: 'json_object' as const });

  /** How long the server takes to answer a one-token request right after `abandon` gave up on a long one. */
  async function nextStartsAfter(abandon: () => Promise<unknown>): Promise<number> {
    await page.goto(PAGE);
    const from = llama.exchanges.length;
    await abandon();
    // A reply that does not fit gets one retry, so the call in flight when the caller gave up is the last one.
    const calls = () => llama.exchanges.slice(from).filter((x) => x.path === '/v1/chat/completions');
    await expect.poll(() => calls().at(-1)?.abandoned, { timeout: 5000 }).toBe(true);
    expect(calls().every((x) => x.endedAt !== undefined)).toBe(true);
    const t0 = Date.now();
    const r = await fetch(`${llama.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'g', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 }),
    });
    expect(r.status).toBe(200);
    await r.text();
    return Date.now() - t0;
  }

  it('a call that runs out of its timeout stops generating on the server: the next call starts at once', async () => {
    const ms = await nextStartsAfter(async () => {
      const r = await outcome(() => dh.extract('every item', LONG, { model: slow(), timeout: 6000 }));
      expect('error' in r && r.error.code).toBe('TIMEOUT');
    });
    expect(ms).toBeLessThan(1000);
  }, 120_000);

  it('a call its caller cancels stops generating on the server too', async () => {
    const ms = await nextStartsAfter(async () => {
      const ac = new AbortController();
      // Once the server streams (past the prompt's reading, which llama.cpp-class servers finish before they look at
      // the socket, and which a busy machine may take longer than any fixed wait over).
      const from = llama.exchanges.length;
      const generating = setInterval(() => {
        if (llama.exchanges.slice(from).some((x) => x.path === '/v1/chat/completions' && x.firstByteAt !== undefined)) ac.abort();
      }, 50);
      const latest = setTimeout(() => ac.abort(), 60_000);
      try {
        const r = await outcome(() => dh.extract('every item', LONG, { model: slow(), timeout: 90_000, signal: ac.signal }));
        expect('error' in r && r.error.code).toBe('CANCELLED');
      } finally {
        clearInterval(generating);
        clearTimeout(latest);
      }
    });
    expect(ms).toBeLessThan(1000);
  }, 120_000);
});

describe('the HTTP service', () => {
  it("the operator's server through OPENAI_BASE_URL, and a caller's own with a placeholder key", async () => {
    const env = { ...process.env };
    process.env.DECKHAND_API_KEYS = 'model-server-test-key';
    process.env.OPENAI_BASE_URL = llama.url;
    process.env.OPENAI_API_KEY = 'none';
    const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-llama-')), port: 0 });
    const call = async (path: string, body: unknown) => {
      const headers = { 'content-type': 'application/json', 'x-dh-api-key': 'model-server-test-key' };
      const r = await fetch(svc.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as { data?: any; error?: { code: string; message: string } } };
    };
    try {
      const s = await call('/v1/sessions/start', { model: 'openai/gemma-3-270m' });
      expect(s.status, JSON.stringify(s.body)).toBe(200);
      const id = s.body.data.sessionId as string;
      await call(`/v1/sessions/${id}/navigate`, { url: PAGE });
      for (const model of [undefined, { modelName: 'gemma-3-270m', baseURL: llama.url, apiKey: 'none', structuredOutput: 'text' }]) {
        const from = llama.exchanges.length;
        const r = await call(`/v1/sessions/${id}/act`, { input: 'click the Save button', timeout: 90_000, ...(model ? { model } : {}) });
        if (r.status !== 200) expect(['MODEL_OUTPUT_INVALID', 'TIMEOUT']).toContain(r.body.error!.code);
        const last = taken(from).at(-1)!;
        expect(last.status).toBe(200);
        expect(last.body.stream).toBe(true);
        expect(last.body.response_format?.type).toBe(model ? undefined : 'json_object');
      }
      await call(`/v1/sessions/${id}/end`, {});
    } finally {
      await svc.close();
      process.env = env;
    }
  }, 240_000);
});
