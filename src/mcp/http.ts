/**
 * MCP over Streamable HTTP at /mcp: authentication first (Authorization: Bearer,
 * x-dh-api-key, or the deprecated dhApiKey query parameter), then options from
 * the query string, then one MCP server and one browser session per MCP session.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ERROR_MAP, type ErrorCode } from '../protocol/errors';
import type { KeyRing } from '../keys/api-keys';
import type { SessionManager } from '../sessions/sessions';
import { createMcpServer, endSession, type McpSessionState } from './server';
import { OptionError, resolveMcpOptions, type RawOptions } from './options';

/**
 * An error answered before the MCP transport sees the request: a JSON-RPC error body (MCP
 * clients parse these), with the HTTP status and JSON-RPC code of the one error table and
 * Deckhand's code in `data`.
 */
function reply(res: ServerResponse, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const { http, mcp } = ERROR_MAP[code];
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: mcp ?? -32600, message, data: { code } }, id: null });
  res.writeHead(http, { 'content-type': 'application/json', ...headers }).end(body);
}

interface Entry {
  transport: StreamableHTTPServerTransport;
  state: McpSessionState;
  lastUsed: number;
  /** Requests (and open GET streams) of this MCP session not yet answered or closed. */
  open: number;
}

export class McpHttpHandler {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly keys: KeyRing,
    private readonly sessions: SessionManager,
    private readonly home: string,
    /** Options given on the command line; query parameters override them. */
    private readonly base: RawOptions = {},
  ) {
    // A client that goes away without DELETE leaves its MCP session: it is ended once idle
    // (no request, no open stream) past the session limit, and its id then answers 404.
    const idle = sessions.idleTimeoutMs;
    this.sweeper = setInterval(() => void this.sweep(idle), Math.min(5_000, Math.max(250, idle / 4)));
    this.sweeper.unref();
  }

  /** MCP sessions open now (for tests and the soak bench). */
  get size(): number {
    return this.entries.size;
  }

  private async sweep(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const [id, e] of [...this.entries]) {
      if (e.open > 0 || now - e.lastUsed <= idleMs) continue;
      this.entries.delete(id);
      // Closing the transport ends its browser session (onclose), keepAlive or not: nobody is left to use it.
      await e.transport.close().catch(() => undefined);
      await endSession(e.state);
    }
  }

  /** Count a request against its MCP session's activity until its response is done. */
  private track(e: Entry, res: ServerResponse): void {
    e.open++;
    e.lastUsed = Date.now();
    res.once('close', () => {
      e.open--;
      e.lastUsed = Date.now();
    });
  }

  /** The caller's tenant from its key (Authorization: Bearer, x-dh-api-key, or ?dhApiKey=), or null. */
  tenantOf(req: IncomingMessage): Promise<string | null> {
    const url = new URL(req.url ?? '/mcp', 'http://mcp.invalid');
    const auth = req.headers.authorization;
    const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth)?.[1];
    return this.keys.tenantOf(bearer || (req.headers['x-dh-api-key'] as string | undefined) || url.searchParams.get('dhApiKey') || undefined);
  }

  /** Answer the 401 of a request without a valid key, before anything of its body is read. */
  unauthorized(res: ServerResponse): void {
    reply(res, 'UNAUTHORIZED', 'missing or wrong key: send Authorization: Bearer <key> (or x-dh-api-key)', { 'www-authenticate': 'Bearer realm="deckhand"' });
  }

  /** Handle an authenticated request; `readBody` is called only once the request is known to need it. */
  async handle(req: IncomingMessage, res: ServerResponse, tenant: string, readBody: () => Promise<unknown>): Promise<void> {
    const url = new URL(req.url ?? '/mcp', 'http://mcp.invalid');
    const sid = req.headers['mcp-session-id'] as string | undefined;
    const existing = sid ? this.entries.get(sid) : undefined;
    // Another key's MCP session does not exist for this caller.
    if (sid && (!existing || existing.state.tenant !== tenant)) return reply(res, 'SESSION_NOT_FOUND', `no MCP session '${sid.slice(0, 80)}'; start a new one`);
    const body = req.method === 'POST' ? await readBody() : undefined;
    if (existing) {
      this.track(existing, res);
      return existing.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return reply(res, 'INVALID_ARGUMENT', 'start an MCP session with a POST initialize request');
    let options;
    try {
      const q = (k: string) => url.searchParams.get(k) ?? undefined;
      options = resolveMcpOptions({
        ...this.base,
        ...(q('modelName') !== undefined ? { modelName: q('modelName'), modelApiKey: q('modelApiKey') } : {}),
        ...(q('modelApiKey') !== undefined ? { modelApiKey: q('modelApiKey') } : {}),
        ...(q('keepAlive') !== undefined ? { keepAlive: q('keepAlive') } : {}),
        ...(q('proxies') !== undefined ? { proxies: q('proxies') } : {}),
        ...(q('verified') !== undefined ? { verified: q('verified') } : {}),
        ...(q('cache') !== undefined ? { cache: q('cache') } : {}),
        ...(q('approve') !== undefined ? { approve: q('approve') } : {}),
        ...(q('approveTimeout') !== undefined ? { approveTimeout: q('approveTimeout') } : {}),
      });
    } catch (e) {
      if (e instanceof OptionError) return reply(res, 'INVALID_ARGUMENT', e.message);
      throw e;
    }
    const state: McpSessionState = { tenant, options, sessions: this.sessions, home: this.home, session: null, starting: null };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const entry: Entry = { transport, state, lastUsed: Date.now(), open: 0 };
        this.entries.set(id, entry);
        this.track(entry, res);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.entries.delete(transport.sessionId);
      // Closing the transport frees its browser, unless the caller asked to keep it.
      if (!state.options.keepAlive) void endSession(state);
    };
    const server = createMcpServer(state);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      all.map(async (e) => {
        await e.transport.close().catch(() => undefined);
        if (!e.state.options.keepAlive) await endSession(e.state);
      }),
    );
  }
}
