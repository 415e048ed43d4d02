/**
 * The result cache, on the client side: look a call up before computing it,
 * replay stored Actions through the deterministic path on a hit, self-heal a step
 * whose element moved, and record what was computed. Hits cost no tokens.
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { CacheCallOptionSchema, type CacheCallOption, type CacheEntry } from '../../protocol/cache';
import type { CacheInfo, Usage } from '../../protocol/schemas';
import { describeZodError } from '../../protocol/zod-errors';
import { cacheKeys, type KeyParts } from './keys';
import type { CacheStore } from './store';

export interface CacheSettings {
  store: CacheStore | null;
  /** Whether calls look up by default (they still can opt in or out per call). */
  enabled: boolean;
  threshold: number;
  selfHeal: boolean;
}

export type Op = 'act' | 'observe' | 'extract';

export { HEALABLE, healInstruction } from '../../engine/heal';

export class ReplayFailed extends Error {}

export function parseCallOption(v: unknown): CacheCallOption | undefined {
  if (v === undefined) return undefined;
  const r = CacheCallOptionSchema.safeParse(v);
  if (!r.success) throw new DeckhandError(ErrorCode.InvalidArgument, `${describeZodError(r.error, 'cache option')} (use false, true or { threshold: n } with n a positive integer)`);
  return r.data;
}

export interface CachedRun<R> {
  op: Op;
  setting: CacheCallOption | undefined;
  bypass: boolean;
  keyParts: () => Promise<Omit<KeyParts, 'op'>>;
  compute: () => Promise<R>;
  /** Serve a hit from the stored entry; throw ReplayFailed to fall back to computing. */
  replay: (entry: CacheEntry, threshold: number, count: number, keys: { key: string; baseKey: string }) => Promise<R>;
  /** The part of a computed result to store, or undefined to store nothing (a failed act). */
  cacheable: (r: R) => unknown | undefined;
  usageOf: (r: R) => Usage;
  setCache: (r: R, info: CacheInfo) => R;
}

export async function runCached<R>(s: CacheSettings, run: CachedRun<R>): Promise<R> {
  const wanted = run.setting === undefined ? s.enabled : run.setting !== false;
  if (!s.store || !wanted || run.bypass) return run.setCache(await run.compute(), { status: 'DISABLED' });
  const threshold = typeof run.setting === 'object' ? run.setting.threshold : s.threshold;
  const { key, baseKey } = cacheKeys({ op: run.op, ...(await run.keyParts()) });
  const look = await s.store.lookup(key, baseKey);
  let missReason: string = look.entry ? 'below_threshold' : look.pageChanged ? 'page_changed' : 'not_found';
  if (look.entry && look.entry.agree >= threshold) {
    try {
      return await run.replay(look.entry, threshold, look.count, { key, baseKey });
    } catch (e) {
      if (!(e instanceof ReplayFailed)) throw e;
      missReason = 'replay_failed';
    }
  }
  const r = await run.compute();
  const value = run.cacheable(r);
  if (value !== undefined) await s.store.record({ key, baseKey, op: run.op, result: value, usage: run.usageOf(r) });
  return run.setCache(r, { status: 'MISS', count: look.count, threshold, missReason });
}

export function tokensSaved(u: Usage): NonNullable<CacheInfo['tokensSaved']> {
  return { inputTokens: u.inputTokens, outputTokens: u.outputTokens, totalTokens: u.inputTokens + u.outputTokens };
}
