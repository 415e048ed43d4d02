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
      const why = `the database's ${part} tables are at version ${v}, newer than this service knows (${migrations.length}): upgrade this replica`;
      throw new DeckhandError(ErrorCode.Internal, why);
    }
    for (; v < migrations.length; v++) await c.query(migrations[v]);
    await c.query('INSERT INTO dh_schema (part, version) VALUES ($1, $2) ON CONFLICT (part) DO UPDATE SET version = excluded.version', [part, v]);
  });
}

export type Isolation = 'read committed' | 'repeatable read' | 'serializable';

/**
 * Run `fn` in a transaction on one connection; rolled back when it throws. `isolation` pins the
 * level whatever the database's default. A connection that failed as a connection (dropped,
 * timed out mid-query) is discarded rather than handed back to the pool.
 */
export async function inTransaction<T>(pool: Pool, fn: (c: PoolClient) => Promise<T>, opts: { isolation?: Isolation } = {}): Promise<T> {
  const c = await pool.connect();
  let broken: Error | undefined;
  try {
    await c.query(opts.isolation ? `BEGIN ISOLATION LEVEL ${opts.isolation.toUpperCase()}` : 'BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    // A query that timed out may still be running: a ROLLBACK would wait behind it.
    if (isConnectionFailure(e)) broken = e as Error;
    else await c.query('ROLLBACK').catch((r: Error) => void (broken = r));
    throw e;
  } finally {
    c.release(broken);
  }
}

/** The pg driver's own words when a connection failed or never came (it gives them no code). */
const CLIENT_FAILURES = /connection terminated|timeout exceeded when trying to connect|timeout expired|query read timeout|not queryable/i;

/**
 * Whether `e` says the database could not be reached or the connection failed, rather than
 * the database refusing a statement: network errors (ECONNREFUSED, ECONNRESET, ...), the
 * driver's timeouts, and the server's connection exceptions (SQLSTATE 08..., shutting down,
 * starting up, too many connections).
 */
export function isConnectionFailure(e: unknown): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (/^E[A-Z_]+$/.test(code)) return true;
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  }
  return typeof message === 'string' && CLIENT_FAILURES.test(message);
}

/**
 * A DeckhandError for an error from the pg driver, `what` saying what failed ("the cache
 * store"): UNAVAILABLE when PostgreSQL could not be reached, CLOSED for a pool already ended,
 * TIMEOUT for a statement or lock timeout, INTERNAL for anything else the database refused.
 */
export function databaseError(e: unknown, what: string): DeckhandError {
  if (e instanceof DeckhandError) return e;
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  // Node's AggregateError (several addresses refused) has an empty message and only a code.
  const said = (typeof message === 'string' && message) || (typeof code === 'string' && code) || String(e);
  if (isConnectionFailure(e)) return new DeckhandError(ErrorCode.Unavailable, `${what}: PostgreSQL did not answer: ${said}`);
  if (/after calling end on the pool/i.test(said)) return new DeckhandError(ErrorCode.Closed, `${what} is closed`);
  if (code === '57014' || code === '55P03') return new DeckhandError(ErrorCode.Timeout, `${what}: PostgreSQL gave up waiting: ${said}`);
  return new DeckhandError(ErrorCode.Internal, `${what}: PostgreSQL refused a statement: ${said}`);
}
