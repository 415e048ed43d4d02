/**
 * Approval over the service's transports: an HTTP agentExecute streamed as Server-Sent Events
 * announces the step that waits (`approval` event) and goes on once POST .../approvals/{id}
 * approves it; an MCP host that supports elicitation is asked and its user's answer decides; a
 * host that cannot ask, with nobody else to answer, gets a NOT_APPROVED refusal at the deadline.
 * The fixture server's record of form POSTs shows what was submitted.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';
import { readEvents } from './sse';

const KEY = 'approval-svc-key';
const OTHER = 'approval-other-key';
let svc: RunningService;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;

const FILL = 'Fill the contact form: name Ada Lovelace, email ada@example.com, message "Please call back", and then click Send';
const contactPosts = () => servers.posts.filter((p) => p.path === '/contact');
const until = async (ok: () => boolean, what: string, ms = 10_000) => {
  for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
};

beforeAll(async () => {
  process.env.DECKHAND_API_KEYS = `${KEY},${OTHER}`;
  servers = await startFixtureServers();
  svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-approval-')), port: 0, maxSessions: 3 });
});
afterAll(async () => {
  await svc?.close();
  await servers?.close();
  delete process.env.DECKHAND_API_KEYS;
});

const post = (path: string, body: unknown, key = KEY) =>
  fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': key }, body: JSON.stringify(body) });

describe('approval over HTTP', () => {
  it('an agentExecute stream announces the waiting submit; POST .../approvals/{id} approves it; another key cannot', async () => {
    servers.posts.length = 0;
    const start = await (await post('/v1/sessions/start', {})).json();
    const id = start.data.sessionId as string;
    expect((await post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/examples/contact.html` })).status).toBe(200);
    const res = await post(`/v1/sessions/${id}/agentExecute`, { executeOptions: { instruction: FILL, approval: { when: ['submit'] } }, streamResponse: true });
    expect(res.status).toBe(200);
    const answered: unknown[] = [];
    const events = await readEvents(res, (e) => {
      if (e.status !== 'approval') return;
      void (async () => {
        expect(contactPosts()).toEqual([]); // waiting: nothing submitted yet
        // Listed for the session's key, and for no other.
        const listed = await (await fetch(`${svc.url}/v1/sessions/${id}/approvals`, { headers: { 'x-dh-api-key': KEY } })).json();
        expect(listed.data.map((r: { id: string }) => r.id)).toEqual([e.data.id]);
        const stranger = await post(`/v1/sessions/${id}/approvals/${e.data.id}`, { decision: 'approve' }, OTHER);
        expect(stranger.status).toBe(404);
        const bad = await post(`/v1/sessions/${id}/approvals/${e.data.id}`, { decision: 'maybe' });
        expect(bad.status).toBe(400);
        const ok = await (await post(`/v1/sessions/${id}/approvals/${e.data.id}`, { decision: 'approve' })).json();
        answered.push(ok);
      })().catch((err: unknown) => answered.push(err));
    });
    const approval = events.find((e) => e.status === 'approval');
    expect(approval.data).toMatchObject({ kinds: ['submit'], method: 'click', url: `${servers.origin}/examples/contact.html` });
    expect(approval.data.element).toMatch(/Send/);
    expect(answered).toEqual([{ success: true, data: { settled: true } }]);
    const last = events.at(-1);
    expect(last.status).toBe('finished');
    expect(last.data.result.success).toBe(true);
    await until(() => contactPosts().length === 1, 'the form POST');
    expect(contactPosts()[0].fields).toMatchObject({ name: 'Ada Lovelace' });
    // Decided: it no longer waits.
    const again = await (await post(`/v1/sessions/${id}/approvals/${approval.data.id}`, { decision: 'stop' })).json();
    expect(again).toEqual({ success: true, data: { settled: false } });
    await post(`/v1/sessions/${id}/end`, {});
  });
});

async function mcpClient(elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }): Promise<Client> {
  const client = new Client({ name: 'approval-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(String(req.params.message)));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
  return client;
}
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<ToolResult>;

describe('approval over MCP', () => {
  it('a host that supports elicitation is asked, and its answer decides', async () => {
    servers.posts.length = 0;
    const asked: string[] = [];
    const c = await mcpClient((m) => (asked.push(m), { action: 'accept', content: { decision: 'approve' } }));
    await call(c, 'navigate', { url: `${servers.origin}/examples/contact.html` });
    const r = await call(c, 'agent', { instruction: FILL, approval: { when: ['submit'] } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.success).toBe(true);
    expect(asked).toEqual([expect.stringMatching(/about to click on .*Send.* submits a form/)]);
    await until(() => contactPosts().length === 1, 'the form POST');
    await call(c, 'end');
    await c.close();
  });

  it("a host's decline is a Stop: NOT_APPROVED, nothing submitted", async () => {
    servers.posts.length = 0;
    const c = await mcpClient(() => ({ action: 'decline' }));
    await call(c, 'navigate', { url: `${servers.origin}/examples/contact.html` });
    const r = await call(c, 'act', { action: 'click the Send button', approval: { when: ['submit'] } });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^NOT_APPROVED: .*chose Stop/);
    await new Promise((res) => setTimeout(res, 500));
    expect(contactPosts()).toEqual([]);
    await call(c, 'end');
    await c.close();
  });

  it('a host that cannot ask, and nobody else answering: refused at the deadline', async () => {
    servers.posts.length = 0;
    const c = await mcpClient();
    await call(c, 'navigate', { url: `${servers.origin}/examples/contact.html` });
    const r = await call(c, 'act', { action: 'click the Send button', approval: { when: ['submit'], timeout: 1500 } });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^NOT_APPROVED: .*nobody answered within 1500 ms/);
    await new Promise((res) => setTimeout(res, 500));
    expect(contactPosts()).toEqual([]);
    await call(c, 'end');
    await c.close();
  });
});
