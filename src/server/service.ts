/**
 * The Deckhand HTTP service: browser sessions with act/observe/extract/navigate
 * (`/v1/sessions/...`), the result cache (`/v1/cache/...`), API-key
 * authentication, and Server-Sent Events for streamed responses. One error body
 * for every failure: { success: false, error: { code, message } }.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ZodTypeAny } from 'zod';
import { CacheInvalidateRequestSchema, CacheLookupRequestSchema, CacheRecordRequestSchema } from '../protocol/cache';
import { DeckhandError, ERROR_MAP } from '../protocol/errors';
import {
  ActRequestSchema, EndRequestSchema, ExtractRequestSchema, NavigateRequestSchema, ObserveRequestSchema, StartSessionRequestSchema, type StreamEvent,
} from '../protocol/http';
import { describeZodError } from '../protocol/zod-errors';
import { AgentExecuteRequestSchema, type AgentExecuteRequest } from '../protocol/agent';
import { SqliteStore, type CacheStore } from '../client/cache/store';
import { ensurePrivateDir } from '../client/private-files';
import { scrubCredentials } from '../client/models';
import { MAX_CALL_MS, MAX_TIMEOUT_MS, DEFAULTS } from '../protocol/schemas';
import type { CallOptions } from '../client/deckhand';
import { HttpError } from '../sessions/http-error';
import { loadKeys, type KeyRing } from '../sessions/keys';
import { SessionManager, type Session } from '../sessions/sessions';
import { HostCheck } from './hosts';
import { McpHttpHandler } from '../mcp/http';
import type { RawOptions } from '../mcp/options';

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
  /** Host header values accepted besides loopback names (for a service behind a proxy or on another interface). */
  allowedHosts?: string[];
  /** Origins (scheme://host:port) whose browser pages may call the service; none by default. */
  allowedOrigins?: string[];
  /** How long a client may take to send a request's headers, and its whole body (ms). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  log?: (line: string) => void;
  /** Mount the MCP server at /mcp (default true), with these defaults for its options. */
  mcp?: boolean;
  mcpOptions?: RawOptions;
}

export interface RunningService {
  url: string;
  server: Server;
  keys: KeyRing;
  sessions: SessionManager;
  close(): Promise<void>;
}


/** The one error body; messages are scrubbed of credentials, which providers sometimes echo. */
function errorBody(e: unknown, log?: (l: string) => void): { status: number; body: { success: false; error: { code: string; message: string } } } {
  if (e instanceof DeckhandError) return { status: ERROR_MAP[e.code].http, body: { success: false, error: { code: e.code, message: scrubCredentials(e.message) } } };
  log?.(`internal error: ${(e as Error)?.stack ?? e}`);
  return { status: 500, body: { success: false, error: { code: 'INTERNAL', message: 'the service failed to handle this request (a bug on our side); its log has the details' } } };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
}

/** JSON bodies only: anything else is refused before it is read (a form post from a page, say). */
function requireJson(req: IncomingMessage): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpError('UNSUPPORTED_MEDIA_TYPE', `the request body must be JSON (content-type: application/json), got ${type ? JSON.stringify(type) : 'no content-type'}`);
  }
}

async function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) throw new HttpError('BODY_TOO_LARGE', `the request body is larger than ${max} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new HttpError('BODY_TOO_LARGE', `the request body is larger than ${max} bytes`);
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError('INVALID_JSON', 'the request body is not valid JSON');
  }
}

function parse<T>(schema: ZodTypeAny, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new HttpError('INVALID_ARGUMENT', describeZodError(r.error, what));
  return r.data as T;
}

/** A boolean header is exactly "true" or "false". */
function boolHeader(req: IncomingMessage, name: string): boolean | undefined {
  const v = req.headers[name];
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new HttpError('INVALID_HEADER', `header ${name} must be "true" or "false", got ${JSON.stringify(v)}`);
}

/**
 * Whether to stream: the x-stream-response header or streamResponse in the body. When both
 * are given they must agree; a disagreement is a 400 rather than a silent pick.
 */
function wantsStream(req: IncomingMessage, body: { streamResponse?: boolean }): boolean {
  const h = boolHeader(req, 'x-stream-response');
  const b = body.streamResponse;
  if (h !== undefined && b !== undefined && h !== b) {
    throw new HttpError('INVALID_ARGUMENT', `x-stream-response (${h}) and streamResponse (${b}) disagree; send one, or the same value in both`);
  }
  return h ?? b ?? false;
}

class Stream {
  private n = 0;
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  }
  emit(e: Omit<StreamEvent, 'id'>): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    const ev: StreamEvent = { id: ++this.n, ...e, ...(e.message !== undefined ? { message: scrubCredentials(e.message) } : {}) };
    this.res.write(`id: ${ev.id}\nevent: ${ev.status}\ndata: ${JSON.stringify(ev)}\n\n`);
  }
  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }
}

type Handler = (ctx: { req: IncomingMessage; res: ServerResponse; body: unknown; params: Record<string, string>; tenant: string }) => Promise<void>;

/** A session id from the path; a malformed escape is the caller's mistake (400), not ours. */
function pathParam(raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? '');
  } catch {
    throw new HttpError('INVALID_SESSION_ID', `'${(raw ?? '').slice(0, 80)}' is not a session id (session ids are UUIDs)`);
  }
}

export async function startService(o: ServiceOptions): Promise<RunningService> {
  ensurePrivateDir(o.home);
  const keys = loadKeys(o.home);
  const rawLog = o.log ?? (() => undefined);
  const log = (line: string) => rawLog(scrubCredentials(line, keys.secrets));
  const store = o.store ?? (await SqliteStore.open(join(o.home, 'cache.db')));
  const maxBody = o.maxBodyBytes ?? 1024 * 1024;
  const sessions = new SessionManager({ maxSessions: o.maxSessions ?? 4, idleTimeoutMs: o.idleTimeoutMs ?? 10 * 60_000, allowUrlSchemes: o.allowUrlSchemes }, {}, log, store);
  const inflight = new Set<Promise<unknown>>();
  const mcp = o.mcp === false ? null : new McpHttpHandler(keys, sessions, o.home, o.mcpOptions);
  const bindHost = o.host ?? '127.0.0.1';
  const hosts = new HostCheck({ bindHost, allowedHosts: o.allowedHosts, allowedOrigins: o.allowedOrigins });

  /**
   * Run an operation on one of the caller's sessions, as JSON or as an event stream, within
   * `deadlineMs` (the request's own timeout, bounded). A client that leaves cancels it.
   */
  const operate = async (
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    tenant: string,
    stream: boolean,
    deadlineMs: number,
    fn: (s: Session, signal: AbortSignal) => Promise<unknown>,
  ): Promise<void> => {
    const left = new AbortController();
    // A client that disconnects before its answer aborts the operation and frees the session.
    res.on('close', () => {
      if (!res.writableFinished) left.abort();
    });
    if (!stream) {
      const data = await sessions.run(id, tenant, fn, { deadlineMs, signal: left.signal });
      send(res, 200, { success: true, data });
      return;
    }
    sessions.get(id, tenant); // 400/404 before the stream opens
    const sse = new Stream(res);
    sse.emit({ status: 'starting' });
    try {
      const data = await sessions.run(
        id,
        tenant,
        async (s, signal) => {
          sse.emit({ status: 'connected', message: `session ${s.id}` });
          s.listener = (line) =>
            sse.emit({ status: 'running', message: line.message, data: { level: line.level, ...(line.data?.span === 'agent-step' ? { step: line.data.step } : {}) } });
          try {
            return await fn(s, signal);
          } finally {
            s.listener = null;
          }
        },
        { deadlineMs, signal: left.signal },
      );
      sse.emit({ status: 'finished', data });
    } catch (e) {
      sse.emit({ status: 'error', error: errorBody(e, log).body.error });
    } finally {
      sse.end();
    }
  };

  const callOptions = (b: Record<string, unknown>, signal: AbortSignal): CallOptions => {
    const { input: _i, instruction: _n, schema: _s, streamResponse: _sr, ...rest } = b;
    return { ...(rest as CallOptions), signal };
  };
  /** How long a model operation may run: its own timeout, else the default, never past the bound. */
  const opDeadline = (timeout: number | undefined) => Math.min(timeout ?? DEFAULTS.modelOperationTimeoutMs, MAX_TIMEOUT_MS);

  const routes: [RegExp, Handler][] = [
    [
      /^\/v1\/sessions\/start$/,
      async ({ req, res, body, tenant }) => {
        const b = parse<ReturnType<typeof StartSessionRequestSchema.parse>>(StartSessionRequestSchema, body, 'session start request');
        const stream = wantsStream(req, b);
        const run = async () => ({ sessionId: (await sessions.start(tenant, b)).id, available: true });
        if (!stream) return send(res, 200, { success: true, data: await run() });
        const sse = new Stream(res);
        sse.emit({ status: 'starting' });
        try {
          sse.emit({ status: 'finished', data: await run() });
        } catch (e) {
          sse.emit({ status: 'error', error: errorBody(e, log).body.error });
        } finally {
          sse.end();
        }
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/navigate$/,
      async ({ req, res, body, params, tenant }) => {
        const b = parse<ReturnType<typeof NavigateRequestSchema.parse>>(NavigateRequestSchema, body, 'navigate request');
        const deadline = Math.min(b.options?.timeout ?? DEFAULTS.navigationTimeoutMs, MAX_TIMEOUT_MS);
        await operate(req, res, params.id, tenant, wantsStream(req, b), deadline, async (s) => (await s.dh.context.activePage()).goto(b.url, b.options));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/act$/,
      async ({ req, res, body, params, tenant }) => {
        const b = parse<ReturnType<typeof ActRequestSchema.parse>>(ActRequestSchema, body, 'act request');
        await operate(req, res, params.id, tenant, wantsStream(req, b), opDeadline(b.timeout), (s, signal) => s.dh.act(b.input, callOptions(b, signal)));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/observe$/,
      async ({ req, res, body, params, tenant }) => {
        const b = parse<ReturnType<typeof ObserveRequestSchema.parse>>(ObserveRequestSchema, body, 'observe request');
        await operate(req, res, params.id, tenant, wantsStream(req, b), opDeadline(b.timeout), (s, signal) => s.dh.observe(b.instruction, callOptions(b, signal)));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/extract$/,
      async ({ req, res, body, params, tenant }) => {
        const b = parse<ReturnType<typeof ExtractRequestSchema.parse>>(ExtractRequestSchema, body, 'extract request');
        await operate(req, res, params.id, tenant, wantsStream(req, b), opDeadline(b.timeout), (s, signal) => s.dh.extract(b.instruction, b.schema, callOptions(b, signal)));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/agentExecute$/,
      async ({ req, res, body, params, tenant }) => {
        const b = parse<AgentExecuteRequest>(AgentExecuteRequestSchema, body, 'agentExecute request');
        const stream = wantsStream(req, b);
        const searchUrl = process.env.DECKHAND_SEARCH_URL;
        if (b.executeOptions.useSearch && !searchUrl) {
          throw new HttpError('INVALID_ARGUMENT', 'useSearch needs a search provider, and this service has none: set DECKHAND_SEARCH_URL (a SearXNG-style JSON endpoint)');
        }
        // The engine looks the run up in this key's cache and records it (engine/cache.ts agentCacheKey).
        await operate(req, res, params.id, tenant, stream, MAX_CALL_MS, async (s, signal) => {
          const r = await s.dh.agentExecute(b, { signal, searchUrl, cache: !!b.shouldCache });
          return { result: r.result, ...(r.cacheEntry ? { cacheEntry: r.cacheEntry } : {}) };
        });
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/end$/,
      async ({ req, res, body, params, tenant }) => {
        const b = parse<{ streamResponse?: boolean }>(EndRequestSchema, body, 'end request');
        wantsStream(req, b);
        // Always ends: whatever runs in the session is cancelled.
        await sessions.end(params.id, tenant);
        send(res, 200, { success: true, data: { ended: true } });
      },
    ],
    [
      /^\/v1\/cache\/lookup$/,
      async ({ res, body, tenant }) => {
        const r = parse<{ key: string; baseKey: string }>(CacheLookupRequestSchema, body, 'cache lookup');
        send(res, 200, { success: true, data: await store.lookup(r.key, r.baseKey, tenant) });
      },
    ],
    [
      /^\/v1\/cache\/record$/,
      async ({ res, body, tenant }) => send(res, 200, { success: true, data: await store.record(parse(CacheRecordRequestSchema, body, 'cache record'), tenant) }),
    ],
    [
      /^\/v1\/cache\/invalidate$/,
      async ({ res, body, tenant }) => {
        await store.invalidate(parse<{ key: string }>(CacheInvalidateRequestSchema, body, 'cache invalidate').key, tenant);
        send(res, 200, { success: true, data: null });
      },
    ],
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      hosts.check(req);
      const path = new URL(req.url ?? '/', 'http://service.invalid').pathname;
      if (mcp && path === '/mcp') {
        // The key is checked before a byte of the body is read.
        const tenant = mcp.tenantOf(req);
        if (!tenant) {
          if (!req.complete) res.setHeader('connection', 'close');
          return mcp.unauthorized(res);
        }
        if (req.method === 'POST') requireJson(req);
        await mcp.handle(req, res, tenant, () => readJson(req, maxBody));
        return;
      }
      const match = routes.map(([re, h]) => [re.exec(path), h] as const).find(([m]) => m);
      if (!match) throw new HttpError('NOT_FOUND', `no endpoint ${req.method} ${path.slice(0, 200)}`);
      if (req.method !== 'POST') throw new HttpError('METHOD_NOT_ALLOWED', `${path} takes POST`);
      // x-dh-project-id is accepted and ignored: keys are project-scoped.
      const tenant = keys.tenantOf(req.headers['x-dh-api-key'] as string | undefined);
      if (!tenant) throw new HttpError('UNAUTHORIZED', 'missing or wrong x-dh-api-key');
      requireJson(req);
      const [m, handler] = match;
      const params = { id: pathParam(m![1]) };
      const body = await readJson(req, maxBody);
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError('INVALID_ARGUMENT', 'the request body must be a JSON object');
      await handler({ req, res, body, params, tenant });
    } catch (e) {
      const { status, body } = errorBody(e, log);
      // A body left unread is not drained (it may be an attacker's slow trickle): the connection closes instead.
      send(res, status, body, req.complete ? {} : { connection: 'close' });
    }
  };

  const server = createServer(
    {
      // Slow clients are cut off: headers within 10 s, the whole request within 30 s
      // (these cover receiving the request only; a long answer or event stream is unaffected).
      headersTimeout: o.headersTimeoutMs ?? 10_000,
      requestTimeout: o.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      const p = handle(req, res);
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
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
    close: async () => {
      server.close();
      await mcp?.closeAll();
      await sessions.endAll();
      server.closeAllConnections();
      await Promise.allSettled([...inflight]);
      await store.close?.();
    },
  };
}
