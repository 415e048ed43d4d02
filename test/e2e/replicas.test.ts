/**
 * Past one machine, for real: a Selenium Grid, one PostgreSQL, two `deckhand serve` replicas
 * with their default flags and a round-robin in front. Sessions started through one replica are driven, streamed and
 * ended through the other; one replica killed with SIGKILL mid-run loses no session; nothing is
 * left in the Grid or the registry afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster, type Cluster } from '../../fleet/cluster';
import { startCounterPages, type CounterPages } from '../fixtures/counter-pages';
import { gridSessions } from '../../fleet/grid';
import { readEvents } from './sse';
import { RemoteStore } from '../../src/client/cache/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const SESSIONS = 20;
let cluster: Cluster;
let pages: CounterPages;

beforeAll(async () => {
  pages = await startCounterPages();
  // More slots than the SIGKILL test's sessions: the approval and MCP tests' sessions may still be ending.
  cluster = await startCluster({ replicas: 2, gridSlots: SESSIONS + 2 });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await pages?.close();
});

/** Retryable answers: the replica went away (UNAVAILABLE), or a dead replica's lease has not expired yet (SESSION_BUSY). */
const RETRYABLE = new Set(['UNAVAILABLE', 'SESSION_BUSY']);

async function callRetrying(path: string, body: unknown): Promise<{ body: any; attempts: number }> {
  const deadline = Date.now() + 45_000;
  for (let attempts = 1; ; attempts++) {
    const r = await cluster.call(path, body);
    if (r.body?.success || !RETRYABLE.has(r.body?.error?.code) || Date.now() > deadline) return { body: r.body, attempts };
    await new Promise((res) => setTimeout(res, 250));
  }
}

const { hitsBecome } = { hitsBecome: (n: number, want: number) => pages.hitsBecome(n, want) };
const hits = { get: (n: number) => pages.hits.get(n) };

describe('two replicas on one PostgreSQL and a Grid', () => {
  it('a key made with `deckhand keys create` works on every replica at once; revoked, on none', async () => {
    const cli = join(fileURLToPath(new URL('../../', import.meta.url)), 'dist/cli.js');
    const env = { ...process.env, DECKHAND_DATABASE_URL: cluster.pg.url };
    const key = execFileSync(process.execPath, [cli, 'keys', 'create'], { env, encoding: 'utf8' }).trim();
    expect(key).toMatch(/^dh_[\w-]{20,}$/);
    const lookup = () =>
      Promise.all(
        cluster.replicas.map(() =>
          fetch(`${cluster.rr.url}/v1/cache/lookup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-dh-api-key': key },
            body: JSON.stringify({ key: 'z'.repeat(32), baseKey: 'y'.repeat(32) }),
          }).then((res) => res.status),
        ),
      );
    expect(await lookup()).toEqual([200, 200]);
    execFileSync(process.execPath, [cli, 'keys', 'revoke'], { env, input: key });
    // Each replica remembers a key's answer for at most 5 s.
    await new Promise((r) => setTimeout(r, 5500));
    expect(await lookup()).toEqual([401, 401]);
    const db = new pg.Client({ connectionString: cluster.pg.url });
    await db.connect();
    try {
      expect(JSON.stringify((await db.query('SELECT * FROM dh_api_keys')).rows)).not.toContain(key);
    } finally {
      await db.end();
    }
  }, 60_000);

  it('a step waiting for approval on one replica is listed and approved through the other, and goes on', async () => {
    const [a, b] = cluster.replicas;
    const on = (r: { url: string }, path: string, init: { method?: string; body?: unknown; stream?: boolean } = {}) =>
      fetch(`${cluster.rr.url}${path}`, {
        method: init.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          'x-dh-api-key': cluster.apiKey,
          'x-replica': r.url,
          ...(init.stream ? { 'x-stream-response': 'true' } : {}),
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
    const n = 900;
    const id = (await (await on(a, '/v1/sessions/start', { body: {} })).json()).data.sessionId as string;
    expect((await on(b, `/v1/sessions/${id}/navigate`, { body: { url: `${pages.origin}/?s=${n}` } })).status).toBe(200);
    // The act runs on replica a: its step waits there.
    const res = await on(a, `/v1/sessions/${id}/act`, {
      stream: true,
      body: { input: 'click the Add one button', model: 'deckhand/local', approval: { words: ['add one'] } },
    });
    const answered: unknown[] = [];
    const events = await readEvents(res, (e) => {
      if (e.status !== 'approval') return;
      void (async () => {
        expect(hits.get(n) ?? 0).toBe(0);
        const listed = await (await on(b, `/v1/sessions/${id}/approvals`, { method: 'GET' })).json();
        expect(listed.data.map((r: { id: string }) => r.id)).toEqual([e.data.id]);
        answered.push(await (await on(b, `/v1/sessions/${id}/approvals/${e.data.id}`, { body: { decision: 'approve' } })).json());
      })().catch((err: unknown) => answered.push(String(err)));
    });
    expect(answered).toEqual([{ success: true, data: { settled: true } }]);
    const last = events.at(-1);
    expect(last.status, JSON.stringify(last)).toBe('finished');
    expect(last.data.data.success).toBe(true);
    expect(await hitsBecome(n, 1)).toBe(1);
    // Decided: no replica lists it, and deciding again settles nothing.
    expect((await (await on(b, `/v1/sessions/${id}/approvals`, { method: 'GET' })).json()).data).toEqual([]);
    const asked = events.find((e) => e.status === 'approval').data.id as string;
    const again = await (await on(a, `/v1/sessions/${id}/approvals/${asked}`, { body: { decision: 'stop' } })).json();
    expect(again).toEqual({ success: true, data: { settled: false } });
    expect((await on(b, `/v1/sessions/${id}/end`, { body: {} })).status).toBe(200);
  }, 120_000);

  it('an MCP session over Streamable HTTP lives on one replica: routed by Mcp-Session-Id it works, elsewhere it is a 404', async () => {
    const c = new Client({ name: 'replicas-test', version: '1.0.0' });
    const headers = { authorization: `Bearer ${cluster.apiKey}` };
    const transport = new StreamableHTTPClientTransport(new URL(`${cluster.rr.url}/mcp`), { requestInit: { headers } });
    await c.connect(transport);
    try {
      const n = 901;
      type Text = { isError?: boolean; content: { text: string }[] };
      const call = (name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<Text>;
      // Requests of other callers in between: the round-robin moves on, the MCP session's stay where it began.
      const nav = await call('navigate', { url: `${pages.origin}/?s=${n}` });
      expect(nav.isError, JSON.stringify(nav)).toBeFalsy();
      for (let k = 1; k <= 3; k++) {
        await cluster.call('/v1/cache/lookup', { key: 'm'.repeat(32), baseKey: 'n'.repeat(32) });
        const acted = await call('act', { action: 'click the Add one button' });
        expect(acted.isError, JSON.stringify(acted)).toBeFalsy();
        expect(await hitsBecome(n, k)).toBe(k);
      }
      // The same session id sent to each replica: the one it began on answers, the other does not know it.
      const elsewhere = await Promise.all(
        cluster.replicas.map((r) =>
          fetch(`${cluster.rr.url}/mcp`, {
            method: 'POST',
            headers: {
              ...headers,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-session-id': transport.sessionId!,
              'x-replica': r.url,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
          }).then((res) => res.status),
        ),
      );
      expect(elsewhere.sort()).toEqual([200, 404]);
    } finally {
      // Ends the MCP session and its browser on the replica that holds it.
      await transport.terminateSession().catch(() => undefined);
      await c.close();
    }
  }, 180_000);

  it('serve any session from either replica, survive a SIGKILL of one, and leave nothing behind', async () => {
    const ids: string[] = [];
    // Twenty sessions, started through the round-robin: both replicas start some.
    for (const started of await Promise.all(Array.from({ length: SESSIONS }, () => cluster.call('/v1/sessions/start', {})))) {
      expect(started.body?.success, JSON.stringify(started.body)).toBe(true);
      ids.push(started.body.data.sessionId);
    }
    const perReplica = new Map<string, number>();
    for (const id of ids) perReplica.set(cluster.rr.startedOn.get(id)!, (perReplica.get(cluster.rr.startedOn.get(id)!) ?? 0) + 1);
    expect([...perReplica.values()].sort()).toEqual([SESSIONS / 2, SESSIONS / 2]);

    // A short flow on each: its requests alternate between the replicas.
    await Promise.all(
      ids.map(async (id, n) => {
        const nav = await cluster.call(`/v1/sessions/${id}/navigate`, { url: `${pages.origin}/?s=${n}` });
        expect(nav.body?.data?.title, JSON.stringify(nav.body)).toBe(`Counter ${n}`);
        const acted = await cluster.call(`/v1/sessions/${id}/act`, { input: 'click the Add one button', model: 'deckhand/local' });
        expect(acted.body?.data?.data?.success, JSON.stringify(acted.body)).toBe(true);
        expect(await hitsBecome(n, 1)).toBe(1);
        // Streamed: the events of one operation arrive in order, through whichever replica answers.
        const res = await fetch(`${cluster.rr.url}/v1/sessions/${id}/act`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-dh-api-key': cluster.apiKey, 'x-stream-response': 'true' },
          body: JSON.stringify({ input: 'click the Add one button', model: 'deckhand/local' }),
        });
        const events = await readEvents(res);
        expect(events[0].status).toBe('starting');
        const last = events.at(-1);
        expect(last.status, JSON.stringify(last)).toBe('finished');
        expect(last.data.data.success).toBe(true);
        expect(await hitsBecome(n, 2)).toBe(2);
      }),
    );
    const served = [...cluster.rr.served.values()];
    expect(served.length).toBe(2);
    expect(Math.min(...served)).toBeGreaterThan(SESSIONS);

    // The result cache is one for both replicas: what one records, the other answers, counted once each.
    const store = new RemoteStore(cluster.rr.url, cluster.apiKey);
    const key = 'r'.repeat(32);
    const usage = { inputTokens: 1, outputTokens: 1, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 1 };
    const servedBefore = new Map(cluster.rr.served);
    await store.record({ key, baseKey: 'q'.repeat(32), op: 'extract', result: { v: 1 }, usage });
    await Promise.all(Array.from({ length: 10 }, () => store.lookup(key, 'q'.repeat(32))));
    expect((await store.lookup(key, 'q'.repeat(32))).entry?.result).toEqual({ v: 1 });
    expect((await store.lookup(key, 'q'.repeat(32))).count).toBe(13);
    for (const r of cluster.replicas) expect((cluster.rr.served.get(r.url) ?? 0) - (servedBefore.get(r.url) ?? 0)).toBeGreaterThan(0);
    await expect(new RemoteStore(cluster.rr.url, 'not-a-key').lookup(key, key)).rejects.toThrow(/401/);

    // Replica a dies mid-run, with operations in flight on it. Each act is sent with an idempotency key, the same on its
    // retries: the act a dead replica left running in the browser answers the retry, so no click lands twice.
    const victim = cluster.replicas[0];
    const round = ids.map((id, n) =>
      callRetrying(`/v1/sessions/${id}/act`, { input: 'click the Add one button', model: 'deckhand/local', idempotencyKey: `failover-${n}-${id}` }),
    );
    // Killed once it has acts of this round in flight (a fixed pause let a fast machine finish them all first).
    const until = Date.now() + 10_000;
    while (!((cluster.rr.inFlight.get(victim.url) ?? 0) > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(cluster.rr.inFlight.get(victim.url), 'acts in flight on the replica about to die').toBeGreaterThan(0);
    victim.proc.kill('SIGKILL');
    const outcomes = await Promise.all(round);
    for (const [n, o] of outcomes.entries()) {
      expect(o.body?.data?.data?.success, JSON.stringify(o.body)).toBe(true);
      expect(await hitsBecome(n, 3)).toBe(3);
    }
    // Some acts were in flight on the victim: their retries were answered by the run it left in the browser.
    expect(outcomes.some((o) => o.attempts > 1)).toBe(true);
    // A second click would have landed by now.
    await new Promise((r) => setTimeout(r, 1500));
    for (const n of ids.keys()) expect(hits.get(n), `session ${n}`).toBe(3);
    expect(victim.alive).toBe(false);

    // Every session goes on through the replica that is left, then ends there.
    await Promise.all(
      ids.map(async (id, n) => {
        const before = hits.get(n)!;
        const acted = await cluster.call(`/v1/sessions/${id}/act`, { input: 'click the Add one button', model: 'deckhand/local' });
        expect(acted.body?.data?.data?.success, JSON.stringify(acted.body)).toBe(true);
        expect(await hitsBecome(n, before + 1)).toBe(before + 1);
        const ended = await cluster.call(`/v1/sessions/${id}/end`, {});
        expect(ended.body?.data?.ended, JSON.stringify(ended.body)).toBe(true);
      }),
    );
    // Nothing left running: not in the Grid, not in the registry.
    const deadline = Date.now() + 15_000;
    while ((await gridSessions(cluster.grid.url)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await gridSessions(cluster.grid.url)).toBe(0);
    const db = new pg.Client({ connectionString: cluster.pg.url });
    await db.connect();
    try {
      expect((await db.query('SELECT count(*)::int AS n FROM dh_sessions')).rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  }, 300_000);
});
