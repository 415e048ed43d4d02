/**
 * Wire shapes between the service worker and the offscreen document, which runs provider
 * model requests (the ai SDK and its provider packages) so the worker does not load them at
 * every start. The document connects a chrome.runtime port; the worker calls over it.
 */
import { z } from 'zod';
import { ModelRequestSchema, ProviderModelSchema } from './model';
import { UsageSchema } from './schemas';

/** The chrome.runtime port name the offscreen document connects with. */
export const OFFSCREEN_PORT = 'deckhand-offscreen';
/** The document's path in the extension. */
export const OFFSCREEN_PATH = 'offscreen.html';

export const OffscreenMethods = {
  /** One provider request, named by `id` so model.cancel can stop it. */
  'model.call': {
    params: z.object({ id: z.string().min(1), model: ProviderModelSchema, request: ModelRequestSchema, timeoutMs: z.number().int().positive() }).strict(),
    result: z.object({ object: z.unknown(), usage: UsageSchema }),
  },
  /** Abort a request in flight (its caller gave up). */
  'model.cancel': { params: z.object({ id: z.string().min(1) }).strict(), result: z.object({ cancelled: z.boolean() }) },
};
