/**
 * PostgreSQL for a service that outgrew one machine (DECKHAND_DATABASE_URL): the sessions'
 * registry, the API keys and the result cache, shared by every replica. The embedded default
 * never loads this file's driver. Each part keeps its own list of migrations, applied once,
 * in order, under an advisory lock so replicas starting together do not race.
 */
import type { Pool, PoolClient } from 'pg';
import { DeckhandError, ErrorCode } from '../protocol/errors';

export type { Pool, PoolClient };

/** An arbitrary constant: the advisory lock replicas take while migrating. */
const MIGRATION_LOCK = 0x6465636b; // "deck"

/** Open a pool on `url` (postgres://...), checking it answers within `timeoutMs`. */
export async function openPool(url: string, opts: { max?: number; timeoutMs?: number } = {}): Promise<Pool> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DeckhandError(ErrorCode.InvalidArgument, 'the database url must look like postgres://user:password@host:5432/dbname');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new DeckhandError(ErrorCode.InvalidArgument, `the database url must be a postgres:// URL, got a ${u.protocol.replace(/:$/, '')}: one`);
  }
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as typeof import('pg');
  } catch (e) {
    throw new DeckhandError(ErrorCode.Internal, `the PostgreSQL store needs the pg package, which failed to load: ${(e as Error).message}`);
  }
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 20,
    connectionTimeoutMillis: timeoutMs,
    // No statement may hang a request: every query answers or fails within this.
    query_timeout: 30_000,
    idleTimeoutMillis: 30_000,
  });
  // A connection that drops while idle in the pool is replaced on next use; without a
  // listener, its error would end the process.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    await pool.end().catch(() => undefined);
    // The driver's message may name the host, never the password (the url is not repeated).
    throw new DeckhandError(ErrorCode.Unavailable, `PostgreSQL at ${u.hostname}:${u.port || 5432} did not answer: ${(e as Error).message}`);
  }
  return pool;
}

/** Apply `part`'s migrations not yet applied (one transaction, under the migration lock). */
export async function migrate(pool: Pool, part: string, migrations: readonly string[]): Promise<void> {
  await inTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query('CREATE TABLE IF NOT EXISTS dh_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL)');
    const row = (await c.query<{ version: number }>('SELECT version FROM dh_schema WHERE part = $1', [part])).rows[0];
    let v = row?.version ?? 0;
    if (v > migrations.length) {
      throw new DeckhandError(ErrorCode.Internal, `the database's ${part} tables are at version ${v}, newer than this service knows (${migrations.length}): upgrade this replica`);
    }
    for (; v < migrations.length; v++) await c.query(migrations[v]);
    await c.query('INSERT INTO dh_schema (part, version) VALUES ($1, $2) ON CONFLICT (part) DO UPDATE SET version = excluded.version', [part, v]);
  });
}

/** Run `fn` in a transaction on one connection; rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}
