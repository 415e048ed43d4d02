/**
 * The result cache's SQLite file, declared once: its migrations, in order. The Node, Python and
 * Go clients all open the same file ($DECKHAND_HOME/cache.db), so they run these same
 * statements; scripts/gen-schema.ts carries them into schema/deckhand.schema.json
 * (x-deckhand.sqliteCacheMigrations) and schema/cache.sql, and the Python and Go generators
 * into their code. A file records how many it has run (schema_version).
 */
export const SQLITE_CACHE_MIGRATIONS: readonly string[] = [
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
  // Entries belong to a tenant; lookups no longer leave rows without a result behind.
  `CREATE TABLE entries2 (
     tenant TEXT NOT NULL,
     key TEXT NOT NULL,
     base_key TEXT NOT NULL,
     op TEXT NOT NULL,
     result TEXT NOT NULL,
     usage TEXT NOT NULL,
     agree INTEGER NOT NULL,
     count INTEGER NOT NULL,
     used_at INTEGER NOT NULL,
     PRIMARY KEY (tenant, key)
   );
   INSERT INTO entries2 SELECT '', key, base_key, op, result, usage, agree, count, updated_at FROM entries WHERE result IS NOT NULL AND agree > 0;
   DROP TABLE entries;
   ALTER TABLE entries2 RENAME TO entries;
   CREATE INDEX entries_base ON entries(tenant, base_key);
   CREATE INDEX entries_used ON entries(tenant, used_at);`,
  // Each tenant's entry count, kept by triggers in the writing transaction, so the bound is
  // checked without counting; triggers also keep it right for the Python and Go clients,
  // which write this file with their own statements.
  `CREATE TABLE tenant_sizes (tenant TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
   INSERT INTO tenant_sizes (tenant, n) SELECT tenant, COUNT(*) FROM entries GROUP BY tenant;
   CREATE TRIGGER entries_added AFTER INSERT ON entries BEGIN
     INSERT INTO tenant_sizes (tenant, n) VALUES (NEW.tenant, 1) ON CONFLICT (tenant) DO UPDATE SET n = n + 1;
   END;
   CREATE TRIGGER entries_removed AFTER DELETE ON entries BEGIN
     UPDATE tenant_sizes SET n = n - 1 WHERE tenant = OLD.tenant;
   END;`,
];

/**
 * The statements every client's SQLite store runs, declared once with their positional
 * parameters in order (carried into x-deckhand.sqliteCacheStatements for Python and Go).
 * A lookup runs touch, get, and sibling when get found nothing, in one immediate transaction;
 * a record runs prev and put, and for a new key size, then evict when the tenant is over its
 * bound (CACHE_BOUNDS); an invalidation runs drop. `result` and `usage` are JSON text.
 */
export const SQLITE_CACHE_STATEMENTS = {
  touch: { sql: 'UPDATE entries SET count = count + 1, used_at = ? WHERE tenant = ? AND key = ?', params: ['now', 'tenant', 'key'] },
  get: { sql: 'SELECT op, result, usage, agree, count FROM entries WHERE tenant = ? AND key = ?', params: ['tenant', 'key'] },
  sibling: { sql: 'SELECT 1 FROM entries WHERE tenant = ? AND base_key = ? AND key != ? LIMIT 1', params: ['tenant', 'baseKey', 'key'] },
  prev: { sql: 'SELECT result, agree FROM entries WHERE tenant = ? AND key = ?', params: ['tenant', 'key'] },
  put: {
    sql:
      'INSERT INTO entries (tenant, key, base_key, op, result, usage, agree, count, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?) ' +
      'ON CONFLICT(tenant, key) DO UPDATE SET op = excluded.op, result = excluded.result, usage = excluded.usage, ' +
      'agree = excluded.agree, used_at = excluded.used_at',
    params: ['tenant', 'key', 'baseKey', 'op', 'result', 'usage', 'agree', 'now'],
  },
  size: { sql: 'SELECT n FROM tenant_sizes WHERE tenant = ?', params: ['tenant'] },
  // The oldest first, read off the (tenant, used_at) index: a seek, not a walk over the tenant.
  evict: {
    sql: 'DELETE FROM entries WHERE rowid IN (SELECT rowid FROM entries WHERE tenant = ? ORDER BY used_at, rowid LIMIT ?)',
    params: ['tenant', 'count'],
  },
  drop: { sql: 'DELETE FROM entries WHERE tenant = ? AND key = ?', params: ['tenant', 'key'] },
} as const satisfies Record<string, { sql: string; params: readonly string[] }>;

/**
 * How many entries a tenant keeps: at most maxEntriesPerTenant; one over it evicts down to
 * keepPercent of it, which spreads the cost of an eviction over the next new keys instead of
 * paying it on every one. Every store (SQLite, memory, PostgreSQL) counts it this way.
 */
export const CACHE_BOUNDS = { maxEntriesPerTenant: 10_000, keepPercent: 99 } as const;

/** What a tenant keeps after going over its bound `max` (CACHE_BOUNDS). */
export const keptAfterEviction = (max: number): number => max - Math.floor((max * (100 - CACHE_BOUNDS.keepPercent)) / 100);

/** How many entries evict removes from a tenant holding `n` (CACHE_BOUNDS): none within the bound. */
export function evictCount(n: number, max: number = CACHE_BOUNDS.maxEntriesPerTenant): number {
  return n > max ? n - keptAfterEviction(max) : 0;
}
