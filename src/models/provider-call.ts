/**
 * Provider models through the ai SDK: one structured request (prompt, screenshots, a JSON
 * Schema for the answer), its usage, and every provider failure as a typed error. In the
 * extension this runs in the offscreen document (entrypoints/offscreen), where each
 * provider's package loads on first use; tests run it in-process with the SDK's mock models.
 */
import { APICallError, generateText, jsonSchema, NoObjectGeneratedError, Output, type LanguageModel, type ModelMessage } from 'ai';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { ModelRequest, ResolvedModel } from '../protocol/model';
import type { Usage } from '../protocol/schemas';
import { typedModelError, type ProviderCaller, type ProviderModel } from './call';
import { languageModelFor } from './providers';

/**
 * Builds the ai SDK model for a resolved provider model; tests swap in the SDK's mock models.
 * May be async: the real one loads the provider's package on first use.
 */
export type LanguageModelFactory = (model: ProviderModel) => LanguageModel | Promise<LanguageModel>;

const n = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** A provider failure as a typed error, with any credential the provider echoed scrubbed out. */
export function mapModelError(e: unknown, model: ResolvedModel, timeoutMs: number): DeckhandError {
  return typedModelError(classify(e, model), model, timeoutMs);
}

/** What the ai SDK's own errors mean, as typed errors; anything else is left to typedModelError. */
function classify(e: unknown, model: ResolvedModel): unknown {
  const name = `model '${model.name}'`;
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const detail = (e.message || '').slice(0, 300);
    if (status === 401 || status === 403) return new DeckhandError(ErrorCode.ModelAuthFailed, `${name} rejected the credentials (HTTP ${status}): ${detail}`, { model: model.name, status });
    if (status === 429) return new DeckhandError(ErrorCode.ModelRateLimited, `${name} is rate limited (HTTP 429): ${detail}`, { model: model.name, status });
    if (status !== undefined) return new DeckhandError(ErrorCode.ModelProviderError, `${name} failed with HTTP ${status}: ${detail}`, { model: model.name, status });
    return new DeckhandError(ErrorCode.ModelUnreachable, `${name} could not be reached: ${detail}`, { model: model.name });
  }
  const err = e as { name?: string; message?: string };
  if (err?.name === 'TypeError' && /fetch/i.test(err.message ?? '')) {
    return new DeckhandError(ErrorCode.ModelUnreachable, `${name} could not be reached: ${err.message}`, { model: model.name });
  }
  if (NoObjectGeneratedError.isInstance(e)) {
    return new DeckhandError(ErrorCode.ModelOutputInvalid, `${name} did not return valid JSON for the requested schema: ${e.message}`, { model: model.name });
  }
  return e;
}

/** The ProviderCaller that runs the ai SDK here, with `factory` building the SDK model. */
export function providerCaller(factory: LanguageModelFactory = languageModelFor): ProviderCaller {
  return async (model: ProviderModel, req: ModelRequest, timeoutMs: number, signal: AbortSignal): Promise<{ object: unknown; usage: Usage }> => {
    try {
      const content: Exclude<ModelMessage['content'], string> = [{ type: 'text', text: req.prompt }];
      for (const img of req.images) (content as { type: string }[]).push({ type: 'image', image: img.data, mediaType: img.mimeType } as never);
      const languageModel = await factory(model);
      const r = await generateText({
        model: languageModel,
        system: req.system,
        messages: [{ role: 'user', content } as ModelMessage],
        output: Output.object({ schema: jsonSchema(req.schema as never) }),
        abortSignal: signal,
        maxRetries: 0,
      });
      const u = r.usage;
      return {
        object: r.output,
        usage: {
          inputTokens: n(u.inputTokens),
          outputTokens: n(u.outputTokens),
          reasoningTokens: n(u.outputTokenDetails?.reasoningTokens ?? u.reasoningTokens),
          cachedInputTokens: n(u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens),
          inferenceTimeMs: 0,
        },
      };
    } catch (e) {
      // An abort is the caller's deadline or its giving up: callModel says which.
      if (signal.aborted && !(e instanceof DeckhandError)) throw e;
      throw mapModelError(e, model, timeoutMs);
    }
  };
}
