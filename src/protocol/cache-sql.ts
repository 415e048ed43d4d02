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
