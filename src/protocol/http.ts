/**
 * The HTTP service's request shapes (`/v1/...`). Responses are the library's own
 * results wrapped as { success: true, data }, and every failure is
 * { success: false, error: { code, message } }.
 */
import { z } from 'zod';
import { CacheCallOptionSchema } from './cache';
import { ModelConfigSchema } from './model';
import { ActionSchema, GotoOptionsSchema, LocatorSpecSchema, TimeoutMsSchema, VariablesSchema, WaitMsSchema } from './schemas';

/** A model by name or as a ModelConfig (callbacks cannot cross HTTP). */
export const HttpModelSchema = z.union([z.string().min(1), z.record(z.unknown())]);

export const StartSessionRequestSchema = z
  .object({
    model: HttpModelSchema.optional(),
    viewport: z.object({ width: z.number().int().min(100).max(8000), height: z.number().int().min(100).max(8000) }).strict().optional(),
    headless: z.boolean().optional(),
    domSettleTimeoutMs: WaitMsSchema.optional(),
    selfHeal: z.boolean().optional(),
    systemPrompt: z.string().optional(),
    /** A remote Chromium (with the extension) instead of a local one. */
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
export const ActRequestSchema = z.object({ input: z.union([z.string().min(1), ActionSchema]), ...common, ...opOptions }).strict();
export const ObserveRequestSchema = z.object({ instruction: z.string().optional(), ...common, ...opOptions }).strict();
export const ExtractRequestSchema = z
  .object({ instruction: z.string().optional(), schema: z.record(z.unknown()).optional(), ...common, ...opOptions })
  .strict();
export const EndRequestSchema = z.object({ streamResponse: z.boolean().optional() }).strict();

export const ModelConfigInputSchema = ModelConfigSchema;

/** One Server-Sent Event's JSON payload. */
export const StreamEventSchema = z.object({
  id: z.number().int(),
  status: z.enum(['starting', 'connected', 'running', 'finished', 'error']),
  message: z.string().optional(),
  data: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type StreamEvent = z.infer<typeof StreamEventSchema>;
