/**
 * The result cache in PostgreSQL, shared by every replica of the HTTP service: the SQLite
 * store's tenants, bound and eviction, with the same lookup and record semantics, safe for
 * concurrent callers in several processes.
 *
 * Each tenant's size is kept by triggers in the writing transaction, so the bound is checked
 * without counting. Inserting a new key updates its tenant's size row, whose lock then orders
 * the tenant's new keys one after another: the size read after the insert is exact, and the
 * eviction that follows skips entries other transactions hold (used this very moment).
 * Use times are the database's clock, never a replica's, so replicas whose clocks disagree
 * still evict the least recently used.
 */
import { DEFAULT_MAX_ENTRIES_PER_TENANT, keptAfterEviction, type CacheStore } from '../client/cache/store';
import {
  CacheLookupResponseSchema,
  CacheRecordResponseSchema,
  nextAgree,
  type CacheEntry,
  type CacheLookupResponse,
  type CacheRecordRequest,
} from '../protocol/cache';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { databaseError, inTransaction, migrate, openPool, type Pool } from './pool';

const MIGRATIONS: readonly string[] = [
  // Results and usage are kept as the JSON text the store wrote (not jsonb, which reorders
  // object keys, and not json, which refuses lone surrogates in strings): agreement compares
  // results as JSON text. `id` breaks ties between equal use times, oldest insert first.
  `CREATE TABLE dh_cache_entries (
     tenant TEXT NOT NULL,
     key TEXT NOT NULL,
     base_key TEXT NOT NULL,
     op TEXT NOT NULL,
     result TEXT NOT NULL,
     usage TEXT NOT NULL,
     agree BIGINT NOT NULL,
     count BIGINT NOT NULL,
     used_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
     id BIGINT GENERATED ALWAYS AS IDENTITY,
     PRIMARY KEY (tenant, key)
   );
   CREATE INDEX dh_cache_entries_base ON dh_cache_entries (tenant, base_key);
   CREATE INDEX dh_cache_entries_used ON dh_cache_entries (tenant, used_at, id);

   CREATE TABLE dh_cache_tenant_sizes (tenant TEXT PRIMARY KEY, n BIGINT NOT NULL);

   -- Statement triggers with transition tables: an eviction of many entries updates its
   -- tenant's size once. They keep it right for any program's statements, not only this store's.
   CREATE FUNCTION dh_cache_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO dh_cache_tenant_sizes AS s (tenant, n)
       SELECT tenant, COUNT(*) FROM dh_cache_added GROUP BY tenant ORDER BY tenant
       ON CONFLICT (tenant) DO UPDATE SET n = s.n + excluded.n;
     RETURN NULL;
   END $$;
   CREATE TRIGGER dh_cache_entries_added AFTER INSERT ON dh_cache_entries
     REFERENCING NEW TABLE AS dh_cache_added FOR EACH STATEMENT EXECUTE FUNCTION dh_cache_entries_added();

   CREATE FUNCTION dh_cache_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE dh_cache_tenant_sizes s SET n = s.n - gone.n
       FROM (SELECT tenant, COUNT(*) AS n FROM dh_cache_removed GROUP BY tenant) gone
       WHERE s.tenant = gone.tenant;
     RETURN NULL;
   END $$;
   CREATE TRIGGER dh_cache_entries_removed AFTER DELETE ON dh_cache_entries
     REFERENCING OLD TABLE AS dh_cache_removed FOR EACH STATEMENT EXECUTE FUNCTION dh_cache_entries_removed();

   -- An entry moved to another tenant (only by hand) and a truncated table.
   CREATE FUNCTION dh_cache_entries_moved() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE dh_cache_tenant_sizes SET n = n - 1 WHERE tenant = OLD.tenant;
     INSERT INTO dh_cache_tenant_sizes AS s (tenant, n) VALUES (NEW.tenant, 1)
       ON CONFLICT (tenant) DO UPDATE SET n = s.n + 1;
     RETURN NULL;
   END $$;
   CREATE TRIGGER dh_cache_entries_moved AFTER UPDATE OF tenant ON dh_cache_entries
     FOR EACH ROW WHEN (OLD.tenant IS DISTINCT FROM NEW.tenant) EXECUTE FUNCTION dh_cache_entries_moved();

   CREATE FUNCTION dh_cache_entries_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM dh_cache_tenant_sizes;
     RETURN NULL;
   END $$;
   CREATE TRIGGER dh_cache_entries_emptied AFTER TRUNCATE ON dh_cache_entries
     FOR EACH STATEMENT EXECUTE FUNCTION dh_cache_entries_emptied();`,
];

const SQL = {
  // Touch the entry if there is one (a lookup never adds a row); on a miss, tell whether
  // another entry of the tenant has the same base key. One statement: one round trip, atomic.
  lookup: `WITH hit AS (
             UPDATE dh_cache_entries SET count = count + 1, used_at = clock_timestamp()
             WHERE tenant = $1 AND key = $2
             RETURNING op, result, usage, agree, count
           )
           SELECT hit.op, hit.result, hit.usage, hit.agree, hit.count,
                  CASE WHEN hit.op IS NULL
                       THEN EXISTS (SELECT 1 FROM dh_cache_entries WHERE tenant = $1 AND base_key = $3 AND key <> $2)
                       ELSE false END AS page_changed
           FROM (VALUES (1)) AS one (x) LEFT JOIN hit ON true`,
  // The entry a record replaces, locked until the record commits: its agreement decides the new one.
  prev: 'SELECT result, agree FROM dh_cache_entries WHERE tenant = $1 AND key = $2 FOR UPDATE',
  // As in SQLite, a new record of a known key keeps its base key and its count.
  update: `UPDATE dh_cache_entries SET op = $3, result = $4, usage = $5, agree = $6, used_at = clock_timestamp()
           WHERE tenant = $1 AND key = $2`,
  insert: `INSERT INTO dh_cache_entries (tenant, key, base_key, op, result, usage, agree, count) VALUES ($1, $2, $3, $4, $5, $6, $7, 1)
           ON CONFLICT (tenant, key) DO NOTHING`,
  size: 'SELECT n FROM dh_cache_tenant_sizes WHERE tenant = $1',
  // The oldest first, read off the (tenant, used_at, id) index. Entries another transaction
  // holds are being used right now: skipped, the next oldest go instead, and nothing waits.
  evict: `DELETE FROM dh_cache_entries e
          USING (SELECT key FROM dh_cache_entries WHERE tenant = $1 ORDER BY used_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) old
          WHERE e.tenant = $1 AND e.key = old.key`,
  drop: 'DELETE FROM dh_cache_entries WHERE tenant = $1 AND key = $2',
};

type LookupRow = { op: string | null; result: string | null; usage: string | null; agree: string | null; count: string | null; page_changed: boolean };

const WHAT = 'the PostgreSQL cache store';

export interface PgCacheStoreOptions {
  maxEntriesPerTenant?: number;
  /** With a URL: how long to wait for a connection before answering UNAVAILABLE (10 s). */
  connectTimeoutMs?: number;
}

/** PostgreSQL: one cache for every replica, on a pool of its own (a URL) or a shared one. */
export class PgCacheStore implements CacheStore {
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    private readonly maxEntries: number,
  ) {}

  /**
   * Open the store on `poolOrUrl`, applying its migrations. Given a pool, the store leaves it
   * open on close (its owner ends it) and waits no longer than the pool's own timeouts.
   */
  static async open(poolOrUrl: Pool | string, options: PgCacheStoreOptions = {}): Promise<PgCacheStore> {
    const max = options.maxEntriesPerTenant ?? DEFAULT_MAX_ENTRIES_PER_TENANT;
    if (!Number.isInteger(max) || max < 1) throw new DeckhandError(ErrorCode.InvalidArgument, `maxEntriesPerTenant must be a positive integer, got ${max}`);
    const owns = typeof poolOrUrl === 'string';
    const pool = owns ? await openPool(poolOrUrl, { timeoutMs: options.connectTimeoutMs }) : poolOrUrl;
    try {
      await migrate(pool, 'cache', MIGRATIONS);
    } catch (e) {
      if (owns) await pool.end().catch(() => undefined);
      throw databaseError(e, WHAT);
    }
    return new PgCacheStore(pool, owns, max);
  }

  async lookup(key: string, baseKey: string, tenant = ''): Promise<CacheLookupResponse> {
    this.assertOpen();
    let row: LookupRow;
    try {
      row = (await this.pool.query<LookupRow>(SQL.lookup, [tenant, key, baseKey])).rows[0];
    } catch (e) {
      throw databaseError(e, WHAT);
    }
    const entry =
      row.op === null
        ? null
        : { key, op: row.op as CacheEntry['op'], result: JSON.parse(row.result!), usage: JSON.parse(row.usage!), agree: Number(row.agree) };
    return CacheLookupResponseSchema.parse({ count: row.count === null ? 1 : Number(row.count), entry, pageChanged: row.page_changed });
  }

  async record(r: CacheRecordRequest, tenant = ''): Promise<{ agree: number }> {
    this.assertOpen();
    const result = JSON.stringify(r.result ?? null);
    const usage = JSON.stringify(r.usage);
    try {
      // Read committed whatever the database's default: each statement sees what others
      // committed before it, which the insert-or-lock loop below relies on.
      const agree = await inTransaction(
        this.pool,
        async (c) => {
          // Another caller may insert the key between our read and our insert: then the insert
          // does nothing (after waiting for theirs to commit), and we read theirs, locked.
          for (let attempt = 0; attempt < 10; attempt++) {
            const prev = (await c.query<{ result: string; agree: string }>(SQL.prev, [tenant, r.key])).rows[0];
            if (prev) {
              const agree = nextAgree({ result: JSON.parse(prev.result), agree: Number(prev.agree) }, r);
              await c.query(SQL.update, [tenant, r.key, r.op, result, usage, agree]);
              return agree;
            }
            const agree = nextAgree(undefined, r);
            if (!(await c.query(SQL.insert, [tenant, r.key, r.baseKey, r.op, result, usage, agree])).rowCount) continue;
            // The insert's trigger holds the tenant's size row until commit: this size is exact.
            const n = Number((await c.query<{ n: string }>(SQL.size, [tenant])).rows[0]?.n ?? 0);
            if (n > this.maxEntries) await c.query(SQL.evict, [tenant, n - keptAfterEviction(this.maxEntries)]);
            return agree;
          }
          throw new DeckhandError(ErrorCode.Internal, `${WHAT}: the key was inserted and removed by others 10 times over while recording it`);
        },
        { isolation: 'read committed' },
      );
      return CacheRecordResponseSchema.parse({ agree });
    } catch (e) {
      throw databaseError(e, WHAT);
    }
  }

  async invalidate(key: string, tenant = ''): Promise<void> {
    this.assertOpen();
    try {
      await this.pool.query(SQL.drop, [tenant, key]);
    } catch (e) {
      throw databaseError(e, WHAT);
    }
  }

  /** Ends the pool if the store opened it; a shared pool is left to its owner. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new DeckhandError(ErrorCode.Closed, `${WHAT} is closed`);
  }
}
