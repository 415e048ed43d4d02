/**
 * The whole Node ⇄ worker command set in one place: each method's params and result.
 * Both the Node facade and the worker-local facade (experimentalBatch) call these.
 */
import { z } from 'zod';
import { ModelParamSchema } from './resolve-model';
import {
  ActionSchema,
  ActResultSchema,
  ExtractResultSchema,
  ExtractSchemaParamSchema,
  GotoOptionsSchema,
  LocatorSpecSchema,
  MetricsSchema,
  ObserveResultSchema,
  OperationOptionsSchema,
  PageIdSchema,
  PageInfoSchema,
  ScreenshotOptionsSchema,
  SnapshotOptionsSchema,
  SnapshotResultSchema,
  TimeoutMsSchema,
  UsageSchema,
  VariablesSchema,
} from './schemas';
import { DEFAULTS, MAX_CALL_MS, ON_PAGE } from './schemas';
import { AGENT_DEFAULTS } from './agent';
import { ModelReplySchema, ModelRequestSchema, ResolvedModelSchema } from './model';
import { AgentCacheEntrySchema, AgentRecordingSchema, AgentResultSchema, AgentRunParamsSchema } from './agent';
import { AllowSchemesSchema } from './url-policy';
import { CacheClientMethods } from './cache';
import { ApprovalClientMethods, ApprovalPolicySchema } from './approval';
import { FlowMethods, SavedFlowSchema } from './flows';
import { CallToolResultSchema, PAGE_TOOL_LIMITS, PageToolsResultSchema, TOOL_NAME, TOOL_NAME_RULE } from './page-tools';

const page = z.object({ page: PageIdSchema }).strict();
/** Names a call so that `op.cancel` can stop it (the caller gave up); any unique string, a UUID say. */
const OpIdSchema = z.string().min(1).max(200);

/**
 * Who a caller is, as it says when it connects (engine.ping): what the side panel shows as
 * driving a run it watches. Optional: a caller that says nothing is known by its transport only.
 */
export const CallerInfoSchema = z
  .object({
    /** node, python, go (a client library), http (the HTTP service), mcp (the MCP server), or another program's own word. */
    kind: z.string().trim().min(1).max(40),
    /** The service's session this caller serves, when it serves one. */
    session: z.string().max(200).optional(),
    /** A name the program gives itself. */
    name: z.string().max(200).optional(),
  })
  .strict()
  .describe('who a caller is: its kind, the service session it serves, a name it gives itself');
export type CallerInfo = z.infer<typeof CallerInfoSchema>;

export const Methods = {
  'engine.ping': { params: z.object({ client: CallerInfoSchema.optional() }).strict(), result: z.object({ version: z.string(), extensionId: z.string() }) },
  'context.pages': { params: z.object({}).strict(), result: z.array(PageInfoSchema) },
  'context.activePage': { params: z.object({}).strict(), result: PageInfoSchema },
  'context.newPage': {
    params: z
      .object({
        url: z.string().optional(),
        timeout: TimeoutMsSchema.optional(),
        /** Schemes the browser's operator opened beyond the default (see url-policy.ts); set by the client library, not by HTTP or MCP callers. */
        allowSchemes: AllowSchemesSchema.optional(),
      })
      .strict(),
    result: PageInfoSchema,
  },
  'page.goto': {
    params: z
      .object({
        page: PageIdSchema,
        url: z.string().min(1),
        options: GotoOptionsSchema.optional(),
        /** As for context.newPage; deliberately not in GotoOptions, which HTTP callers supply. */
        allowSchemes: AllowSchemesSchema.optional(),
        /** See op.cancel: cancelling stops the page loading. */
        opId: OpIdSchema.optional(),
      })
      .strict(),
    result: PageInfoSchema,
  },
  'page.info': { params: page, result: PageInfoSchema },
  'page.close': { params: page, result: z.object({ closed: z.boolean() }) },
  'page.bringToFront': { params: page, result: PageInfoSchema },
  'page.evaluate': {
    params: z
      .object({
        page: PageIdSchema,
        /** A function's source (called with `arg`) or an expression. */
        source: z.string().min(1),
        isFunction: z.boolean(),
        arg: z.unknown().optional(),
        timeout: TimeoutMsSchema.optional(),
      })
      .strict(),
    result: z.object({ value: z.unknown() }),
  },
  'page.screenshot': {
    params: z.object({ page: PageIdSchema, options: ScreenshotOptionsSchema.optional() }).strict(),
    result: z.object({ data: z.string(), mimeType: z.string() }),
  },
  'page.snapshot': { params: SnapshotOptionsSchema, result: SnapshotResultSchema },
  /** Selectors (and role/name) for snapshot element ids; null for ids no longer on the page. */
  'page.selectors': {
    params: z.object({ page: PageIdSchema, ids: z.array(z.string()) }).strict(),
    result: z.array(z.object({ id: z.string(), selector: z.string(), role: z.string(), name: z.string() }).nullable()),
  },
  /** Press keys on whatever has focus in the page (the agent's press tool, a recorded key step). */
  'page.press': {
    params: z
      .object({ page: PageIdSchema, keys: z.string().min(1, 'keys must not be empty'), timeout: TimeoutMsSchema.optional(), opId: OpIdSchema.optional() })
      .strict(),
    result: z.object({ element: z.string() }),
  },
  /** Outline the first element a selector matches (null clears it): the side panel's hover. */
  'page.highlight': {
    params: z.object({ page: PageIdSchema, selector: z.string().min(1).nullable() }).strict(),
    result: z.object({ count: z.number().int() }),
  },
  /** The page's own tools (WebMCP), as the snapshot lists them: see protocol/page-tools.ts. */
  'page.tools': { params: page, result: PageToolsResultSchema },
  /**
   * Call one of the page's own tools with `input` (checked against its input schema first). A tool
   * declared by a form fills the form and submits it. Gated by `approval` as a click would be.
   */
  'page.callTool': {
    params: z
      .object({
        page: PageIdSchema,
        name: z.string().regex(TOOL_NAME, TOOL_NAME_RULE),
        input: z
          .record(z.unknown())
          .default({})
          .refine(
            (v) => JSON.stringify(v).length <= PAGE_TOOL_LIMITS.inputChars,
            `a tool's input may be at most ${PAGE_TOOL_LIMITS.inputChars} characters of JSON`,
          )
          .describe("the tool's input: an object its input schema accepts"),
        timeout: TimeoutMsSchema.optional(),
        /** See op.cancel: cancelling stops the call (the page's tool is told it was cancelled). */
        opId: OpIdSchema.optional(),
        approval: ApprovalPolicySchema.optional(),
      })
      .strict(),
    result: CallToolResultSchema,
  },
  'locator.count': {
    params: z.object({ page: PageIdSchema, locator: LocatorSpecSchema }).strict(),
    result: z.object({ count: z.number().int() }),
  },
  'locator.act': {
    params: z
      .object({
        page: PageIdSchema,
        locator: LocatorSpecSchema,
        method: z.string(),
        arguments: z.array(z.string()).optional(),
        timeout: TimeoutMsSchema.optional(),
        /** See op.cancel: cancelling stops the wait for the element. */
        opId: OpIdSchema.optional(),
      })
      .strict(),
    result: z.object({ element: z.string() }),
  },
  /** Run the autonomous agent (agentExecute), live or replaying a recording. */
  'agent.run': {
    params: AgentRunParamsSchema,
    result: z.object({
      result: AgentResultSchema,
      recording: AgentRecordingSchema.optional(),
      /** With `cache`: the run's cache key and the recording stored (or replayed) under it. */
      cacheEntry: AgentCacheEntrySchema.optional(),
      /** With `saveAs`: the flow saved, and where. */
      flow: SavedFlowSchema.optional(),
    }),
  },
  /**
   * Stop a running call by the opId it was sent with (its caller gave up): act, observe, extract
   * (options.opId), agent.run, batch.run, page.goto, locator.act and page.press (opId). The call fails at
   * once with CANCELLED. `cancelled`: whether such a call was running; an opId that arrives
   * before its call is remembered for a minute, so that call is cancelled as it starts.
   */
  'op.cancel': { params: z.object({ opId: z.string() }).strict(), result: z.object({ cancelled: z.boolean() }) },
  /** Run a trusted callback's source inside the worker (experimentalBatch). */
  'batch.run': {
    params: z
      .object({
        source: z.string().min(1),
        /** false: the callback gets undefined (JSON cannot carry it). */
        hasInput: z.boolean(),
        input: z.unknown().optional(),
        page: PageIdSchema.optional().describe(ON_PAGE),
        /** The whole batch's deadline (default DEFAULTS.batchTimeoutMs). */
        timeout: TimeoutMsSchema.optional(),
        /** Defaults for the AI calls made inside the batch (resolved by the client). */
        defaults: OperationOptionsSchema.optional(),
        /** Whether calls without their own cache option use defaults.cache (the instance's enabled). */
        cacheByDefault: z.boolean().optional(),
        /** See op.cancel: cancelling aborts the batch and every call it is making. */
        opId: OpIdSchema.optional(),
        /** Steps of the batch (its act calls, locator actions, key presses, gotos) that wait for approval. */
        approval: ApprovalPolicySchema.optional(),
      })
      .strict(),
    result: z.object({ hasValue: z.boolean(), value: z.unknown().optional() }),
  },
  act: {
    params: z.object({ input: z.union([z.string(), z.record(z.unknown())]), options: OperationOptionsSchema.optional() }).strict(),
    result: ActResultSchema,
  },
  /**
   * Perform stored Actions with no model (a recorded step), as a cache hit does: a step whose
   * element moved is re-found from its description with `model` when one is given.
   */
  'act.replay': {
    params: z
      .object({ page: PageIdSchema, actions: z.array(ActionSchema).min(1), variables: VariablesSchema.optional(), model: ModelParamSchema.optional() })
      .strict(),
    result: z.object({ actions: z.array(ActionSchema), healed: z.boolean(), usage: UsageSchema }),
  },
  observe: {
    params: z.object({ instruction: z.string().optional(), options: OperationOptionsSchema.optional() }).strict(),
    result: ObserveResultSchema,
  },
  extract: {
    params: z.object({ instruction: z.string().optional(), schema: ExtractSchemaParamSchema.optional(), options: OperationOptionsSchema.optional() }).strict(),
    result: ExtractResultSchema,
  },
  metrics: { params: z.object({}).strict(), result: MetricsSchema },
  ...FlowMethods,
} as const;

export type MethodName = keyof typeof Methods;

/** Where an operation's opId and timeout sit in its params, and its default deadline (see OPERATIONS). */
export interface OperationDecl {
  /** The params field (dotted path) holding the opId that op.cancel stops it by. */
  opId: string;
  /** The params field holding the caller's timeout; with `deadline`, the engine answers by it. */
  timeout?: string;
  /**
   * The deadline without a timeout: model (DEFAULTS.modelOperationTimeoutMs), action (DEFAULTS.actionTimeoutMs),
   * or instruction (model for an instruction, action for an Action).
   */
  deadline?: 'model' | 'action' | 'instruction';
  /** With deadline 'instruction': the params field that is a string for an instruction (else an Action). */
  instruction?: string;
  /**
   * The most tokens one model answer of this operation may take (an agent's: each step's). It
   * bounds what a server generates for a call nobody waits for any more; generous, because a
   * reasoning model spends part of it thinking.
   */
  outputTokens?: number;
}

/**
 * The methods that are operations, declared once: which field carries the opId a caller cancels
 * them by, and which deadline the engine holds them to. Carried into the JSON Schema's method
 * table for the Python and Go clients. agent.run, batch.run and page.goto keep deadlines of their own.
 */
export const OPERATIONS: Partial<Record<MethodName, OperationDecl>> = {
  act: { opId: 'options.opId', timeout: 'options.timeout', deadline: 'instruction', instruction: 'input', outputTokens: 2048 },
  observe: { opId: 'options.opId', timeout: 'options.timeout', deadline: 'model', outputTokens: 4096 },
  extract: { opId: 'options.opId', timeout: 'options.timeout', deadline: 'model', outputTokens: 8192 },
  'locator.act': { opId: 'opId', timeout: 'timeout', deadline: 'action' },
  'page.press': { opId: 'opId', timeout: 'timeout', deadline: 'action' },
  'page.callTool': { opId: 'opId', timeout: 'timeout', deadline: 'action' },
  'flow.replay': { opId: 'opId', timeout: 'timeout', deadline: 'model', outputTokens: 2048 },
  'agent.run': { opId: 'opId', outputTokens: 2048 },
  'batch.run': { opId: 'opId' },
  'page.goto': { opId: 'opId' },
};

/** A params field by dotted path ('options.opId'). */
export function paramAt(params: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), params);
}

/** Whether a call may wait on a model, so that the model deadline applies to it (OPERATIONS). */
export function isModelOperation(method: string, params: unknown): boolean {
  const o = OPERATIONS[method as MethodName];
  return o?.deadline === 'model' || (o?.deadline === 'instruction' && !!o.instruction && typeof paramAt(params, o.instruction) === 'string');
}

/** How far past its own timeout the engine lets an operation run before answering TIMEOUT for it. */
export const DEADLINE_MARGIN_MS = 150;
/** How far past its own timeout a batch may take to answer: its callback's calls wind down first. */
const BATCH_MARGIN_MS = 10_000;

/** How long an operation may take in all: its own timeout, else its default; null where a method keeps its own (OPERATIONS). */
export function operationDeadline(method: string, params: unknown): number | null {
  const o = OPERATIONS[method as MethodName];
  if (!o?.deadline) return null;
  const t = o.timeout ? paramAt(params, o.timeout) : undefined;
  if (typeof t === 'number') return t;
  return isModelOperation(method, params) ? DEFAULTS.modelOperationTimeoutMs : DEFAULTS.actionTimeoutMs;
}

/** A caller's milliseconds where the params hold a sane number, else the default (bad params are refused by the schema anyway). */
function msAt(params: unknown, path: string, fallback: number): number {
  const v = paramAt(params, path);
  return typeof v === 'number' && v >= 0 && v <= MAX_CALL_MS ? v : fallback;
}

/**
 * How long the worker may take to answer a call: what its ack promises the client (RpcPeer
 * ackWith), so no client computes a deadline of its own. One rule for every caller.
 */
export function answerWithin(method: string, params: unknown): number {
  const own = operationDeadline(method, params);
  if (own !== null) return Math.min(own, MAX_CALL_MS) + DEADLINE_MARGIN_MS;
  const nav = DEFAULTS.navigationTimeoutMs;
  switch (method) {
    case 'agent.run': {
      // Each step may take a tool's time thrice (model, settle, act) and some.
      const steps = msAt(params, 'maxSteps', AGENT_DEFAULTS.maxSteps);
      return Math.min(steps * (msAt(params, 'toolTimeout', AGENT_DEFAULTS.toolTimeoutMs) * 3 + 10_000), MAX_CALL_MS);
    }
    case 'batch.run':
      return msAt(params, 'timeout', DEFAULTS.batchTimeoutMs) + BATCH_MARGIN_MS;
    case 'page.goto':
      return msAt(params, 'options.timeout', nav) + DEADLINE_MARGIN_MS;
    default:
      // context.newPage and page.evaluate carry a timeout of their own; the rest are quick.
      return msAt(params, 'timeout', nav) + DEADLINE_MARGIN_MS;
  }
}

/** Calls the worker makes to the client that sent a command. */
export const ClientMethods = {
  /** Whether the caller is still there: asked while its calls run over a transport that does not say when it closes (CDP). Any answer will do. */
  ping: { params: z.object({}).strict(), result: z.null() },
  /** Run a caller's callback model. */
  'model.generate': {
    params: z.object({ callbackId: z.string(), request: ModelRequestSchema }).strict(),
    result: ModelReplySchema,
  },
  /** Run one of the caller's own agent tools. */
  'tool.call': {
    params: z.object({ name: z.string(), input: z.unknown() }).strict(),
    result: z.object({ output: z.string() }),
  },
  /** The caller's result cache (protocol/cache.ts). */
  ...CacheClientMethods,
  /** A step of the caller's waits for approval (protocol/approval.ts): the caller may decide, or answer null. */
  ...ApprovalClientMethods,
  /** A log line of an operation (never holds keys or variable values). */
  log: {
    params: z.object({ level: z.enum(['debug', 'info', 'warn', 'error']), message: z.string(), data: z.record(z.unknown()).optional() }).strict(),
    result: z.null(),
  },
} as const;
export type Params<M extends MethodName> = z.input<(typeof Methods)[M]['params']>;
/** A method's params as the worker holds them once checked: defaults filled, named models resolved. */
export type Parsed<M extends MethodName> = z.output<(typeof Methods)[M]['params']>;
export type Result<M extends MethodName> = z.infer<(typeof Methods)[M]['result']>;

/** The one interface both facades are built on: Node sends these over RPC, a batch runs them in-process. */
export interface CommandClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
}

export { ActionSchema };
