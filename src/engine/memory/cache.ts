/**
 * The result cache's policy, one for every caller: look a call up before computing it, serve
 * a hit (act replays its stored Actions, self-healing a step whose element moved; observe and
 * extract return the stored data), and record what was computed. Hits cost no tokens. Where
 * entries live is a port (CacheStorePort): the caller's store over RPC or the extension's own.
 */
import type { AgentRunParams } from '../../protocol/agent';
import type { CacheEntry } from '../../protocol/cache';
import type { CacheInfo, CacheRun, Usage } from '../../protocol/schemas';
import type { CacheStorePort } from '../ports';
import { ReplayFailed } from './replay-failed';
import { TargetChanged } from './targets';

export type CachedOp = 'act' | 'observe' | 'extract';

/** What a stored observe or extract result read has changed on the page: served no more. */
export class ContentChanged extends ReplayFailed {}

/**
 * What makes two calls the same call. Not the page's content: whether what was stored still
 * applies is decided when it is served (targets.ts for act and observe, the region an
 * extraction read for extract), so a banner or a badge elsewhere on the page costs no miss.
 */
export interface KeyParts {
  op: CachedOp;
  /** The instruction (or an Action's JSON). */
  instruction: string;
  /** The page's URL, as cacheUrl gives it. */
  url: string;
  /** JSON Schema for extract. */
  schema?: unknown;
  /** Variable names only: values never reach the cache. */
  variableNames: string[];
  screenshot: boolean;
}

// WebCrypto: the same SHA-256 hex in the worker and in Node, so keys outlive the move here.
async function hash(v: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(v)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Query parameters that say where a visitor came from, not what the page shows. */
const TRACKING_PARAMS = [
  'utm_.*',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'vero_id',
  'oly_anon_id',
  'oly_enc_id',
  'wickedid',
  'rb_clickid',
  's_cid',
  'ref_src',
  'spm',
];
const TRACKING = new RegExp(`^(${TRACKING_PARAMS.join('|')})$`, 'i');

/**
 * The URL a cache entry is for: host lower-cased, query parameters sorted, tracking parameters
 * dropped, and the fragment dropped unless the page routes by it (`#/cart`, `#!/cart`).
 */
export function cacheUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return raw;
  }
  if (!/^#!?\//.test(u.hash)) u.hash = '';
  for (const name of [...new Set(u.searchParams.keys())]) if (TRACKING.test(name)) u.searchParams.delete(name);
  u.searchParams.sort();
  const s = u.href.replace(/\?(?=#|$)/, '');
  return u.hash ? s : s.replace(/\/$/, '');
}

/** The key. `baseKey` is the same: entries no longer key on the page's content, so there is no "other version of the page". */
export async function cacheKeys(p: KeyParts): Promise<{ key: string; baseKey: string }> {
  const key = await hash({
    v: 2,
    op: p.op,
    instruction: p.instruction.trim(),
    url: p.url,
    schema: p.schema ?? null,
    vars: [...p.variableNames].sort(),
    screenshot: p.screenshot,
  });
  return { key, baseKey: key };
}

/** The key of a whole agent run: its instruction, start URL and configuration; never variable values or keys. */
export function agentCacheKey(p: AgentRunParams, startUrl: string): Promise<string> {
  return hash({
    v: 2,
    op: 'agent',
    instruction: p.instruction.trim(),
    startUrl,
    mode: p.mode,
    model: p.model.name,
    executionModel: p.executionModel.name,
    systemPrompt: p.systemPrompt ?? null,
    maxSteps: p.maxSteps,
    useSearch: !!p.searchUrl,
    variables: Object.keys(p.variables ?? {}).sort(),
    frameId: p.frameId ?? null,
  });
}

export function tokensSaved(u: Usage): NonNullable<CacheInfo['tokensSaved']> {
  return { inputTokens: u.inputTokens, outputTokens: u.outputTokens, totalTokens: u.inputTokens + u.outputTokens };
}

export interface CachedRun<R> {
  op: CachedOp;
  keyParts: () => Promise<Omit<KeyParts, 'op'>>;
  compute: () => Promise<R>;
  /**
   * Serve a hit from the stored entry; throw ReplayFailed to fall back to computing. `healed`:
   * what to store in the entry's place (a self-healed replay), without counting it as agreement.
   */
  replay: (entry: CacheEntry) => Promise<{ result: R; healed?: unknown }>;
  /** The part of a computed result to store, or undefined to store nothing (a failed act). */
  cacheable: (r: R) => unknown | Promise<unknown>;
  usageOf: (r: R) => Usage;
  withCache: (r: R, info: CacheInfo) => R;
  /** A hit's saving in US dollars: the stored usage at the current model's price (undefined when unknown). */
  costOf?: (u: Usage) => number | undefined;
  /** Told of every hit served, with what it saved. */
  onHit?: (info: CacheInfo) => Promise<void> | void;
}

/** Run one operation through the cache: `setting` absent (or no store) means no lookup at all. */
export async function runCached<R>(store: CacheStorePort | null, setting: CacheRun | undefined, run: CachedRun<R>): Promise<R> {
  if (!store || !setting) return run.withCache(await run.compute(), { status: 'DISABLED' });
  const { threshold } = setting;
  const keys = await cacheKeys({ op: run.op, ...(await run.keyParts()) });
  const look = await store.lookup(keys.key, keys.baseKey);
  let missReason = look.entry ? 'below_threshold' : look.pageChanged ? 'page_changed' : 'not_found';
  if (look.entry && look.entry.agree >= threshold) {
    try {
      const hit = await run.replay(look.entry);
      if (hit.healed !== undefined) await store.record({ ...keys, op: run.op, result: hit.healed, usage: look.entry.usage, replace: true });
      const costSavedUsd = run.costOf?.(look.entry.usage);
      const info: CacheInfo = {
        status: 'HIT',
        count: look.count,
        threshold,
        tokensSaved: tokensSaved(look.entry.usage),
        ...(costSavedUsd !== undefined ? { costSavedUsd } : {}),
      };
      await run.onHit?.(info);
      return run.withCache(hit.result, info);
    } catch (e) {
      if (!(e instanceof ReplayFailed)) throw e;
      missReason = e instanceof TargetChanged ? 'target_changed' : e instanceof ContentChanged ? 'content_changed' : 'replay_failed';
      // The stored steps no longer work on this page: what is computed now starts afresh.
      await store.invalidate(keys.key);
    }
  }
  const r = await run.compute();
  // What cannot be read for storing (the page went away meanwhile) is not stored; the result stands.
  const value = await Promise.resolve()
    .then(() => run.cacheable(r))
    .catch(() => undefined);
  if (value !== undefined) await store.record({ ...keys, op: run.op, result: value, usage: run.usageOf(r) });
  return run.withCache(r, { status: 'MISS', count: look.count, threshold, missReason });
}
