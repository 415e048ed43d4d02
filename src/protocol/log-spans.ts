/**
 * Structured log lines: besides its text, an operation's log line (ClientMethods.log) may carry
 * one of these in `data`, which clients turn into telemetry spans and streamed agent steps.
 * Their names and shapes are declared here once, for the engine that sends them and every
 * client that reads them.
 */
import { z } from 'zod';
import { AgentStepSchema } from './agent';

/** One model call, with its real times (the client records it as a child span of its operation). */
export const ModelCallSpanSchema = z.object({
  span: z.literal('model-call'),
  opId: z.string().optional(),
  model: z.string(),
  startedAt: z.number(),
  endedAt: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
});
/** One agent step as it finished (variables shown by name only). */
export const AgentStepSpanSchema = z.object({ span: z.literal('agent-step'), opId: z.string().optional(), step: AgentStepSchema });
export const LogSpanSchema = z.discriminatedUnion('span', [ModelCallSpanSchema, AgentStepSpanSchema]);
export type ModelCallSpan = z.infer<typeof ModelCallSpanSchema>;
export type AgentStepSpan = z.infer<typeof AgentStepSpanSchema>;
export type LogSpan = z.infer<typeof LogSpanSchema>;

/** The span a log line's data carries, or undefined for a plain line (or one of another version). */
export function spanOf(data: unknown): LogSpan | undefined {
  const r = LogSpanSchema.safeParse(data);
  return r.success ? r.data : undefined;
}
