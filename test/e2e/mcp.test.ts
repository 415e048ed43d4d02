/** The MCP server with the SDK's own client, over Streamable HTTP and stdio. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';

const KEY = 'mcp-test-key';
const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
let svc: RunningService;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;

beforeAll(async () => {
  process.env.DECKHAND_API_KEYS = KEY;
  servers = await startFixtureServers();
  svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-mcp-')), port: 0, maxSessions: 4 });
});
afterAll(async () => {
  await svc?.close();
  await servers?.close();
  delete process.env.DECKHAND_API_KEYS;
});

async function httpClient(query = '', headers: Record<string, string> = { authorization: `Bearer ${KEY}` }): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp${query}`), { requestInit: { headers } }));
  return client;
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
const call = (c: Client, name: string, args: Record<string, unknown> = {}) => c.callTool({ name, arguments: args }) as Promise<ToolResult>;

describe('MCP over Streamable HTTP', () => {
  it('lists the nine tools with their schemas', async () => {
    const c = await httpClient();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['act', 'agent', 'end', 'extract', 'flows', 'navigate', 'observe', 'replay', 'start']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.navigate.inputSchema).toMatchObject({ type: 'object', required: ['url'], properties: { url: { type: 'string' } } });
    expect(byName.act.inputSchema).toMatchObject({ required: ['action'] });
    expect(byName.observe.inputSchema).toMatchObject({ required: ['instruction'] });
    expect(byName.extract.inputSchema.required ?? []).toEqual([]);
    expect(byName.act.description).toMatch(/plain language/);
    expect(byName.agent.inputSchema).toMatchObject({ required: ['instruction'] });
    expect(byName.agent.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.replay.inputSchema).toMatchObject({ required: ['name'], properties: { name: { type: 'string' }, variables: { type: 'object' } } });
    expect(byName.replay.outputSchema).toMatchObject({ required: expect.arrayContaining(['name', 'url', 'steps', 'usage']) });
    expect(byName.flows.annotations).toMatchObject({ readOnlyHint: true });
    await c.close();
  });

  it('navigate, observe, act and extract on fixture pages; start and end', async () => {
    const c = await httpClient();
    // No session yet: navigate starts one.
    const nav = await call(c, 'navigate', { url: `${servers.origin}/store.html` });
    expect(nav.isError).toBeFalsy();
    expect(nav.structuredContent).toMatchObject({ title: 'Acme Store' });
    const started = await call(c, 'start');
    expect(started.structuredContent).toMatchObject({ reused: true });
    const obs = await call(c, 'observe', { instruction: 'delete buttons' });
    expect(obs.structuredContent.elements).toHaveLength(3);
    expect(obs.content[0].text).toMatch(/Found 3/);
    const act = await call(c, 'act', { action: 'click the Billing tab' });
    expect(act.isError).toBeFalsy();
    // The built-in model's work is free, and said so.
    expect(act.structuredContent).toMatchObject({ success: true, costUsd: 0 });
    expect(obs.structuredContent.costUsd).toBe(0);
    const ext = await call(c, 'extract', { instruction: 'the order number' });
    expect(ext.structuredContent).toEqual({ extraction: 'A-1042', costUsd: 0 });
    const outline = await call(c, 'extract', {});
    expect(outline.structuredContent.extraction).toMatch(/tab "Billing"/);
    expect(outline.structuredContent).not.toHaveProperty('costUsd'); // a snapshot: no model call
    // A refusal is a tool error the calling model can read, not a crashed server.
    const refused = await call(c, 'act', { action: 'click the launch rocket button' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/configure a model/);
    const bad = await call(c, 'navigate', { url: 'not a url' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/absolute URL/);
    const sizeBefore = svc.sessions.size;
    expect((await call(c, 'end')).structuredContent).toEqual({ ended: true });
    expect(svc.sessions.size).toBe(sizeBefore - 1);
    expect((await call(c, 'end')).structuredContent).toEqual({ ended: false });
    await c.close();
  });

  it('agent: a task of several steps with the built-in model, each step reported as progress; a step beyond it is a tool error with nothing done', async () => {
    const c = await httpClient();
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const progress: { message?: string }[] = [];
    const r = (await c.callTool(
      { name: 'agent', arguments: { instruction: 'Enter "Ada" into the full name field, type 42 in the age field, then tick I accept the terms' } },
      undefined,
      {
        onprogress: (p) => void progress.push(p),
      },
    )) as ToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ success: true, completed: true, costUsd: 0 });
    expect(r.structuredContent.steps.map((s: { type: string }) => s.type)).toEqual(['act', 'act', 'act', 'done']);
    expect(progress.some((p) => /step 1: act/.test(p.message ?? ''))).toBe(true);
    const state = await call(c, 'extract', {});
    expect(state.structuredContent.extraction).toMatch(/textbox "Full name" value="Ada"/);
    expect(state.structuredContent.extraction).toMatch(/checkbox "I accept the terms" checked/);
    // The second step names no field of this page: refused before the first runs.
    const refused = await call(c, 'agent', { instruction: 'Enter "Bo" into the full name field and enter 7 into the shoe size field' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ success: false });
    expect(refused.content[0].text).toMatch(/step 2 of 2.*nothing was done/);
    expect((await call(c, 'extract', {})).structuredContent.extraction).toMatch(/textbox "Full name" value="Ada"/);
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
  });

  it("with cache=true, the second identical act is replayed from this key's cache", async () => {
    const c = await httpClient('?cache=true');
    await call(c, 'navigate', { url: `${servers.origin}/store.html` });
    const first = await call(c, 'act', { action: 'click the Billing tab' });
    expect(first.structuredContent).toMatchObject({ success: true, cache: 'MISS' });
    await call(c, 'navigate', { url: `${servers.origin}/store.html` });
    const second = await call(c, 'act', { action: 'click the Billing tab' });
    expect(second.structuredContent).toMatchObject({ success: true, cache: 'HIT' });
    expect(second.structuredContent.actions).toEqual(first.structuredContent.actions);
    // Without the option nothing is looked up.
    const plain = await httpClient();
    await call(plain, 'navigate', { url: `${servers.origin}/store.html` });
    expect((await call(plain, 'act', { action: 'click the Billing tab' })).structuredContent).toMatchObject({ cache: 'DISABLED' });
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
    await (plain.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
    await plain.close();
  });

  it('two clients at once get a browser session each; closing a transport frees its browser', async () => {
    const before = svc.sessions.size;
    const [a, b] = await Promise.all([httpClient(), httpClient()]);
    const [sa, sb] = await Promise.all([call(a, 'start'), call(b, 'start')]);
    expect(sa.structuredContent.sessionId).not.toBe(sb.structuredContent.sessionId);
    await Promise.all([call(a, 'navigate', { url: `${servers.origin}/form.html` }), call(b, 'navigate', { url: `${servers.origin}/store.html` })]);
    expect((await call(a, 'extract', { instruction: 'the page heading' })).structuredContent.extraction).toBe('Sign up');
    expect((await call(b, 'extract', { instruction: 'the page heading' })).structuredContent.extraction).toBe('Acme Store');
    expect(svc.sessions.size).toBe(before + 2);
    await (a.transport as StreamableHTTPClientTransport).terminateSession();
    await a.close();
    await (b.transport as StreamableHTTPClientTransport).terminateSession();
    await b.close();
    for (let i = 0; i < 50 && svc.sessions.size > before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(svc.sessions.size).toBe(before);
  });

  it('checks keys before any tool runs and parameters with errors that name them', async () => {
    const post = (query: string, headers: Record<string, string>) =>
      fetch(`${svc.url}/mcp${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
    const denied = await post('', {});
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer /);
    // MCP clients parse a JSON-RPC error body; the code of the one error table rides in data.
    expect(await denied.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, data: { code: 'UNAUTHORIZED' } } });
    expect((await post('', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post('', { 'x-dh-api-key': KEY })).status).toBe(200);
    expect((await post(`?dhApiKey=${KEY}`, {})).status).toBe(200);
    const bad: [string, RegExp][] = [
      ['?keepAlive=yes', /keepAlive must be exactly true or false/],
      ['?proxies=1', /proxies must be exactly true or false/],
      ['?verified=true', /verified browser identity is a hosted feature/],
      ['?proxies=true', /no proxy configured.*DECKHAND_PROXY/],
      ['?modelName=openai/gpt-4.1-mini', /modelApiKey is required with modelName openai\/gpt-4.1-mini/],
    ];
    for (const [q, re] of bad) {
      const r = await post(q, { authorization: `Bearer ${KEY}` });
      expect(r.status, q).toBe(400);
      expect(((await r.json()) as { error: { message: string } }).error.message, q).toMatch(re);
    }
    const ok = await post('?keepAlive=false&modelName=deckhand/local', { authorization: `Bearer ${KEY}` });
    expect(ok.status).toBe(200);
  });
});

describe('MCP over stdio', () => {
  it('starts from the desktop-host configuration of docs/start/mcp-desktop.md, as written, with the built CLI', async () => {
    const doc = readFileSync(join(ROOT, 'docs/start/mcp-desktop.md'), 'utf8');
    const block = /```json\n(\{ "mcpServers": \{ "deckhand": \{ "command": "node"[^\n]*)\n```/.exec(doc);
    expect(block, 'the stdio configuration of docs/start/mcp-desktop.md').not.toBeNull();
    const server = (JSON.parse(block![1]) as { mcpServers: { deckhand: { command: string; args: string[] } } }).mcpServers.deckhand;
    const args = server.args.map((a) => a.replace('/path/to/deckhand', ROOT));
    expect(existsSync(args[0]), `${args[0]} (built by npm run setup)`).toBe(true);
    const env = { ...process.env, DECKHAND_HOME: mkdtempSync(join(tmpdir(), 'dh-mcp-desktop-')) } as Record<string, string>;
    const c = new Client({ name: 'desktop-config', version: '1.0.0' });
    await c.connect(new StdioClientTransport({ command: server.command === 'node' ? process.execPath : server.command, args, env, stderr: 'ignore' }));
    const nav = await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    expect(nav.structuredContent.title).toBe('Sign up');
    expect((await call(c, 'extract', { instruction: 'the page heading' })).structuredContent.extraction).toBe('Sign up');
    await c.close();
    // Every subcommand explains itself.
    const { spawnSync } = await import('node:child_process');
    const help = spawnSync(process.execPath, [args[0], 'mcp', '--help'], { encoding: 'utf8', timeout: 20_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--idle-timeout <seconds>/);
  });

  it('cancellation, progress and logging over stdio too', async () => {
    const env = { ...process.env, DECKHAND_HOME: mkdtempSync(join(tmpdir(), 'dh-mcp-stdio-cancel-')) } as Record<string, string>;
    const c = new Client({ name: 'stdio-cancel', version: '1.0.0' });
    await c.connect(
      new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'dist/cli.js'), 'mcp', '--idle-timeout', '60'], env, stderr: 'ignore' }),
    );
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const ctl = new AbortController();
    const slow = c.callTool({ name: 'navigate', arguments: { url: `${servers.origin}/slow?ms=20000&to=/store.html` } }, undefined, { signal: ctl.signal });
    await new Promise((r) => setTimeout(r, 400));
    const t0 = Date.now();
    ctl.abort();
    await expect(slow).rejects.toThrow();
    const progress: number[] = [];
    const r = (await c.callTool({ name: 'act', arguments: { action: 'type "Ada" into the full name field' } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    })) as ToolResult;
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(progress.length).toBeGreaterThan(0);
    await c.close();
  });

  it('runs the tools with the SDK client, and bad flags fail at once', async () => {
    const env = { ...process.env, DECKHAND_HOME: mkdtempSync(join(tmpdir(), 'dh-mcp-stdio-')) } as Record<string, string>;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli/cli.ts', 'mcp', '--browserWidth', '900'],
      env,
      stderr: 'ignore',
    });
    const c = new Client({ name: 'stdio-test', version: '1.0.0' });
    await c.connect(transport);
    expect((await c.listTools()).tools).toHaveLength(9);
    const nav = await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    expect(nav.structuredContent.title).toBe('Sign up');
    const act = await call(c, 'act', { action: 'type "Ada" into the full name field' });
    expect(act.structuredContent.success).toBe(true);
    expect((await call(c, 'extract', { instruction: 'the full name' })).structuredContent.extraction).toBe('Ada');
    await c.close();
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', 'mcp', '--verified'], { env, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/verified browser identity is a hosted feature/);
  });
});
