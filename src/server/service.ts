/**
 * The Deckhand HTTP service. For now it serves the result cache under
 * /v1/cache/..., backed by the SQLite store; every request needs x-dh-api-key.
 * Errors have one shape: { success: false, error: { code, message } }.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ZodTypeAny } from 'zod';
import { CacheLookupRequestSchema, CacheRecordRequestSchema } from '../protocol/cache';
import { describeZodError } from '../protocol/zod-errors';
import { SqliteStore, type CacheStore } from '../client/cache/store';
import { loadKeys, type KeyRing } from './keys';

const MAX_BODY = 2 * 1024 * 1024;

export interface ServiceOptions {
  host?: string;
  port?: number;
  /** Data folder (keys, cache database); default DECKHAND_HOME or ~/.deckhand. */
  home: string;
  store?: CacheStore;
  log?: (line: string) => void;
}

export interface RunningService {
  url: string;
  server: Server;
  keys: KeyRing;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, 'BODY_TOO_LARGE', `the request body is larger than ${MAX_BODY} bytes`);
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'the request body is not valid JSON');
  }
}

function parse<T>(schema: ZodTypeAny, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new HttpError(400, 'INVALID_ARGUMENT', describeZodError(r.error, what));
  return r.data as T;
}

export async function startService(o: ServiceOptions): Promise<RunningService> {
  const keys = loadKeys(o.home);
  const store = o.store ?? (await SqliteStore.open(join(o.home, 'cache.db')));
  const routes: Record<string, (body: unknown) => Promise<unknown>> = {
    '/v1/cache/lookup': async (b) => {
      const r = parse<{ key: string; baseKey: string }>(CacheLookupRequestSchema, b, 'cache lookup');
      return store.lookup(r.key, r.baseKey);
    },
    '/v1/cache/record': async (b) => store.record(parse(CacheRecordRequestSchema, b, 'cache record')),
  };
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://service.invalid').pathname;
        const route = routes[path];
        if (!route) throw new HttpError(404, 'NOT_FOUND', `no endpoint ${req.method} ${path}`);
        if (req.method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${path} takes POST`);
        if (!keys.check(req.headers['x-dh-api-key'] as string | undefined)) throw new HttpError(401, 'UNAUTHORIZED', 'missing or wrong x-dh-api-key');
        send(res, 200, { success: true, data: await route(await readJson(req)) });
      } catch (e) {
        if (e instanceof HttpError) send(res, e.status, { success: false, error: { code: e.code, message: e.message } });
        else {
          o.log?.(`internal error: ${(e as Error).stack ?? e}`);
          send(res, 500, { success: false, error: { code: 'INTERNAL', message: 'the service failed to handle this request; see its log' } });
        }
      }
    })();
  });
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          void store.close?.();
          resolve();
        });
      }),
  };
}
