/**
 * MCP sessions as real clients use them, and as real faults end them: calls queued in order,
 * cancellation, progress and logging notifications, clients that vanish without DELETE,
 * browsers that die. Driven with the MCP SDK's own client over Streamable HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';

const KEY = 'mcp-lifecycle-key';
const IDLE_MS = 2000;
let svc: RunningService;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;

beforeAll(async () => {
  process.env.DECKHAND_API_KEYS = KEY;
  servers = await startFixtureServers();
  svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-mcp-life-')), port: 0, maxSessions: 2, idleTimeoutMs: IDLE_MS });
});
afterAll(async () => {
  await svc?.close();
  await servers?.close();
  delete process.env.DECKHAND_API_KEYS;
});

async function client(): Promise<{ c: Client; transport: StreamableHTTPClientTransport }> {
  const c = new Client({ name: 'lifecycle-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } });
  await c.connect(transport);
  return { c, transport };
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
const call = (c: Client, name: string, args: Record<string, unknown> = {}, options: Parameters<Client['callTool']>[2] = {}) =>
  c.callTool({ name, arguments: args }, undefined, options) as Promise<ToolResult>;

async function until(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - t0;
}

describe('MCP session lifecycle', () => {
  it('calls sent at once in one session all run, one after another, none refused', async () => {
    const { c, transport } = await client();
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const fields = ['full name', 'phone', 'website'];
    const results = await Promise.all(fields.map((f, i) => call(c, 'act', { action: `type "v${i}" into the ${f} field` })));
    for (const r of results) expect(r.isError, r.content[0]?.text).toBeFalsy();
    const ext = await call(c, 'extract', {});
    expect(ext.structuredContent.extraction).toMatch(/textbox "Full name" value="v0"/);
    expect(ext.structuredContent.extraction).toMatch(/textbox "Phone" type=tel value="v1"/);
    expect(ext.structuredContent.extraction).toMatch(/textbox "Website" type=url value="v2"/);
    await transport.terminateSession();
    await c.close();
  });

  it('progress notifications for a call with a progress token; log messages honour logging/setLevel', async () => {
    const { c, transport } = await client();
    const logs: { level: string; data: unknown }[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const progress: { progress: number; message?: string }[] = [];
    const r = await call(c, 'act', { action: 'type "Ada" into the full name field' }, { onprogress: (p) => void progress.push(p) });
    expect(r.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(progress[0].message).toMatch(/act on page \d+ with deckhand\/local/);
    // The default level is info: the same lines arrived as log messages.
    expect(logs.some((l) => l.level === 'info' && /act on page/.test(String(l.data)))).toBe(true);
    // At error, an operation that succeeds says nothing.
    await c.setLoggingLevel('error');
    logs.length = 0;
    expect((await call(c, 'act', { action: 'type "Bo" into the phone field' })).isError).toBeFalsy();
    expect(logs).toEqual([]);
    await transport.terminateSession();
    await c.close();
  });

  it('results never echo a large input back', async () => {
    const { c, transport } = await client();
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const huge = `click the ${'very '.repeat(4000)}big button`;
    for (const [tool, args] of [
      ['act', { action: huge }],
      ['observe', { instruction: huge }],
      ['extract', { instruction: huge }],
    ] as const) {
      const r = await call(c, tool, args);
      expect(JSON.stringify(r).length, tool).toBeLessThan(4000);
    }
    await transport.terminateSession();
    await c.close();
  });

  it('a cancelled call answers at once, and the next call in the session runs promptly', async () => {
    const { c, transport } = await client();
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const ctl = new AbortController();
    // A navigation the server holds for 20 s.
    const slow = call(c, 'navigate', { url: `${servers.origin}/slow?ms=20000&to=/store.html` }, { signal: ctl.signal });
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    ctl.abort();
    await expect(slow).rejects.toThrow();
    const next = await call(c, 'navigate', { url: `${servers.origin}/store.html` });
    expect(next.isError, next.content[0]?.text).toBeFalsy();
    expect(next.structuredContent.title).toBe('Acme Store');
    expect(Date.now() - t0).toBeLessThan(5000);
    await transport.terminateSession();
    await c.close();
  });

  it('a client that leaves without DELETE: its MCP session and browser end once idle, and its id then answers 404', async () => {
    const { c, transport } = await client();
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const sid = transport.sessionId!;
    const before = svc.sessions.size;
    expect(before).toBeGreaterThan(0);
    // Gone without a word: no DELETE, no more requests.
    await transport.close();
    await until("the abandoned session's browser to close", () => svc.sessions.size === before - 1, IDLE_MS + 8000);
    const ask = () =>
      fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
    // The MCP session itself is forgotten on the next sweep; a request with its id then gets
    // 404, so the client knows to initialise again.
    await until('the abandoned MCP session to be forgotten', () => svc.mcpSessions() === 0, IDLE_MS + 8000);
    const r = await ask();
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'SESSION_NOT_FOUND' } } });
  });

  it('a browser that dies ends its session at once: the slot is free and the caller hears of it within 2 s', async () => {
    const { c, transport } = await client();
    const started = await call(c, 'start');
    const id = started.structuredContent.sessionId as string;
    // The session's Chromium process (the manager keeps it private).
    const s = (svc.sessions as unknown as { sessions: Map<string, { browser: { proc: { kill(sig: string): void } } }> }).sessions.get(id)!;
    await call(c, 'navigate', { url: `${servers.origin}/form.html` });
    const size = svc.sessions.size;
    // Kill Chromium outright, as a crash would.
    s.browser.proc.kill('SIGKILL');
    const took = await until("the dead browser's session to end", () => svc.sessions.size === size - 1, 2000);
    expect(took).toBeLessThan(2000);
    // The next call gets a session of its own again (a new browser), not an error forever.
    const again = await call(c, 'navigate', { url: `${servers.origin}/store.html` });
    expect(again.isError, again.content[0]?.text).toBeFalsy();
    expect(again.structuredContent.title).toBe('Acme Store');
    await transport.terminateSession();
    await c.close();
  });
});
