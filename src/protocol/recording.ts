/**
 * The manual QA recording the side panel keeps and exports, and that named flows (flows.ts)
 * carry: what the person asked for and what was actually performed, step by step.
 */
import { z } from 'zod';
import { ActionSchema } from './schemas';

/** One step of a manual QA recording: what the person asked for and what was actually performed. */
export const QaStepSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('goto'), id: z.string(), description: z.string(), url: z.string(), urlAfter: z.string() }).strict(),
  /** Actions performed for an instruction (act, an observed action that was run, an agent's act step). */
  z
    .object({ kind: z.literal('act'), id: z.string(), description: z.string(), actions: z.array(ActionSchema).min(1), urlAfter: z.string() })
    .strict(),
  /** Keys pressed on whatever had focus (the agent's press tool). */
  z.object({ kind: z.literal('press'), id: z.string(), description: z.string(), keys: z.string(), urlAfter: z.string() }).strict(),
  z.object({ kind: z.literal('back'), id: z.string(), description: z.string(), urlAfter: z.string() }).strict(),
  z.object({ kind: z.literal('wait'), id: z.string(), description: z.string(), ms: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }).strict(),
  /** Data pulled out of the page; exported scripts extract again, Playwright tests cannot. */
  z
    .object({ kind: z.literal('extract'), id: z.string(), description: z.string(), schema: z.record(z.unknown()).optional(), data: z.unknown(), urlAfter: z.string() })
    .strict(),
]);
export type QaStep = z.infer<typeof QaStepSchema>;

export const QaRecordingSchema = z
  .object({
    version: z.literal(1),
    title: z.string(),
    /** The page the recording starts on. */
    startUrl: z.string(),
    steps: z.array(QaStepSchema),
  })
  .strict();
export type QaRecording = z.infer<typeof QaRecordingSchema>;
