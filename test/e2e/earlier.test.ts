/** The earlier calls: deckhand.agent() with custom tools and an MCP integration, and page.extract() in its three forms. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { useBrowser } from './harness';

const h = useBrowser();
let ms: ModelServer;
let mcpHttp: Server;
let mcpUrl: string;
const priceCalls: unknown[] = [];

beforeAll(async () => {
  ms = await startModelServer();
  // An MCP server of the test's own, whose tool the agent calls.
  const transports = new Map<string, StreamableHTTPServerTransport>();
  mcpHttp = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sid = req.headers['mcp-session-id'] as string | undefined;
    let t = sid ? transports.get(sid) : undefined;
    if (!t) {
      const server = new McpServer({ name: 'prices', version: '1.0.0' });
      server.registerTool('lookup_price', { description: 'The price of a product by name', inputSchema: { product: z.string() } }, async ({ product }) => {
        priceCalls.push(product);
        return { content: [{ type: 'text', text: product === 'Trowel' ? '$9.50' : 'unknown' }] };
      });
      t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, t!) });
      await server.connect(t);
    }
    await t.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => mcpHttp.listen(0, '127.0.0.1', r));
  mcpUrl = `http://127.0.0.1:${(mcpHttp.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await ms?.close();
  mcpHttp?.closeAllConnections();
  mcpHttp?.close();
});
beforeEach(() => {
  ms.requests.length = 0;
});

const step = (tool: string, args: Record<string, unknown> = {}) => ({
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
    toolInput: null,
    taskCompleted: tool === 'done',
    ...args,
  },
  usage: { input: 40, output: 8 },
});

describe('agent()', () => {
  it('runs with a custom tool and an MCP integration, on the agentExecute loop', async () => {
    await h.open('/store.html');
    const seen: unknown[] = [];
    const agent = h.dh.agent({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      instructions: 'Prices come from the lookup_price tool.',
      options: { apiKey: 'sk-agent-opt', baseURL: ms.url, organization: 'org-test' },
      integrations: [mcpUrl],
      tools: {
        currency: {
          description: 'Convert USD to EUR',
          inputSchema: z.object({ usd: z.number() }),
          execute: async ({ usd }: { usd: number }) => (seen.push(usd), `${(usd * 0.9).toFixed(2)} EUR`),
        },
      },
    });
    let turn = 0;
    ms.script((_r, prompt) => {
      turn++;
      if (turn === 1) {
        expect(prompt).toContain('lookup_price(toolInput)');
        expect(prompt).toContain('currency(toolInput)');
        expect(prompt).toContain('Prices come from the lookup_price tool.');
        expect(prompt).toContain('Be brief.');
        return step('lookup_price', { toolInput: JSON.stringify({ product: 'Trowel' }) });
      }
      if (turn === 2) {
        expect(prompt).toMatch(/lookup_price .* → \$9\.50/);
        return step('currency', { toolInput: JSON.stringify({ usd: 9.5 }) });
      }
      expect(prompt).toMatch(/currency .* → 8\.55 EUR/);
      return step('done', { answer: 'The trowel costs $9.50 (8.55 EUR)', success: true });
    });
    const r = await agent.execute({ instruction: 'how much is the trowel in euros?', context: 'Be brief.', maxSteps: 5 });
    expect(r).toMatchObject({ success: true, completed: true, message: 'The trowel costs $9.50 (8.55 EUR)' });
    expect(r.actions.map((a) => a.type)).toEqual(['lookup_price', 'currency', 'done']);
    expect(priceCalls).toEqual(['Trowel']);
    expect(seen).toEqual([9.5]);
    expect(r.usage).toEqual({ input_tokens: 120, output_tokens: 24, inference_time_ms: expect.any(Number), reasoning_tokens: 0, cached_input_tokens: 0 });
    expect(ms.requests[0].headers.authorization).toBe('Bearer sk-agent-opt');
    expect(ms.requests[0].headers['openai-organization']).toBe('org-test');
    // A dom step carries no screenshot unless asked (autoScreenshot): the prompt goes as plain text.
    expect(typeof ms.requests[0].body.messages.at(-1).content).toBe('string');
  });

  it('execute(instruction) uses the defaults; waitBetweenActions waits; bad options are clear', async () => {
    await h.open('/form.html');
    const agent = h.dh.agent({ model: 'openai/gpt-4.1-mini', options: { apiKey: 'k', baseURL: ms.url } });
    ms.script(step('scroll', { direction: 'down' }), step('done', { answer: 'scrolled', success: true }));
    const t = Date.now();
    const slow = await h.dh
      .agent({ model: 'openai/gpt-4.1-mini', options: { apiKey: 'k', baseURL: ms.url } })
      .execute({ instruction: 'scroll once', waitBetweenActions: 600, autoScreenshot: false });
    expect(slow.message).toBe('scrolled');
    expect(Date.now() - t).toBeGreaterThanOrEqual(600);
    expect(ms.requests.at(-1)!.raw).not.toMatch(/"image|input_image/);
    ms.script(step('wait', { ms: 10 }));
    const capped = await agent.execute('wait around');
    expect(capped.completed).toBe(false);
    expect(capped.actions).toHaveLength(20); // maxSteps defaults to 20
    expect(() => h.dh.agent({ provider: 'martian' as never, model: 'x' })).toThrow(/provider: .*'openai' \| 'anthropic'/);
    expect(() => h.dh.agent({ model: 'openai/x', options: { apiKey: 'k', temperature: 1 } as never })).toThrow(/unknown property 'temperature' in options/);
  });
});

describe('page.extract()', () => {
  it('no parameters: the raw accessibility-tree text, no model', async () => {
    const page = await h.open('/form.html');
    const r = (await page.extract()) as { pageText: string };
    expect(r.pageText).toMatch(/\[e\d+\] textbox "Full name"/);
    expect(ms.requests).toHaveLength(0);
  });

  it('an instruction only: { extraction } (the built-in model by default)', async () => {
    const page = await h.open('/store.html');
    expect(await page.extract('the order number')).toEqual({ extraction: 'A-1042' });
  });

  it('options with a schema: typed data; selector scopes; iframes off by default; modelName and modelClientOptions pick the model', async () => {
    const page = await h.open('/frames.html');
    const opts = { modelName: 'openai/gpt-4.1-mini', modelClientOptions: { apiKey: 'sk-page', baseURL: ms.url } };
    ms.script({ object: { heading: 'Frames' } });
    const data = await page.extract({ instruction: 'the heading', schema: z.object({ heading: z.string() }), ...opts });
    expect(data).toEqual({ heading: 'Frames' });
    expect(ms.requests[0].headers.authorization).toBe('Bearer sk-page');
    expect(ms.requests[0].raw).not.toContain('Inner page'); // iframe content left out by default
    ms.script({ object: { heading: 'Inner page' } });
    await page.extract({ instruction: 'the inner heading', schema: { type: 'object', properties: { heading: { type: 'string' } } }, iframes: true, ...opts });
    expect(ms.requests[1].raw).toContain('Inner page');
    ms.script({ object: { label: 'Top button' } });
    await page.extract({ instruction: 'the button', schema: z.object({ label: z.string() }), selector: "//button[@id='top-btn']", ...opts });
    expect(ms.requests[2].raw).toContain('Top button');
    expect(ms.requests[2].raw).not.toContain('heading \\"Frames\\"');
    await expect(page.extract(42 as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
