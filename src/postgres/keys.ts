/**
 * API keys in PostgreSQL, for replicas: the table holds each key's tenant digest (never the
 * key), so a key is checked by its digest. Keys in DECKHAND_API_KEYS are added at start; with
 * none there and none in the table, one is generated (by one replica, under a lock) and
 * printed once. Answers are remembered for a few seconds, so a request costs no query.
 */
import { envKeys, newApiKey, tenantDigest, type KeyRing } from '../keys/api-keys';
import { inTransaction, migrate, type Pool } from './pool';

const MIGRATIONS = [
  `CREATE TABLE dh_api_keys (
     tenant TEXT PRIMARY KEY,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     revoked_at TIMESTAMPTZ
   );`,
];

/** How long a key's answer is remembered: a key revoked elsewhere works here at most this long. */
const REMEMBER_MS = 5_000;
/** An arbitrary constant: the lock of the replica that generates the first key. */
const FIRST_KEY_LOCK = 0x6b657973; // "keys"

export async function loadPgKeys(pool: Pool, env: Record<string, string | undefined> = process.env): Promise<KeyRing> {
  await migrate(pool, 'keys', MIGRATIONS);
  const configured = envKeys(env);
  const known = new Set(configured);
  let generated: string | undefined;
  await inTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [FIRST_KEY_LOCK]);
    for (const k of configured) await c.query('INSERT INTO dh_api_keys (tenant) VALUES ($1) ON CONFLICT (tenant) DO NOTHING', [tenantDigest(k)]);
    const live = await c.query('SELECT 1 FROM dh_api_keys WHERE revoked_at IS NULL LIMIT 1');
    // Keys the operator configured are the keys, even revoked: none is made behind their back.
    if (!live.rowCount && !configured.length) {
      generated = newApiKey();
      known.add(generated);
      await c.query('INSERT INTO dh_api_keys (tenant) VALUES ($1)', [tenantDigest(generated)]);
    }
  });
  const remembered = new Map<string, { tenant: string | null; until: number }>();
  return {
    generated,
    get secrets() {
      return [...known];
    },
    async tenantOf(candidate) {
      if (!candidate) return null;
      const tenant = tenantDigest(candidate);
      const now = Date.now();
      const r = remembered.get(tenant);
      if (r && r.until > now) return r.tenant;
      const row = await pool.query('SELECT 1 FROM dh_api_keys WHERE tenant = $1 AND revoked_at IS NULL', [tenant]);
      const answer = row.rowCount ? tenant : null;
      if (remembered.size > 10_000) remembered.clear(); // wrong keys cannot grow it without bound
      remembered.set(tenant, { tenant: answer, until: now + REMEMBER_MS });
      // A key that works is scrubbed from this replica's output from now on.
      if (answer) known.add(candidate);
      return answer;
    },
  };
}

/** Add a key to the table (a new one when none is given); returns it. */
export async function addPgKey(pool: Pool, key = newApiKey()): Promise<string> {
  await migrate(pool, 'keys', MIGRATIONS);
  await pool.query('INSERT INTO dh_api_keys (tenant) VALUES ($1) ON CONFLICT (tenant) DO UPDATE SET revoked_at = NULL', [tenantDigest(key)]);
  return key;
}

/** Revoke a key; false when the table did not have it. */
export async function revokePgKey(pool: Pool, key: string): Promise<boolean> {
  await migrate(pool, 'keys', MIGRATIONS);
  const r = await pool.query('UPDATE dh_api_keys SET revoked_at = now() WHERE tenant = $1 AND revoked_at IS NULL', [tenantDigest(key)]);
  return (r.rowCount ?? 0) > 0;
}
