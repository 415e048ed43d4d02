/**
 * The extension's own result cache, in IndexedDB: the side panel's instructions (and any
 * operation with `cache.store: 'extension'`) look up and record here. It lives in the
 * extension's origin, so no web page can read it, and it outlives the worker and the browser.
 *
 * The raw API rather than a wrapper library: three operations, each one readwrite
 * transaction (IndexedDB runs those on one store one at a time, which makes each lookup and
 * record atomic, as the SQLite store's immediate transactions are). Counting and bounds
 * follow the Node stores: lookups never add entries, and at most MAX_ENTRIES are kept, the
 * least recently used evicted first.
 */
import { nextAgree, type CacheEntry, type CacheLookupResponse, type CacheRecordRequest } from '../protocol/cache';
import type { Usage } from '../protocol/schemas';
import type { CacheStorePort } from '../engine/ports';

const STORE = 'entries';
export const MAX_ENTRIES = 10_000;

interface Row {
  key: string;
  baseKey: string;
  op: CacheEntry['op'];
  result: unknown;
  usage: Usage;
  agree: number;
  count: number;
  usedAt: number;
}

const settle = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

const committed = (t: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error ?? new Error('the cache transaction was aborted'));
  });

export class IdbCacheStore implements CacheStorePort {
  private db: Promise<IDBDatabase> | null = null;

  constructor(
    private readonly name = 'deckhand-cache',
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(this.name, 1);
      r.onupgradeneeded = () => {
        const s = r.result.createObjectStore(STORE, { keyPath: 'key' });
        s.createIndex('baseKey', 'baseKey');
        s.createIndex('usedAt', 'usedAt');
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    }).catch((e) => {
      this.db = null; // try again on the next call
      throw e;
    });
    return this.db;
  }

  /** One readwrite transaction; resolves once it has committed. */
  private async write<T>(fn: (s: IDBObjectStore) => Promise<T>): Promise<T> {
    const t = (await this.open()).transaction(STORE, 'readwrite');
    const done = committed(t);
    const out = await fn(t.objectStore(STORE));
    await done;
    return out;
  }

  lookup(key: string, baseKey: string): Promise<CacheLookupResponse> {
    return this.write(async (s) => {
      const row = (await settle(s.get(key))) as Row | undefined;
      if (!row) return { count: 1, entry: null, pageChanged: (await settle(s.index('baseKey').count(baseKey))) > 0 };
      // Only an existing entry is touched: a lookup never adds one.
      s.put({ ...row, count: row.count + 1, usedAt: Date.now() });
      return { count: row.count + 1, entry: { key, op: row.op, result: row.result, usage: row.usage, agree: row.agree }, pageChanged: false };
    });
  }

  record(r: CacheRecordRequest): Promise<{ agree: number }> {
    return this.write(async (s) => {
      const prev = (await settle(s.get(r.key))) as Row | undefined;
      const agree = nextAgree(prev, r);
      const row: Row = {
        key: r.key,
        baseKey: r.baseKey,
        op: r.op,
        result: r.result ?? null,
        usage: r.usage,
        agree,
        count: prev?.count ?? 1,
        usedAt: Date.now(),
      };
      s.put(row);
      if (!prev) await this.evict(s);
      return { agree };
    });
  }

  invalidate(key: string): Promise<void> {
    return this.write(async (s) => void (await settle(s.delete(key))));
  }

  /** Keep within the bound: the least recently used go first. */
  private async evict(s: IDBObjectStore): Promise<void> {
    let extra = (await settle(s.count())) - this.maxEntries;
    if (extra <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const c = s.index('usedAt').openCursor();
      c.onerror = () => reject(c.error);
      c.onsuccess = () => {
        const cursor = c.result;
        if (!cursor || extra-- <= 0) return resolve();
        cursor.delete();
        cursor.continue();
      };
    });
  }
}
