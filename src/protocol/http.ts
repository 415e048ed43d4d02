/**
 * The HTTP service's shapes (`/v1/...`): request bodies, and answers, which are the
 * library's own results wrapped as { success: true, data }; every failure is
 * { success: false, error: { code, message } }. HttpRoutes pairs them per route.
 */
import { CallToolResultSchema, PageToolSchema, TOOL_NAME, TOOL_NAME_RULE } from './page-tools';
import { z } from 'zod';
import { AgentCacheEntrySchema, AgentExecuteRequestSchema, AgentResultSchema } from './agent';
import { ApprovalDecisionSchema, ApprovalPolicySchema, ApprovalRequestSchema } from './approval';
import {
  CacheCallOptionSchema,
  CacheInvalidateRequestSchema,
  CacheInvalidateResponseSchema,
  CacheLookupRequestSchema,
  CacheLookupResponseSchema,
  CacheRecordRequestSchema,
  CacheRecordResponseSchema,
} from './cache';
import { HttpModelSchema, ModelConfigSchema } from './model';
import { FlowDeleteResultSchema, FlowListSchema, FlowNameSchema, FlowReplayResultSchema, FlowSchema, FlowSummarySchema, SavedFlowSchema } from './flows';
import {
  ActionSchema,
  ActResultSchema,
  ExtractResultSchema,
  GotoOptionsSchema,
  IdempotencyKeySchema,
  LocatorSpecSchema,
  ObserveResultSchema,
  PageInfoSchema,
  TimeoutMsSchema,
  VariablesSchema,
  WaitMsSchema,
  ExtractSchemaBodySchema,
} from './schemas';

export { HttpModelSchema };

export const StartSessionRequestSchema = z
  .object({
    model: HttpModelSchema.optional(),
    viewport: z
      .object({ width: z.number().int().min(100).max(8000), height: z.number().int().min(100).max(8000) })
      .strict()
      .optional(),
    headless: z.boolean().optional(),
    domSettleTimeoutMs: WaitMsSchema.optional(),
    selfHeal: z.boolean().optional(),
    systemPrompt: z.string().optional(),
    /** A remote Chromium (with the extension) instead of a local one; only on hosts the operator opened (--allow-cdp-hosts). */
    cdpUrl: z.string().url().optional(),
    cdpHeaders: z.record(z.string()).optional(),
    streamResponse: z.boolean().optional(),
  })
  .strict();
export type StartSessionRequest = z.infer<typeof StartSessionRequestSchema>;

const common = {
  model: HttpModelSchema.optional(),
  timeout: TimeoutMsSchema.optional(),
  streamResponse: z.boolean().optional(),
};
const opOptions = {
  idempotencyKey: IdempotencyKeySchema.optional(),
  variables: VariablesSchema.optional(),
  cache: CacheCallOptionSchema.optional(),
  screenshot: z.boolean().optional(),
  frameId: z.number().int().nonnegative().optional(),
  locator: LocatorSpecSchema.optional(),
  ignoreLocators: z.array(LocatorSpecSchema).optional(),
};

export const NavigateRequestSchema = z
  .object({ url: z.string().min(1), options: GotoOptionsSchema.optional(), streamResponse: z.boolean().optional() })
  .strict();
export const ActRequestSchema = z
  .object({ input: z.union([z.string().min(1), ActionSchema]), ...common, ...opOptions, approval: ApprovalPolicySchema.optional() })
  .strict();
export const ObserveRequestSchema = z.object({ instruction: z.string().optional(), ...common, ...opOptions }).strict();
export const ExtractRequestSchema = z
  .object({ instruction: z.string().optional(), schema: ExtractSchemaBodySchema.optional(), ...common, ...opOptions })
  .strict();
/** Call one of the page's own tools (WebMCP) on the session's active page: its name and input, as page.callTool takes them. */
export const CallToolRequestSchema = z
  .object({
    name: z.string().regex(TOOL_NAME, TOOL_NAME_RULE),
    input: z.record(z.unknown()).optional(),
    timeout: TimeoutMsSchema.optional(),
    approval: ApprovalPolicySchema.optional(),
    streamResponse: z.boolean().optional(),
  })
  .strict();
export const EndRequestSchema = z.object({ streamResponse: z.boolean().optional() }).strict();

/**
 * Replay a named flow (this key's, stored with PUT /v1/flows/{name}, else one saved in the
 * session browser's side panel) or one given whole, with no model. `selfHeal: true` lets the
 * session's model re-find a step whose element is gone or changed, and run extract steps;
 * without it such a step stops the replay with a typed error naming the step.
 */
export const ReplayRequestSchema = z
  .object({
    name: FlowNameSchema.optional(),
    flow: FlowSchema.optional(),
    variables: VariablesSchema.optional(),
    /** How long each step may wait for its element (default 3000). */
    stepTimeout: TimeoutMsSchema.optional(),
    /** How long the whole replay may take (default 120000). */
    timeout: TimeoutMsSchema.optional(),
    selfHeal: z.boolean().optional(),
    streamResponse: z.boolean().optional(),
  })
  .strict()
  .refine((b) => (b.name === undefined) !== (b.flow === undefined), 'give exactly one of name and flow');
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;

export const ModelConfigInputSchema = ModelConfigSchema;

/**
 * The service's error: a library ErrorCode, or one of its own for the request itself
 * (INVALID_JSON, BODY_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, INVALID_HEADER, ...).
 */
export const HttpErrorSchema = z.object({ code: z.string(), message: z.string() });

/** One Server-Sent Event's JSON payload. */
export const StreamEventSchema = z.object({
  id: z.number().int(),
  /** approval: a step waits for a decision (`data` is the ApprovalRequest; answer at POST /v1/sessions/{id}/approvals/{approvalId}). */
  status: z.enum(['starting', 'connected', 'running', 'approval', 'finished', 'error']),
  message: z.string().optional(),
  data: z.unknown().optional(),
  error: HttpErrorSchema.optional(),
});
export type StreamEvent = z.infer<typeof StreamEventSchema>;

/** Every failed request's body. */
export const HttpErrorBodySchema = z.object({ success: z.literal(false), error: HttpErrorSchema });

/** Every successful JSON answer; `data` is the route's own shape (HttpRoutes). */
export const HttpSuccessBodySchema = z.object({ success: z.literal(true), data: z.unknown() });

/** The `data` of routes whose result is not a library result. */
export const StartSessionResultSchema = z.object({ sessionId: z.string(), available: z.boolean() });
export const AgentExecuteResultSchema = z.object({
  result: AgentResultSchema,
  /** With shouldCache: the key and the recording stored (or replayed) under it. */
  cacheEntry: AgentCacheEntrySchema.optional(),
  /** With executeOptions.saveAs: the flow saved, and where. */
  flow: SavedFlowSchema.optional(),
});
export const EndResultSchema = z.object({ ended: z.literal(true) });

/**
 * The routes: each POST body and the `data` of its `{ success: true, data }` answer
 * (or, streamed, of its `finished` event). `{id}` is a session id.
 */
export const HttpRoutes = {
  '/v1/sessions/start': { request: StartSessionRequestSchema, data: StartSessionResultSchema },
  '/v1/sessions/{id}/navigate': { request: NavigateRequestSchema, data: PageInfoSchema },
  '/v1/sessions/{id}/act': { request: ActRequestSchema, data: ActResultSchema },
  '/v1/sessions/{id}/observe': { request: ObserveRequestSchema, data: ObserveResultSchema },
  '/v1/sessions/{id}/extract': { request: ExtractRequestSchema, data: ExtractResultSchema },
  '/v1/sessions/{id}/agentExecute': { request: AgentExecuteRequestSchema, data: AgentExecuteResultSchema },
  '/v1/sessions/{id}/replay': { request: ReplayRequestSchema, data: FlowReplayResultSchema },
  '/v1/sessions/{id}/callTool': { request: CallToolRequestSchema, data: CallToolResultSchema },
  '/v1/sessions/{id}/end': { request: EndRequestSchema, data: EndResultSchema },
  '/v1/cache/lookup': { request: CacheLookupRequestSchema, data: CacheLookupResponseSchema },
  '/v1/cache/record': { request: CacheRecordRequestSchema, data: CacheRecordResponseSchema },
  '/v1/cache/invalidate': { request: CacheInvalidateRequestSchema, data: CacheInvalidateResponseSchema },
} as const;

/** A decision on a step of this session that waits for approval. */
export const ApprovalAnswerRequestSchema = z.object({ decision: ApprovalDecisionSchema }).strict();
/** `settled`: the decision was taken (false: that request no longer waits, decided by someone else or timed out). */
export const ApprovalAnswerResultSchema = z.object({ settled: z.boolean() });

/**
 * The routes that are not a POST with a JSON body, keyed `METHOD path`: the flows a key keeps in
 * its own store (so replay by name works in any session browser of that key), and the flows
 * saved in a session browser's side panel. `request` is the JSON body, for those that take one.
 */
export const HttpResourceRoutes = {
  'GET /v1/sessions/{id}/flows': { data: FlowListSchema },
  'PUT /v1/flows/{name}': { request: FlowSchema, data: FlowSummarySchema },
  'GET /v1/flows/{name}': { data: FlowSchema },
  'DELETE /v1/flows/{name}': { data: FlowDeleteResultSchema },
  'GET /v1/sessions/{id}/approvals': { data: z.array(ApprovalRequestSchema) },
  'GET /v1/sessions/{id}/tools': { data: z.array(PageToolSchema) },
  'POST /v1/sessions/{id}/approvals/{approvalId}': { request: ApprovalAnswerRequestSchema, data: ApprovalAnswerResultSchema },
} as const;
export type HttpResourceRoute = keyof typeof HttpResourceRoutes;
