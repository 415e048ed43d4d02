/** The SQLite cache store: tenants, bounds, lookups that add nothing, private files, concurrent first opens. */
import { execFile } from 'node:child_process';
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
    const script = `const { SqliteStore } = await import(${JSON.stringify(store)}); await new Promise((r) => setTimeout(r, ${at} - Date.now())); const s = await SqliteStore.open(${JSON.stringify(path)}); await s.record({ key: 'k'.repeat(20) + process.pid, baseKey: 'b'.repeat(20), op: 'act', result: [], usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 } }); s.close(); console.log('ok');`;
    const run = promisify(execFile);
    const outs = await Promise.all(Array.from({ length: 12 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 })));
    expect(outs.map((o) => o.stdout.trim())).toEqual(Array(12).fill('ok'));
  }, 60_000);
});
