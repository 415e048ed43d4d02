/**
 * The result cache, as a Node client sees it: which store answers the worker's cache calls
 * (the policy itself runs in the engine, src/engine/memory/cache.ts), and how the instance's and
 * each call's settings become the `cache` option an operation carries.
 */
import { join } from 'node:path';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import type { CacheRun } from '../../protocol/schemas';
import { MemoryStore, RemoteStore, SqliteStore, type CacheStore } from './store';

export interface CacheSettings {
  store: CacheStore | null;
  /** Whether calls look up by default (they still can opt in or out per call). */
  enabled: boolean;
  threshold: number;
  selfHeal: boolean;
}

/** The instance option: true, or where the entries live and how many agreeing results a hit needs. */
export type CacheOption =
  | boolean
  | {
      threshold?: number;
      /** 'local' (SQLite in DECKHAND_HOME, the default), 'memory', a SQLite file, or a store of your own (the HTTP service passes each key's). */
      store?: 'local' | 'memory' | { path: string } | CacheStore;
      /** Whether calls without a `cache` option look up (default true). */
      enabled?: boolean;
    };

const isStore = (s: unknown): s is CacheStore => !!s && typeof s === 'object' && typeof (s as CacheStore).lookup === 'function';

export async function cacheSettings(o: { cache?: CacheOption; selfHeal?: boolean; apiKey?: string; apiUrl?: string }, home: string): Promise<CacheSettings> {
  const c = o.cache;
  if (c !== undefined && typeof c !== 'boolean' && (typeof c !== 'object' || c === null))
    throw new DeckhandError(ErrorCode.InvalidArgument, 'cache must be true, false or { threshold?, store? }');
  const threshold = typeof c === 'object' && c.threshold !== undefined ? c.threshold : 1;
  if (!Number.isInteger(threshold) || threshold < 1)
    throw new DeckhandError(ErrorCode.InvalidArgument, `cache.threshold must be a positive integer, got ${JSON.stringify(threshold)}`);
  const selfHeal = o.selfHeal ?? true;
  const enabled = typeof c === 'object' ? (c.enabled ?? true) : c !== false;
  if ((o.apiKey === undefined) !== (o.apiUrl === undefined))
    throw new DeckhandError(ErrorCode.InvalidArgument, 'apiKey and apiUrl go together: give both to use a Deckhand service');
  if (o.apiKey && o.apiUrl) return { store: new RemoteStore(o.apiUrl, o.apiKey), enabled, threshold, selfHeal };
  if (!c) return { store: null, enabled: false, threshold, selfHeal };
  const where = typeof c === 'object' ? (c.store ?? 'local') : 'local';
  const store = isStore(where)
    ? where
    : where === 'memory'
      ? new MemoryStore()
      : await SqliteStore.open(typeof where === 'object' ? where.path : join(home, 'cache.db'));
  return { store, enabled, threshold, selfHeal };
}

/** The instance's cache as an operation carries it: absent when there is no store. */
export function cacheBase(s: CacheSettings): CacheRun | undefined {
  return s.store ? { threshold: s.threshold, selfHeal: s.selfHeal, store: 'caller' } : undefined;
}
