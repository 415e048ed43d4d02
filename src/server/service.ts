/**
 * The Deckhand HTTP service: browser sessions with act/observe/extract/navigate
 * (`/v1/sessions/...`), the result cache (`/v1/cache/...`), API-key
 * authentication, and Server-Sent Events for streamed responses. One error body
 * for every failure: { success: false, error: { code, message } }.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ZodTypeAny } from 'zod';
import { CacheLookupRequestSchema, CacheRecordRequestSchema } from '../protocol/cache';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import {
  ActRequestSchema, EndRequestSchema, ExtractRequestSchema, NavigateRequestSchema, ObserveRequestSchema, StartSessionRequestSchema, type StreamEvent,
} from '../protocol/http';
import { describeZodError } from '../protocol/zod-errors';
import { AgentExecuteRequestSchema, AgentRecordingSchema, type AgentExecuteRequest, type AgentRecording } from '../protocol/agent';
import { normalizeUrl } from '../engine/snapshot';
import { SqliteStore, type CacheStore } from '../client/cache/store';
import type { CallOptions } from '../client/deckhand';
import { HttpError } from './http-error';
import { loadKeys, type KeyRing } from './keys';
import { SessionManager, type Session } from './sessions';
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

/** The agent cache key: instruction, start URL, options and agent config, never secrets. */
function agentCacheKey(b: AgentExecuteRequest, startUrl: string): string {
  const modelName = (m: unknown) => (typeof m === 'string' ? m : m && typeof m === 'object' ? (m as { modelName?: string }).modelName ?? null : null);
  const c = b.agentConfig;
  const x = b.executeOptions;
  return createHash('sha256')
    .update(JSON.stringify({
      v: 1, instruction: x.instruction.trim(), startUrl, mode: c.mode ?? (c.cua ? 'cua' : 'dom'), model: modelName(c.model), provider: c.provider ?? null,
      executionModel: modelName(c.executionModel), systemPrompt: c.systemPrompt ?? null, maxSteps: x.maxSteps ?? null, useSearch: !!x.useSearch,
      variables: Object.keys(x.variables ?? {}).sort(), frameId: b.frameId ?? null,
    }))
    .digest('hex');
}

/** HTTP status for each library error code: bad input 400, page-level failures 422, providers 502, deadlines 504. */
const STATUS: Record<string, number> = {
  [ErrorCode.InvalidArgument]: 400, [ErrorCode.InvalidSelector]: 400, [ErrorCode.UnsupportedMethod]: 400, [ErrorCode.NoModelConfigured]: 400,
  [ErrorCode.ElementNotFound]: 422, [ErrorCode.ElementNotActionable]: 422, [ErrorCode.ElementCovered]: 422, [ErrorCode.ActionFailed]: 422,
  [ErrorCode.ModelRefused]: 422, [ErrorCode.EvaluationFailed]: 422, [ErrorCode.NavigationFailed]: 422, [ErrorCode.BatchFailed]: 422,
  [ErrorCode.ModelAuthFailed]: 502, [ErrorCode.ModelProviderError]: 502, [ErrorCode.ModelUnreachable]: 502, [ErrorCode.ModelOutputInvalid]: 502,
  [ErrorCode.ModelRateLimited]: 503, [ErrorCode.WorkerGone]: 503, [ErrorCode.BrowserClosed]: 503, [ErrorCode.ExtensionMissing]: 502,
  [ErrorCode.PageClosed]: 409, [ErrorCode.FrameDetached]: 409, [ErrorCode.Closed]: 409, [ErrorCode.Cancelled]: 409,
  [ErrorCode.Timeout]: 504,
};

function errorBody(e: unknown, log?: (l: string) => void): { status: number; body: { success: false; error: { code: string; message: string } } } {
  if (e instanceof HttpError) return { status: e.status, body: { success: false, error: { code: e.code, message: e.message } } };
  if (e instanceof DeckhandError) return { status: STATUS[e.code] ?? 500, body: { success: false, error: { code: e.code, message: e.message } } };
  log?.(`internal error: ${(e as Error)?.stack ?? e}`);
  return { status: 500, body: { success: false, error: { code: 'INTERNAL', message: 'the service failed to handle this request (a bug on our side); its log has the details' } } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) throw new HttpError(413, 'BODY_TOO_LARGE', `the request body is larger than ${max} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new HttpError(413, 'BODY_TOO_LARGE', `the request body is larger than ${max} bytes`);
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'the request body is not valid JSON');
  }
}

function parse<T>(schema: ZodTypeAny, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new HttpError(400, 'INVALID_ARGUMENT', describeZodError(r.error, what));
  return r.data as T;
}

/** A boolean header is exactly "true" or "false". */
function boolHeader(req: IncomingMessage, name: string): boolean | undefined {
  const v = req.headers[name];
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new HttpError(400, 'INVALID_HEADER', `header ${name} must be "true" or "false", got ${JSON.stringify(v)}`);
}

/**
 * Whether to stream: the x-stream-response header or streamResponse in the body. When both
 * are given they must agree; a disagreement is a 400 rather than a silent pick.
 */
function wantsStream(req: IncomingMessage, body: { streamResponse?: boolean }): boolean {
  const h = boolHeader(req, 'x-stream-response');
  const b = body.streamResponse;
  if (h !== undefined && b !== undefined && h !== b) {
    throw new HttpError(400, 'INVALID_ARGUMENT', `x-stream-response (${h}) and streamResponse (${b}) disagree; send one, or the same value in both`);
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
    const ev: StreamEvent = { id: ++this.n, ...e };
    this.res.write(`id: ${ev.id}\nevent: ${ev.status}\ndata: ${JSON.stringify(ev)}\n\n`);
  }
  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }
}

type Handler = (ctx: { req: IncomingMessage; res: ServerResponse; body: unknown; params: Record<string, string> }) => Promise<void>;

export async function startService(o: ServiceOptions): Promise<RunningService> {
  const log = o.log ?? (() => undefined);
  const keys = loadKeys(o.home);
  const store = o.store ?? (await SqliteStore.open(join(o.home, 'cache.db')));
  const maxBody = o.maxBodyBytes ?? 1024 * 1024;
  const sessions = new SessionManager({ maxSessions: o.maxSessions ?? 4, idleTimeoutMs: o.idleTimeoutMs ?? 10 * 60_000 }, {}, log);
  const inflight = new Set<Promise<unknown>>();
  const mcp = o.mcp === false ? null : new McpHttpHandler(keys, sessions, o.home, o.mcpOptions);

  /** Run an operation on a session, as JSON or as an event stream; a client that leaves cancels it. */
  const operate = async (
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    stream: boolean,
    fn: (s: Session, signal: AbortSignal) => Promise<unknown>,
  ): Promise<void> => {
    const abort = new AbortController();
    // A client that disconnects before its answer aborts the operation and frees the session.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    if (!stream) {
      const data = await sessions.run(id, (s) => fn(s, abort.signal));
      send(res, 200, { success: true, data });
      return;
    }
    sessions.get(id); // 404 before the stream opens
    const sse = new Stream(res);
    sse.emit({ status: 'starting' });
    try {
      const data = await sessions.run(id, async (s) => {
        sse.emit({ status: 'connected', message: `session ${s.id}` });
        s.listener = (line) =>
          sse.emit({ status: 'running', message: line.message, data: { level: line.level, ...(line.data?.span === 'agent-step' ? { step: line.data.step } : {}) } });
        try {
          return await fn(s, abort.signal);
        } finally {
          s.listener = null;
        }
      });
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

  const routes: [RegExp, Handler][] = [
    [
      /^\/v1\/sessions\/start$/,
      async ({ req, res, body }) => {
        const b = parse<ReturnType<typeof StartSessionRequestSchema.parse>>(StartSessionRequestSchema, body, 'session start request');
        const stream = wantsStream(req, b);
        const run = async () => ({ sessionId: (await sessions.start(b)).id, available: true });
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
      async ({ req, res, body, params }) => {
        const b = parse<ReturnType<typeof NavigateRequestSchema.parse>>(NavigateRequestSchema, body, 'navigate request');
        await operate(req, res, params.id, wantsStream(req, b), async (s) => (await s.dh.context.activePage()).goto(b.url, b.options));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/act$/,
      async ({ req, res, body, params }) => {
        const b = parse<ReturnType<typeof ActRequestSchema.parse>>(ActRequestSchema, body, 'act request');
        await operate(req, res, params.id, wantsStream(req, b), (s, signal) => s.dh.act(b.input, callOptions(b, signal)));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/observe$/,
      async ({ req, res, body, params }) => {
        const b = parse<ReturnType<typeof ObserveRequestSchema.parse>>(ObserveRequestSchema, body, 'observe request');
        await operate(req, res, params.id, wantsStream(req, b), (s, signal) => s.dh.observe(b.instruction, callOptions(b, signal)));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/extract$/,
      async ({ req, res, body, params }) => {
        const b = parse<ReturnType<typeof ExtractRequestSchema.parse>>(ExtractRequestSchema, body, 'extract request');
        await operate(req, res, params.id, wantsStream(req, b), (s, signal) => s.dh.extract(b.instruction, b.schema, callOptions(b, signal)));
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/agentExecute$/,
      async ({ req, res, body, params }) => {
        const b = parse<AgentExecuteRequest>(AgentExecuteRequestSchema, body, 'agentExecute request');
        const stream = wantsStream(req, b);
        const searchUrl = process.env.DECKHAND_SEARCH_URL;
        if (b.executeOptions.useSearch && !searchUrl) {
          throw new HttpError(400, 'INVALID_ARGUMENT', 'useSearch needs a search provider, and this service has none: set DECKHAND_SEARCH_URL (a SearXNG-style JSON endpoint)');
        }
        await operate(req, res, params.id, stream, async (s, signal) => {
          let replay: AgentRecording | undefined;
          let cacheKey: string | undefined;
          if (b.shouldCache) {
            const startUrl = normalizeUrl(await (await s.dh.context.activePage()).url());
            cacheKey = agentCacheKey(b, startUrl);
            const look = await store.lookup(cacheKey, cacheKey);
            const parsed = look.entry ? AgentRecordingSchema.safeParse(look.entry.result) : null;
            if (parsed?.success) replay = parsed.data;
          }
          const r = await s.dh.agentExecute(b, { signal, searchUrl, record: !!b.shouldCache && !replay, replay });
          if (cacheKey && r.recording) await store.record({ key: cacheKey, baseKey: cacheKey, op: 'agent', result: r.recording, usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 } });
          const entry = r.recording ?? (r.result.metadata?.replayed ? replay : undefined);
          return { result: r.result, ...(cacheKey && entry ? { cacheEntry: { cacheKey, entry } } : {}) };
        });
      },
    ],
    [
      /^\/v1\/sessions\/([^/]+)\/end$/,
      async ({ req, res, body, params }) => {
        const b = parse<{ streamResponse?: boolean }>(EndRequestSchema, body, 'end request');
        wantsStream(req, b);
        const s = sessions.get(params.id);
        if (s.busy) throw new HttpError(409, 'SESSION_BUSY', `session '${params.id}' is running an operation; end it when that finishes`);
        await sessions.end(params.id);
        send(res, 200, { success: true, data: { ended: true } });
      },
    ],
    [
      /^\/v1\/cache\/lookup$/,
      async ({ res, body }) => {
        const r = parse<{ key: string; baseKey: string }>(CacheLookupRequestSchema, body, 'cache lookup');
        send(res, 200, { success: true, data: await store.lookup(r.key, r.baseKey) });
      },
    ],
    [
      /^\/v1\/cache\/record$/,
      async ({ res, body }) => send(res, 200, { success: true, data: await store.record(parse(CacheRecordRequestSchema, body, 'cache record')) }),
    ],
  ];

  const server = createServer((req, res) => {
    const p = (async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://service.invalid').pathname;
        if (mcp && path === '/mcp') {
          // MCP has its own authentication forms and protocol errors.
          const body = req.method === 'POST' ? await readJson(req, maxBody) : undefined;
          await mcp.handle(req, res, body);
          return;
        }
        const match = routes.map(([re, h]) => [re.exec(path), h] as const).find(([m]) => m);
        if (!match) throw new HttpError(404, 'NOT_FOUND', `no endpoint ${req.method} ${path}`);
        if (req.method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${path} takes POST`);
        // x-dh-project-id is accepted and ignored: keys are project-scoped.
        if (!keys.check(req.headers['x-dh-api-key'] as string | undefined)) throw new HttpError(401, 'UNAUTHORIZED', 'missing or wrong x-dh-api-key');
        const [m, handler] = match;
        const body = await readJson(req, maxBody);
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'INVALID_ARGUMENT', 'the request body must be a JSON object');
        await handler({ req, res, body, params: { id: decodeURIComponent(m![1] ?? '') } });
      } catch (e) {
        const { status, body } = errorBody(e, log);
        send(res, status, body);
        // Unread request bodies (e.g. a 413) must not hang the connection.
        if (!req.complete) req.resume();
      }
    })();
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  });
  server.requestTimeout = 0; // operations have their own deadlines
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 3000, o.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
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
