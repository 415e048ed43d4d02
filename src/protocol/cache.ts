/**
 * The result cache's wire shapes: the per-call setting, the store's requests and
 * answers (shared by the local stores and the HTTP cache service).
 */
import { z } from 'zod';
import { UsageSchema, type CacheRun } from './schemas';
import { DeckhandError, ErrorCode } from './errors';
import { describeZodError } from './zod-errors';

/** Per call: false (no lookup), true, or { threshold: n } (n identical results before hits are served). */
export const CacheCallOptionSchema = z
  .union([z.boolean(), z.object({ threshold: z.number().int().positive('cache.threshold must be a positive integer') }).strict()])
  .describe(
    "this call's use of the result cache: false skips the lookup, true looks up even when the client's cache is off by default, " +
      "a threshold also sets how many identical results come before hits are served (none: the client's setting)",
  );
export type CacheCallOption = z.infer<typeof CacheCallOptionSchema>;

export function parseCacheCallOption(v: unknown): CacheCallOption | undefined {
  if (v === undefined) return undefined;
  const r = CacheCallOptionSchema.safeParse(v);
  if (!r.success)
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `${describeZodError(r.error, 'cache option')} (use false, true or { threshold: n } with n a positive integer)`,
    );
  return r.data;
}

/**
 * The `cache` one operation carries, from its instance's cache (`base`, absent with no store)
 * and the call's own option; absent when the call does not look up (DISABLED). One rule for
 * the client library's calls and a batch callback's.
 */
export function cacheForCall(base: CacheRun | undefined, onByDefault: boolean, option: unknown): CacheRun | undefined {
  const setting = parseCacheCallOption(option);
  const wanted = setting === undefined ? onByDefault : setting !== false;
  if (!base || !wanted) return undefined;
  return typeof setting === 'object' ? { ...base, threshold: setting.threshold } : base;
}

/**
 * A cache key: at least 16 characters, counted as JSON Schema counts them (code points), so a
 * key the published schema refuses is refused here too (zod alone counts UTF-16 units).
 */
const CacheKeySchema = z
  .string()
  .min(16)
  .refine((s) => [...s].length >= 16, 'String must contain at least 16 character(s)');

export const CacheLookupRequestSchema = z.object({ key: CacheKeySchema, baseKey: CacheKeySchema }).strict();
export const CacheEntrySchema = z.object({
  key: z.string(),
  op: z.enum(['act', 'observe', 'extract', 'agent', 'flow']),
  /** act: the Actions performed (variables as %name%); observe/extract: the data. Never keys or variable values. */
  result: z.unknown(),
  /** Usage of the inference this entry stands for (reported as tokensSaved on a hit). */
  usage: UsageSchema,
  agree: z.number().int().nonnegative(),
});
export type CacheEntry = z.infer<typeof CacheEntrySchema>;

export const CacheLookupResponseSchema = z.object({
  /** Times the key was seen, this lookup included. */
  count: z.number().int().positive(),
  entry: CacheEntrySchema.nullable(),
  /** No entry for this key, but one for the same call on an earlier version of the page. */
  pageChanged: z.boolean(),
});
export type CacheLookupResponse = z.infer<typeof CacheLookupResponseSchema>;

export const CacheRecordRequestSchema = z
  .object({
    key: CacheKeySchema,
    baseKey: CacheKeySchema,
    op: z.enum(['act', 'observe', 'extract', 'agent', 'flow']),
    result: z.unknown(),
    usage: UsageSchema,
    /** Replace the stored result without counting it as agreement (a self-healed replay). */
    replace: z.boolean().optional(),
  })
  .strict();
export type CacheRecordRequest = z.infer<typeof CacheRecordRequestSchema>;
export const CacheRecordResponseSchema = z.object({ agree: z.number().int().nonnegative() });

export const CacheInvalidateRequestSchema = z.object({ key: CacheKeySchema }).strict();
export type CacheInvalidateRequest = z.infer<typeof CacheInvalidateRequestSchema>;
export const CacheInvalidateResponseSchema = z.null();

/**
 * The worker's calls to the client whose store backs an operation (`store: 'caller'`). The
 * client answers them from its own store, scoped to its own tenant: the worker never names one.
 */
export const CacheClientMethods = {
  'cache.lookup': { params: CacheLookupRequestSchema, result: CacheLookupResponseSchema },
  'cache.record': { params: CacheRecordRequestSchema, result: CacheRecordResponseSchema },
  'cache.invalidate': { params: CacheInvalidateRequestSchema, result: CacheInvalidateResponseSchema },
} as const;

/**
 * Agreement after recording `next` over `prev` (every store counts it this way): the same
 * result again adds one, a different one starts over, and a self-healed replacement keeps it.
 */
export function nextAgree(prev: { result?: unknown; agree: number } | undefined, next: CacheRecordRequest): number {
  if (next.replace) return Math.max(1, prev?.agree ?? 1);
  return prev && JSON.stringify(prev.result ?? null) === JSON.stringify(next.result ?? null) ? prev.agree + 1 : 1;
}
