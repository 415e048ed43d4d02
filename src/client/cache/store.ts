/**
 * Cache stores on the Node side, answering the worker's cache calls for the sessions Node
 * created (the policy runs in the engine). Every store gives the same atomic operations:
 * lookup (count the key, return its entry), record (compare a computed result with the
 * stored one and count agreement) and invalidate (drop an entry). The SQLite store is the
 * embedded default; the memory store serves tests; the remote store talks to a Deckhand
 * cache service.
 *
 * Entries belong to a tenant (an API key's digest on the service; '' for a library's own
 * store), so one key's recorded actions are never replayed for another. Lookups never add
 * entries, and each tenant's entries are bounded, the least recently used evicted first.
 */
import { dirname } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile } from '../private-files';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { CACHE_BOUNDS, evictCount, keptAfterEviction, SQLITE_CACHE_MIGRATIONS, SQLITE_CACHE_STATEMENTS } from '../../protocol/cache-sql';
import {
  CacheInvalidateResponseSchema,
  CacheLookupResponseSchema,
  CacheRecordResponseSchema,
  nextAgree,
  type CacheEntry,
  type CacheLookupResponse,
  type CacheRecordRequest,
} from '../../protocol/cache';

export interface CacheStore {
  lookup(key: string, baseKey: string, tenant?: string): Promise<CacheLookupResponse>;
  record(req: CacheRecordRequest, tenant?: string): Promise<{ agree: number }>;
  invalidate(key: string, tenant?: string): Promise<void>;
  close?(): Promise<void> | void;
}

/** Entries one tenant may keep before the least recently used are evicted. */
export const DEFAULT_MAX_ENTRIES_PER_TENANT: number = CACHE_BOUNDS.maxEntriesPerTenant;

export { keptAfterEviction };

/** A view of a store bound to one tenant: what the service hands to each caller's operations. */
export function forTenant(store: CacheStore, tenant: string): CacheStore {
  return {
    lookup: (key, baseKey) => store.lookup(key, baseKey, tenant),
    record: (req) => store.record(req, tenant),
    invalidate: (key) => store.invalidate(key, tenant),
  };
}

export class MemoryStore implements CacheStore {
  private readonly counts = new Map<string, number>();
  /** Each tenant's entries in order of use, the least recently used first. */
  private readonly tenants = new Map<string, Map<string, CacheEntry & { baseKey: string }>>();
  /** Live entries per tenant and base key: a miss whose base key has one is `pageChanged`, as in SQLite. */
  private readonly bases = new Map<string, number>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES_PER_TENANT) {}

  async lookup(key: string, baseKey: string, tenant = ''): Promise<CacheLookupResponse> {
    const k = `${tenant}\0${key}`;
    const mine = this.tenants.get(tenant);
    const e = mine?.get(key);
    // Only keys with an entry are counted, so lookups cannot grow the store.
    const count = (this.counts.get(k) ?? 0) + 1;
    if (mine && e) {
      this.counts.set(k, count);
      mine.delete(key); // most recently used last
      mine.set(key, e);
    }
    return {
      count,
      entry: e ? { key: e.key, op: e.op, result: e.result, usage: e.usage, agree: e.agree } : null,
      pageChanged: !e && (this.bases.get(`${tenant}\0${baseKey}`) ?? 0) > 0,
    };
  }

  async record(r: CacheRecordRequest, tenant = ''): Promise<{ agree: number }> {
    const k = `${tenant}\0${r.key}`;
    let mine = this.tenants.get(tenant);
    if (!mine) this.tenants.set(tenant, (mine = new Map()));
    const agree = nextAgree(mine.get(r.key), r);
    this.remove(tenant, r.key);
    mine.set(r.key, { key: r.key, baseKey: r.baseKey, op: r.op, result: r.result, usage: r.usage, agree });
    if (!this.counts.has(k)) this.counts.set(k, 1);
    const base = `${tenant}\0${r.baseKey}`;
    this.bases.set(base, (this.bases.get(base) ?? 0) + 1);
    if (mine.size > this.maxEntries) {
      // The oldest come first in the tenant's map, so evicting visits only them.
      const keep = keptAfterEviction(this.maxEntries);
      for (const old of mine.keys()) {
        if (mine.size <= keep) break;
        this.remove(tenant, old);
        this.counts.delete(`${tenant}\0${old}`);
      }
    }
    return { agree };
  }

  async invalidate(key: string, tenant = ''): Promise<void> {
    this.remove(tenant, key);
    this.counts.delete(`${tenant}\0${key}`);
  }

  /** Drop one entry, and its share of its base key. */
  private remove(tenant: string, key: string): void {
    const mine = this.tenants.get(tenant);
    const e = mine?.get(key);
    if (!mine || !e) return;
    mine.delete(key);
    const base = `${tenant}\0${e.baseKey}`;
    const n = (this.bases.get(base) ?? 1) - 1;
    if (n > 0) this.bases.set(base, n);
    else this.bases.delete(base);
  }
}

type Db = import('better-sqlite3').Database;

/** Run `fn`, retrying for up to 10 s while another process holds the database locked. */
async function withBusyRetry(path: string, fn: () => void): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      const code = (e as { code?: string }).code;
      if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') || Date.now() > deadline) {
        if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
          throw new DeckhandError(ErrorCode.Timeout, `the cache database ${path} stayed locked by another process for 10 s`);
        throw e;
      }
      await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** attempt) * (0.5 + Math.random())));
    }
  }
}

/** The statements a store runs (protocol/cache-sql.ts), prepared once rather than parsed again on every call. */
function statements(db: Db) {
  const all = Object.entries(SQLITE_CACHE_STATEMENTS).map(([name, st]) => [name, db.prepare(st.sql)]);
  return Object.fromEntries(all) as Record<keyof typeof SQLITE_CACHE_STATEMENTS, import('better-sqlite3').Statement>;
}

/** SQLite on disk: WAL mode and immediate transactions, so several sessions (and processes) can share it. */
export class SqliteStore implements CacheStore {
  private readonly sql: ReturnType<typeof statements>;

  private constructor(
    private readonly db: Db,
    private readonly maxEntries: number,
  ) {
    this.sql = statements(db);
  }

  static async open(path: string, options: { maxEntriesPerTenant?: number } = {}): Promise<SqliteStore> {
    let Database: typeof import('better-sqlite3');
    try {
      Database = (await import('better-sqlite3')).default;
    } catch (e) {
      throw new DeckhandError(ErrorCode.Internal, `the SQLite cache store needs better-sqlite3, which failed to load: ${(e as Error).message}`);
    }
    if (path !== ':memory:') {
      ensurePrivateDir(dirname(path));
      // SQLite gives the -wal and -shm files the database file's mode.
      ensurePrivateFile(path);
    }
    const db = new Database(path);
    db.pragma('busy_timeout = 5000');
    const migrate = db.transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
      const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
      let v = row?.version ?? 0;
      if (!row) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run();
      for (; v < SQLITE_CACHE_MIGRATIONS.length; v++) db.exec(SQLITE_CACHE_MIGRATIONS[v]);
      db.prepare('UPDATE schema_version SET version = ?').run(v);
    });
    // Switching a new file to WAL takes an exclusive lock, and SQLite answers SQLITE_BUSY at
    // once (no busy handler) when several processes open the file together: retry briefly.
    await withBusyRetry(path, () => {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    });
    await withBusyRetry(path, () => migrate.immediate());
    return new SqliteStore(db, options.maxEntriesPerTenant ?? DEFAULT_MAX_ENTRIES_PER_TENANT);
  }

  async lookup(key: string, baseKey: string, tenant = ''): Promise<CacheLookupResponse> {
    const tx = this.db.transaction(() => {
      // Only an existing entry is touched: a lookup never adds a row.
      this.sql.touch.run(Date.now(), tenant, key);
      const row = this.sql.get.get(tenant, key) as { op: string; result: string; usage: string; agree: number; count: number } | undefined;
      const entry = row ? { key, op: row.op as CacheEntry['op'], result: JSON.parse(row.result), usage: JSON.parse(row.usage), agree: row.agree } : null;
      const pageChanged = !entry && !!this.sql.sibling.get(tenant, baseKey, key);
      return CacheLookupResponseSchema.parse({ count: row?.count ?? 1, entry, pageChanged });
    });
    return tx.immediate();
  }

  async record(r: CacheRecordRequest, tenant = ''): Promise<{ agree: number }> {
    const tx = this.db.transaction(() => {
      const prev = this.sql.prev.get(tenant, r.key) as { result: string; agree: number } | undefined;
      const json = JSON.stringify(r.result ?? null);
      const agree = nextAgree(prev && { result: JSON.parse(prev.result), agree: prev.agree }, r);
      this.sql.put.run(tenant, r.key, r.baseKey, r.op, json, JSON.stringify(r.usage), agree, Date.now());
      if (!prev) {
        // Keep each tenant within its bound, the least recently used evicted first. The kept
        // size answers "over?" without counting, and the oldest are a seek on (tenant, used_at).
        const n = (this.sql.size.get(tenant) as { n: number } | undefined)?.n ?? 0;
        const over = evictCount(n, this.maxEntries);
        if (over > 0) this.sql.evict.run(tenant, over);
      }
      return CacheRecordResponseSchema.parse({ agree });
    });
    return tx.immediate();
  }

  async invalidate(key: string, tenant = ''): Promise<void> {
    this.sql.drop.run(tenant, key);
  }

  close(): void {
    this.db.close();
  }
}

/** A Deckhand cache service over HTTP (`deckhand serve`), authenticated with its API key. */
export class RemoteStore implements CacheStore {
  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
  ) {}

  private async post<T>(path: string, body: unknown, schema: { parse(v: unknown): T }): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.apiUrl.endsWith('/') ? this.apiUrl : `${this.apiUrl}/`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dh-api-key': this.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (e) {
      throw new DeckhandError(ErrorCode.Internal, `the cache service at ${this.apiUrl} could not be reached: ${(e as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = JSON.parse(text).error?.message ?? text;
      } catch {
        /* plain text */
      }
      throw new DeckhandError(res.status === 401 ? ErrorCode.InvalidArgument : ErrorCode.Internal, `the cache service answered ${res.status}: ${message}`);
    }
    return schema.parse(JSON.parse(text).data);
  }

  lookup(key: string, baseKey: string): Promise<CacheLookupResponse> {
    return this.post('v1/cache/lookup', { key, baseKey }, CacheLookupResponseSchema);
  }

  record(req: CacheRecordRequest): Promise<{ agree: number }> {
    return this.post('v1/cache/record', req, CacheRecordResponseSchema);
  }

  async invalidate(key: string): Promise<void> {
    await this.post('v1/cache/invalidate', { key }, CacheInvalidateResponseSchema);
  }
}
