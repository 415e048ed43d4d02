/**
 * The sessions' registry in PostgreSQL. Times are the database's own clock (now()), so replicas
 * whose clocks disagree still agree on who holds a lease and what is idle.
 */
import { migrate, type Pool, type PoolClient } from './pool';
import type { LeaseAnswer, SessionRecord, SessionRegistry } from '../sessions/registry';
import { ApprovalDecisionSchema, type ApprovalDecision, type ApprovalRequest } from '../protocol/approval';

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
  // Steps waiting for approval: any replica lists them and records a decision, which the replica holding the step takes (NOTIFY dh_approval).
  `CREATE TABLE dh_approvals (
     session_id UUID NOT NULL REFERENCES dh_sessions (id) ON DELETE CASCADE,
     id TEXT NOT NULL,
     replica TEXT NOT NULL,
     request JSON NOT NULL,
     decision TEXT,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     PRIMARY KEY (session_id, id)
   );`,
];
/** The channel a decision travels on to the replica holding the step. */
const APPROVAL_CHANNEL = 'dh_approval';
/** How long a lost LISTEN connection waits before it is made again. */
const RELISTEN_MS = 1_000;
/** How often a replica also looks for decisions on its steps, in case a notification was missed. */
const APPROVAL_POLL_MS = 2_000;

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

  async putApproval(sessionId: string, replica: string, req: ApprovalRequest): Promise<void> {
    await this.pool.query('INSERT INTO dh_approvals (session_id, id, replica, request) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      sessionId,
      req.id,
      replica,
      JSON.stringify(req),
    ]);
  }

  async dropApproval(sessionId: string, id: string): Promise<void> {
    await this.pool.query('DELETE FROM dh_approvals WHERE session_id = $1 AND id = $2', [sessionId, id]);
  }

  async approvals(sessionId: string): Promise<ApprovalRequest[]> {
    const r = await this.pool.query<{ request: ApprovalRequest }>(
      'SELECT request FROM dh_approvals WHERE session_id = $1 AND decision IS NULL ORDER BY created_at',
      [sessionId],
    );
    return r.rows.map((x) => x.request);
  }

  async decideApproval(sessionId: string, id: string, decision: ApprovalDecision): Promise<boolean> {
    // The row is the truth (the first decision wins); the notification only rings the holder's bell.
    const r = await this.pool.query(
      `WITH decided AS (UPDATE dh_approvals SET decision = $3 WHERE session_id = $1 AND id = $2 AND decision IS NULL RETURNING replica)
       SELECT pg_notify($4, replica) FROM decided`,
      [sessionId, id, decision, APPROVAL_CHANNEL],
    );
    return (r.rowCount ?? 0) > 0;
  }

  onApprovalDecided(replica: string, decide: (sessionId: string, id: string, decision: ApprovalDecision) => void): () => Promise<void> {
    let stopped = false;
    let client: PoolClient | null = null;
    let retry: NodeJS.Timeout | undefined;
    let taking: Promise<void> = Promise.resolve();
    // Decisions for steps held here, taken from the table once each.
    const take = () =>
      (taking = taking.then(async () => {
        const r = await this.pool
          .query<{ session_id: string; id: string; decision: string }>(
            'DELETE FROM dh_approvals WHERE replica = $1 AND decision IS NOT NULL RETURNING session_id, id, decision',
            [replica],
          )
          .catch(() => ({ rows: [] }));
        for (const row of r.rows) {
          const d = ApprovalDecisionSchema.safeParse(row.decision);
          if (d.success) decide(row.session_id, row.id, d.data);
        }
      }));
    const heard = (msg: { channel: string; payload?: string }) => {
      if (msg.channel === APPROVAL_CHANNEL && msg.payload === replica) void take();
    };
    const listen = async () => {
      try {
        const c = await this.pool.connect();
        if (stopped) return c.release();
        client = c;
        c.on('notification', heard);
        c.on('error', () => lost(c));
        c.on('end', () => lost(c));
        await c.query(`LISTEN ${APPROVAL_CHANNEL}`);
      } catch {
        if (!stopped) retry = setTimeout(() => void listen(), RELISTEN_MS);
      }
    };
    const lost = (c: PoolClient) => {
      if (client !== c) return;
      client = null;
      c.release(true);
      if (!stopped) retry = setTimeout(() => void listen(), RELISTEN_MS);
    };
    void listen();
    // A notification missed while the connection was down is caught by this.
    const poll = setInterval(() => void take(), APPROVAL_POLL_MS);
    poll.unref();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(poll);
      const c = client;
      client = null;
      if (c) {
        await c.query(`UNLISTEN ${APPROVAL_CHANNEL}`).catch(() => undefined);
        c.release();
      }
      await taking;
    };
  }
}
