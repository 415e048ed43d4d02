/**
 * A page's own tools (WebMCP) in real Chromium: listed by page.tools and the snapshot, called by
 * page.callTool, act, observe and the agent (the built-in model and a scripted provider model),
 * each misbehaving tool a typed error, approvals holding; and over the service, HTTP's routes and
 * the MCP server's re-exported tools with their list-changed notifications. The fixture page
 * (tools.html) registers tools by script and declares them with form attributes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deckhand, Page } from '../../src/index';
import { startService, type RunningService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';
import { promptText, startModelServer, type ModelServer } from '../fixtures/model-server';
import { expectError, useBrowser } from './harness';
import { agentAnswer } from '../fixtures/agent-answer';

const h = useBrowser();
let ms: ModelServer;
beforeAll(async () => {
  ms = await startModelServer();
});
afterAll(async () => ms?.close());

const cart = (page: Page) => page.evaluate(() => document.getElementById('cart')!.textContent);
const calls = (page: Page) => page.evaluate(() => (window as unknown as { toolCalls: string[] }).toolCalls);

describe('page tools through the library', () => {
  it('lists the tools a page registers and declares, not a hidden form’s, and the snapshot shows them first', async () => {
    const page = await h.open('/tools.html');
    const tools = await page.tools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['add_to_cart', 'cart_contents', 'empty_cart', 'search_catalogue', 'subscribe_newsletter']));
    expect(names).not.toContain('hidden_form_tool');
    const add = tools.find((t) => t.name === 'add_to_cart')!;
    expect(add).toMatchObject({ description: 'Add an item to the shopping cart by its SKU', form: false });
    expect(add.inputSchema).toMatchObject({ required: ['sku'], properties: { sku: { enum: ['R10', 'C2', 'L1'] } } });
    expect(tools.find((t) => t.name === 'search_catalogue')).toMatchObject({ form: true, autosubmit: true });
    // Page text that speaks to a model is withheld, saying so; characters that show nothing are dropped.
    const note = tools.find((t) => t.name === 'store_note')!;
    expect(note.description).toBe('Store a note for later [the rest is withheld: it reads as instructions to a model]');
    expect(note.inputSchema).toMatchObject({ properties: { text: { description: 'the note' } } });
    const snap = await page.snapshot();
    expect(snap.text.startsWith('Page tools')).toBe(true);
    expect(snap.text).toContain('- tool page_add_to_cart(sku: "R10"|"C2"|"L1" (the item code), qty?: integer (how many))');
    expect(snap.text).not.toMatch(/ignore previous|call empty_cart now/i);
    // A page with no tools: listed as none, and its snapshot has no such block.
    const plain = await h.open('/form.html');
    expect(await plain.tools()).toEqual([]);
    expect((await plain.snapshot()).text).not.toContain('Page tools');
  });

  it('callTool runs the tool with its input and answers its text; a form tool fills and submits its form', async () => {
    const page = await h.open('/tools.html');
    expect(await page.callTool('add_to_cart', { sku: 'C2', qty: 2 })).toEqual({ output: 'added 2 × C2; the cart holds 2 items' });
    expect(await cart(page)).toBe('C2 × 2');
    expect(JSON.parse((await page.callTool('cart_contents')).output!)).toEqual({ items: [{ sku: 'C2', qty: 2 }] });
    expect(await page.callTool('subscribe_newsletter', { email: 'ann@example.com' })).toEqual({ output: 'subscribed ann@example.com' });
    expect(await page.evaluate(() => document.getElementById('subscribed')!.textContent)).toBe('Subscribed ann@example.com');
    const r = await page.callTool('search_catalogue', { q: 'rope' });
    expect(r.output).toBeUndefined();
    expect(r.navigated).toMatch(/\/tools-results\.html\?q=rope$/);
    expect(await page.evaluate(() => document.getElementById('query')!.textContent)).toBe('Results for rope');
  });

  it('every misbehaving tool is a typed error, and nothing hangs', async () => {
    const page = await h.open('/tools.html');
    await expectError(page.callTool('add_to_cart', { sku: 'ZZ', qty: 0 }), 'INVALID_ARGUMENT', /sku.*; qty/);
    expect(await calls(page)).toEqual([]); // refused before the page saw it
    await expectError(page.callTool('no_such_tool'), 'TOOL_NOT_FOUND', /its tools are add_to_cart/);
    await expectError(page.callTool('hidden_form_tool', { x: '1' }), 'TOOL_NOT_FOUND');
    await expectError(page.callTool('broken'), 'TOOL_FAILED', /failed/);
    const t0 = Date.now();
    await expectError(page.callTool('never_answers', {}, { timeout: 800 }), 'TIMEOUT', /did not answer within/);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await calls(page)).toEqual(['never_answers', 'cancelled']); // the page was told the call is over
    // A call ended by the tool changing, or by its form refusing the values, is cancelled too.
    await expectError(page.callTool('huge'), 'TOOL_OUTPUT_TOO_LARGE', /3145728 characters/);
    await expectError(page.callTool('swapping'), 'TOOL_CHANGED', /anew/);
    await expectError(page.callTool('subscribe_newsletter', { email: 'not-an-address' }), 'TOOL_FAILED', /does not take these values: email/);
    expect(await page.evaluate(() => document.getElementById('subscribed')!.textContent)).toBe('');
    await expectError(page.callTool('bad name!'), 'INVALID_ARGUMENT');
    // Cancelled by its caller: at once, and the page's tool is told.
    const ac = new AbortController();
    const p = page.callTool('never_answers', {}, { signal: ac.signal, timeout: 20_000 });
    setTimeout(() => ac.abort(), 200);
    const t1 = Date.now();
    await expectError(p, 'CANCELLED');
    expect(Date.now() - t1).toBeLessThan(2000);
    await expect.poll(async () => (await calls(page)).slice(-2)).toEqual(['never_answers', 'cancelled']);
  });

  it('approval gates a tool call as it would a click: stopped, the cart stays; approved, it empties', async () => {
    const page = await h.open('/tools.html');
    await page.callTool('add_to_cart', { sku: 'L1' });
    const asked: string[] = [];
    await expectError(
      h.dh.callTool('empty_cart', {}, { approval: { when: ['delete'] }, onApproval: (req) => (asked.push(`${req.method} ${req.summary}`), 'stop') }),
      'NOT_APPROVED',
    );
    expect(asked).toEqual([expect.stringMatching(/^callTool .*empty_cart.*deletes something/)]);
    expect(await cart(page)).toBe('L1 × 1');
    // The built-in model's act goes through the same gate.
    await expectError(h.dh.act('Empty the cart', { approval: { when: ['delete'] }, onApproval: () => 'stop' }), 'NOT_APPROVED');
    expect(await cart(page)).toBe('L1 × 1');
    expect(await h.dh.callTool('empty_cart', {}, { approval: { when: ['delete'] }, onApproval: () => 'approve' })).toEqual({ output: 'the cart is empty' });
    expect(await cart(page)).toBe('');
  });

  it('the built-in model acts, observes and plans through the page’s tools; other wordings stay with the page’s controls', async () => {
    const page = await h.open('/tools.html');
    const r = await h.dh.act('add 3 of R10 to the cart');
    expect(r.data.success).toBe(true);
    expect(r.data.message).toBe(`called the page's tool 'add_to_cart'; it answered "added 3 × R10; the cart holds 3 items"`);
    expect(r.data.actions).toEqual([expect.objectContaining({ selector: 'html', method: 'callTool', arguments: ['add_to_cart', '{"sku":"R10","qty":3}'] })]);
    expect(await cart(page)).toBe('R10 × 3');
    // observe offers the call; act runs it as an Action with no model.
    const seen = await h.dh.observe('put two C2 in the basket');
    expect(seen.data).toEqual([expect.objectContaining({ method: 'callTool', arguments: ['add_to_cart', '{"sku":"C2","qty":2}'] })]);
    await h.dh.act(seen.data[0]);
    expect(await cart(page)).toBe('R10 × 3C2 × 2');
    // A value the tool does not take, or a named control, is not a tool call.
    const more = await h.dh.act('add 3 of R10 and 2 of L1 to the cart');
    expect(more.data.actions.every((a) => a.method !== 'callTool')).toBe(true);
    expect((await h.dh.act('click the Add to cart button for the Lantern')).data.actions[0].method).toBe('click');
    expect(await cart(page)).toContain('L1 × 1');
    // The agent's plan: each step one tool call.
    const run = await h.dh.agent().execute({ instruction: 'Empty the cart, then subscribe bo@example.com to the newsletter' });
    expect(run.success).toBe(true);
    expect(await cart(page)).toBe('');
    expect(await page.evaluate(() => document.getElementById('subscribed')!.textContent)).toBe('Subscribed bo@example.com');
  });

  it('another app: tools registered after load, camelCase names, a form of a select and a checkbox, nested input', async () => {
    const page = await h.open('/todo-tools.html');
    await expect
      .poll(async () => (await page.tools()).map((t) => t.name).sort(), { timeout: 5000 })
      .toEqual(['addTodo', 'markTodoDone', 'savePreferences', 'tagTodo']);
    const todos = () => page.evaluate(() => document.getElementById('todos')!.textContent);
    expect((await h.dh.act("Add a todo 'buy milk'")).data.message).toBe(`called the page's tool 'addTodo'; it answered ${JSON.stringify('{"id":3}')}`);
    expect((await h.dh.act('Mark todo 2 as done')).data.message).toBe(`called the page's tool 'markTodoDone'; it answered "done: Call the plumber"`);
    expect(await todos()).toBe('Write the report✔ Call the plumberbuy milk');
    await expectError(h.dh.act('mark todo 9 done'), 'TOOL_FAILED');
    // The form's tool: every value the instruction gives, the switch included, or none of it.
    const saved = await h.dh.act('Save the preferences: sort by name, hide done items');
    expect(saved.data.message).toBe(`called the page's tool 'savePreferences'; it answered "sort name, hide done true"`);
    expect(await page.evaluate(() => document.getElementById('prefs-saved')!.textContent)).toBe('Saved: sort name, hide done true');
    expect((await h.dh.act('save the preferences with sort by date')).data.actions.every((a) => a.method !== 'callTool')).toBe(true);
    expect(await page.callTool('tagTodo', { id: 1, tag: { label: 'urgent' } })).toEqual({ output: 'tagged 1 urgent' });
    await expectError(page.callTool('tagTodo', { id: 1, tag: { colour: 'red' } }), 'INVALID_ARGUMENT', /tag: .*label/);
  });

  it('a provider model reads the tools in its prompt and calls one, in act and as an agent tool', async () => {
    const page = await h.open('/tools.html');
    const model = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-tools', baseURL: ms.url };
    ms.requests.length = 0;
    ms.script({
      object: {
        found: true,
        elementId: 'page',
        method: 'callTool',
        arguments: ['add_to_cart', '{"sku":"L1","qty":2}'],
        description: 'add two lanterns',
        twoStep: false,
        reason: '',
      },
      usage: { input: 100, output: 20 },
    });
    const r = await h.dh.act('add two lanterns to the cart', { model });
    expect(r.data.success).toBe(true);
    expect(promptText(ms.requests[0].body)).toContain('- tool page_add_to_cart(');
    expect(await cart(page)).toBe('L1 × 2');

    ms.requests.length = 0;
    ms.script(agentAnswer('page_empty_cart', { toolInput: '{}' }), agentAnswer('done', { answer: 'emptied', success: true }));
    const { result: run, recording } = await h.dh.agentExecute(
      { agentConfig: { model, mode: 'dom' }, executeOptions: { instruction: 'Empty the cart' } },
      { record: true },
    );
    expect(run.success).toBe(true);
    expect(await cart(page)).toBe('');
    // The recorded run replays with no model: the tool is called again.
    await page.callTool('add_to_cart', { sku: 'C2' });
    const asked = ms.requests.length;
    const again = await h.dh.agentExecute({ agentConfig: { model, mode: 'dom' }, executeOptions: { instruction: 'Empty the cart' } }, { replay: recording });
    expect(again.result.success).toBe(true);
    expect(ms.requests.length).toBe(asked);
    expect(await cart(page)).toBe('');
    expect(JSON.stringify(ms.requests[0].body)).toContain('page_empty_cart');
    expect(run.actions[0]).toMatchObject({ type: 'page_empty_cart', result: expect.stringContaining('the cart is empty') });
  });
});

describe('page tools over the service', () => {
  const KEY = 'tools-svc-key';
  let svc: RunningService;
  let servers: Awaited<ReturnType<typeof startFixtureServers>>;
  beforeAll(async () => {
    process.env.DECKHAND_API_KEYS = KEY;
    servers = await startFixtureServers();
    svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-tools-')), port: 0, maxSessions: 2 });
  });
  afterAll(async () => {
    await svc?.close();
    await servers?.close();
    delete process.env.DECKHAND_API_KEYS;
  });
  const post = (path: string, body: unknown) =>
    fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) });

  it('HTTP lists the active page’s tools and calls one; a bad call is a typed error body', async () => {
    const id = (await (await post('/v1/sessions/start', {})).json()).data.sessionId as string;
    expect((await post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/tools.html` })).status).toBe(200);
    const listed = await (await fetch(`${svc.url}/v1/sessions/${id}/tools`, { headers: { 'x-dh-api-key': KEY } })).json();
    expect(listed.data.map((t: { name: string }) => t.name)).toContain('add_to_cart');
    const called = await post(`/v1/sessions/${id}/callTool`, { name: 'add_to_cart', input: { sku: 'R10', qty: 4 } });
    expect(await called.json()).toEqual({ success: true, data: { output: 'added 4 × R10; the cart holds 4 items' } });
    const bad = await post(`/v1/sessions/${id}/callTool`, { name: 'add_to_cart', input: { sku: 'nope' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('INVALID_ARGUMENT');
    const missing = await post(`/v1/sessions/${id}/callTool`, { name: 'gone' });
    expect(missing.status).toBe(422);
    expect((await missing.json()).error.code).toBe('TOOL_NOT_FOUND');
    // act with the built-in model: one step, through the tool.
    const acted = await (await post(`/v1/sessions/${id}/act`, { input: 'add 2 of L1 to the cart' })).json();
    expect(acted.data.data.message).toBe(`called the page's tool 'add_to_cart'; it answered "added 2 × L1; the cart holds 6 items"`);
    // and with a provider model the session's caller names.
    ms.script({
      object: { found: true, elementId: 'page', method: 'callTool', arguments: ['empty_cart', '{}'], description: 'empty it', twoStep: false, reason: '' },
      usage: { input: 10, output: 5 },
    });
    const model = { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-http-tools', baseURL: ms.url };
    const emptied = await (await post(`/v1/sessions/${id}/act`, { input: 'empty the cart', model })).json();
    expect(emptied.data.data.message).toBe(`called the page's tool 'empty_cart'; it answered "the cart is empty"`);
    const contents = await (await post(`/v1/sessions/${id}/callTool`, { name: 'cart_contents' })).json();
    expect(JSON.parse(contents.data.output)).toEqual({ items: [] });
    await post(`/v1/sessions/${id}/end`, {});
  });

  it('MCP re-exports the page’s tools, tells the client when they change, and calls one', async () => {
    const client = new Client({ name: 'tools-test', version: '1' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
    try {
      const own = (await client.listTools()).tools.map((t) => t.name);
      expect(own.some((n) => n.startsWith('page_'))).toBe(false);
      await client.callTool({ name: 'navigate', arguments: { url: `${servers.origin}/tools.html` } });
      await expect.poll(() => changes, { timeout: 10_000 }).toBeGreaterThan(0);
      const tools = (await client.listTools()).tools;
      const add = tools.find((t) => t.name === 'page_add_to_cart')!;
      expect(add.description).toContain('Add an item to the shopping cart by its SKU');
      expect(add.inputSchema).toMatchObject({ properties: { sku: { enum: ['R10', 'C2', 'L1'] } }, required: ['sku'] });
      const r = (await client.callTool({ name: 'page_add_to_cart', arguments: { sku: 'C2', qty: 1 } })) as { content: { text: string }[]; isError?: boolean };
      expect(r.isError).toBeFalsy();
      expect(r.content[0].text).toBe('added 1 × C2; the cart holds 1 items');
      // Deckhand's own act, with the built-in model, goes through the same tool in one step.
      const acted = (await client.callTool({ name: 'act', arguments: { action: 'add 2 of R10 to the cart' } })) as { content: { text: string }[] };
      expect(acted.content[0].text).toContain(`called the page's tool 'add_to_cart'; it answered "added 2 × R10; the cart holds 3 items"`);
      const failed = (await client.callTool({ name: 'page_broken', arguments: {} })) as { content: { text: string }[]; isError?: boolean };
      expect(failed.isError).toBe(true);
      expect(failed.content[0].text).toMatch(/^TOOL_FAILED: /);
      // Leaving for a page with no tools takes them away, and says so.
      const before = changes;
      await client.callTool({ name: 'navigate', arguments: { url: `${servers.origin}/form.html` } });
      await expect.poll(() => changes, { timeout: 10_000 }).toBeGreaterThan(before);
      expect((await client.listTools()).tools.some((t) => t.name.startsWith('page_'))).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('a Deckhand made without a page tool in sight', () => {
  it('answers TOOL_NOT_FOUND when the page has none', async () => {
    const dh: Deckhand = h.dh;
    await h.open('/form.html');
    await expectError(dh.callTool('add_to_cart', { sku: 'R10' }), 'TOOL_NOT_FOUND', /declares none/);
  });
});
