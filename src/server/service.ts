/**
 * The Deckhand HTTP service: browser sessions with act/observe/extract/navigate
 * (`/v1/sessions/...`), the result cache (`/v1/cache/...`), API-key authentication,
 * Server-Sent Events for streamed responses, MCP at /mcp, and its own OpenAPI document at
 * /v1/openapi.json. Hono routes and validates with the operations of routes.ts; the handlers
 * only hand over to sessions and the store. One error body for every failure:
 * { success: false, error: { code, message } }.
 */
import { spanOf } from '../protocol/log-spans';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { OpenAPIHono, type Hook } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { stream } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { output } from 'zod';
import { DeckhandError, ERROR_MAP } from '../protocol/errors';
import type { HttpResourceRoute, HttpResourceRoutes, HttpRoutes, StreamEvent } from '../protocol/http';
import { renamedFlow, summarizeFlow } from '../protocol/flows';
import { deleteFlow, getFlow, putFlow } from '../client/flows';
import { describeZodError } from '../protocol/zod-errors';
import { forTenant, SqliteStore, type CacheStore } from '../client/cache/store';
import { ensurePrivateDir } from '../client/private-files';
import { scrubCredentials } from '../client/models';
import type { CallOptions } from '../client/deckhand';
import { HttpError } from '../sessions/http-error';
import { loadKeys, type KeyRing } from '../keys/api-keys';
import { openPool } from '../postgres/pool';
import { loadPgKeys } from '../postgres/keys';
import { PgCacheStore } from '../postgres/cache';
import { PgSessionRegistry } from '../postgres/registry';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { SessionManager, type Session, type SessionLimits } from '../sessions/sessions';
import { checkBindHost, HostCheck } from './hosts';
import {
  OpenApiDocumentRoute,
  openApiDocument,
  OPERATIONS,
  operation,
  registerComponents,
  RESOURCE_OPERATIONS,
  resourceOperation,
  type HttpPath,
} from './routes';
import { McpHttpHandler } from '../mcp/http';
import type { RawOptions } from '../mcp/options';
import { parsePrices, type ModelPrice } from '../protocol/prices';
import type { ApprovalHandler } from '../client/deckhand';

export interface ServiceOptions {
  host?: string;
  port?: number;
  /** Data folder (keys, cache database); default DECKHAND_HOME or ~/.deckhand. */
  home: string;
  store?: CacheStore;
  maxSessions?: number;
  idleTimeoutMs?: number;
  maxBodyBytes?: number;
  /** URL schemes the operator opens for every session (e.g. ['file']); default none beyond http(s), data and about:blank. */
  allowUrlSchemes?: string[];
  /** Sessions' browsers come from this Selenium Grid instead of this machine. */
  grid?: SessionLimits['grid'];
  /** Hosts whose DevTools address callers may pass as cdpUrl ('*' for any); none by default. */
  allowCdpHosts?: string[];
  /** Sessions of one tenant per browser on this machine, each in an isolated context; default 1. */
  contextsPerBrowser?: number;
  /**
   * PostgreSQL (postgres://...) for the sessions' registry, the API keys and the result cache,
   * shared with the service's other replicas; default: this process and its SQLite file.
   */
  databaseUrl?: string;
  /** This replica's name in the shared registry; default host name, process id and a random part. */
  replica?: string;
  /**
   * Host header values accepted besides loopback names (for a service behind a proxy or on
   * another interface; '*' for any). A host that is not loopback is refused without them.
   */
  allowedHosts?: string[];
  /** Origins (scheme://host:port) whose browser pages may call the service; none by default. */
  allowedOrigins?: string[];
  /** How long a client may take to send a request's headers, and its whole body (ms). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  log?: (line: string) => void;
  /**
   * The operator's model prices (USD per million tokens, by model name) for every session's
   * `costUsd` and metrics, over the built-in list prices. Callers cannot set them.
   */
  prices?: Record<string, ModelPrice>;
  /** Mount the MCP server at /mcp (default true), with these defaults for its options. */
  mcp?: boolean;
  mcpOptions?: RawOptions;
}

export interface RunningService {
  url: string;
  server: Server;
  keys: KeyRing;
  sessions: SessionManager;
  /** MCP sessions open over Streamable HTTP at /mcp. */
  mcpSessions(): number;
  close(): Promise<void>;
}

type Env = { Bindings: HttpBindings; Variables: { tenant: string } };
type Ctx = Context<Env>;
/** A route's body as its schema has validated it. */
type RequestOf<P extends HttpPath> = output<(typeof HttpRoutes)[P]['request']>;
/** A resource route's JSON body (PUT), as its schema has validated it. */
type BodyOf<R extends HttpResourceRoute> = (typeof HttpResourceRoutes)[R] extends { request: infer S } ? output<S & import('zod').ZodTypeAny> : undefined;

/** The one error body; messages are scrubbed of credentials, which providers sometimes echo. */
function errorBody(e: unknown, log?: (l: string) => void): { status: number; body: { success: false; error: { code: string; message: string } } } {
  if (e instanceof DeckhandError)
    return { status: ERROR_MAP[e.code].http, body: { success: false, error: { code: e.code, message: scrubCredentials(e.message) } } };
  log?.(`internal error: ${(e as Error)?.stack ?? e}`);
  return {
    status: 500,
    body: { success: false, error: { code: 'INTERNAL', message: 'the service failed to handle this request (a bug on our side); its log has the details' } },
  };
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function answer(c: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, { ...JSON_HEADERS, ...headers });
}

/** JSON bodies only: anything else is refused before it is read (a form post from a page, say). */
function requireJson(c: Ctx): void {
  const hasBody = Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
  if (!hasBody) return;
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpError(
      'UNSUPPORTED_MEDIA_TYPE',
      `the request body must be JSON (content-type: application/json), got ${type ? JSON.stringify(type) : 'no content-type'}`,
    );
  }
}

/** The body (read within bodyLimit) as JSON, and its text; an empty body is {}. */
async function readJson(c: Ctx): Promise<{ text: string; value: unknown }> {
  const raw = await c.req.raw.text();
  const text = raw.trim() ? raw : '{}';
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw new HttpError('INVALID_JSON', 'the request body is not valid JSON');
  }
}

/**
 * Whether to stream: the x-stream-response header (the route's header schema has checked it
 * is "true" or "false") or streamResponse in the body. When both are given they must agree;
 * a disagreement is a 400 rather than a silent pick.
 */
function wantsStream(c: Ctx, body: { streamResponse?: boolean }): boolean {
  const raw = c.req.header('x-stream-response');
  const h = raw === undefined ? undefined : raw === 'true';
  const b = body.streamResponse;
  if (h !== undefined && b !== undefined && h !== b) {
    throw new HttpError('INVALID_ARGUMENT', `x-stream-response (${h}) and streamResponse (${b}) disagree; send one, or the same value in both`);
  }
  return h ?? b ?? false;
}

/**
 * The field of a request whose model names its own endpoint without a key of its own. Callers
 * bring their own key there, whatever keys the service holds, so that the answer never depends
 * on which keys the operator has (the security guide).
 */
function keylessEndpoint(body: unknown): string | null {
  const b = body as { model?: unknown; agentConfig?: { model?: unknown; executionModel?: unknown } } | undefined;
  const named: [string, unknown][] = [
    ['model', b?.model],
    ['agentConfig.model', b?.agentConfig?.model],
    ['agentConfig.executionModel', b?.agentConfig?.executionModel],
  ];
  for (const [field, m] of named) {
    const o = m as Record<string, unknown> | undefined;
    if (o && typeof o === 'object' && typeof o.baseURL === 'string' && o.apiKey === undefined && o.auth === undefined) return field;
  }
  return null;
}

/** A validation failure in the one error body: INVALID_HEADER for headers, else INVALID_ARGUMENT naming each field. */
const invalid =
  (what: string): Hook<unknown, Env, string, undefined> =>
  (r, c) => {
    if (r.success) {
      const field = r.target === 'json' ? keylessEndpoint(r.data) : null;
      if (field) {
        throw new HttpError(
          'INVALID_ARGUMENT',
          `invalid ${what}: ${field} names its own baseURL, so it needs its own key: ` +
            'pass apiKey (any placeholder, such as "none", for a server that takes no key)',
        );
      }
      return;
    }
    if (r.target === 'header') {
      const issue = r.error.issues[0];
      const name = String(issue.path[0]);
      throw new HttpError('INVALID_HEADER', `header ${name} ${issue.message}, got ${JSON.stringify(c.req.header(name))}`);
    }
    throw new HttpError('INVALID_ARGUMENT', describeZodError(r.error, what));
  };

type Emit = (e: Omit<StreamEvent, 'id'>) => void;

/** The state replicas share in PostgreSQL: keys, cache and sessions' registry on one pool. */
async function openShared(url: string, replica = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`) {
  const pool = await openPool(url);
  try {
    const keys = await loadPgKeys(pool);
    const store = await PgCacheStore.open(pool);
    const registry = await PgSessionRegistry.open(pool);
    return { pool, keys, store, shared: { registry, replica } };
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
}

export async function startService(o: ServiceOptions): Promise<RunningService> {
  const bindHost = o.host ?? '127.0.0.1';
  checkBindHost({ bindHost, allowedHosts: o.allowedHosts }); // before anything is created or bound
  const prices = o.prices === undefined ? undefined : parsePrices(o.prices);
  ensurePrivateDir(o.home);
  const db = o.databaseUrl ? await openShared(o.databaseUrl, o.replica) : null;
  const keys = db ? db.keys : loadKeys(o.home);
  const rawLog = o.log ?? (() => undefined);
  const log = (line: string) => rawLog(scrubCredentials(line, keys.secrets));
  const store = o.store ?? db?.store ?? (await SqliteStore.open(join(o.home, 'cache.db')));
  const maxBody = o.maxBodyBytes ?? 1024 * 1024;
  const sessions = new SessionManager(
    {
      maxSessions: o.maxSessions ?? 4,
      idleTimeoutMs: o.idleTimeoutMs ?? 10 * 60_000,
      allowUrlSchemes: o.allowUrlSchemes,
      grid: o.grid,
      allowCdpHosts: o.allowCdpHosts,
      contextsPerBrowser: o.contextsPerBrowser,
    },
    prices ? { prices } : {},
    log,
    store,
    db?.shared,
  );
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p)).catch(() => undefined);
    return p;
  };
  const mcp = o.mcp === false ? null : new McpHttpHandler(keys, sessions, o.home, o.mcpOptions);
  const hosts = new HostCheck({ bindHost, allowedHosts: o.allowedHosts, allowedOrigins: o.allowedOrigins });

  const limit = bodyLimit({
    maxSize: maxBody,
    onError: () => {
      throw new HttpError('BODY_TOO_LARGE', `the request body is larger than ${maxBody} bytes`);
    },
  });
  const auth: MiddlewareHandler<Env> = async (c, next) => {
    // x-dh-project-id is accepted and ignored: keys are project-scoped.
    const tenant = await keys.tenantOf(c.req.header('x-dh-api-key'));
    if (!tenant) throw new HttpError('UNAUTHORIZED', 'missing or wrong x-dh-api-key');
    c.set('tenant', tenant);
    await next();
  };
  const jsonType: MiddlewareHandler<Env> = async (c, next) => {
    requireJson(c);
    await next();
  };
  /** A JSON object body, handed on as text to the route's validator (an empty body as {}). */
  const object: MiddlewareHandler<Env> = async (c, next) => {
    const { text, value } = await readJson(c);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HttpError('INVALID_ARGUMENT', 'the request body must be a JSON object');
    c.req.raw = new Request(c.req.raw, { body: text });
    await next();
  };

  /** An event stream: `id: n`, `event: status`, `data: StreamEvent`, messages scrubbed. */
  const events = (c: Ctx, run: (emit: Emit) => Promise<void>): Response => {
    c.header('content-type', 'text/event-stream; charset=utf-8');
    c.header('cache-control', 'no-store');
    c.header('connection', 'keep-alive');
    c.header('x-accel-buffering', 'no');
    return stream(
      c,
      async (s) => {
        let n = 0;
        // Tracked on its own: after a client leaves, the operation may still be winding down.
        await track(
          run((e) => {
            if (s.aborted || s.closed) return;
            const ev: StreamEvent = { id: ++n, ...e, ...(e.message !== undefined ? { message: scrubCredentials(e.message) } : {}) };
            void s.write(`id: ${ev.id}\nevent: ${ev.status}\ndata: ${JSON.stringify(ev)}\n\n`);
          }),
        );
      },
      async (e) => log(`internal error: ${e.stack ?? e}`),
    );
  };

  /**
   * Run an operation on one of the caller's sessions, as JSON or as an event stream. Its
   * timeout travels in its options to the worker, which holds it to its deadline (the client
   * waits by the worker's ack). A client that leaves cancels it: the request's signal is
   * aborted when the connection closes before the answer is complete.
   */
  const operate = async (c: Ctx, id: string, streamIt: boolean, fn: (s: Session, signal: AbortSignal) => Promise<unknown>): Promise<Response> => {
    const tenant = c.get('tenant');
    const left = c.req.raw.signal;
    if (!streamIt) return answer(c, 200, { success: true, data: await sessions.run(id, tenant, fn, { signal: left }) });
    await sessions.get(id, tenant); // 400/404 before the stream opens
    return events(c, async (emit) => {
      emit({ status: 'starting' });
      try {
        const data = await sessions.run(
          id,
          tenant,
          async (s, signal) => {
            emit({ status: 'connected', message: `session ${s.id}` });
            s.listener = (line) => {
              if (line.data?.span === 'approval') return emit({ status: 'approval', message: line.message, data: line.data.request });
              const span = spanOf(line.data);
              emit({ status: 'running', message: line.message, data: { level: line.level, ...(span?.span === 'agent-step' ? { step: span.step } : {}) } });
            };
            try {
              return await fn(s, signal);
            } finally {
              s.listener = null;
            }
          },
          { signal: left },
        );
        emit({ status: 'finished', data });
      } catch (e) {
        emit({ status: 'error', error: errorBody(e, log).body.error });
      }
    });
  };

  const callOptions = (b: Record<string, unknown>, signal: AbortSignal, s?: Session): CallOptions => {
    const { input: _i, instruction: _n, schema: _s, streamResponse: _sr, ...rest } = b;
    return { ...(rest as CallOptions), signal, ...(s && rest.approval ? { onApproval: approver(s) } : {}) };
  };
  /**
   * A step of the session's operation waits for approval: it is sent as an `approval` event on a
   * streamed request and waits for POST .../approvals/{id} through any replica (see waitForApproval).
   */
  const approver =
    (s: Session): ApprovalHandler =>
    (req, { signal }) =>
      sessions.waitForApproval(s, req, signal, () =>
        s.listener?.({
          level: 'info',
          message: `waiting for approval: ${req.summary}`,
          timestamp: new Date().toISOString(),
          data: { span: 'approval', request: req },
        }),
      );

  const app = new OpenAPIHono<Env>();
  registerComponents(app.openAPIRegistry);

  if (mcp) {
    app.all(
      '/mcp',
      async (c, next) => {
        const { incoming: req, outgoing: res } = c.env;
        // The key is checked before a byte of the body is read.
        const tenant = await mcp.tenantOf(req);
        if (!tenant) {
          if (!req.complete) res.setHeader('connection', 'close');
          mcp.unauthorized(res);
          return RESPONSE_ALREADY_SENT;
        }
        if (req.method === 'POST') requireJson(c);
        c.set('tenant', tenant);
        await next();
      },
      limit,
      async (c) => {
        // The MCP transport answers on Node's own response object.
        await mcp.handle(c.env.incoming, c.env.outgoing, c.get('tenant'), async () => (await readJson(c)).value);
        return RESPONSE_ALREADY_SENT;
      },
    );
  }

  let document: unknown;
  app.openapi(OpenApiDocumentRoute, ((c: Ctx) => answer(c, 200, (document ??= openApiDocument()))) as never);

  /** A POST operation: authenticated, then a JSON body within the limit, then validated by its schemas. */
  const post = <P extends HttpPath>(path: P, handle: (c: Ctx, body: RequestOf<P>, id: string) => Promise<Response>) => {
    app.openapi(
      { ...operation(path), middleware: [auth, jsonType, limit, object] },
      ((c: Ctx) => handle(c, c.req.valid('json' as never) as RequestOf<P>, c.req.param('id') ?? '')) as never,
      invalid(OPERATIONS[path].what) as never,
    );
  };

  post('/v1/sessions/start', async (c, b) => {
    const run = async () => ({ sessionId: (await sessions.start(c.get('tenant'), b)).id, available: true });
    if (!wantsStream(c, b)) return answer(c, 200, { success: true, data: await run() });
    return events(c, async (emit) => {
      emit({ status: 'starting' });
      try {
        emit({ status: 'finished', data: await run() });
      } catch (e) {
        emit({ status: 'error', error: errorBody(e, log).body.error });
      }
    });
  });
  post('/v1/sessions/{id}/navigate', (c, b, id) =>
    operate(c, id, wantsStream(c, b), async (s, signal) => (await s.dh.context.activePage()).goto(b.url, { ...b.options, signal })),
  );
  post('/v1/sessions/{id}/act', (c, b, id) => operate(c, id, wantsStream(c, b), (s, signal) => s.dh.act(b.input, callOptions(b, signal, s))));
  post('/v1/sessions/{id}/observe', (c, b, id) => operate(c, id, wantsStream(c, b), (s, signal) => s.dh.observe(b.instruction, callOptions(b, signal))));
  post('/v1/sessions/{id}/extract', (c, b, id) =>
    operate(c, id, wantsStream(c, b), (s, signal) => s.dh.extract(b.instruction, b.schema, callOptions(b, signal))),
  );
  post('/v1/sessions/{id}/agentExecute', async (c, b, id) => {
    const streamIt = wantsStream(c, b);
    const searchUrl = process.env.DECKHAND_SEARCH_URL;
    if (b.executeOptions.useSearch && !searchUrl) {
      throw new HttpError(
        'INVALID_ARGUMENT',
        'useSearch needs a search provider, and this service has none: set DECKHAND_SEARCH_URL (a SearXNG-style JSON endpoint)',
      );
    }
    // The engine looks the run up in this key's cache and records it (engine/memory/cache.ts agentCacheKey).
    return operate(c, id, streamIt, async (s, signal) => {
      const r = await s.dh.agentExecute(b, { signal, searchUrl, cache: !!b.shouldCache, ...(b.executeOptions.approval ? { onApproval: approver(s) } : {}) });
      return { result: r.result, ...(r.cacheEntry ? { cacheEntry: r.cacheEntry } : {}), ...(r.flow ? { flow: r.flow } : {}) };
    });
  });
  post('/v1/sessions/{id}/replay', (c, b, id) =>
    operate(c, id, wantsStream(c, b), (s, signal) =>
      s.dh.replay(b.flow ?? b.name!, {
        signal,
        ...(b.variables ? { variables: b.variables } : {}),
        ...(b.stepTimeout !== undefined ? { stepTimeout: b.stepTimeout } : {}),
        ...(b.timeout !== undefined ? { timeout: b.timeout } : {}),
        // The session's own model heals only when the caller asks: a replay otherwise calls no model.
        ...(b.selfHeal ? { selfHeal: true } : {}),
      }),
    ),
  );
  post('/v1/sessions/{id}/callTool', (c, b, id) =>
    operate(c, id, wantsStream(c, b), (s, signal) =>
      s.dh.callTool(b.name, b.input, {
        signal,
        ...(b.timeout !== undefined ? { timeout: b.timeout } : {}),
        ...(b.approval ? { approval: b.approval, onApproval: approver(s) } : {}),
      }),
    ),
  );
  post('/v1/sessions/{id}/end', async (c, b, id) => {
    wantsStream(c, b);
    // Always ends: whatever runs in the session is cancelled.
    await sessions.end(id, c.get('tenant'));
    return answer(c, 200, { success: true, data: { ended: true } });
  });
  post('/v1/cache/lookup', async (c, r) => answer(c, 200, { success: true, data: await store.lookup(r.key, r.baseKey, c.get('tenant')) }));
  post('/v1/cache/record', async (c, r) => answer(c, 200, { success: true, data: await store.record(r, c.get('tenant')) }));
  post('/v1/cache/invalidate', async (c, r) => {
    await store.invalidate(r.key, c.get('tenant'));
    return answer(c, 200, { success: true, data: null });
  });

  /** A route of HttpResourceRoutes: authenticated, then (PUT) a JSON body within the limit, validated by its schemas. */
  const resource = <R extends HttpResourceRoute>(route: R, handle: (c: Ctx, params: Record<string, string>, body: BodyOf<R>) => Promise<Response>) => {
    const withBody = route.startsWith('PUT ') || route.startsWith('POST ');
    app.openapi(
      { ...resourceOperation(route), middleware: withBody ? [auth, jsonType, limit, object] : [auth] },
      ((c: Ctx) =>
        handle(c, c.req.valid('param' as never) as Record<string, string>, (withBody ? c.req.valid('json' as never) : undefined) as BodyOf<R>)) as never,
      invalid(RESOURCE_OPERATIONS[route].what) as never,
    );
  };
  /** This key's own store: the flows it keeps, which replays by name in its sessions find first. */
  const tenantStore = (c: Ctx) => forTenant(store, c.get('tenant'));
  const noFlow = (name: string) => new HttpError('NOT_FOUND', `no flow named "${name.trim()}" is stored for this key (PUT /v1/flows/{name} stores one)`);
  resource('GET /v1/sessions/{id}/flows', (c, p) => operate(c, p.id, false, (s) => s.dh.flows.list()));
  resource('GET /v1/sessions/{id}/tools', (c, p) => operate(c, p.id, false, (s) => s.dh.tools()));
  // Not queued behind the operation that waits: these answer it.
  resource('GET /v1/sessions/{id}/approvals', async (c, p) => answer(c, 200, { success: true, data: await sessions.approvalsOf(p.id, c.get('tenant')) }));
  resource('POST /v1/sessions/{id}/approvals/{approvalId}', async (c, p, body) => {
    const settled = await sessions.decideApproval(p.id, c.get('tenant'), p.approvalId, body.decision);
    return answer(c, 200, { success: true, data: { settled } });
  });
  resource('PUT /v1/flows/{name}', async (c, p, flow) => {
    // Stored under the path's name, whatever name the exported flow had.
    const f = renamedFlow(flow, p.name);
    await putFlow(tenantStore(c), f);
    return answer(c, 200, { success: true, data: summarizeFlow(f) });
  });
  resource('GET /v1/flows/{name}', async (c, p) => {
    const flow = await getFlow(tenantStore(c), p.name);
    if (!flow) throw noFlow(p.name);
    return answer(c, 200, { success: true, data: flow });
  });
  resource('DELETE /v1/flows/{name}', async (c, p) => answer(c, 200, { success: true, data: { deleted: await deleteFlow(tenantStore(c), p.name) } }));

  // A known path with another method is a 405 (before authentication, as an unknown path is a 404).
  const resourcePaths = new Map<string, string[]>();
  for (const route of Object.keys(RESOURCE_OPERATIONS)) {
    const [method, path] = route.split(' ');
    resourcePaths.set(path, [...(resourcePaths.get(path) ?? []), ...(method === 'GET' ? ['GET', 'HEAD'] : [method])]);
  }
  for (const [path, method, allow] of [
    ...Object.keys(OPERATIONS).map((p) => [p, 'POST', 'POST']),
    ['/v1/openapi.json', 'GET', 'GET, HEAD'],
    ...[...resourcePaths].map(([p, methods]) => [p, methods.filter((m) => m !== 'HEAD').join(' or '), methods.join(', ')]),
  ]) {
    app.all(path.replace(/\{(\w+)\}/g, ':$1'), (c) => {
      const e = new HttpError('METHOD_NOT_ALLOWED', `${new URL(c.req.url).pathname} takes ${method}`);
      return answer(c, e.status, errorBody(e).body, { allow, ...(c.env.incoming.complete ? {} : { connection: 'close' }) });
    });
  }
  app.notFound((c) => {
    throw new HttpError('NOT_FOUND', `no endpoint ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}`);
  });
  app.onError((e, c) => {
    // Already answering (an event stream, or /mcp on Node's response): nothing more can be said.
    if (c.env.outgoing.headersSent) return RESPONSE_ALREADY_SENT;
    const { status, body } = errorBody(e, log);
    // A body left unread is not drained (it may be an attacker's slow trickle): the connection closes instead.
    return answer(c, status, body, c.env.incoming.complete ? {} : { connection: 'close' });
  });

  // The adapter's own Request and Response replace the globals (its default): Request objects
  // made from the adapter's requests (bodyLimit's, `object`'s) need its constructor.
  const listener = getRequestListener(app.fetch, {
    // Without a Host header (HTTP/1.0) the URL gets this name; the Host check has passed it.
    hostname: 'service.invalid',
    // A request target that cannot make a URL (a backslash in the path, say) never reaches the app.
    errorHandler: (e) => {
      const { status, body } = errorBody(e instanceof RequestError ? new HttpError('INVALID_ARGUMENT', `malformed request: ${e.message}`) : e, log);
      return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, connection: 'close' } });
    },
  });
  const server = createServer(
    {
      // Slow clients are cut off: headers within 10 s, the whole request within 30 s
      // (these cover receiving the request only; a long answer or event stream is unaffected).
      headersTimeout: o.headersTimeoutMs ?? 10_000,
      requestTimeout: o.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      try {
        // Before Hono makes a URL of it: a request for another host (DNS rebinding), however
        // its Host is spelled, or from a web page's origin.
        hosts.check(req);
      } catch (e) {
        const { status, body } = errorBody(e, log);
        res.writeHead(status, { ...JSON_HEADERS, ...(req.complete ? {} : { connection: 'close' }) }).end(JSON.stringify(body));
        return;
      }
      void track(listener(req, res));
    },
  );
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 3000, bindHost, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  hosts.listening(addr.port);
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    server,
    keys,
    sessions,
    mcpSessions: () => mcp?.size ?? 0,
    close: async () => {
      server.close();
      await mcp?.closeAll();
      await sessions.endAll();
      server.closeAllConnections();
      await Promise.allSettled([...inflight]);
      await store.close?.();
      await db?.pool.end().catch(() => undefined);
    },
  };
}
