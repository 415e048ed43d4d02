/**
 * The result cache's policy, one for every caller: look a call up before computing it, serve
 * a hit (act replays its stored Actions, self-healing a step whose element moved; observe and
 * extract return the stored data), and record what was computed. Hits cost no tokens. Where
 * entries live is a port (CacheStorePort): the caller's store over RPC or the extension's own.
 */
import type { AgentRunParams } from '../protocol/agent';
import type { CacheEntry } from '../protocol/cache';
import type { CacheInfo, CacheRun, Usage } from '../protocol/schemas';
import type { CacheStorePort } from './ports';
import { ReplayFailed } from './replay';

export type CachedOp = 'act' | 'observe' | 'extract';

/** What makes two calls the same call on the same page. */
export interface KeyParts {
  op: CachedOp;
  /** The instruction (or an Action's JSON). */
  instruction: string;
  url: string;
  fingerprint: string;
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

/** The key, and the same without the page fingerprint (to tell "page changed" from "never seen"). */
export async function cacheKeys(p: KeyParts): Promise<{ key: string; baseKey: string }> {
  const base = { v: 1, op: p.op, instruction: p.instruction.trim(), url: p.url, schema: p.schema ?? null, vars: [...p.variableNames].sort(), screenshot: p.screenshot };
  return { key: await hash({ ...base, fingerprint: p.fingerprint }), baseKey: await hash(base) };
}

/** The key of a whole agent run: its instruction, start URL and configuration; never variable values or keys. */
export function agentCacheKey(p: AgentRunParams, startUrl: string): Promise<string> {
  return hash({
    v: 2, op: 'agent', instruction: p.instruction.trim(), startUrl, mode: p.mode, model: p.model.name, executionModel: p.executionModel.name,
    systemPrompt: p.systemPrompt ?? null, maxSteps: p.maxSteps, useSearch: !!p.searchUrl, variables: Object.keys(p.variables ?? {}).sort(), frameId: p.frameId ?? null,
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
  cacheable: (r: R) => unknown | undefined;
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
      const info: CacheInfo = { status: 'HIT', count: look.count, threshold, tokensSaved: tokensSaved(look.entry.usage), ...(costSavedUsd !== undefined ? { costSavedUsd } : {}) };
      await run.onHit?.(info);
      return run.withCache(hit.result, info);
    } catch (e) {
      if (!(e instanceof ReplayFailed)) throw e;
      missReason = 'replay_failed';
      // The stored steps no longer work on this page: what is computed now starts afresh.
      await store.invalidate(keys.key);
    }
  }
  const r = await run.compute();
  const value = run.cacheable(r);
  if (value !== undefined) await store.record({ ...keys, op: run.op, result: value, usage: run.usageOf(r) });
  return run.withCache(r, { status: 'MISS', count: look.count, threshold, missReason });
}
