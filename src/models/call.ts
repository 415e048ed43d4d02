/**
 * One structured model call: the prompt, a JSON Schema for the answer, optional
 * screenshots. Provider models go through the ai SDK; callback models go back to
 * the caller's Node process over the RPC. Every failure becomes a typed error
 * that names the model and the cause.
 */
import { APICallError, generateText, jsonSchema, NoObjectGeneratedError, Output, type LanguageModel, type ModelMessage } from 'ai';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { redactSecrets } from '../protocol/redact';
import { ModelReplySchema, type ModelReply, type ModelRequest, type ResolvedModel } from '../protocol/model';
import { ZERO_USAGE, type Usage } from '../protocol/schemas';
import { localGenerate } from './local';
import { languageModelFor } from './providers';

export interface ModelCallResult {
  object: unknown;
  usage: Usage;
  /** The local model's confidence in its answer (0 to 1). */
  confidence?: number;
  /** Wall time of the call, also in usage.inferenceTimeMs. */
  startedAt: number;
  endedAt: number;
}

/** How the worker reaches a caller's callback model. */
export type CallbackInvoker = (callbackId: string, request: ModelRequest, timeoutMs: number) => Promise<unknown>;

const n = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The secret values a resolved model carries (its key, its headers, its signing material). */
function credentialsOf(model: ResolvedModel): string[] {
  if (model.kind !== 'provider') return [];
  const m = model as Record<string, any>;
  return [
    m.apiKey, ...Object.values((m.headers as Record<string, string> | undefined) ?? {}), m.azure?.token,
    m.bedrock?.accessKeyId, m.bedrock?.secretAccessKey, m.bedrock?.sessionToken, m.vertex?.privateKey,
  ].filter((v): v is string => typeof v === 'string');
}

/** A provider failure as a typed error, with any credential the provider echoed scrubbed out. */
export function mapModelError(e: unknown, model: ResolvedModel, timeoutMs: number): DeckhandError {
  const mapped = mapModelErrorRaw(e, model, timeoutMs);
  const message = redactSecrets(mapped.message, credentialsOf(model));
  return message === mapped.message ? mapped : new DeckhandError(mapped.code, message, mapped.data);
}

function mapModelErrorRaw(e: unknown, model: ResolvedModel, timeoutMs: number): DeckhandError {
  if (e instanceof DeckhandError) return e;
  const name = `model '${model.name}'`;
  const err = e as { name?: string; message?: string; cause?: unknown };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || (err?.cause as { name?: string })?.name === 'TimeoutError') {
    return new DeckhandError(ErrorCode.Timeout, `${name} did not answer within ${timeoutMs} ms (the request was aborted)`, { model: model.name, timeoutMs });
  }
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const detail = (e.message || '').slice(0, 300);
    if (status === 401 || status === 403) return new DeckhandError(ErrorCode.ModelAuthFailed, `${name} rejected the credentials (HTTP ${status}): ${detail}`, { model: model.name, status });
    if (status === 429) return new DeckhandError(ErrorCode.ModelRateLimited, `${name} is rate limited (HTTP 429): ${detail}`, { model: model.name, status });
    if (status !== undefined) return new DeckhandError(ErrorCode.ModelProviderError, `${name} failed with HTTP ${status}: ${detail}`, { model: model.name, status });
    return new DeckhandError(ErrorCode.ModelUnreachable, `${name} could not be reached: ${detail}`, { model: model.name });
  }
  if (err?.name === 'TypeError' && /fetch/i.test(err.message ?? '')) {
    return new DeckhandError(ErrorCode.ModelUnreachable, `${name} could not be reached: ${err.message}`, { model: model.name });
  }
  if (NoObjectGeneratedError.isInstance(e)) {
    return new DeckhandError(ErrorCode.ModelOutputInvalid, `${name} did not return valid JSON for the requested schema: ${e.message}`, { model: model.name });
  }
  return new DeckhandError(ErrorCode.ModelProviderError, `${name} failed: ${err?.message ?? String(e)}`, { model: model.name });
}

/**
 * Builds the ai SDK model for a resolved provider model; tests swap in the SDK's mock models.
 * May be async: the real one loads the provider's package on first use.
 */
export type LanguageModelFactory = (model: Extract<ResolvedModel, { kind: 'provider' }>) => LanguageModel | Promise<LanguageModel>;

async function callProvider(
  model: Extract<ResolvedModel, { kind: 'provider' }>,
  req: ModelRequest,
  signal: AbortSignal,
  factory: LanguageModelFactory,
): Promise<{ object: unknown; usage: Usage }> {
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
}

export async function callModel(
  model: ResolvedModel,
  req: ModelRequest,
  timeoutMs: number,
  invokeCallback: CallbackInvoker,
  factory: LanguageModelFactory = languageModelFor,
  cancel?: AbortSignal,
): Promise<ModelCallResult> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  let out: { object: unknown; usage: Usage; confidence?: number };
  try {
    if (model.kind === 'local') {
      const r = localGenerate(req);
      out = { object: r.object, usage: { ...ZERO_USAGE }, confidence: r.confidence };
    } else if (model.kind === 'callback') {
      const raw = await invokeCallback(model.callbackId, { ...req, timeoutMs }, timeoutMs);
      const parsed = ModelReplySchema.safeParse(raw);
      if (!parsed.success) {
        throw new DeckhandError(ErrorCode.ModelOutputInvalid, `callback model '${model.name}' must return { object, usage? }: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ')}`);
      }
      const reply: ModelReply = parsed.data;
      out = {
        object: reply.object,
        usage: {
          inputTokens: n(reply.usage?.inputTokens),
          outputTokens: n(reply.usage?.outputTokens),
          reasoningTokens: n(reply.usage?.reasoningTokens),
          cachedInputTokens: n(reply.usage?.cachedInputTokens),
          inferenceTimeMs: 0,
        },
      };
    } else out = await callProvider(model, req, signal, factory);
  } catch (e) {
    if (cancel?.aborted) throw new DeckhandError(ErrorCode.Cancelled, `the call to model '${model.name}' was cancelled by its caller`, { model: model.name });
    throw mapModelError(signal.aborted && !(e instanceof DeckhandError) ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : e, model, timeoutMs);
  }
  // The local model takes well under a millisecond on small pages: keep the fraction.
  const ms = model.kind === 'local' ? Math.round((performance.now() - t0) * 1000) / 1000 : Math.round(performance.now() - t0);
  return { object: out.object, usage: { ...out.usage, inferenceTimeMs: ms }, confidence: out.confidence, startedAt, endedAt: Date.now() };
}

