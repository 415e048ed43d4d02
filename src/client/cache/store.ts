/**
 * Cache stores. Every store gives the same two atomic operations: lookup (count the
 * key, return its entry) and record (compare a computed result with the stored one
 * and count agreement). The SQLite store is the embedded default; the memory store
 * serves tests; the remote store talks to a Deckhand cache service.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import {
  CacheLookupResponseSchema, CacheRecordResponseSchema, type CacheEntry, type CacheLookupResponse, type CacheRecordRequest,
} from '../../protocol/cache';

export interface CacheStore {
  lookup(key: string, baseKey: string): Promise<CacheLookupResponse>;
  record(req: CacheRecordRequest): Promise<{ agree: number }>;
  close?(): Promise<void> | void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class MemoryStore implements CacheStore {
  private readonly counts = new Map<string, number>();
  private readonly entries = new Map<string, CacheEntry & { baseKey: string }>();
  private readonly bases = new Set<string>();

  async lookup(key: string, baseKey: string): Promise<CacheLookupResponse> {
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    const e = this.entries.get(key);
    return { count, entry: e ? { key: e.key, op: e.op, result: e.result, usage: e.usage, agree: e.agree } : null, pageChanged: !e && this.bases.has(baseKey) };
  }

  async record(r: CacheRecordRequest): Promise<{ agree: number }> {
    const prev = this.entries.get(r.key);
    const agree = r.replace ? (prev?.agree ?? 1) : prev && same(prev.result, r.result) ? prev.agree + 1 : 1;
    this.entries.set(r.key, { key: r.key, baseKey: r.baseKey, op: r.op, result: r.result, usage: r.usage, agree });
    this.bases.add(r.baseKey);
    return { agree };
  }
}

const MIGRATIONS: string[] = [
  `CREATE TABLE entries (
     key TEXT PRIMARY KEY,
     base_key TEXT NOT NULL,
     op TEXT NOT NULL,
     result TEXT,
     usage TEXT,
     agree INTEGER NOT NULL DEFAULT 0,
     count INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX entries_base ON entries(base_key);`,
];

type Db = import('better-sqlite3').Database;

/** SQLite on disk: WAL mode and immediate transactions, so several sessions (and processes) can share it. */
export class SqliteStore implements CacheStore {
  private constructor(private readonly db: Db) {}

  static async open(path: string): Promise<SqliteStore> {
    let Database: typeof import('better-sqlite3');
    try {
      Database = (await import('better-sqlite3')).default;
    } catch (e) {
      throw new DeckhandError(ErrorCode.Internal, `the SQLite cache store needs better-sqlite3, which failed to load: ${(e as Error).message}`);
    }
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const migrate = db.transaction(() => {
      const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
      let v = row?.version ?? 0;
      if (!row) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run();
      for (; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]);
      db.prepare('UPDATE schema_version SET version = ?').run(v);
    });
    migrate.immediate();
    return new SqliteStore(db);
  }

  async lookup(key: string, baseKey: string): Promise<CacheLookupResponse> {
    const tx = this.db.transaction(() => {
      this.db
        .prepare(`INSERT INTO entries (key, base_key, op, agree, count, updated_at) VALUES (?, ?, '', 0, 1, ?)
                  ON CONFLICT(key) DO UPDATE SET count = count + 1`)
        .run(key, baseKey, Date.now());
      const row = this.db.prepare('SELECT op, result, usage, agree, count FROM entries WHERE key = ?').get(key) as {
        op: string; result: string | null; usage: string | null; agree: number; count: number;
      };
      const entry = row.result !== null && row.agree > 0 ? { key, op: row.op as CacheEntry['op'], result: JSON.parse(row.result), usage: JSON.parse(row.usage!), agree: row.agree } : null;
      const pageChanged = !entry && !!this.db.prepare('SELECT 1 FROM entries WHERE base_key = ? AND key != ? AND agree > 0 LIMIT 1').get(baseKey, key);
      return CacheLookupResponseSchema.parse({ count: row.count, entry, pageChanged });
    });
    return tx.immediate();
  }

  async record(r: CacheRecordRequest): Promise<{ agree: number }> {
    const tx = this.db.transaction(() => {
      const prev = this.db.prepare('SELECT result, agree FROM entries WHERE key = ?').get(r.key) as { result: string | null; agree: number } | undefined;
      const json = JSON.stringify(r.result ?? null);
      const agree = r.replace ? Math.max(1, prev?.agree ?? 1) : prev && prev.result === json ? prev.agree + 1 : 1;
      this.db
        .prepare(`INSERT INTO entries (key, base_key, op, result, usage, agree, count, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)
                  ON CONFLICT(key) DO UPDATE SET op = excluded.op, result = excluded.result, usage = excluded.usage, agree = excluded.agree, updated_at = excluded.updated_at`)
        .run(r.key, r.baseKey, r.op, json, JSON.stringify(r.usage), agree, Date.now());
      return CacheRecordResponseSchema.parse({ agree });
    });
    return tx.immediate();
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
}
