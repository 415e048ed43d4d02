/**
 * The HTTP service against its own OpenAPI document (/v1/openapi.json): the document itself,
 * then schemathesis (installed pinned into .venv by scripts/setup.mjs) sending generated
 * requests, valid and invalid, to every operation but /v1/sessions/start, which launches a
 * Chromium per call. The session routes still run, with generated ids that name no live
 * session: validation, authentication, the header rules and the error body are what they test.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpResourceRoutes, HttpRoutes } from '../../src/protocol/http';
import { useService } from './harness';

const KEY = 'openapi-test-key';
const SCHEMATHESIS = resolve('.venv/bin/schemathesis');
const h = useService(KEY);

/** Every check but positive_data_acceptance: the service refuses some schema-valid requests by
 * rules OpenAPI cannot state (x-stream-response disagreeing with streamResponse, useSearch
 * without a search provider, a baseURL without its apiKey), and says so with a 400. */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'missing_required_header',
  'unsupported_method',
  'allow_header_conformance',
  'ignored_auth',
];

function run(cmd: string, args: string[], opts: { cwd: string; timeoutMs: number }): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: opts.cwd, timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (e, stdout, stderr) =>
      done({ code: e ? ((e as { code?: number }).code ?? null) : 0, out: `${stdout}${stderr}${e?.killed ? `\n(killed after ${opts.timeoutMs} ms)` : ''}` }),
    );
  });
}

describe('the OpenAPI document', () => {
  it('is served without a key, describes every /v1 route and the key header, and is still behind the Host check', async () => {
    const r = await fetch(`${h.svc.url}/v1/openapi.json`);
    expect(r.status).toBe(200);
    const doc = (await r.json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>>; components: any };
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    const resources = Object.keys(HttpResourceRoutes).map((r) => r.split(' ') as [string, string]);
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set([...Object.keys(HttpRoutes), ...resources.map(([, p]) => p), '/v1/openapi.json'])].sort());
    for (const path of Object.keys(HttpRoutes)) expect(doc.paths[path].post.requestBody, path).toBeDefined();
    for (const [method, path] of resources) expect(doc.paths[path][method.toLowerCase()], `${method} ${path}`).toBeDefined();
    expect(doc.paths['/v1/flows/{name}'].put.requestBody).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-dh-api-key' });
    expect(doc.components.schemas.ErrorBody.required).toEqual(['success', 'error']);
    const u = new URL(h.svc.url);
    const foreign = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request({ host: u.hostname, port: u.port, path: '/v1/openapi.json', headers: { host: 'attacker.example' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => done({ status: res.statusCode!, body }));
      });
      req.on('error', fail);
      req.end();
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe('HOST_NOT_ALLOWED');
  });

  it('schemathesis finds no failure: no 5xx, documented statuses, content types and bodies, invalid input refused', async () => {
    expect(existsSync(SCHEMATHESIS), `${SCHEMATHESIS} is missing: run npm run setup`).toBe(true);
    const { code, out } = await run(
      SCHEMATHESIS,
      [
        'run',
        `${h.svc.url}/v1/openapi.json`,
        '--header',
        `x-dh-api-key: ${KEY}`,
        '--exclude-path',
        '/v1/sessions/start',
        '--checks',
        CHECKS.join(','),
        // Bounded and repeatable: at most 25 cases per operation, from a fixed seed.
        '--max-examples',
        '25',
        '--seed',
        '20260101',
        '--generation-database',
        'none',
        '--request-timeout',
        '10',
        '--no-color',
      ],
      // Its own folder for what it writes (.schemathesis), and a hard stop.
      { cwd: mkdtempSync(join(tmpdir(), 'dh-schemathesis-')), timeoutMs: 75_000 },
    );
    expect(code, out).toBe(0);
    // The POST operations but /v1/sessions/start, and the flows' GET, PUT and DELETE.
    expect(out).toMatch(new RegExp(`Tested: ${Object.keys(HttpRoutes).length - 1 + Object.keys(HttpResourceRoutes).length}\\b`));
  }, 90_000);
});
