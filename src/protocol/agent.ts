/**
 * The autonomous agent's wire shapes: the agentExecute request (HTTP and RPC), the
 * steps it reports, its result, and the recording that cached replay uses.
 */
import { z } from 'zod';
import { ModelParamSchema } from './resolve-model';
import { FlowNameSchema } from './flows';
import { HttpModelSchema, ResolvedModelSchema } from './model';
import { ActionSchema, ON_PAGE, PageIdSchema, TimeoutMsSchema, VariablesSchema, WaitMsSchema } from './schemas';
import { AllowSchemesSchema } from './url-policy';
import { ApprovalPolicySchema } from './approval';

export const AGENT_MODES = ['dom', 'hybrid', 'cua'] as const;
export const AgentModeSchema = z.enum(AGENT_MODES);
export type AgentMode = z.infer<typeof AgentModeSchema>;

export const AGENT_DEFAULTS = { maxSteps: 20, toolTimeoutMs: 30_000 } as const;
/** The most steps one agent run takes. */
const AGENT_MAX_STEPS = 200;

type ArgType = 'string' | 'number' | 'boolean';
interface AgentToolDef {
  /** The line the model reads in its tool list. */
  help: string;
  /** The answer fields this tool reads, in order, with their JSON type. */
  args: Record<string, ArgType>;
  modes: readonly AgentMode[];
  /** How a recorded step replays: 'act' re-runs its Actions, 'page' re-runs the tool, 'none' changes nothing on the page. */
  replay: 'act' | 'page' | 'none';
}

/**
 * The agent's built-in tools, declared once: the tool list each mode offers, the help the
 * model reads, the answer schema, the arguments a step records and how a recording replays
 * all come from this table. `search` is offered only with a search provider; `done` is last.
 */
export const AGENT_TOOLS = {
  act: {
    help: 'act(instruction): one action on the page in plain language, e.g. "click the Save button", "type %email% into the email field"',
    args: { instruction: 'string' },
    modes: ['dom', 'hybrid'],
    replay: 'act',
  },
  extract: { help: 'extract(instruction): read information from the page', args: { instruction: 'string' }, modes: ['dom', 'hybrid'], replay: 'none' },
  goto: { help: 'goto(url): open an absolute URL', args: { url: 'string' }, modes: AGENT_MODES, replay: 'page' },
  back: { help: 'back(): go back one page', args: {}, modes: AGENT_MODES, replay: 'page' },
  scroll: { help: 'scroll(direction: "up" | "down"): scroll the page by one screen', args: { direction: 'string' }, modes: AGENT_MODES, replay: 'page' },
  wait: { help: 'wait(ms): wait up to 10000 ms for the page to change', args: { ms: 'number' }, modes: AGENT_MODES, replay: 'page' },
  press: {
    help: 'press(keys): press a key or chord in whatever has focus, e.g. "Enter", "Control+A"',
    args: { keys: 'string' },
    modes: AGENT_MODES,
    replay: 'page',
  },
  click_at: {
    help: 'click_at(x, y): click at a point of the screenshot (CSS pixels)',
    args: { x: 'number', y: 'number' },
    modes: ['hybrid', 'cua'],
    replay: 'page',
  },
  type_at: {
    help: 'type_at(x, y, text): click at a point, then type text at the caret (added to what a field holds; act replaces a value)',
    args: { x: 'number', y: 'number', text: 'string' },
    modes: ['hybrid', 'cua'],
    replay: 'page',
  },
  drag: {
    help: 'drag(x, y, toX, toY): drag from one point to another',
    args: { x: 'number', y: 'number', toX: 'number', toY: 'number' },
    modes: ['hybrid', 'cua'],
    replay: 'page',
  },
  search: { help: 'search(query): search the web; returns titles, URLs and snippets', args: { query: 'string' }, modes: AGENT_MODES, replay: 'none' },
  done: {
    help: 'done(answer, success): finish; answer says what happened or what was found',
    args: { answer: 'string', success: 'boolean' },
    modes: AGENT_MODES,
    replay: 'none',
  },
} as const satisfies Record<string, AgentToolDef>;
export type AgentToolName = keyof typeof AGENT_TOOLS;
export const isAgentTool = (name: string): name is AgentToolName => Object.hasOwn(AGENT_TOOLS, name);

/** The built-in tools a run offers, in the table's order (done last). */
export function agentToolsFor(mode: AgentMode, search: boolean): AgentToolName[] {
  return (Object.keys(AGENT_TOOLS) as AgentToolName[]).filter(
    (t) => (AGENT_TOOLS[t].modes as readonly AgentMode[]).includes(mode) && (t !== 'search' || search),
  );
}

export const AgentConfigSchema = z
  .object({
    model: HttpModelSchema.optional(),
    /** Legacy: a provider name used with a bare model name. */
    provider: z.enum(['openai', 'anthropic', 'google', 'azure', 'vertex', 'bedrock']).optional(),
    systemPrompt: z.string().optional(),
    mode: AgentModeSchema.optional(),
    /** Deprecated: mode overrides it when both are given. */
    cua: z.boolean().optional(),
    /** Model for act/extract inside tools; inherits model when omitted. */
    executionModel: HttpModelSchema.optional(),
  })
  .strict();

export const ExecuteOptionsSchema = z
  .object({
    instruction: z.string().min(1, 'instruction must not be empty'),
    maxSteps: z.number().int().min(1).max(AGENT_MAX_STEPS).optional(),
    highlightCursor: z.boolean().optional(),
    useSearch: z.boolean().optional(),
    toolTimeout: TimeoutMsSchema.optional(),
    variables: VariablesSchema.optional(),
    /** Save the run, when it succeeds, as a named flow in the caller's own store (its key's, on the service), to replay with no model. */
    saveAs: FlowNameSchema.optional(),
    /** Risky steps (submitting a form, deleting, paying, leaving the site, uploading, the caller's words) wait for approval. */
    approval: ApprovalPolicySchema.optional(),
  })
  .strict();

export const AgentExecuteRequestSchema = z
  .object({
    agentConfig: AgentConfigSchema.default({}),
    executeOptions: ExecuteOptionsSchema,
    frameId: z.number().int().nonnegative().optional(),
    streamResponse: z.boolean().optional(),
    shouldCache: z.boolean().optional(),
  })
  .strict();
export type AgentExecuteRequest = z.infer<typeof AgentExecuteRequestSchema>;

/** One tool call the model asked for, as the agent ran it. */
export const AgentStepSchema = z
  .object({
    type: z.string(),
    reasoning: z.string(),
    taskCompleted: z.boolean(),
    action: z.record(z.unknown()),
    timeMs: z.number(),
    pageText: z.string(),
    pageUrl: z.string(),
    instruction: z.string(),
    result: z.string().optional().describe('what the tool returned, briefly (or its error)'),
  })
  .describe('one step of an agent run: the tool it called and why');
export type AgentStep = z.infer<typeof AgentStepSchema>;

export const AgentUsageSchema = z
  .object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    inference_time_ms: z.number(),
    reasoning_tokens: z.number(),
    cached_input_tokens: z.number(),
  })
  .describe("an agent run's model usage (snake_case on the wire, as the earlier API had it)");

export const AgentResultSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    actions: z.array(AgentStepSchema),
    completed: z.boolean(),
    metadata: z.record(z.unknown()).optional(),
    usage: AgentUsageSchema.optional(),
  })
  .describe("what an agent run did: each step, whether the task was completed, and the run's usage");
export type AgentResult = z.infer<typeof AgentResultSchema>;

/** A recorded run: what replay performs, with %variable% placeholders and no secrets. */
export const AgentRecordingSchema = z.object({
  version: z.literal(1),
  instruction: z.string(),
  startUrl: z.string(),
  steps: z.array(
    z.object({
      tool: z.string(),
      args: z.record(z.unknown()),
      /** For act steps: the Actions performed, replayed deterministically. */
      actions: z.array(ActionSchema).optional(),
      message: z.string().optional(),
    }),
  ),
  finalMessage: z.string(),
});

/** A cached agent run: its cache key and the recording stored (or replayed) under it. */
export const AgentCacheEntrySchema = z.object({ cacheKey: z.string(), entry: AgentRecordingSchema });
export type AgentRecording = z.infer<typeof AgentRecordingSchema>;

/** What the engine receives over the RPC (models already resolved). */
export const AgentRunParamsSchema = z
  .object({
    instruction: z.string().min(1),
    mode: AgentModeSchema.default('dom'),
    model: ModelParamSchema,
    executionModel: ModelParamSchema,
    systemPrompt: z.string().optional(),
    maxSteps: z
      .number()
      .int()
      .positive()
      .max(AGENT_MAX_STEPS)
      .default(AGENT_DEFAULTS.maxSteps)
      .describe(`the most steps the run takes (default ${AGENT_DEFAULTS.maxSteps}, at most ${AGENT_MAX_STEPS})`),
    toolTimeout: TimeoutMsSchema.default(AGENT_DEFAULTS.toolTimeoutMs),
    highlightCursor: z.boolean().default(false),
    variables: VariablesSchema.optional(),
    /** Steps (clicks, typing, key presses, gotos) that wait for approval before the agent carries them out. */
    approval: ApprovalPolicySchema.optional(),
    /** A search endpoint, when the caller asked for search and the service has one. */
    searchUrl: z.string().url().optional(),
    page: PageIdSchema.optional().describe(ON_PAGE),
    frameId: z.number().int().nonnegative().optional(),
    opId: z.string().optional(),
    /** Replay this recording instead of asking the model (self-healing where a step fails). */
    replay: AgentRecordingSchema.optional(),
    record: z.boolean().optional(),
    /** In the caller's own store, else the extension's (protocol/flows.ts). */
    saveAs: FlowNameSchema.optional().describe('the name a successful run is saved under as a flow, to replay later with no model'),
    /** Look the run up in the caller's cache (by instruction, start URL and configuration) and replay it on a hit; record it when computed. */
    cache: z.boolean().optional(),
    context: z.string().optional().describe('more for the model to know about the task'),
    waitBetweenActions: WaitMsSchema.optional().describe('a pause after each action'),
    autoScreenshot: z
      .boolean()
      .optional()
      .describe('whether every step sends a screenshot, whatever the mode (by default only hybrid and cua steps carry one)'),
    /** The caller's own tools (custom or from MCP servers), run on the client when the model calls them. */
    extraTools: z
      .array(z.object({ name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), description: z.string(), inputSchema: z.record(z.unknown()) }).strict())
      .optional(),
    /** Schemes the browser's operator opened for the agent's goto steps (see url-policy.ts). */
    allowSchemes: AllowSchemesSchema.optional(),
  })
  .strict();
export type AgentRunParams = z.infer<typeof AgentRunParamsSchema>;
