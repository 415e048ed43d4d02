/**
 * Every wire shape, declared once as a zod schema; TypeScript types are inferred
 * from these. The RPC, the client library and (later) HTTP/MCP validate with them.
 */
import { z } from 'zod';
import { ModelParamSchema } from './resolve-model';
import { ResolvedModelSchema } from './model';
import { DeckhandError, ErrorCode } from './errors';
import { inlineSchemaRefs, schemaTooBig } from './json';
import { ApprovalPolicySchema } from './approval';

export const ACT_METHODS = [
  'click',
  'doubleClick',
  'rightClick',
  'hover',
  'fill',
  'type',
  'press',
  'selectOption',
  'check',
  'uncheck',
  'scrollTo',
  'scrollIntoView',
  'nextChunk',
  'prevChunk',
  'dragAndDrop',
  'focus',
  'selectText',
  'callTool',
] as const;
export const ActMethodSchema = z.enum(ACT_METHODS);
export type ActMethod = z.infer<typeof ActMethodSchema>;

/**
 * The locator methods every client has that send one action with string arguments (locator.act), by
 * their public name: the action, the argument each takes (list: several strings) and what the method
 * does, which becomes its doc comment. The Go client's methods are generated from this.
 */
export const LOCATOR_METHODS: Record<string, { action: ActMethod; arg?: string; list?: boolean; doc: string }> = {
  click: { action: 'click', doc: 'clicks the element' },
  dblclick: { action: 'doubleClick', doc: 'double-clicks the element' },
  rightClick: { action: 'rightClick', doc: 'right-clicks the element' },
  hover: { action: 'hover', doc: 'moves the mouse over the element' },
  fill: { action: 'fill', arg: 'value', doc: "replaces the field's value with value" },
  type: { action: 'type', arg: 'text', doc: 'types text into the element, key by key, after what it holds' },
  press: { action: 'press', arg: 'key', doc: 'presses a key ("Enter", "Control+A") with the element focused' },
  selectText: { action: 'selectText', arg: 'text', doc: 'selects (highlights) text shown in the element; it must be shown there once' },
  check: { action: 'check', doc: 'checks a checkbox or radio button' },
  uncheck: { action: 'uncheck', doc: 'unchecks a checkbox' },
  selectOption: {
    action: 'selectOption',
    arg: 'values',
    list: true,
    doc: 'selects the options of a <select> with these values or labels (several for a multiple select)',
  },
  scrollIntoView: { action: 'scrollIntoView', doc: 'scrolls the element into view' },
};

/** A page is a browser tab; its id is the tab id. */
export const PageIdSchema = z.number().int().nonnegative().describe('a page (browser tab), by its id');
/** The page a call works on, when it may name none. */
export const ON_PAGE = 'the page (browser tab) the call works on (none: the active page)';

// A replay performs an action only where the page still has its target (engine/memory/targets.ts), so a
// stored selector that now points at something else is never acted on. Descriptions here and
// below become the doc comments of the generated Python and Go types.
export const ActionTargetSchema = z
  .object({
    role: z.string().max(100).describe('its role as the page snapshot showed it'),
    name: z.string().max(500).describe('its accessible name as the page snapshot showed it'),
    context: z.string().max(500).describe("the other text of its row, list item or card, or the label of its group (form, dialog, section); '' for none"),
    count: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).describe('how many elements then had the same role and name'),
    alike: z
      .number()
      .int()
      .nonnegative()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('how many of those had these surroundings too, itself included: above one, only its place told it apart'),
  })
  .strict()
  .describe("what an action's selector pointed at when the action was chosen; a replay performs the action only where the page still has that element");
export type ActionTarget = z.infer<typeof ActionTargetSchema>;

export const ActionSchema = z
  .object({
    selector: z.string().trim().min(1, 'selector must be a non-empty CSS or XPath selector'),
    description: z.string(),
    // Left open here so an unknown method is reported by name (UNSUPPORTED_METHOD), not as a schema error.
    method: z.string().optional(),
    arguments: z.array(z.string()).optional(),
    target: ActionTargetSchema.optional(),
  })
  .strict()
  .describe('one step on the page: a selector, what it is, the method and its arguments');
export type Action = z.infer<typeof ActionSchema>;

export const LocatorSpecSchema = z
  .object({
    selector: z.string().trim().min(1, 'locator selector must not be empty'),
    nth: z.number().int().nonnegative().optional().describe('which of several matches, from 0'),
  })
  .strict()
  .describe('an element an operation is scoped to');
export type LocatorSpec = z.infer<typeof LocatorSpecSchema>;

export const UsageSchema = z
  .object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    reasoningTokens: z.number(),
    cachedInputTokens: z.number(),
    inferenceTimeMs: z.number(),
  })
  .describe("an operation's model usage");
export type Usage = z.infer<typeof UsageSchema>;
export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cachedInputTokens: 0,
  inferenceTimeMs: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    inferenceTimeMs: a.inferenceTimeMs + b.inferenceTimeMs,
  };
}

export const CacheStatusSchema = z.enum(['HIT', 'MISS', 'DISABLED']).describe('HIT, MISS or DISABLED');
export const CacheInfoSchema = z
  .object({
    status: CacheStatusSchema,
    count: z.number().int().optional(),
    threshold: z.number().int().optional(),
    missReason: z.string().optional(),
    tokensSaved: z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }).describe('what a cache hit saved').optional(),
    costSavedUsd: z
      .number()
      .nonnegative()
      .optional()
      .describe("what the replaced inference would cost now in US dollars, on a hit, at the current model's price (absent when that is unknown)"),
  })
  .describe('how the cache took part in an operation');
export type CacheInfo = z.infer<typeof CacheInfoSchema>;

/**
 * How an operation uses the result cache, resolved by the caller (absent: no lookup, DISABLED).
 * `store`: 'caller' asks the client that sent the command (its store, scoped by its key on the
 * Node side), 'extension' uses the extension's own store (the side panel).
 */
export const CacheRunSchema = z.object({ threshold: z.number().int().positive(), selfHeal: z.boolean(), store: z.enum(['caller', 'extension']) }).strict();
export type CacheRun = z.infer<typeof CacheRunSchema>;

export const ResultMetadataSchema = z
  .object({
    actionId: z.string(),
    cache: CacheInfoSchema,
    usage: UsageSchema,
    confidence: z.number().min(0).max(1).optional().describe('how sure the built-in local model was (0 to 1); absent for other models'),
    // Prices: protocol/prices.ts.
    costUsd: z
      .number()
      .nonnegative()
      .optional()
      .describe(
        "what the call's model usage cost in US dollars: 0 when no model was called (a deterministic Action, a cache hit); " +
          "absent when the model's price is unknown",
      ),
  })
  .describe('what comes with every act, observe and extract result');
export type ResultMetadata = z.infer<typeof ResultMetadataSchema>;

export const ActResultSchema = z
  .object({
    data: z
      .object({
        success: z.boolean(),
        message: z.string(),
        actionDescription: z.string(),
        actions: z.array(ActionSchema),
      })
      .describe('what act did'),
    metadata: ResultMetadataSchema,
  })
  .describe("act's result");
export type ActResult = z.infer<typeof ActResultSchema>;

export const ObserveResultSchema = z
  .object({
    data: z.array(ActionSchema),
    metadata: ResultMetadataSchema,
  })
  .describe("observe's result: actions act can run");
export type ObserveResult = z.infer<typeof ObserveResultSchema>;

export const ExtractResultSchema = z
  .object({
    data: z.unknown(),
    metadata: ResultMetadataSchema,
  })
  .describe("extract's result: the data, in the caller's schema when one was given");
export type ExtractResult<T = unknown> = { data: T; metadata: ResultMetadata };

const OPS = ['act', 'extract', 'observe', 'total'] as const;
/**
 * Per operation: the usage of the model calls that counted, what they cost (`CostUsd`, for
 * models whose price is known), and what cache hits saved (`CacheSavedTokens`, input plus
 * output; `CacheSavedCostUsd`).
 */
export const METRIC_COUNTERS = [
  'PromptTokens',
  'CompletionTokens',
  'ReasoningTokens',
  'CachedInputTokens',
  'InferenceTimeMs',
  'CostUsd',
  'CacheSavedTokens',
  'CacheSavedCostUsd',
] as const;
export type MetricName = `${(typeof OPS)[number]}${(typeof METRIC_COUNTERS)[number]}`;
export const METRIC_NAMES = OPS.flatMap((o) => METRIC_COUNTERS.map((c) => `${o}${c}` as MetricName));
export const MetricsSchema = z
  .object(Object.fromEntries(METRIC_NAMES.map((n) => [n, z.number()])) as Record<MetricName, z.ZodNumber>)
  .describe(
    "the instance's counters: act, extract, observe and total x prompt, completion, reasoning and cached input tokens, inference time, " +
      'cost in US dollars (models with a known price), and the tokens and dollars cache hits saved',
  );
export type Metrics = Record<MetricName, number>;

/**
 * The longest any single deadline may be: 10 minutes. Bounded so that one request cannot
 * hold a session for weeks, and below Node's 2^31 ms timer limit (beyond it timers fire at once).
 */
export const MAX_TIMEOUT_MS = 600_000;
/** A deadline in milliseconds: a whole number from 1 to MAX_TIMEOUT_MS. */
export const TimeoutMsSchema = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMEOUT_MS, `a timeout may be at most ${MAX_TIMEOUT_MS} ms (10 minutes)`)
  .describe("how long the call may take, at most 10 minutes (none: the worker's deadline for the method)");
/** A wait that may be zero (settle times, pauses), bounded the same way. */
export const WaitMsSchema = z.number().int().nonnegative().max(MAX_TIMEOUT_MS, `a wait may be at most ${MAX_TIMEOUT_MS} ms (10 minutes)`);

/** The longest any one call may take in all, an agent run of many steps included. */
export const MAX_CALL_MS = 3 * MAX_TIMEOUT_MS;

/**
 * Check a caller's milliseconds against the bound where no schema parses them (library
 * options): INVALID_ARGUMENT naming `what` otherwise. `whole` asks for an integer.
 */
export function checkMs(what: string, value: unknown, { min = 1, whole = true }: { min?: number; whole?: boolean } = {}): number {
  const n = value as number;
  if (typeof value !== 'number' || !Number.isFinite(n) || (whole && !Number.isInteger(n)) || n < min || n > MAX_TIMEOUT_MS) {
    const range = `from ${min} to ${MAX_TIMEOUT_MS} (10 minutes)`;
    const said = `${what} must be a ${whole ? 'whole ' : ''}number of milliseconds ${range}, got ${JSON.stringify(value)}`;
    throw new DeckhandError(ErrorCode.InvalidArgument, said);
  }
  return n;
}

/** `%name%` variables: a value, or a value with a description the model may see. */
// A number or a boolean is filled in as its text (3, 2.5, true), so what runs is always a string.
const VariableValueSchema = z.union([z.string(), z.number().finite(), z.boolean()]);
export const VariablesSchema = z
  .record(z.union([VariableValueSchema, z.object({ value: VariableValueSchema, description: z.string().optional() }).strict()]))
  .describe('values for %name% in the instruction, each with an optional description for the model; the model never reads the values');

/** Options common to act/observe/extract. Model-related ones are accepted and used once models land. */
/**
 * A caller's name for one operation, kept on its retries: the worker runs it once, and a retry
 * with the same key (through another replica after one died, say) gets the first run's outcome,
 * waiting for it while it runs. Such a run is not stopped when its caller's connection goes
 * away, only by op.cancel or its deadline. Keys are kept 10 minutes after the run ends.
 */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\w.:-]{8,128}$/, 'an idempotency key is 8 to 128 letters, digits, _ . : or - (a UUID, say)')
  .describe("the caller's name for this operation, the same on its retries: the worker runs it once and a retry gets its outcome");

export const OperationOptionsSchema = z
  .object({
    page: PageIdSchema.optional().describe(ON_PAGE),
    timeout: TimeoutMsSchema.optional(),
    locator: LocatorSpecSchema.optional(),
    ignoreLocators: z.array(LocatorSpecSchema).optional().describe('parts of the page left out'),
    frameId: z.number().int().nonnegative().optional().describe("the frame an Action's selector is in, by its id in the snapshot (none: the main frame)"),
    /** Resolved by the Node side; carries keys for this call only. */
    model: ModelParamSchema.optional().describe("the call's model (none: the client's)"),
    variables: VariablesSchema.optional(),
    screenshot: z.boolean().optional().describe('whether a screenshot of the page goes with the model request'),
    systemPrompt: z.string().optional(),
    domSettleTimeoutMs: WaitMsSchema.optional().describe("how long to wait for the page's DOM to settle first, in milliseconds (none: the worker's default)"),
    /** Correlates the worker's log events with the caller's operation. */
    opId: z.string().optional(),
    idempotencyKey: IdempotencyKeySchema.optional(),
    iframes: z.boolean().optional().describe('whether the content of iframes is included (default true)'),
    /** The result cache for act/observe/extract; ignored by other methods. */
    cache: CacheRunSchema.optional(),
    /** act: a risky step waits for approval (see protocol/approval.ts); ignored by observe and extract, which change nothing. */
    approval: ApprovalPolicySchema.optional(),
  })
  .strict();
export type OperationOptions = z.infer<typeof OperationOptionsSchema>;

export const SnapshotOptionsSchema = z
  .object({
    page: PageIdSchema.optional(),
    locator: LocatorSpecSchema.optional(),
    ignoreLocators: z.array(LocatorSpecSchema).optional().describe('parts of the page left out'),
    budget: z.number().int().min(200).optional().describe("the most tokens the text may take, at least 200 (none: the worker's budget)"),
    timeout: TimeoutMsSchema.optional(),
  })
  .strict();
export type SnapshotOptions = z.infer<typeof SnapshotOptionsSchema>;

export const SnapshotResultSchema = z
  .object({
    text: z.string(),
    tokens: z.number().describe("the text's estimated size in tokens (a conservative character-based estimate)"),
    folded: z.boolean().describe('whether long runs (rows, list items) were folded into summary lines to fit the budget'),
    url: z.string(),
  })
  .describe('the text a model reads for a page (page.snapshot)');
export type SnapshotResult = z.infer<typeof SnapshotResultSchema>;

export const GotoOptionsSchema = z
  .object({
    waitUntil: z
      .enum(['load', 'domcontentloaded', 'commit'])
      .optional()
      .describe("when the navigation counts as done: 'load' (default), 'domcontentloaded' or 'commit'"),
    timeout: TimeoutMsSchema.optional(),
  })
  .strict();
export type GotoOptions = z.infer<typeof GotoOptionsSchema>;

export const ScreenshotOptionsSchema = z
  .object({
    type: z.enum(['png', 'jpeg']).optional().describe("the image format, 'png' (default) or 'jpeg'"),
    quality: z.number().int().min(0).max(100).optional().describe("a JPEG's quality, 0 to 100"),
    fullPage: z.boolean().optional().describe('whether the whole page is captured instead of the viewport'),
  })
  .strict();
export type ScreenshotOptions = z.infer<typeof ScreenshotOptionsSchema>;

export const PageInfoSchema = z.object({ id: PageIdSchema, url: z.string(), title: z.string() }).describe('a tab: its id, URL and title');
export type PageInfo = z.infer<typeof PageInfoSchema>;

export const DEFAULTS = {
  actionTimeoutMs: 15_000,
  navigationTimeoutMs: 30_000,
  snapshotBudgetTokens: 12_000,
  /** Past a call's promised answer time (the worker's ack), how long a client still waits: the trip back. */
  rpcGraceMs: 5_000,
  /** How long a client waits for the worker to acknowledge a call (the ack says how long the answer may take). */
  rpcAckMs: 10_000,
  /** A batch's deadline when its caller names none. */
  batchTimeoutMs: 30_000,
  modelOperationTimeoutMs: 120_000,
  domSettleTimeoutMs: 3_000,
} as const;

/** A caller's JSON Schema for extract, bounded in depth and size (SCHEMA_LIMITS) wherever it arrives. */
const boundedSchema = (v: unknown, ctx: z.RefinementCtx): void => {
  const problem = schemaTooBig(v);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
};
/**
 * On the worker's RPC: any value (its shape is checked where it is used), bounded, with its local
 * references ($defs, definitions) put in place for everything after (the cache key, the model).
 */
export const ExtractSchemaParamSchema = z
  .unknown()
  .superRefine(boundedSchema)
  .transform((v, ctx) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    try {
      return inlineSchemaRefs(v as Record<string, unknown>);
    } catch (e) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
      return z.NEVER;
    }
  });
/** In HTTP requests: a JSON object, bounded. */
export const ExtractSchemaBodySchema = z.record(z.unknown()).superRefine(boundedSchema);
