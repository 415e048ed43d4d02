/**
 * The sessions' registry in PostgreSQL. Times are the database's own clock (now()), so replicas
 * whose clocks disagree still agree on who holds a lease and what is idle.
 */
import { migrate, type Pool } from './pool';
import type { LeaseAnswer, SessionRecord, SessionRegistry } from '../sessions/registry';

const MIGRATIONS = [
  `CREATE TABLE dh_sessions (
     id UUID PRIMARY KEY,
     owner TEXT NOT NULL,
     replica TEXT NOT NULL,
     browser JSONB,
     options JSONB NOT NULL,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     used_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     kept_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     lease_holder TEXT,
     lease_until TIMESTAMPTZ
   );
   CREATE INDEX dh_sessions_used ON dh_sessions (used_at);
   CREATE INDEX dh_sessions_kept ON dh_sessions (kept_at);`,
  // json keeps the text as given: jsonb refuses \u0000 and lone surrogates, which a caller's
  // system prompt may hold (a start on a shared service then failed as if the database were down).
  `ALTER TABLE dh_sessions ALTER COLUMN browser TYPE JSON USING browser::json, ALTER COLUMN options TYPE JSON USING options::json;`,
  // Which service started it, so a side panel watching the browser names the same driver on every replica.
  `ALTER TABLE dh_sessions ADD COLUMN via TEXT NOT NULL DEFAULT 'http';`,
];

type Row = { id: string; owner: string; replica: string; browser: SessionRecord['browser']; options: SessionRecord['options']; via: string };
const recordOf = (r: Row): SessionRecord => ({
  id: r.id,
  owner: r.owner,
  replica: r.replica,
  browser: r.browser,
  options: r.options,
  via: r.via === 'mcp' ? 'mcp' : 'http',
});
const COLUMNS = 'id, owner, replica, browser, options, via';

export class PgSessionRegistry implements SessionRegistry {
  private constructor(private readonly pool: Pool) {}

  static async open(pool: Pool): Promise<PgSessionRegistry> {
    await migrate(pool, 'sessions', MIGRATIONS);
    return new PgSessionRegistry(pool);
  }

  async add(rec: SessionRecord): Promise<void> {
    await this.pool.query('INSERT INTO dh_sessions (id, owner, replica, browser, options, via) VALUES ($1, $2, $3, $4, $5, $6)', [
      rec.id,
      rec.owner,
      rec.replica,
      rec.browser === null ? null : JSON.stringify(rec.browser),
      JSON.stringify(rec.options),
      rec.via ?? 'http',
    ]);
  }

  async find(id: string): Promise<SessionRecord | null> {
    const r = (await this.pool.query<Row>(`SELECT ${COLUMNS} FROM dh_sessions WHERE id = $1`, [id])).rows[0];
    return r ? recordOf(r) : null;
  }

  async remove(id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM dh_sessions WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async lease(id: string, holder: string, ms: number): Promise<LeaseAnswer> {
    const taken = await this.pool.query(
      `UPDATE dh_sessions SET lease_holder = $2, lease_until = now() + make_interval(secs => $3 / 1000.0), used_at = now()
       WHERE id = $1 AND (lease_holder IS NULL OR lease_until < now() OR lease_holder = $2)`,
      [id, holder, ms],
    );
    if (taken.rowCount) return 'ok';
    return (await this.pool.query('SELECT 1 FROM dh_sessions WHERE id = $1', [id])).rowCount ? 'busy' : 'gone';
  }

  async renew(id: string, holder: string, ms: number): Promise<boolean> {
    const r = await this.pool.query('UPDATE dh_sessions SET lease_until = now() + make_interval(secs => $3 / 1000.0) WHERE id = $1 AND lease_holder = $2', [
      id,
      holder,
      ms,
    ]);
    return (r.rowCount ?? 0) > 0;
  }

  async release(id: string, holder: string): Promise<void> {
    await this.pool.query('UPDATE dh_sessions SET lease_holder = NULL, lease_until = NULL, used_at = now() WHERE id = $1 AND lease_holder = $2', [id, holder]);
  }

  async takeIdle(idleMs: number): Promise<SessionRecord[]> {
    const r = await this.pool.query<Row>(
      'DELETE FROM dh_sessions WHERE used_at < now() - make_interval(secs => $1 / 1000.0) AND (lease_holder IS NULL OR lease_until < now()) ' +
        `RETURNING ${COLUMNS}`,
      [idleMs],
    );
    return r.rows.map(recordOf);
  }

  async takeKeepAlive(everyMs: number): Promise<SessionRecord[]> {
    // SKIP LOCKED: replicas sweeping at once each take different rows.
    const r = await this.pool.query<Row>(
      `UPDATE dh_sessions SET kept_at = now() WHERE id IN (
         SELECT id FROM dh_sessions WHERE kept_at < now() - make_interval(secs => $1 / 1000.0) FOR UPDATE SKIP LOCKED
       ) RETURNING ${COLUMNS}`,
      [everyMs],
    );
    return r.rows.map(recordOf);
  }

  async existing(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const r = await this.pool.query<{ id: string }>('SELECT id FROM dh_sessions WHERE id = ANY($1::uuid[])', [ids]);
    return new Set(r.rows.map((x) => x.id));
  }
}
