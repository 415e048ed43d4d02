/**
 * The flows a person saves in the side panel, in IndexedDB: in the extension's origin (no web
 * page reads it), kept with the browser profile. Not part of the result cache, so no number of
 * cache entries ever evicts a saved flow.
 */
import { FlowSchema, type Flow } from '../protocol/flows';
import type { FlowStorePort } from '../engine/ports';

const STORE = 'flows';

const settle = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

export class IdbFlowStore implements FlowStorePort {
  private db: Promise<IDBDatabase> | null = null;

  constructor(private readonly name = 'deckhand-flows') {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(this.name, 1);
      r.onupgradeneeded = () => void r.result.createObjectStore(STORE, { keyPath: 'name' });
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    return this.db;
  }

  /** One readwrite (or readonly) transaction; resolves with `fn`'s value once it has committed. */
  private async tx<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => Promise<T>): Promise<T> {
    const t = (await this.open()).transaction(STORE, mode);
    const done = new Promise<void>((resolve, reject) => {
      t.oncomplete = () => resolve();
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error ?? new Error('the flow transaction was aborted'));
    });
    const v = await fn(t.objectStore(STORE));
    await done;
    return v;
  }

  async list(): Promise<Flow[]> {
    const rows = await this.tx('readonly', (s) => settle(s.getAll()));
    // A row another version wrote and this one cannot read is left alone, not shown.
    return rows.flatMap((r) => (FlowSchema.safeParse(r).success ? [r as Flow] : [])).sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  }

  async get(name: string): Promise<Flow | null> {
    const row = await this.tx('readonly', (s) => settle(s.get(name)));
    const f = FlowSchema.safeParse(row);
    return f.success ? f.data : null;
  }

  async put(flow: Flow): Promise<void> {
    await this.tx('readwrite', (s) => settle(s.put(flow)));
  }

  async rename(from: string, to: string): Promise<'renamed' | 'missing' | 'taken'> {
    return this.tx('readwrite', async (s) => {
      const f = (await settle(s.get(from))) as Flow | undefined;
      if (!f) return 'missing';
      if (from === to) return 'renamed';
      if (await settle(s.getKey(to))) return 'taken';
      s.delete(from);
      s.put({ ...f, name: to });
      return 'renamed';
    });
  }

  async delete(name: string): Promise<boolean> {
    return this.tx('readwrite', async (s) => {
      const had = (await settle(s.getKey(name))) !== undefined;
      if (had) s.delete(name);
      return had;
    });
  }
}
