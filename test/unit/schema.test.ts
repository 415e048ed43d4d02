/**
 * schema/deckhand.schema.json: up to date with the zod schemas, every reference resolves,
 * and real payloads get the same verdict from zod and from the JSON Schema.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@cfworker/json-schema';
import type { ZodTypeAny } from 'zod';
import { describe, expect, it } from 'vitest';
import { SQLITE_CACHE_MIGRATIONS, SQLITE_CACHE_STATEMENTS, CACHE_BOUNDS } from '../../src/protocol/cache-sql';
import { PROVIDER_ENV } from '../../src/protocol/model';
import { CACHE_SQL_FILE, generateCacheSql, generateSchema, SCHEMA_FILE } from '../../scripts/gen-schema';
import { AGENT_DEFAULTS, AgentExecuteRequestSchema } from '../../src/protocol/agent';
import { CacheLookupRequestSchema, CacheRecordRequestSchema } from '../../src/protocol/cache';
import { ErrorCode, SerializedErrorSchema } from '../../src/protocol/errors';
import { ActRequestSchema, HttpErrorBodySchema, StartSessionRequestSchema, StreamEventSchema } from '../../src/protocol/http';
import { CHROMIUM_FLAGS, LAUNCH_DEFAULTS, LOCAL_CHROMIUM_FLAGS, SHARED_CHROMIUM_FLAGS } from '../../src/protocol/launch';
import { SCHEMA_LIMITS } from '../../src/protocol/json';
import { McpTools } from '../../src/protocol/mcp';
import { ClientMethods, Methods, OPERATIONS } from '../../src/protocol/methods';
import { ModelConfigSchema, ModelRequestSchema, ResolvedModelSchema } from '../../src/protocol/model';
import { BridgeFrameSchema, QaRecordingSchema } from '../../src/protocol/panel';
import { RpcMessageSchema } from '../../src/protocol/rpc';
import { FlowReplayResultSchema, FlowSchema } from '../../src/protocol/flows';
import { ActionSchema, ActResultSchema, DEFAULTS, LOCATOR_METHODS, MAX_CALL_MS, MAX_TIMEOUT_MS } from '../../src/protocol/schemas';
import { z } from 'zod';

const root = fileURLToPath(new URL('../..', import.meta.url));
const text = readFileSync(`${root}${SCHEMA_FILE}`, 'utf8');
const doc = JSON.parse(text) as {
  definitions: Record<string, unknown>;
  'x-deckhand': Record<string, Record<string, Record<string, string>>> & { chromiumFlags: string[]; sharedChromiumFlags: string[]; schemaLimits: unknown };
};

const validatorFor = (name: string) => {
  expect(doc.definitions, `no definition ${name}`).toHaveProperty([name]);
  return new Validator({ definitions: doc.definitions, $ref: `#/definitions/${name}` } as never, '7', false);
};

const metadata = {
  actionId: 'a1b2',
  cache: { status: 'HIT', count: 3, threshold: 2, tokensSaved: { inputTokens: 1200, outputTokens: 40, totalTokens: 1240 } },
  usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 },
};
const click = { selector: 'xpath=/html/body/form/button[2]', description: 'the Sign in button', method: 'click', arguments: [] };

/** Definition name, its zod schema, payloads both must accept, payloads both must refuse. */
const CASES: { name: string; zod: ZodTypeAny; valid: unknown[]; invalid: unknown[] }[] = [
  {
    name: 'Action',
    zod: ActionSchema,
    valid: [click, { selector: '#q', description: 'search box', method: 'fill', arguments: ['%query%'] }, { selector: 'a', description: '' }],
    invalid: [{ selector: '#q' }, { ...click, extra: 1 }, { ...click, arguments: [1] }, { selector: '', description: 'x' }],
  },
  {
    name: 'ActResult',
    zod: ActResultSchema,
    valid: [
      { data: { success: true, message: 'clicked', actionDescription: 'the Sign in button', actions: [click] }, metadata: { ...metadata, confidence: 0.93 } },
    ],
    invalid: [
      { data: { success: true, message: 'clicked', actionDescription: 'x', actions: [click] }, metadata: { ...metadata, cache: { status: 'MAYBE' } } },
      { data: { success: true, message: 'clicked', actionDescription: 'x', actions: [click] }, metadata: { ...metadata, confidence: 1.5 } },
    ],
  },
  {
    name: 'RpcMessage',
    zod: RpcMessageSchema,
    valid: [
      { kind: 'req', id: 7, method: 'page.goto', params: { page: 3, url: 'https://example.com' } },
      { kind: 'res', id: 7, result: { id: 3, url: 'https://example.com/', title: 'Example Domain' } },
      { kind: 'err', id: 7, error: { code: 'TIMEOUT', message: "'page.goto' timed out after 30000 ms", data: { timeoutMs: 30000 } } },
      { kind: 'err', id: 8, error: { code: 'A_CODE_FROM_A_NEWER_PEER', message: 'read as INTERNAL' } },
    ],
    invalid: [
      { kind: 'req', id: 1.5, method: 'x', params: {} },
      { kind: 'event', id: 1 },
      { kind: 'err', id: 1, error: { message: 'no code' } },
    ],
  },
  {
    name: 'Error',
    zod: SerializedErrorSchema,
    valid: [{ code: 'ELEMENT_NOT_FOUND', message: "no element matches '#gone'", data: { selector: '#gone' } }],
    invalid: [{ code: 'NOT_A_CODE', message: 'x' }, { code: 'INTERNAL' }],
  },
  {
    name: 'PageGotoParams',
    zod: Methods['page.goto'].params,
    valid: [{ page: 3, url: 'https://example.com', options: { waitUntil: 'domcontentloaded', timeout: 30000 }, allowSchemes: ['file'] }],
    invalid: [
      { page: -1, url: 'https://example.com' },
      { page: 3, url: 'x', options: { waitUntil: 'idle' } },
      { page: 3, url: 'x', allowSchemes: ['javascript'] },
    ],
  },
  {
    name: 'ModelGenerateParams',
    zod: ClientMethods['model.generate'].params,
    valid: [
      {
        callbackId: 'c1',
        request: {
          system: 'You act on web pages.',
          prompt: 'Click sign in',
          schema: { type: 'object' },
          outline: [{ depth: 0, kind: 'element', id: 'e1', role: 'button', name: 'Sign in', states: { disabled: true } }],
        },
      },
    ],
    invalid: [{ callbackId: 'c1', request: { system: 's', prompt: 'p', schema: {}, outline: [{ depth: 0, kind: 'row', states: {} }] } }],
  },
  {
    name: 'ModelConfig',
    zod: ModelConfigSchema,
    valid: [
      { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test' },
      { modelName: 'llama3', baseURL: 'http://127.0.0.1:11434/v1', openaiEndpointFormat: 'chat' },
      { provider: 'azure', modelName: 'gpt4o-deploy', resourceName: 'acme', auth: { type: 'azureEntraId', token: 'eyJ0' } },
      {
        provider: 'vertex',
        modelName: 'gemini-2.5-pro',
        auth: { client_email: 'sa@p.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----', type: 'service_account' },
        providerOptions: { vertex: { project: 'p', location: 'us-central1' } },
      },
    ],
    invalid: [
      { modelName: '' },
      { provider: 'azure', modelName: 'd', apiKey: 'k', auth: { type: 'azureEntraId', token: 't' } },
      { modelName: 'openai/gpt-4.1-mini', apiKey: 'k', temperature: 0 },
      { modelName: 'm', openaiEndpointFormat: 'completions' },
    ],
  },
  {
    name: 'ResolvedModel',
    zod: ResolvedModelSchema,
    valid: [
      { kind: 'local', name: 'deckhand/local' },
      { kind: 'provider', name: 'openai/gpt-4.1-mini', provider: 'openai', modelId: 'gpt-4.1-mini', apiKey: 'sk' },
    ],
    invalid: [
      { kind: 'local', name: 'other' },
      { kind: 'provider', name: 'x', provider: 'mistral', modelId: 'm' },
    ],
  },
  {
    name: 'ModelRequest',
    zod: ModelRequestSchema,
    valid: [
      { system: 's', prompt: 'p', schema: { type: 'object' } },
      { system: 's', prompt: 'p', schema: {}, images: [{ data: 'iVBOR', mimeType: 'image/png' }], timeoutMs: 1000 },
    ],
    invalid: [
      { system: 's', prompt: 'p', schema: {}, timeoutMs: 0 },
      { system: 's', schema: {} },
    ],
  },
  {
    name: 'AgentExecuteRequest',
    zod: AgentExecuteRequestSchema,
    valid: [
      { agentConfig: { model: 'openai/gpt-4.1-mini', mode: 'dom' }, executeOptions: { instruction: 'find the cheapest flight to Lisbon', maxSteps: 10 } },
      { executeOptions: { instruction: 'log in as %user%', variables: { user: { value: 'ada', description: 'the user name' } } }, shouldCache: true },
    ],
    invalid: [
      { executeOptions: { instruction: 'x', maxSteps: 0 } },
      { executeOptions: { instruction: '' } },
      { agentConfig: { mode: 'vision' }, executeOptions: { instruction: 'x' } },
      { executeOptions: { instruction: 'x', toolTimeout: 600_001 } },
    ],
  },
  {
    name: 'ActRequest',
    zod: ActRequestSchema,
    valid: [
      { input: 'click sign in', cache: { threshold: 2 }, timeout: 30000, variables: { user: 'ada' } },
      { input: click, cache: true },
    ],
    invalid: [{ input: 'x', cache: { threshold: 0 } }, { input: 'x', timeout: 600_001 }, { input: '' }, { input: 'x', unknown: true }],
  },
  {
    name: 'StartSessionRequest',
    zod: StartSessionRequestSchema,
    valid: [{ model: 'deckhand/local', viewport: { width: 1280, height: 800 }, headless: true }, { cdpUrl: 'ws://127.0.0.1:9222/devtools/browser/abc' }],
    invalid: [{ viewport: { width: 50, height: 800 } }, { headless: 'yes' }],
  },
  {
    name: 'HttpErrorBody',
    zod: HttpErrorBodySchema,
    valid: [{ success: false, error: { code: 'INVALID_JSON', message: 'the request body is not valid JSON' } }],
    invalid: [{ success: true, error: { code: 'x', message: 'y' } }],
  },
  {
    name: 'StreamEvent',
    zod: StreamEventSchema,
    valid: [
      { id: 1, status: 'starting' },
      { id: 4, status: 'finished', data: { ok: true } },
    ],
    invalid: [{ id: 1, status: 'paused' }],
  },
  {
    name: 'CacheLookupRequest',
    zod: CacheLookupRequestSchema,
    valid: [{ key: 'a'.repeat(64), baseKey: 'b'.repeat(64) }],
    invalid: [{ key: 'short', baseKey: 'b'.repeat(64) }],
  },
  {
    name: 'CacheRecordRequest',
    zod: CacheRecordRequestSchema,
    valid: [{ key: 'a'.repeat(64), baseKey: 'b'.repeat(64), op: 'act', result: [click], usage: metadata.usage, replace: true }],
    invalid: [{ key: 'a'.repeat(64), baseKey: 'b'.repeat(64), op: 'navigate', result: null, usage: metadata.usage }],
  },
  {
    name: 'McpActInput',
    zod: z.object(McpTools.act.input),
    valid: [{ action: 'click the Sign in button' }],
    invalid: [{ action: '' }, {}],
  },
  {
    name: 'BridgeFrame',
    zod: BridgeFrameSchema,
    valid: [{ kind: 'hello', token: 'abc123', extensionId: 'id', version: '0.1.0' }, { kind: 'ping' }],
    invalid: [
      { kind: 'ping', extra: 1 },
      { kind: 'welcome', client: 'x' },
    ],
  },
  {
    name: 'QaRecording',
    zod: QaRecordingSchema,
    valid: [
      {
        version: 1,
        title: 'Sign in',
        startUrl: 'https://example.com',
        steps: [{ kind: 'act', id: 's1', description: 'click sign in', actions: [click], urlAfter: 'https://example.com/in' }],
      },
    ],
    invalid: [{ version: 1, title: 't', startUrl: 'u', steps: [{ kind: 'act', id: 's1', description: 'd', actions: [], urlAfter: 'u' }] }],
  },
  {
    name: 'Flow',
    zod: FlowSchema,
    valid: [
      {
        version: 1,
        name: 'checkout',
        source: 'panel',
        savedAt: '2026-01-01T00:00:00.000Z',
        recording: {
          version: 1,
          title: 'Checkout',
          startUrl: 'https://example.com/cart',
          steps: [
            {
              kind: 'act',
              id: 's1',
              description: 'type %email%',
              actions: [{ ...click, method: 'fill', arguments: ['%email%'] }],
              urlAfter: 'https://example.com/cart',
            },
            { kind: 'wait', id: 's2', description: 'wait', ms: 500 },
          ],
        },
      },
    ],
    invalid: [
      { version: 2, name: 'x', source: 'panel', savedAt: '', recording: { version: 1, title: '', startUrl: '', steps: [] } },
      { version: 1, name: '', source: 'panel', savedAt: '', recording: { version: 1, title: '', startUrl: '', steps: [] } },
      { version: 1, name: 'x', source: 'someone', savedAt: '', recording: { version: 1, title: '', startUrl: '', steps: [] } },
      {
        version: 1,
        name: 'x',
        source: 'panel',
        savedAt: '',
        recording: { version: 1, title: '', startUrl: '', steps: [{ kind: 'wait', id: 'w', description: '', ms: 2 ** 60 }] },
      },
    ],
  },
  {
    name: 'FlowReplayResult',
    zod: FlowReplayResultSchema,
    valid: [
      {
        name: 'checkout',
        url: 'https://example.com/done',
        steps: [
          { id: 's1', kind: 'act', description: 'click', status: 'done' },
          { id: 's2', kind: 'extract', description: 'total', status: 'healed', data: { total: 3 } },
        ],
        usage: metadata.usage,
      },
    ],
    invalid: [{ name: 'checkout', url: 'u', steps: [{ id: 's1', kind: 'act', description: 'click', status: 'skipped' }], usage: metadata.usage }],
  },
];

describe('schema/deckhand.schema.json', () => {
  it('schema/cache.sql is what scripts/gen-schema.ts writes from src/protocol/cache-sql.ts today (else run `npm run schema`)', () => {
    expect(
      readFileSync(`${root}${CACHE_SQL_FILE}`, 'utf8') === generateCacheSql(),
      `${CACHE_SQL_FILE} is stale: run \`npm run schema\` and commit the result`,
    ).toBe(true);
  });

  it('is what scripts/gen-schema.ts writes from the zod schemas today (else run `npm run schema`)', () => {
    expect(text === generateSchema(), `${SCHEMA_FILE} is stale: run \`npm run schema\` and commit the result`).toBe(true);
  });

  it('every $ref and every x-deckhand entry names a definition', () => {
    const refs = [...text.matchAll(/"\$ref": "([^"]+)"/g)].map((m) => m[1]);
    // Every entry but the launch switches (plain lists, checked below) is a table of definitions.
    const {
      chromiumFlags,
      sharedChromiumFlags,
      schemaLimits,
      sqliteCacheMigrations,
      sqliteCacheStatements,
      cacheBounds,
      providerEnv,
      defaults,
      agentDefaults,
      locatorMethods,
      errors,
      ...named
    } = doc['x-deckhand'];
    expect(locatorMethods).toEqual(LOCATOR_METHODS);
    // Every code has its meaning, which the clients' error types carry.
    expect(Object.keys(errors)).toEqual(Object.values(ErrorCode));
    for (const [code, e] of Object.entries(errors)) expect(e.doc, code).not.toBe('');
    expect(sqliteCacheStatements).toEqual(JSON.parse(JSON.stringify(SQLITE_CACHE_STATEMENTS)));
    expect(cacheBounds).toEqual(CACHE_BOUNDS);
    expect(defaults).toEqual({ ...DEFAULTS, ...LAUNCH_DEFAULTS, maxTimeoutMs: MAX_TIMEOUT_MS, maxCallMs: MAX_CALL_MS });
    expect(agentDefaults).toEqual(AGENT_DEFAULTS);
    expect(providerEnv).toEqual(PROVIDER_ENV);
    expect(sqliteCacheMigrations).toEqual([...SQLITE_CACHE_MIGRATIONS]);
    expect(chromiumFlags).toEqual([...CHROMIUM_FLAGS]);
    expect(sharedChromiumFlags).toEqual([...SHARED_CHROMIUM_FLAGS]);
    // The Grid launchers pass the shared list: what is left out is exactly the local-only switches.
    expect(chromiumFlags.filter((f) => !sharedChromiumFlags.includes(f))).toEqual([...LOCAL_CHROMIUM_FLAGS]);
    expect(schemaLimits).toEqual(SCHEMA_LIMITS);
    // The operations' opId, timeout and deadline ride along in the method table (OPERATIONS); the rest are references.
    const tables = Object.values(named).flatMap((t) =>
      Object.values(t).flatMap((e) =>
        Object.entries(e)
          .filter(([k]) => !['opId', 'timeout', 'deadline', 'instruction'].includes(k))
          .map(([, v]) => v),
      ),
    );
    // The output-token budget stays with the worker (clients never send it).
    for (const [m, { outputTokens: _budget, ...o }] of Object.entries(OPERATIONS)) expect(doc['x-deckhand'].methods[m], m).toMatchObject(o);
    for (const r of [...refs, ...tables]) expect(doc.definitions, r).toHaveProperty([r.replace('#/definitions/', '')]);
    expect(Object.keys(doc['x-deckhand'].methods)).toEqual(Object.keys(Methods));
    expect(Object.keys(doc['x-deckhand'].mcpTools)).toEqual(Object.keys(McpTools));
  });

  for (const c of CASES) {
    it(`${c.name}: zod and the JSON Schema agree on real payloads`, () => {
      const v = validatorFor(c.name);
      for (const payload of c.valid) {
        expect(c.zod.safeParse(payload).success, `zod refuses ${JSON.stringify(payload)}`).toBe(true);
        expect(v.validate(payload).valid, `JSON Schema refuses ${JSON.stringify(payload)}: ${JSON.stringify(v.validate(payload).errors.slice(-2))}`).toBe(true);
      }
      for (const payload of c.invalid) {
        expect(c.zod.safeParse(payload).success, `zod accepts ${JSON.stringify(payload)}`).toBe(false);
        expect(v.validate(payload).valid, `JSON Schema accepts ${JSON.stringify(payload)}`).toBe(false);
      }
    });
  }
});
