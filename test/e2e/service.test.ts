/** The HTTP service over real HTTP, with real Chromium behind it and the scripted model server. */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';
import { idFor, startModelServer, type ModelServer } from '../fixtures/model-server';
import { readEvents } from './sse';
import { chromiumWithPort } from './harness';

const KEY = 'svc-test-key';
const OTHER_KEY = 'svc-other-key';
let svc: RunningService;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let ms: ModelServer;

beforeAll(async () => {
  process.env.DECKHAND_API_KEYS = `${KEY},${OTHER_KEY}`;
  servers = await startFixtureServers();
  ms = await startModelServer();
  svc = await startService({
    home: mkdtempSync(join(tmpdir(), 'dh-svc-')),
    port: 0,
    maxSessions: 3,
    maxBodyBytes: 64 * 1024,
    // The operator's price for the scripted model, over its list price.
    prices: { 'openai/gpt-4.1-mini': { inputPerMTok: 1, outputPerMTok: 10, cachedInputPerMTok: 0.25 } },
  });
});
afterAll(async () => {
  await svc?.close();
  await servers?.close();
  await ms?.close();
  delete process.env.DECKHAND_API_KEYS;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(svc.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const json = async (path: string, body: unknown, headers?: Record<string, string>) => {
  const r = await post(path, body, headers);
  return { status: r.status, body: (await r.json()) as { success: boolean; data?: any; error?: { code: string; message: string } } };
};

const events = readEvents;

const model = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-from-body', baseURL: ms.url });

describe('the session lifecycle', () => {
  it('start, navigate, act (Action and instruction), observe, extract, end', async () => {
    const start = await json(
      '/v1/sessions/start',
      { model: model(), viewport: { width: 900, height: 700 }, systemPrompt: 'Be careful.' },
      { 'x-dh-project-id': 'legacy-project' },
    );
    expect(start.status).toBe(200);
    const id = start.body.data.sessionId as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const nav = await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
    expect(nav.body.data).toMatchObject({ url: `${servers.origin}/form.html`, title: 'Sign up' });
    const det = await json(`/v1/sessions/${id}/act`, { input: { selector: '#multi', description: 'multi', method: 'click' } });
    expect(det.body.data.data.success).toBe(true);
    expect(det.body.data.metadata.cache.status).toBe('DISABLED');
    ms.script((_r, prompt) => ({
      object: {
        found: true,
        elementId: idFor(prompt, /textbox "Full name"/),
        method: 'fill',
        arguments: ['%n%'],
        description: 'name',
        twoStep: false,
        reason: '',
      },
    }));
    const act = await json(`/v1/sessions/${id}/act`, { input: 'type %n% in the name', variables: { n: 'Hidden Value 991' } });
    expect(act.body.data.data.success).toBe(true);
    expect(ms.requests.at(-1)!.headers.authorization).toBe('Bearer sk-from-body');
    expect(ms.requests.at(-1)!.raw).toContain('Be careful.');
    expect(ms.requests.some((r) => r.raw.includes('Hidden Value 991'))).toBe(false);
    ms.script((_r, prompt) => ({
      object: { elements: [{ elementId: idFor(prompt, /button "Reset"/), description: 'Reset', method: 'click', arguments: [] }] },
    }));
    const obs = await json(`/v1/sessions/${id}/observe`, { instruction: 'the reset button' });
    expect(obs.body.data.data[0]).toMatchObject({ description: 'Reset', method: 'click' });
    ms.script({ object: { heading: 'Sign up' } });
    const ext = await json(`/v1/sessions/${id}/extract`, {
      instruction: 'heading',
      schema: { type: 'object', properties: { heading: { type: 'string' } }, required: ['heading'] },
    });
    expect(ext.body.data.data).toEqual({ heading: 'Sign up' });
    // The built-in local model per call, by name.
    const local = await json(`/v1/sessions/${id}/act`, { input: 'click the Multi button', model: 'deckhand/local' });
    expect(local.body.data.data.success).toBe(true);
    // What each call cost, at the operator's price (the scripted 100 in, 20 out: 100 × 1 + 20 × 10 per million); the built-in model and an Action cost nothing.
    expect(act.body.data.metadata.costUsd).toBe(0.0003);
    expect(obs.body.data.metadata.costUsd).toBe(0.0003);
    expect(ext.body.data.metadata.costUsd).toBe(0.0003);
    expect(local.body.data.metadata.costUsd).toBe(0);
    expect(det.body.data.metadata.costUsd).toBe(0);
    // A caller cannot price a model itself, for its session or a call: only the operator's prices count.
    const priced = { ...model(), price: { inputPerMTok: 0, outputPerMTok: 0 } };
    for (const r of [
      await json('/v1/sessions/start', { model: priced }),
      await json(`/v1/sessions/${id}/act`, { input: 'click the Multi button', model: priced }),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.error!.message).toMatch(/unknown property 'price'/);
    }
    expect((await json(`/v1/sessions/${id}/end`, {})).body).toEqual({ success: true, data: { ended: true } });
    const after = await json(`/v1/sessions/${id}/act`, { input: { selector: '#multi', description: 'x' } });
    expect(after.status).toBe(404);
    expect(after.body.error!.code).toBe('SESSION_NOT_FOUND');
  });
});

describe('the result cache over HTTP', () => {
  it("act with cache hits on the second identical call and says so; without it nothing is looked up; another key's session never sees the entry", async () => {
    const startOn = async (key: string) => {
      const id = (await json('/v1/sessions/start', { model: model() }, { 'x-dh-api-key': key })).body.data.sessionId as string;
      await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` }, { 'x-dh-api-key': key });
      return id;
    };
    const id = await startOn(KEY);
    ms.script((_r, prompt) => ({
      object: { found: true, elementId: idFor(prompt, /button "Multi"/), method: 'click', arguments: [], description: 'Multi', twoStep: false, reason: '' },
      usage: { input: 120, output: 12 },
    }));
    const before = ms.requests.length;
    const plain = await json(`/v1/sessions/${id}/act`, { input: 'click the Multi button' });
    expect(plain.body.data.metadata.cache).toEqual({ status: 'DISABLED' });
    // Priced at the operator's price: 120 × 1 + 12 × 10 per million.
    expect(plain.body.data.metadata.costUsd).toBe(0.00024);
    const first = await json(`/v1/sessions/${id}/act`, { input: 'click the Multi button', cache: true });
    expect(first.body.data.metadata.cache).toEqual({ status: 'MISS', count: 1, threshold: 1, missReason: 'not_found' });
    expect(first.body.data.metadata.costUsd).toBe(0.00024);
    const second = await json(`/v1/sessions/${id}/act`, { input: 'click the Multi button', cache: true });
    expect(second.status).toBe(200);
    expect(second.body.data.data.success).toBe(true);
    expect(second.body.data.metadata.cache).toEqual({
      status: 'HIT',
      count: 2,
      threshold: 1,
      tokensSaved: { inputTokens: 120, outputTokens: 12, totalTokens: 132 },
      costSavedUsd: 0.00024,
    });
    expect(second.body.data.metadata.usage.inputTokens).toBe(0);
    expect(second.body.data.metadata.costUsd).toBe(0);
    expect(ms.requests.length - before).toBe(2); // the hit made no model call
    await json(`/v1/sessions/${id}/end`, {});
    // The other key's session, same page and instruction: its own cache has nothing.
    const other = await startOn(OTHER_KEY);
    const theirs = await json(`/v1/sessions/${other}/act`, { input: 'click the Multi button', cache: true }, { 'x-dh-api-key': OTHER_KEY });
    expect(theirs.body.data.metadata.cache).toMatchObject({ status: 'MISS', missReason: 'not_found' });
    await json(`/v1/sessions/${other}/end`, {}, { 'x-dh-api-key': OTHER_KEY });
  });
});

describe('streaming', () => {
  it('streams starting, connected, running log lines and finished with the JSON result, with event ids', async () => {
    const { body } = await json('/v1/sessions/start', { model: model() });
    const id = body.data.sessionId;
    await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
    ms.script((_r, prompt) => ({
      object: { found: true, elementId: idFor(prompt, /button "Multi"/), method: 'click', arguments: [], description: 'Multi', twoStep: false, reason: '' },
    }));
    const res = await post(`/v1/sessions/${id}/act`, { input: 'click the Multi button' }, { 'x-stream-response': 'true' });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const evs = await events(res);
    expect(evs[0].status).toBe('starting');
    expect(evs[1].status).toBe('connected');
    expect(evs.some((e) => e.status === 'running' && /answered in/.test(e.message))).toBe(true);
    const last = evs.at(-1);
    expect(last.status).toBe('finished');
    expect(last.data.data.success).toBe(true);
    expect(evs.map((e) => e.id)).toEqual(evs.map((_, i) => i + 1));
    expect(evs.map((e) => Number(e.sseId))).toEqual(evs.map((e) => e.id));
    // Body flag works too; an error streams the error body.
    const bad = await events(await post(`/v1/sessions/${id}/act`, { input: { selector: '#nope', description: 'x' }, timeout: 300, streamResponse: true }));
    expect(bad.at(-1)).toMatchObject({ status: 'error', error: { code: 'ELEMENT_NOT_FOUND' } });
    // Header and body disagreeing is refused.
    const clash = await json(`/v1/sessions/${id}/act`, { input: 'click', streamResponse: false }, { 'x-stream-response': 'true' });
    expect(clash.status).toBe(400);
    expect(clash.body.error!.message).toMatch(/disagree/);
    await json(`/v1/sessions/${id}/end`, {});
  });

  it('a client that disconnects mid-stream cancels the operation and frees the session', async () => {
    const { body } = await json('/v1/sessions/start', { model: model() });
    const id = body.data.sessionId;
    await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
    ms.script({ object: { found: false }, delayMs: 8000 });
    const ac = new AbortController();
    const res = await fetch(`${svc.url}/v1/sessions/${id}/act`, {
      method: 'POST',
      signal: ac.signal,
      headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY, 'x-stream-response': 'true' },
      body: JSON.stringify({ input: 'click something slow' }),
    });
    await events(res, (e) => {
      if (e.status === 'running' && /calling/.test(e.message)) ac.abort();
    }).catch(() => undefined);
    const t = Date.now();
    // The session takes the next request soon, long before the 8 s model reply.
    let next = await json(`/v1/sessions/${id}/act`, { input: { selector: '#multi', description: 'x' } });
    while (next.status === 409 && Date.now() - t < 5000) {
      await new Promise((r) => setTimeout(r, 100));
      next = await json(`/v1/sessions/${id}/act`, { input: { selector: '#multi', description: 'x' } });
    }
    expect(next.status).toBe(200);
    expect(Date.now() - t).toBeLessThan(4000);
    await json(`/v1/sessions/${id}/end`, {});
  });
});

describe('bad input gets the documented status and body, and the service keeps serving', () => {
  it('auth, JSON, types, unknown fields, missing sessions, huge bodies, headers, busy sessions, limits', async () => {
    const { body } = await json('/v1/sessions/start', {});
    const id = body.data.sessionId;
    const cases: [number, string, Promise<Response>][] = [
      [401, 'UNAUTHORIZED', fetch(`${svc.url}/v1/sessions/start`, { method: 'POST', body: '{}' })],
      [401, 'UNAUTHORIZED', post('/v1/sessions/start', {}, { 'x-dh-api-key': 'wrong' })],
      [400, 'INVALID_JSON', post(`/v1/sessions/${id}/act`, '{"input":')],
      [400, 'INVALID_ARGUMENT', post(`/v1/sessions/${id}/act`, { input: 42 })],
      [400, 'INVALID_ARGUMENT', post(`/v1/sessions/${id}/act`, { input: 'x', colour: 'red' })],
      [400, 'INVALID_ARGUMENT', post('/v1/sessions/start', { headless: 'yes' })],
      [400, 'INVALID_ARGUMENT', post(`/v1/sessions/${id}/act`, { input: 'x', model: { modelName: 'openai/x', apiKey: 'k', temperature: 1 } })],
      [400, 'INVALID_HEADER', post(`/v1/sessions/${id}/act`, { input: 'x' }, { 'x-stream-response': 'yes' })],
      [404, 'SESSION_NOT_FOUND', post('/v1/sessions/7d4c1a52-9a4e-4a8e-8f5e-0c1d2e3f4a5b/act', { input: 'x' })],
      [400, 'INVALID_SESSION_ID', post('/v1/sessions/no-such-session/act', { input: 'x' })],
      [400, 'INVALID_SESSION_ID', post('/v1/sessions/%E0%A4%A/act', { input: 'x' })],
      [404, 'NOT_FOUND', post('/v1/nothing-here', {})],
      [413, 'BODY_TOO_LARGE', post(`/v1/sessions/${id}/act`, { input: 'x'.repeat(100_000) })],
      // A schema nested 5,000 levels deep (30 kB): refused by name before it reaches the worker.
      [400, 'INVALID_ARGUMENT', post(`/v1/sessions/${id}/extract`, `{"instruction":"x","schema":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`)],
      [504, 'TIMEOUT', post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/slow?ms=3000&to=/form.html`, options: { timeout: 300 } })],
    ];
    for (const [status, code, p] of cases) {
      const r = await p;
      const b = (await r.json()) as { success: boolean; error: { code: string; message: string } };
      expect({ status: r.status, code: b.error?.code, success: b.success }).toEqual({ status, code, success: false });
      expect(b.error.message).not.toMatch(/\n\s+at /); // never a stack trace
    }
    const deep = await post(`/v1/sessions/${id}/extract`, `{"instruction":"x","schema":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`);
    expect(((await deep.json()) as any).error.message).toMatch(/schema.*nested more than 64 levels deep/);
    await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
    const [first, second] = await Promise.all([
      post(`/v1/sessions/${id}/act`, { input: { selector: '#never', description: 'x' }, timeout: 1500 }),
      new Promise((r) => setTimeout(r, 200)).then(() => post(`/v1/sessions/${id}/act`, { input: { selector: 'body', description: 'x' } })),
    ]);
    expect(second.status).toBe(409);
    expect(((await second.json()) as any).error.code).toBe('SESSION_BUSY');
    expect(first.status).toBe(422);
    // Still serving: the session works afterwards.
    expect((await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })).status).toBe(200);
    const more = await Promise.all([json('/v1/sessions/start', {}), json('/v1/sessions/start', {}), json('/v1/sessions/start', {})]);
    expect(more.map((m) => m.status).sort()).toEqual([200, 200, 429]);
    expect(more.find((m) => m.status === 429)!.body.error!.code).toBe('TOO_MANY_SESSIONS');
    for (const m of more.filter((x) => x.status === 200)) await json(`/v1/sessions/${m.body.data.sessionId}/end`, {});
    await json(`/v1/sessions/${id}/end`, {});
    expect(svc.sessions.size).toBe(0);
  });
});

describe('a session start is checked before a browser is launched', () => {
  it('a bad model answers 400 naming the model, with no Chromium started', async () => {
    // With no Chromium to be found, a launch would fail naming Chromium instead.
    const saved = process.env.DECKHAND_CHROMIUM;
    process.env.DECKHAND_CHROMIUM = '/nonexistent/chromium';
    try {
      for (const model of ['bogus-provider/x', { modelName: 'openai/x', baseURL: 'not a url' }]) {
        const r = await post('/v1/sessions/start', { model });
        const b = (await r.json()) as { error: { code: string; message: string } };
        expect(r.status).toBe(400);
        expect(b.error.code).toBe('INVALID_ARGUMENT');
        expect(b.error.message).toMatch(/model/);
        expect(b.error.message).not.toMatch(/Chromium/);
      }
    } finally {
      if (saved === undefined) delete process.env.DECKHAND_CHROMIUM;
      else process.env.DECKHAND_CHROMIUM = saved;
    }
    expect(svc.sessions.size).toBe(0);
  });
});

describe("a caller's DevTools address (cdpUrl)", () => {
  it('is refused unless the operator opened its host, and nothing is contacted; an opened host is driven', async () => {
    // A listener that records whether the service tried to reach it.
    let contacted = 0;
    const trap = createServer((sock) => {
      contacted++;
      sock.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    try {
      const r = await json('/v1/sessions/start', { cdpUrl: trapUrl });
      expect(r.status).toBe(403);
      expect(r.body.error?.code).toBe('CDP_HOST_NOT_ALLOWED');
      expect(r.body.error?.message).toMatch(/--allow-cdp-hosts/);
      expect(contacted).toBe(0);
      expect(svc.sessions.size).toBe(0);
    } finally {
      trap.close();
    }
    const remote = await chromiumWithPort({ extension: true });
    const port = new URL(remote.devtoolsUrl).port;
    const opened = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-svc-')), port: 0, allowCdpHosts: [`127.0.0.1:${port}`] });
    try {
      const call = (path: string, body: unknown) =>
        fetch(opened.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) }).then(
          async (res) => ({ status: res.status, body: (await res.json()) as any }),
        );
      // Another port of the same host is still closed.
      expect((await call('/v1/sessions/start', { cdpUrl: trapUrl })).body.error.code).toBe('CDP_HOST_NOT_ALLOWED');
      const started = await call('/v1/sessions/start', { cdpUrl: remote.devtoolsUrl });
      expect(started.status).toBe(200);
      const id = started.body.data.sessionId;
      expect((await call(`/v1/sessions/${id}/navigate`, { url: servers.origin + '/form.html' })).status).toBe(200);
      const acted = await call(`/v1/sessions/${id}/act`, { input: { selector: '#multi', description: 'multi', method: 'click' } });
      expect(acted.body.data.data.success).toBe(true);
      expect((await call(`/v1/sessions/${id}/end`, {})).status).toBe(200);
    } finally {
      await opened.close();
      await remote.kill();
    }
  });
});

describe('operating it', () => {
  it('SIGTERM ends every session and the process exits cleanly; a generated key is printed once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dh-svc-proc-'));
    const env: Record<string, string | undefined> = { ...process.env, DECKHAND_HOME: home };
    delete env.DECKHAND_API_KEYS;
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout!.on('data', (d) => (out += d));
    const started = await new Promise<{ url: string; key: string }>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(out)), 20_000);
      p.stdout!.on('data', () => {
        const u = /listening on (\S+)/.exec(out);
        const k = /shown only now\): (\S+)/.exec(out);
        if (u && k) {
          clearTimeout(t);
          resolve({ url: u[1], key: k[1] });
        }
      });
    });
    const r = await fetch(`${started.url}/v1/sessions/start`, {
      method: 'POST',
      headers: { 'x-dh-api-key': started.key, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      p.once('exit', resolve);
      p.kill('SIGTERM');
    });
    expect(code).toBe(0);
    expect(out).toMatch(/ending sessions/);
  });
});
