/**
 * The SQLite cache store: tenants, bounds, the kept tenant sizes, lookups that add nothing,
 * private files, concurrent first opens, writers killed mid-write.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forTenant, MemoryStore, SqliteStore, type CacheStore } from '../../src/client/cache/store';

const usage = { inputTokens: 1, outputTokens: 1, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 1 };
const k = (c: string) => c.repeat(20);
const dir = () => mkdtempSync(join(tmpdir(), 'dh-store-'));

async function bothStores(fn: (s: CacheStore, name: string) => Promise<void>) {
  const sq = await SqliteStore.open(join(dir(), 'cache.db'), { maxEntriesPerTenant: 3 });
  try {
    await fn(sq, 'sqlite');
    await fn(new MemoryStore(3), 'memory');
  } finally {
    sq.close();
  }
}

describe('cache stores', () => {
  it('page-changed means another live entry shares the base key: both stores agree once entries are invalidated', () =>
    bothStores(async (s, name) => {
      const t = forTenant(s, `pc-${name}`);
      await t.record({ key: k('c'), baseKey: k('d'), op: 'act', result: [], usage });
      expect((await t.lookup(k('e'), k('d'))).pageChanged, name).toBe(true);
      await t.invalidate(k('c'));
      expect((await t.lookup(k('e'), k('d'))).pageChanged, name).toBe(false);
      expect((await t.lookup(k('c'), k('d'))).pageChanged, name).toBe(false);
    }));

  it("tenants never see each other's entries, nor each other's page-changed hints", () =>
    bothStores(async (s, name) => {
      const a = forTenant(s, 'tenant-a');
      const b = forTenant(s, 'tenant-b');
      await a.record({ key: k('a'), baseKey: k('b'), op: 'act', result: [{ selector: '#x' }], usage });
      expect((await a.lookup(k('a'), k('b'))).entry, name).toMatchObject({ op: 'act', agree: 1 });
      expect(await b.lookup(k('a'), k('b')), name).toEqual({ count: 1, entry: null, pageChanged: false });
      expect((await a.lookup(k('z'), k('b'))).pageChanged, name).toBe(true);
      expect((await b.lookup(k('z'), k('b'))).pageChanged, name).toBe(false);
    }));

  it('a tenant keeps at most its bound, the least recently used evicted first, others untouched', () =>
    bothStores(async (s, name) => {
      const a = forTenant(s, 'bound-a');
      const other = forTenant(s, 'bound-b');
      await other.record({ key: k('o'), baseKey: k('o'), op: 'extract', result: 1, usage });
      for (const c of ['1', '2', '3']) {
        await a.record({ key: k(c), baseKey: k('p'), op: 'extract', result: c, usage });
        await new Promise((r) => setTimeout(r, 2));
      }
      await a.lookup(k('1'), k('p')); // 1 is used again: 2 is now the oldest
      await new Promise((r) => setTimeout(r, 2));
      await a.record({ key: k('4'), baseKey: k('p'), op: 'extract', result: '4', usage });
      const present = [];
      for (const c of ['1', '2', '3', '4']) if ((await a.lookup(k(c), k('p'))).entry) present.push(c);
      expect(present, name).toEqual(['1', '3', '4']);
      expect((await other.lookup(k('o'), k('o'))).entry, name).not.toBeNull();
    }));

  it('the bound holds through a long run of writes and uses, evicting exactly the least recently used', () =>
    bothStores(async (s, name) => {
      const a = forTenant(s, 'lru-long');
      const key = (i: number) => String(i).padStart(20, 'n');
      const expected: number[] = []; // least recently used first
      const use = (i: number) => {
        if (expected.includes(i)) expected.splice(expected.indexOf(i), 1);
        expected.push(i);
      };
      for (let i = 0; i < 30; i++) {
        await a.record({ key: key(i), baseKey: k('p'), op: 'extract', result: i, usage });
        use(i);
        if (expected.length > 3) expected.shift();
        if (i % 4 === 3) {
          await new Promise((r) => setTimeout(r, 2)); // SQLite keeps use times in milliseconds
          const oldest = expected[0];
          await a.lookup(key(oldest), k('p')); // the oldest becomes the newest
          use(oldest);
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      const present = [];
      for (let i = 0; i < 30; i++) if ((await a.lookup(key(i), k('p'))).entry) present.push(i);
      expect(present, name).toEqual([...expected].sort((x, y) => x - y));
    }));

  it('over its bound a tenant goes back to 99% of it at once, the least recently used first', async () => {
    const sq = await SqliteStore.open(join(dir(), 'cache.db'), { maxEntriesPerTenant: 200 });
    try {
      for (const [s, name] of [
        [sq, 'sqlite'],
        [new MemoryStore(200), 'memory'],
      ] as const) {
        const a = forTenant(s, 'batch');
        const key = (i: number) => String(i).padStart(20, 'n');
        for (let i = 0; i < 200; i++) await a.record({ key: key(i), baseKey: k('p'), op: 'act', result: [], usage });
        await new Promise((r) => setTimeout(r, 2));
        await a.lookup(key(0), k('p')); // 0 is used again: 1, 2 and 3 are now the oldest
        await new Promise((r) => setTimeout(r, 2));
        await a.record({ key: key(200), baseKey: k('p'), op: 'act', result: [], usage });
        const present: number[] = [];
        for (let i = 0; i <= 200; i++) if ((await a.lookup(key(i), k('p'))).entry) present.push(i);
        expect(present.length, name).toBe(198);
        expect(
          [1, 2, 3].filter((i) => present.includes(i)),
          name,
        ).toEqual([]);
        expect(present.includes(0) && present.includes(200), name).toBe(true);
      }
    } finally {
      sq.close();
    }
  });

  it("each tenant's size is kept in step with its entries: records, evictions, invalidations, other programs' writes", async () => {
    const path = join(dir(), 'cache.db');
    const s = await SqliteStore.open(path, { maxEntriesPerTenant: 5 });
    const a = forTenant(s, 'size-a');
    const b = forTenant(s, 'size-b');
    for (let i = 0; i < 12; i++) await a.record({ key: k(`${i % 10}`), baseKey: k('p'), op: 'act', result: [i], usage });
    for (let i = 0; i < 3; i++) await b.record({ key: k(`${i}`), baseKey: k('p'), op: 'act', result: [], usage });
    await a.invalidate(k('9'));
    await a.invalidate(k('nope'));
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path);
    // The Python and Go clients share the file and write with their own statements.
    db.prepare("INSERT INTO entries (tenant, key, base_key, op, result, usage, agree, count, used_at) VALUES ('size-c', ?, ?, 'act', '[]', '{}', 1, 1, 0)").run(
      k('c'),
      k('p'),
    );
    db.prepare("DELETE FROM entries WHERE tenant = 'size-b' AND key = ?").run(k('1'));
    const sizes = () =>
      Object.fromEntries(
        (db.prepare('SELECT tenant, n FROM tenant_sizes WHERE n > 0 ORDER BY tenant').all() as { tenant: string; n: number }[]).map((r) => [r.tenant, r.n]),
      );
    const counts = () =>
      Object.fromEntries(
        (db.prepare('SELECT tenant, COUNT(*) AS n FROM entries GROUP BY tenant ORDER BY tenant').all() as { tenant: string; n: number }[]).map((r) => [
          r.tenant,
          r.n,
        ]),
      );
    expect(counts()).toEqual({ 'size-a': 4, 'size-b': 2, 'size-c': 1 });
    expect(sizes()).toEqual(counts());
    db.close();
    s.close();
  });

  it('a file from before the kept sizes gets them on opening', async () => {
    const path = join(dir(), 'cache.db');
    const s = await SqliteStore.open(path, { maxEntriesPerTenant: 3 });
    for (const t of ['old-a', 'old-b']) for (const c of ['1', '2']) await s.record({ key: k(c), baseKey: k('p'), op: 'act', result: [], usage }, t);
    s.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path);
    // Back to the previous schema version, as an older client left it, with one entry more.
    db.exec('DROP TRIGGER entries_added; DROP TRIGGER entries_removed; DROP TABLE tenant_sizes; UPDATE schema_version SET version = 2');
    db.prepare("INSERT INTO entries (tenant, key, base_key, op, result, usage, agree, count, used_at) VALUES ('old-a', ?, ?, 'act', '[]', '{}', 1, 1, 0)").run(
      k('3'),
      k('p'),
    );
    db.close();
    const again = await SqliteStore.open(path, { maxEntriesPerTenant: 3 });
    await again.record({ key: k('4'), baseKey: k('p'), op: 'act', result: [], usage }, 'old-a');
    again.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT tenant, n FROM tenant_sizes ORDER BY tenant').all()).toEqual([
      { tenant: 'old-a', n: 3 },
      { tenant: 'old-b', n: 2 },
    ]);
    expect((check.prepare("SELECT COUNT(*) AS n FROM entries WHERE tenant = 'old-a' AND key = ?").get(k('3')) as { n: number }).n).toBe(0); // the oldest went
    check.close();
  });

  it('writers killed (SIGKILL) mid-write lose no committed entry and leave the sizes right', async () => {
    const path = join(dir(), 'cache.db');
    const store = fileURLToPath(new URL('../../src/client/cache/store.ts', import.meta.url));
    const bound = 40;
    (await SqliteStore.open(path)).close(); // made once, so the writers start writing at once
    // Each writer has its own tenant and prints a key once its record has committed.
    const script = (w: number) =>
      `const { SqliteStore } = await import(${JSON.stringify(store)}); ` +
      `const s = await SqliteStore.open(${JSON.stringify(path)}, { maxEntriesPerTenant: ${bound} }); ` +
      `const usage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 }; for (let i = 0; ; i++) { ` +
      `const key = String(i).padStart(20, 'k'); await s.record({ key, baseKey: 'b'.repeat(20), op: 'act', result: [i], usage }, 'w${w}'); ` +
      // Each key waits for its write to reach the pipe: a write to a pipe is asynchronous, and keys still queued in the
      // process when it is killed would leave several records committed and unprinted, not at most one.
      `await new Promise((r) => process.stdout.write(key + '\\n', r)); }`;
    const writers = [0, 1, 2].map((w) => {
      const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(w)], { stdio: ['ignore', 'pipe', 'inherit'] });
      const done: string[] = [];
      let buf = '';
      p.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const lines = buf.split('\n');
        buf = lines.pop()!;
        done.push(...lines);
      });
      return { p, done, exited: new Promise((r) => p.once('exit', r)) };
    });
    try {
      const deadline = Date.now() + 30_000;
      while (writers.some((w) => w.done.length < 150) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      for (const w of writers) w.p.kill('SIGKILL');
      await Promise.all(writers.map((w) => w.exited));
    }
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    writers.forEach(({ done }, w) => {
      expect(done.length, `writer ${w}`).toBeGreaterThanOrEqual(150);
      const present = new Set((db.prepare('SELECT key FROM entries WHERE tenant = ?').all(`w${w}`) as { key: string }[]).map((r) => r.key));
      // One more record may have committed before its key was printed, evicting one of these.
      for (const key of done.slice(-(bound - 1))) expect(present.has(key), `writer ${w} ${key}`).toBe(true);
      expect(present.size, `writer ${w}`).toBe(bound);
      expect((db.prepare('SELECT n FROM tenant_sizes WHERE tenant = ?').get(`w${w}`) as { n: number }).n, `writer ${w}`).toBe(bound);
    });
    db.close();
  }, 60_000);

  it('lookups of unknown keys never add rows', async () => {
    const path = join(dir(), 'cache.db');
    const s = await SqliteStore.open(path);
    for (let i = 0; i < 500; i++) await s.lookup(`${i}`.padStart(20, 'q'), k('r'), 't');
    s.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path, { readonly: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM entries').get() as { n: number }).n).toBe(0);
    db.close();
  });

  it('the database and its folder are private to their owner', async () => {
    const d = join(dir(), 'nested', 'home');
    const s = await SqliteStore.open(join(d, 'cache.db'));
    await s.record({ key: k('a'), baseKey: k('b'), op: 'act', result: [], usage });
    expect(statSync(d).mode & 0o777).toBe(0o700);
    for (const f of ['cache.db', 'cache.db-wal', 'cache.db-shm']) expect(statSync(join(d, f)).mode & 0o777, f).toBe(0o600);
    s.close();
  });

  it('several processes opening a new database at once all succeed (no SQLITE_BUSY)', async () => {
    const path = join(dir(), 'cache.db');
    const store = fileURLToPath(new URL('../../src/client/cache/store.ts', import.meta.url));
    // Every process loads first, then all open the new file at the same instant.
    const at = Date.now() + 4_000;
    const script =
      `const { SqliteStore } = await import(${JSON.stringify(store)}); await new Promise((r) => setTimeout(r, ${at} - Date.now())); ` +
      `const s = await SqliteStore.open(${JSON.stringify(path)}); ` +
      `await s.record({ key: 'k'.repeat(20) + process.pid, baseKey: 'b'.repeat(20), op: 'act', result: [], ` +
      `usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 } }); ` +
      `s.close(); console.log('ok');`;
    const run = promisify(execFile);
    const outs = await Promise.all(
      Array.from({ length: 12 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 })),
    );
    expect(outs.map((o) => o.stdout.trim())).toEqual(Array(12).fill('ok'));
  }, 60_000);
});
