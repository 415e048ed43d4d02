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
    expect(chats.map((x) => [x.body.response_format?.type, x.status])).toEqual([['json_schema', 500], ['json_schema', 500], ['json_object', 200]]);
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
});
