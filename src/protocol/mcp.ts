/**
 * The MCP server's tools: each tool's arguments and structured result, as the raw zod
 * shapes the MCP SDK takes. Tools without arguments have an empty input shape.
 */
import { z } from 'zod';
import { ActionSchema, CacheStatusSchema, UsageSchema, VariablesSchema } from './schemas';
import { FlowNameSchema, FlowStepOutcomeSchema, FlowSummarySchema } from './flows';
import { ApprovalPolicySchema } from './approval';

/** What the call's model usage cost, in US dollars, as results' metadata.costUsd (absent when the model's price is unknown). */
const costUsd = z.number().nonnegative().optional();

export const McpTools = {
  start: { input: {}, output: { sessionId: z.string(), reused: z.boolean() } },
  end: { input: {}, output: { ended: z.boolean() } },
  navigate: {
    input: { url: z.string().describe('the absolute URL to open, e.g. https://example.com') },
    output: { url: z.string(), title: z.string() },
  },
  act: {
    input: {
      action: z.string().min(1).describe('one action in plain language'),
      approval: ApprovalPolicySchema.optional().describe(
        'risky steps wait for the user to approve them (asked through the host when it supports elicitation); the server may require it anyway',
      ),
    },
    /** `cache`: HIT, MISS or DISABLED (HIT: replayed from the cache, no model call). */
    output: { success: z.boolean(), message: z.string(), actions: z.array(ActionSchema), cache: CacheStatusSchema, costUsd },
  },
  observe: {
    input: { instruction: z.string().min(1).describe('what to look for, e.g. "the buttons that delete a row"') },
    output: { elements: z.array(ActionSchema), costUsd },
  },
  extract: {
    input: { instruction: z.string().optional().describe('what to read, e.g. "the price of the first product"') },
    output: { extraction: z.string(), costUsd },
  },
  agent: {
    input: {
      instruction: z.string().min(1).describe('the whole task, e.g. "log in as ada with password x, then open Settings"'),
      maxSteps: z.number().int().min(1).max(50).optional().describe('at most this many steps (default 20)'),
      approval: ApprovalPolicySchema.optional().describe('risky steps (submit, delete, pay, leave-site, upload, your words) wait for the user to approve them'),
    },
    /** `steps`: each tool call as the agent ran it, with what it returned. */
    output: {
      success: z.boolean(),
      completed: z.boolean(),
      message: z.string(),
      steps: z.array(z.object({ type: z.string(), action: z.record(z.unknown()), result: z.string().optional() })),
      costUsd,
    },
  },
  replay: {
    input: {
      name: FlowNameSchema.describe('the saved flow to replay, e.g. "checkout" (this key\'s flows first, then those saved in the browser\'s side panel)'),
      variables: VariablesSchema.optional().describe('values for the %name% placeholders in the flow, e.g. { "email": "ada@example.com" }'),
      selfHeal: z
        .boolean()
        .optional()
        .describe("let the session's model re-find a step whose element is gone or changed (default false: such a step stops the replay)"),
    },
    /** `steps`: what each recorded step did (done, or healed: its element had moved). */
    output: { name: z.string(), url: z.string(), steps: z.array(FlowStepOutcomeSchema), usage: UsageSchema },
  },
  flows: {
    input: {},
    output: { flows: z.array(FlowSummarySchema) },
  },
} as const satisfies Record<string, { input: z.ZodRawShape; output: z.ZodRawShape }>;
export type McpToolName = keyof typeof McpTools;
