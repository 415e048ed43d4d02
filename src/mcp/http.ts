/**
 * MCP over Streamable HTTP at /mcp: authentication first (Authorization: Bearer,
 * x-dh-api-key, or the deprecated dhApiKey query parameter), then options from
 * the query string, then one MCP server and one browser session per MCP session.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { KeyRing } from '../server/keys';
import type { SessionManager } from '../server/sessions';
import { createMcpServer, endSession, type McpSessionState } from './server';
import { OptionError, resolveMcpOptions, type RawOptions } from './options';

interface Entry {
  transport: StreamableHTTPServerTransport;
  state: McpSessionState;
}

function reply(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code, message } }));
}

export class McpHttpHandler {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly keys: KeyRing,
    private readonly sessions: SessionManager,
    private readonly home: string,
    /** Options given on the command line; query parameters override them. */
    private readonly base: RawOptions = {},
  ) {}

  private authorized(req: IncomingMessage, url: URL): boolean {
    const auth = req.headers.authorization;
    const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth)?.[1];
    return this.keys.check(bearer || (req.headers['x-dh-api-key'] as string | undefined) || url.searchParams.get('dhApiKey') || undefined);
  }

  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const url = new URL(req.url ?? '/mcp', 'http://mcp.invalid');
    if (!this.authorized(req, url)) return reply(res, 401, 'UNAUTHORIZED', 'missing or wrong key: send Authorization: Bearer <key> (or x-dh-api-key)');
    const sid = req.headers['mcp-session-id'] as string | undefined;
    const existing = sid ? this.entries.get(sid) : undefined;
    if (sid && !existing) return reply(res, 404, 'SESSION_NOT_FOUND', `no MCP session '${sid}'; start a new one`);
    if (existing) return existing.transport.handleRequest(req, res, body);
    if (req.method !== 'POST') return reply(res, 400, 'INVALID_ARGUMENT', 'start an MCP session with a POST initialize request');
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
      });
    } catch (e) {
      if (e instanceof OptionError) return reply(res, 400, 'INVALID_ARGUMENT', e.message);
      throw e;
    }
    const state: McpSessionState = { options, sessions: this.sessions, home: this.home, session: null, starting: null };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.entries.set(id, { transport, state });
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
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map(async (e) => {
      await e.transport.close().catch(() => undefined);
      if (!e.state.options.keepAlive) await endSession(e.state);
    }));
  }
}
