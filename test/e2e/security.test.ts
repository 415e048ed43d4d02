/**
 * The service as a hostile client would try it: the operator's provider key, local files,
 * deadlines, slow bodies, two tenants, Host/Origin, content types and malformed ids, and
 * binds beyond loopback. Real HTTP, real Chromium, and a capture server standing in for the
 * model provider.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service';
import { DeckhandError, localBrowser } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { readEvents } from './sse';

const KEY_A = 'tenant-a-key-123456';
const KEY_B = 'tenant-b-key-654321';
const ENV_KEY = 'sk-operator-env-key-777777777';
let svc: RunningService;
let home: string;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let ms: ModelServer;

beforeAll(async () => {
  process.env.DECKHAND_API_KEYS = `${KEY_A},${KEY_B}`;
  servers = await startFixtureServers();
  ms = await startModelServer();
  home = mkdtempSync(join(tmpdir(), 'dh-sec-'));
  svc = await startService({ home, port: 0, maxSessions: 3, requestTimeoutMs: 2_000, headersTimeoutMs: 2_000 });
});
afterAll(async () => {
  await svc?.close();
  await servers?.close();
  await ms?.close();
  delete process.env.DECKHAND_API_KEYS;
});
afterEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});

const post = (path: string, body: unknown, key = KEY_A, headers: Record<string, string> = {}) =>
  fetch(svc.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-dh-api-key': key, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const json = async (path: string, body: unknown, key = KEY_A, headers: Record<string, string> = {}) => {
  const r = await post(path, body, key, headers);
  return { status: r.status, body: (await r.json()) as { success: boolean; data?: any; error?: { code: string; message: string } } };
};
const start = async (key = KEY_A) => {
  const r = await json('/v1/sessions/start', {}, key);
  expect(r.status).toBe(200);
  return r.body.data.sessionId as string;
};
const end = (id: string, key = KEY_A) => json(`/v1/sessions/${id}/end`, {}, key);
const sawEnvKey = () => ms.requests.some((r) => JSON.stringify(r.headers).includes(ENV_KEY) || r.raw.includes(ENV_KEY));

/** A raw HTTP exchange, for headers fetch will not let a caller set (Host) or slow bodies. */
function rawRequest(opts: { path: string; headers: Record<string, string>; body?: string; url?: string }): Promise<{ status: number; body: any }> {
  const u = new URL(opts.url ?? svc.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: opts.path, method: 'POST', headers: opts.headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(opts.body ?? '{}');
  });
}

describe("the operator's provider key", () => {
  it('is never sent to a baseURL a caller names: act, session start and agentExecute get a clear 400', async () => {
    process.env.OPENAI_API_KEY = ENV_KEY;
    const hostile = { modelName: 'openai/gpt-4.1-mini', baseURL: ms.url };
    const id = await start();
    try {
      await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
      const cases = [
        await json(`/v1/sessions/${id}/act`, { input: 'click the reset button', model: hostile }),
        await json(`/v1/sessions/${id}/extract`, { instruction: 'the title', model: { ...hostile, provider: 'openai', modelName: 'gpt-4.1' } }),
        await json('/v1/sessions/start', { model: hostile }),
        await json(`/v1/sessions/${id}/agentExecute`, { agentConfig: { model: hostile }, executeOptions: { instruction: 'click reset' } }),
      ];
      for (const c of cases) {
        expect(c.status, JSON.stringify(c.body)).toBe(400);
        expect(c.body.error!.code).toBe('INVALID_ARGUMENT');
        expect(c.body.error!.message).toMatch(/pass apiKey/);
      }
      // A streamed agent run is refused before its stream starts.
      const res = await post(`/v1/sessions/${id}/agentExecute`, {
        agentConfig: { model: hostile },
        executeOptions: { instruction: 'click reset' },
        streamResponse: true,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_ARGUMENT');
      // Whatever the environment holds: a keyless endpoint by any name, with no provider key set.
      delete process.env.OPENAI_API_KEY;
      for (const model of [
        { modelName: 'llama-3.2', baseURL: ms.url },
        { modelName: 'x', baseURL: ms.url, openaiEndpointFormat: 'chat' },
      ]) {
        const r = await json('/v1/sessions/start', { model });
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.error!.message).toMatch(/model names its own baseURL.*pass apiKey/);
      }
      const keyless = { modelName: 'm', baseURL: ms.url };
      const exec = await json(`/v1/sessions/${id}/agentExecute`, { agentConfig: { executionModel: keyless }, executeOptions: { instruction: 'x' } });
      expect(exec.body.error!.message).toMatch(/agentConfig\.executionModel names its own baseURL/);
      expect(sawEnvKey()).toBe(false);
      // Scrubbing keeps validation messages about credential fields readable.
      const shape = await json(`/v1/sessions/${id}/act`, { input: 'click reset', model: { provider: 'azure', modelName: 'dep' } });
      expect(shape.status).toBe(400);
      expect(shape.body.error!.message).toMatch(/apiKey: Required/);
    } finally {
      await end(id);
    }
  });

  it("goes only to the operator's own endpoint, and a provider error echoing it comes back scrubbed (JSON and SSE)", async () => {
    // The operator points the provider at the capture server: the key may go there, and only there.
    process.env.OPENAI_API_KEY = ENV_KEY;
    process.env.OPENAI_BASE_URL = ms.url;
    const id = await start();
    try {
      await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
      ms.script({
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${ENV_KEY}. Authorization: Bearer ${ENV_KEY}`, type: 'invalid_request_error' } },
      });
      const r = await json(`/v1/sessions/${id}/extract`, { instruction: 'the page title', model: 'openai/gpt-4.1-mini' });
      expect(r.status).toBe(502);
      expect(r.body.error!.code).toBe('MODEL_AUTH_FAILED');
      expect(JSON.stringify(r.body)).not.toContain(ENV_KEY);
      expect(r.body.error!.message).toContain('[redacted]');
      expect(ms.requests.at(-1)!.headers.authorization).toBe(`Bearer ${ENV_KEY}`); // it did go to the operator's endpoint
      const res = await post(`/v1/sessions/${id}/extract`, { instruction: 'the page title', model: 'openai/gpt-4.1-mini', streamResponse: true });
      const text = JSON.stringify(await readEvents(res));
      expect(text).toContain('MODEL_AUTH_FAILED');
      expect(text).not.toContain(ENV_KEY);
      // A caller's own key echoed back is scrubbed too.
      ms.script({ status: 401, body: { error: { message: 'Incorrect API key provided: callers-own-key-4242' } } });
      const own = await json(`/v1/sessions/${id}/extract`, {
        instruction: 'x',
        model: { modelName: 'openai/gpt-4.1-mini', baseURL: ms.url, apiKey: 'callers-own-key-4242' },
      });
      expect(own.body.error!.code).toBe('MODEL_AUTH_FAILED');
      expect(JSON.stringify(own.body)).not.toContain('callers-own-key-4242');
    } finally {
      await end(id);
    }
  });
});

describe('local files and browser-internal pages', () => {
  it('are refused with URL_NOT_ALLOWED naming the scheme, over HTTP and MCP; a redirect into file: too', async () => {
    const id = await start();
    try {
      for (const url of [
        'file:///etc/passwd',
        `file://${home}/`,
        'chrome://version',
        'view-source:http://127.0.0.1/',
        'javascript:alert(1)',
        'chrome-extension://abc/x.html',
        'devtools://devtools/x',
      ]) {
        const r = await json(`/v1/sessions/${id}/navigate`, { url });
        expect(r.status, url).toBe(403);
        expect(r.body.error!.code).toBe('URL_NOT_ALLOWED');
        expect(r.body.error!.message).toContain(new URL(url).protocol);
      }
      const redirect = await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/redirect/file` });
      expect(redirect.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(redirect.body)).not.toContain('root:x:0:0');
      const ex = await json(`/v1/sessions/${id}/extract`, {});
      expect(JSON.stringify(ex.body)).not.toContain('root:x:0:0');
      // data: is not refused by the policy, and the session's open page goes there.
      const data = await json(`/v1/sessions/${id}/navigate`, { url: 'data:text/html,<title>ok</title><p>data page</p>' });
      expect(data.status).toBe(200);
      expect((await json(`/v1/sessions/${id}/navigate`, { url: 'about:blank' })).status).toBe(200);
    } finally {
      await end(id);
    }
    const c = new Client({ name: 'sec', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY_A}` } } }));
    try {
      const r = (await c.callTool({ name: 'navigate', arguments: { url: 'file:///etc/passwd' } })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/file:/);
      expect(r.content[0].text).not.toContain('root:x:0:0');
    } finally {
      await c.callTool({ name: 'end', arguments: {} });
      await c.close();
    }
  });
});

describe("the operator's opt-in", () => {
  it('a service started with allowUrlSchemes [file] opens local files for its sessions; callers still cannot widen it', async () => {
    const own = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-sec-file-')), port: 0, allowUrlSchemes: ['file'] });
    const call = (path: string, body: unknown) =>
      fetch(own.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY_A }, body: JSON.stringify(body) }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as any }),
      );
    try {
      const id = (await call('/v1/sessions/start', {})).body.data.sessionId;
      const file = await call(`/v1/sessions/${id}/navigate`, { url: 'file:///etc/hostname' });
      expect(file.status).toBe(200);
      expect(file.body.data.url).toBe('file:///etc/hostname');
      expect((await call(`/v1/sessions/${id}/navigate`, { url: 'chrome://version' })).body.error.code).toBe('URL_NOT_ALLOWED');
      await call(`/v1/sessions/${id}/end`, {});
    } finally {
      await own.close();
    }
    // On the default service, a caller's own options cannot open file: either.
    const id = await start();
    try {
      const r = await json(`/v1/sessions/${id}/navigate`, { url: 'file:///etc/hostname', options: { allowSchemes: ['file'] } });
      expect(r.status).toBe(400);
    } finally {
      await end(id);
    }
  });
});

describe('deadlines', () => {
  it('timeouts above 10 minutes are a 400 everywhere; /end always ends, cancelling what runs', async () => {
    const id = await start();
    for (const [path, body] of [
      [`/v1/sessions/${id}/act`, { input: 'x', timeout: 2147478647 }],
      [`/v1/sessions/${id}/act`, { input: 'x', timeout: 600_001 }],
      [`/v1/sessions/${id}/observe`, { timeout: 2 ** 31 }],
      [`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html`, options: { timeout: 2 ** 40 } }],
      [`/v1/sessions/${id}/agentExecute`, { executeOptions: { instruction: 'x', toolTimeout: 10 ** 9 } }],
      ['/v1/sessions/start', { domSettleTimeoutMs: 10 ** 9 }],
    ] as const) {
      const r = await json(path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.error!.message).toMatch(/at most 600000/);
    }
    await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
    // A long wait for an element that never comes, then /end while it runs.
    const t0 = Date.now();
    const running = post(`/v1/sessions/${id}/act`, { input: { selector: '#never-there', description: 'x', method: 'click' }, timeout: 120_000 });
    await new Promise((r) => setTimeout(r, 500));
    const ended = await end(id);
    expect(ended).toEqual({ status: 200, body: { success: true, data: { ended: true } } });
    const op = await running;
    expect(op.status).toBeGreaterThanOrEqual(400);
    expect(op.status).not.toBe(408);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect((await json(`/v1/sessions/${id}/act`, { input: 'x' })).status).toBe(404);
  });

  it('the client library refuses unbounded deadlines before sending anything', async () => {
    await expect(localBrowser.launch({ timeout: 2 ** 31 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/10 minutes/) });
    await expect(localBrowser.connect({ cdpUrl: 'http://127.0.0.1:9', timeout: 2 ** 31 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const id = await start();
    try {
      const dh = (await svc.sessions.get(id, (await svc.keys.tenantOf(KEY_A))!)).dh;
      const t0 = Date.now();
      await expect(dh.act({ selector: 'body', description: 'b', method: 'click' }, { timeout: 2 ** 31 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(dh.experimentalBatch(async () => 1, undefined, { timeout: 2 ** 31 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect((await dh.context.activePage()).goto(`${servers.origin}/form.html`, { timeout: 2 ** 40 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(Date.now() - t0).toBeLessThan(2_000);
    } finally {
      await end(id);
    }
  });

  it('a deadline is kept on a hung renderer', async () => {
    const id = await start();
    try {
      await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
      // Hang the page's main thread for longer than the act may take.
      const page = await (await svc.sessions.get(id, (await svc.keys.tenantOf(KEY_A))!)).dh.context.activePage();
      await page.evaluate(
        () =>
          void setTimeout(() => {
            const until = Date.now() + 20_000;
            while (Date.now() < until) {
              /* busy */
            }
          }, 50),
      );
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      const r = await json(`/v1/sessions/${id}/act`, { input: { selector: '#name', description: 'name', method: 'fill', arguments: ['x'] }, timeout: 3_000 });
      const took = Date.now() - t0;
      expect(r.status).toBe(504);
      expect(r.body.error!.code).toBe('TIMEOUT');
      expect(took).toBeLessThan(3_000 + 1_500);
    } finally {
      await end(id);
    }
  });
});

describe('authentication before work, and slow clients', () => {
  it('/mcp answers 401 before reading a body, and closes the connection', async () => {
    const u = new URL(svc.url);
    const socks = await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<{ text: string; closed: boolean }>((resolve) => {
            const s = connect(Number(u.port), u.hostname, () => {
              s.write(`POST /mcp HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"jsonrpc":`);
            });
            let text = '';
            s.on('data', (d) => (text += d));
            s.on('close', () => resolve({ text, closed: true }));
            setTimeout(() => {
              s.destroy();
              resolve({ text, closed: false });
            }, 5_000);
          }),
      ),
    );
    for (const s of socks) {
      expect(s.text).toMatch(/^HTTP\/1\.1 401/);
      expect(s.text.toLowerCase()).toContain('www-authenticate: bearer');
      expect(s.closed).toBe(true);
    }
  });

  it('an authenticated client that trickles its body is cut off at the request deadline', async () => {
    const u = new URL(svc.url);
    const t0 = Date.now();
    const outcome = await new Promise<{ text: string; ms: number }>((resolve) => {
      const s = connect(Number(u.port), u.hostname, () => {
        s.write(
          `POST /v1/sessions/start HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nx-dh-api-key: ${KEY_A}\r\nContent-Length: 100\r\n\r\n{`,
        );
      });
      const trickle = setInterval(() => s.writable && s.write(' '), 300);
      let text = '';
      s.on('data', (d) => (text += d));
      s.on('close', () => {
        clearInterval(trickle);
        resolve({ text, ms: Date.now() - t0 });
      });
      setTimeout(() => s.destroy(), 15_000);
    });
    expect(outcome.ms).toBeLessThan(6_000); // requestTimeoutMs 2000, checked every second
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe('API keys are tenants', () => {
  it("one key cannot see, drive or end another key's session", async () => {
    const id = await start(KEY_A);
    try {
      await json(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
      for (const [path, body] of [
        [`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/links.html` }],
        [`/v1/sessions/${id}/act`, { input: { selector: '#name', description: 'n', method: 'fill', arguments: ['intruder'] } }],
        [`/v1/sessions/${id}/extract`, {}],
        [`/v1/sessions/${id}/end`, {}],
      ] as const) {
        const r = await json(path, body, KEY_B);
        expect(r.status, path).toBe(404);
        expect(r.body.error!.code).toBe('SESSION_NOT_FOUND');
      }
      const page = await (await svc.sessions.get(id, (await svc.keys.tenantOf(KEY_A))!)).dh.context.activePage();
      expect(await page.url()).toBe(`${servers.origin}/form.html`);
      expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('');
    } finally {
      expect((await end(id, KEY_A)).status).toBe(200);
    }
  });

  it("the result cache is partitioned by key: B never gets A's entries", async () => {
    const key = 'c'.repeat(40);
    const baseKey = 'd'.repeat(40);
    const usage = { inputTokens: 5, outputTokens: 5, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 5 };
    const rec = await json(
      '/v1/cache/record',
      { key, baseKey, op: 'act', result: [{ selector: '#delete-account', description: 'poisoned', method: 'click' }], usage },
      KEY_A,
    );
    expect(rec.status).toBe(200);
    const a = await json('/v1/cache/lookup', { key, baseKey }, KEY_A);
    expect(a.body.data.entry).toMatchObject({ op: 'act' });
    const b = await json('/v1/cache/lookup', { key, baseKey }, KEY_B);
    expect(b.body.data).toEqual({ count: 1, entry: null, pageChanged: false });
  });

  it('an MCP session id is useless with another key', async () => {
    const a = new Client({ name: 'a', version: '1.0.0' });
    const ta = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY_A}` } } });
    await a.connect(ta);
    try {
      const r = await rawRequest({
        path: '/mcp',
        headers: {
          host: new URL(svc.url).host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${KEY_B}`,
          'mcp-session-id': ta.sessionId!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(r.status).toBe(404);
    } finally {
      await a.close();
    }
  });
});

describe('requests a browser page could forge', () => {
  it('a foreign Host (DNS rebinding) or any web Origin is refused on /v1 and /mcp', async () => {
    for (const path of ['/v1/sessions/start', '/mcp']) {
      const host = await rawRequest({
        path,
        headers: { host: 'attacker.example:80', 'content-type': 'application/json', 'x-dh-api-key': KEY_A, authorization: `Bearer ${KEY_A}` },
      });
      expect(host.status, path).toBe(403);
      expect(host.body.error.code).toBe('HOST_NOT_ALLOWED');
      const origin = await rawRequest({
        path,
        headers: { host: new URL(svc.url).host, origin: 'http://attacker.example', 'content-type': 'application/json', 'x-dh-api-key': KEY_A },
      });
      expect(origin.status, path).toBe(403);
      expect(origin.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    // localhost by name is still this service.
    const ok = await rawRequest({
      path: '/v1/cache/lookup',
      headers: { host: `localhost:${new URL(svc.url).port}`, 'content-type': 'application/json', 'x-dh-api-key': KEY_A },
      body: JSON.stringify({ key: 'e'.repeat(20), baseKey: 'f'.repeat(20) }),
    });
    expect(ok.status).toBe(200);
    // The service's own loopback origin (MCP clients send it) is this service too; a page of
    // another local server (another port) is not.
    const port = new URL(svc.url).port;
    const lookup = (origin: string) =>
      rawRequest({
        path: '/v1/cache/lookup',
        headers: { host: `localhost:${port}`, origin, 'content-type': 'application/json', 'x-dh-api-key': KEY_A },
        body: JSON.stringify({ key: 'e'.repeat(20), baseKey: 'f'.repeat(20) }),
      });
    expect((await lookup(`http://localhost:${port}`)).status).toBe(200);
    expect((await lookup(`http://127.0.0.1:${port}`)).status).toBe(200);
    const otherPort = await lookup(`http://localhost:${Number(port) === 8080 ? 8081 : 8080}`);
    expect(otherPort.status).toBe(403);
    expect(otherPort.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await lookup(`https://localhost:${port}`)).status).toBe(403);
  });

  it('a body that is not JSON is 415, a malformed session id 400', async () => {
    const form = await post('/v1/sessions/start', 'a=b', KEY_A, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(((await form.json()) as any).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const plain = await post('/v1/sessions/start', '{}', KEY_A, { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    for (const bad of ['%', '%zz', 'abc', '..%2f..%2fetc']) {
      const r = await post(`/v1/sessions/${bad}/act`, { input: 'x' });
      expect(r.status, bad).toBe(400);
      expect(((await r.json()) as any).error.code).toBe('INVALID_SESSION_ID');
    }
  });
});

describe('binding beyond loopback', () => {
  /** A loopback port that was free a moment ago. */
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
  const nothingListens = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
  const lookupAs = (url: string, host: string) =>
    rawRequest({
      url,
      path: '/v1/cache/lookup',
      headers: { host, 'content-type': 'application/json', 'x-dh-api-key': KEY_A },
      body: JSON.stringify({ key: 'e'.repeat(20), baseKey: 'f'.repeat(20) }),
    });
  /** The CLI in a process of its own, ended after 30 s at most (a start that should fail may not). */
  const cli = (args: string[], env: Record<string, string> = {}) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', ...args], {
      env: { ...process.env, DECKHAND_HOME: mkdtempSync(join(tmpdir(), 'dh-bind-cli-')), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout!.on('data', (d) => (out += d));
    p.stderr!.on('data', (d) => (out += d));
    const kill = setTimeout(() => p.kill('SIGKILL'), 30_000);
    const exited = new Promise<number | null>((resolve) => p.once('exit', (code) => (clearTimeout(kill), resolve(code))));
    return { p, exited, output: () => out };
  };

  it('startService refuses a non-loopback address without allowed hosts: a typed error naming it, nothing bound or created', async () => {
    for (const [host, allowedHosts] of [
      ['0.0.0.0', undefined],
      ['::', []],
      ['192.0.2.1', undefined],
      ['deckhand.example.com', undefined],
    ] as const) {
      const dataHome = join(mkdtempSync(join(tmpdir(), 'dh-bind-')), 'home');
      const port = await freePort();
      const e = await startService({ home: dataHome, host, port, allowedHosts: allowedHosts && [...allowedHosts] }).then(
        (s) => (void s.close(), null),
        (err: unknown) => err,
      );
      expect(e, host).toBeInstanceOf(DeckhandError);
      expect((e as DeckhandError).code, host).toBe('HOST_NOT_ALLOWED');
      expect((e as DeckhandError).message, host).toContain(host);
      expect((e as DeckhandError).message, host).toContain('--allowed-hosts');
      expect(await nothingListens(port), host).toBe(true);
      expect(existsSync(dataHome), host).toBe(false);
    }
  });

  it("with allowed hosts it listens on every interface, answers those host names and refuses others; '*' answers any", async () => {
    const open = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-bind-')), host: '0.0.0.0', port: 0, allowedHosts: ['deckhand.example.com'] });
    try {
      const url = `http://127.0.0.1:${new URL(open.url).port}`;
      expect((await lookupAs(url, 'deckhand.example.com')).status).toBe(200);
      const other = await lookupAs(url, 'attacker.example');
      expect(other.status).toBe(403);
      expect(other.body.error.code).toBe('HOST_NOT_ALLOWED');
    } finally {
      await open.close();
    }
    const any = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-bind-')), host: '::', port: 0, allowedHosts: ['*'] });
    try {
      expect((await lookupAs(`http://127.0.0.1:${new URL(any.url).port}`, 'whatever.example')).status).toBe(200);
    } finally {
      await any.close();
    }
  });

  it('the CLI: HOST=0.0.0.0 (serve) and --host 0.0.0.0 (mcp) fail at start naming the address and the flag; with --allowed-hosts serve listens', async () => {
    const refused = cli(['serve', '--port', '0'], { HOST: '0.0.0.0' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/deckhand: .*0\.0\.0\.0.*--allowed-hosts/s);
    expect(refused.output()).not.toMatch(/listening/);
    const mcp = cli(['mcp', '--port', '0', '--host', '0.0.0.0']);
    expect(await mcp.exited).toBe(1);
    expect(mcp.output()).toMatch(/deckhand: .*0\.0\.0\.0.*--allowedHosts/s);
    const allowed = cli(['serve', '--port', '0', '--allowed-hosts', 'deckhand.example.com'], { HOST: '0.0.0.0' });
    try {
      const deadline = Date.now() + 20_000;
      while (!/listening on/.test(allowed.output()) && allowed.p.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(allowed.output()).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+/);
    } finally {
      allowed.p.kill('SIGTERM');
      await allowed.exited;
    }
  }, 100_000);
});

describe('the data folder', () => {
  it('is private to its owner: the folder 0700, the key file and the cache database 0600', () => {
    expect(statSync(home).mode & 0o777).toBe(0o700);
    for (const f of ['cache.db', 'cache.db-wal']) {
      expect(statSync(join(home, f)).mode & 0o777, f).toBe(0o600);
    }
  });
});
