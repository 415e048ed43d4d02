/**
 * Named flows: a recording (the side panel's QA recording, or an agent run turned into one)
 * kept under a name, so any client replays it with no model. The extension keeps the flows a
 * person saves in its side panel; a client's own store (its tenant's) keeps the flows it saves.
 * A replay by name looks in the caller's store first, then in the extension's. The worker keeps
 * both: a client names the place (`from`, `to`, `where`) and the worker reaches the caller's
 * store through the cache calls it makes back to that client (one entry per flow, op 'flow',
 * under flowKey(name)).
 */
import { z } from 'zod';
import { ModelParamSchema } from './resolve-model';
import { QaRecordingSchema } from './recording';
import { ON_PAGE, PageIdSchema, TimeoutMsSchema, UsageSchema, VariablesSchema, ZERO_USAGE } from './schemas';
import { ResolvedModelSchema } from './model';
import { DeckhandError, ErrorCode } from './errors';
import { describeZodError } from './zod-errors';

/** A flow's name: what a person typed, trimmed; no control characters. */
export const FlowNameSchema = z
  .string()
  .trim()
  .min(1, 'a flow name must not be empty')
  .max(120, 'a flow name is at most 120 characters')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'a flow name must not contain control characters')
  .describe('what a replay by name finds it by: 1 to 120 characters, no control characters, trimmed');

export const FlowSchema = z
  .object({
    version: z.literal(1),
    name: FlowNameSchema,
    source: z.enum(['panel', 'agent', 'client']).describe('where it came from: recorded in the side panel, an agent run, or saved by a client'),
    savedAt: z.string().describe('when it was saved (ISO 8601)'),
    recording: QaRecordingSchema,
  })
  .strict()
  .describe('a named recording that replays step by step with no model');
export type Flow = z.infer<typeof FlowSchema>;

/** A flow as a caller gives one to save or replay: the worker fills in what it leaves out. */
export const FlowInputSchema = FlowSchema.extend({
  version: z.literal(1).default(1),
  source: FlowSchema.shape.source.default('client'),
  savedAt: z.string().optional().describe('when it was saved (ISO 8601; none: now)'),
  recording: QaRecordingSchema.extend({ version: z.literal(1).default(1) }),
}).describe("a flow to save or replay: version (1), source (client), savedAt (now) and the recording's version (1) may be left out");
export type FlowInput = z.input<typeof FlowInputSchema>;

/** The flow a caller gave, whole: what the worker saves or replays. */
export function flowFromInput(f: z.output<typeof FlowInputSchema>): Flow {
  return { ...f, savedAt: f.savedAt ?? new Date().toISOString() };
}

/** Where a flow is kept: the extension's saved flows (the side panel's), or the caller's own cache store. */
export const FlowPlaceSchema = z
  .enum(['extension', 'store'])
  .describe("where the flow is kept: the extension's saved flows (the side panel's), or the caller's own cache store (its tenant's)");
export type FlowPlace = z.infer<typeof FlowPlaceSchema>;
/** Where flow.get looks: one place, or anywhere (the caller's store, then the extension's, as a replay by name). */
export const FlowLookInSchema = z
  .enum(['extension', 'store', 'anywhere'])
  .describe("where to look: the extension's saved flows, the caller's own cache store, or anywhere (the caller's store, then the extension's)");
export type FlowLookIn = z.infer<typeof FlowLookInSchema>;

export const FlowSummarySchema = z
  .object({
    name: z.string(),
    title: z.string(),
    source: FlowSchema.shape.source,
    savedAt: z.string(),
    startUrl: z.string(),
    steps: z.number().int().nonnegative().describe('how many steps it has'),
  })
  .describe('a flow as a list shows it');
export type FlowSummary = z.infer<typeof FlowSummarySchema>;

/** A flow just saved, and where: the caller's own store (its tenant's) or the extension's. */
export const SavedFlowSchema = FlowSummarySchema.extend({ savedIn: z.enum(['store', 'extension']) });
export type SavedFlow = z.infer<typeof SavedFlowSchema>;
/** Flows as a list shows them, newest first. */
export const FlowListSchema = z.array(FlowSummarySchema);

export function summarizeFlow(f: Flow): FlowSummary {
  return { name: f.name, title: f.recording.title, source: f.source, savedAt: f.savedAt, startUrl: f.recording.startUrl, steps: f.recording.steps.length };
}

export const FlowStepOutcomeSchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    description: z.string(),
    status: z.enum(['done', 'healed']).describe('done (performed as recorded) or healed (its element had moved and was found again)'),
    data: z.unknown().optional().describe('the data an extract step pulled out now'),
  })
  .describe('what a replay did with one step');

export const FlowReplayParamsSchema = z
  .object({
    /** The flow to replay, by name (the caller's store, then the extension's)... */
    name: FlowNameSchema.optional(),
    /** ...or given whole (an exported flow, the side panel's current recording). */
    flow: FlowInputSchema.optional(),
    page: PageIdSchema.optional().describe(ON_PAGE),
    variables: VariablesSchema.optional().describe('values for the %name% placeholders of the recorded arguments'),
    model: ModelParamSchema.optional().describe(
      'the model that re-finds a step whose element is gone or changed, and runs extract steps (none: such a step stops the replay with ACTION_FAILED)',
    ),
    stepTimeout: TimeoutMsSchema.optional().describe('how long each step may wait for its element (default 3 s)'),
    timeout: TimeoutMsSchema.optional().describe('how long the whole replay may take (default 120 s); past it the replay stops with TIMEOUT'),
    opId: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((p) => (p.name === undefined) !== (p.flow === undefined), 'give exactly one of name and flow');
export type FlowReplayParams = z.input<typeof FlowReplayParamsSchema>;

export const FlowReplayResultSchema = z
  .object({
    name: z.string(),
    steps: z.array(FlowStepOutcomeSchema),
    url: z.string().describe("the page's URL when the replay ended"),
    // usage: the model usage of self-healing and extract steps (zero for a replay that needed no model).
    usage: UsageSchema,
  })
  .describe('what a replay did');
export type FlowReplayResult = z.infer<typeof FlowReplayResultSchema>;

/** Whether a flow was there to delete. */
export const FlowDeleteResultSchema = z.object({ deleted: z.boolean() });

export const FlowMethods = {
  /** Replay a flow with no model (unless a step needs healing and a model is given). */
  'flow.replay': { params: FlowReplayParamsSchema, result: FlowReplayResultSchema },
  /** The extension's saved flows (the side panel's), newest first. */
  'flow.list': { params: z.object({}).strict(), result: FlowListSchema },
  /** A saved flow, whole; NOT_FOUND when there is none where it looked. */
  'flow.get': { params: z.object({ name: FlowNameSchema, from: FlowLookInSchema.default('anywhere') }).strict(), result: FlowSchema },
  /** Save (or replace) a flow: in the extension (default), or in the caller's own store. */
  'flow.save': { params: z.object({ flow: FlowInputSchema, to: FlowPlaceSchema.default('extension') }).strict(), result: FlowSummarySchema },
  /** Rename a saved flow: in the extension ALREADY_IN_USE when `to` is taken; in a store, a flow under `to` is replaced. */
  'flow.rename': {
    params: z.object({ from: FlowNameSchema, to: FlowNameSchema, where: FlowPlaceSchema.default('extension') }).strict(),
    result: FlowSummarySchema,
  },
  'flow.delete': { params: z.object({ name: FlowNameSchema, from: FlowPlaceSchema.default('extension') }).strict(), result: FlowDeleteResultSchema },
} as const;

/** A flow with another name: how a flow is stored under the name a caller chose (HTTP PUT /v1/flows/{name}, rename). */
export function renamedFlow(flow: Flow, name: string): Flow {
  const n = FlowNameSchema.safeParse(name);
  if (!n.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(n.error, 'flow name'));
  return { ...flow, name: n.data };
}

/** The key a flow is stored under in a caller's cache store (op 'flow'). */
export async function flowKey(name: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify({ v: 1, op: 'flow', name: name.trim() })));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A store of cache entries, as far as flows need one: the caller's (over the worker's cache calls) or a tenant's. */
export interface FlowEntryStore {
  lookup(key: string, baseKey: string): Promise<{ entry?: { op: string; result?: unknown } | null }>;
  record(req: { key: string; baseKey: string; op: 'flow'; result: Flow; usage: typeof ZERO_USAGE; replace: true }): Promise<unknown>;
  invalidate(key: string): Promise<void>;
}

/** Store (or replace) `flow` under its name in `store`. */
export async function putStoredFlow(store: FlowEntryStore, flow: Flow): Promise<void> {
  const key = await flowKey(flow.name);
  // replace: a flow saved again is the new one, not an agreement counted toward a threshold.
  await store.record({ key, baseKey: key, op: 'flow', result: flow, usage: { ...ZERO_USAGE }, replace: true });
}

/** The flow stored under `name` in `store`, or null (an entry that is not a readable flow counts as none). */
export async function getStoredFlow(store: FlowEntryStore, name: string): Promise<Flow | null> {
  const key = await flowKey(name);
  const { entry } = await store.lookup(key, key);
  if (entry?.op !== 'flow') return null;
  const f = FlowSchema.safeParse(entry.result);
  return f.success ? f.data : null;
}

/** Remove the flow stored under `name` in `store`; whether there was one. */
export async function deleteStoredFlow(store: FlowEntryStore, name: string): Promise<boolean> {
  const had = (await getStoredFlow(store, name)) !== null;
  if (had) await store.invalidate(await flowKey(name));
  return had;
}
