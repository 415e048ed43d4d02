/**
 * One structured model call: the prompt, a JSON Schema for the answer, optional
 * screenshots. Provider models go through a ProviderCaller (the ai SDK, see
 * provider-call.ts: in the extension it runs outside the service worker, so the
 * worker does not load the SDKs at every start); callback models go back to the
 * caller's Node process over the RPC. Every failure becomes a typed error that
 * names the model and the cause.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { redactSecrets } from '../protocol/redact';
import { ModelReplySchema, type ModelReply, type ModelRequest, type ResolvedModel } from '../protocol/model';
import { ZERO_USAGE, type Usage } from '../protocol/schemas';
import { localGenerate } from './local';

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
    m.apiKey,
    ...Object.values((m.headers as Record<string, string> | undefined) ?? {}),
    m.azure?.token,
    m.bedrock?.accessKeyId,
    m.bedrock?.secretAccessKey,
    m.bedrock?.sessionToken,
    m.vertex?.privateKey,
  ].filter((v): v is string => typeof v === 'string');
}

export type ProviderModel = Extract<ResolvedModel, { kind: 'provider' }>;

/**
 * Runs one provider model request and answers its object and usage, or throws a typed
 * DeckhandError (credentials scrubbed). `signal` aborts it: the call's deadline or its caller
 * giving up.
 */
export type ProviderCaller = (model: ProviderModel, req: ModelRequest, timeoutMs: number, signal: AbortSignal) => Promise<{ object: unknown; usage: Usage }>;

/** An error from a model call as a typed error naming the model, with any credential it echoed scrubbed out. */
export function typedModelError(e: unknown, model: ResolvedModel, timeoutMs: number): DeckhandError {
  const err = e as { name?: string; message?: string; cause?: unknown };
  const mapped =
    e instanceof DeckhandError
      ? e
      : err?.name === 'TimeoutError' || err?.name === 'AbortError' || (err?.cause as { name?: string })?.name === 'TimeoutError'
        ? new DeckhandError(ErrorCode.Timeout, `model '${model.name}' did not answer within ${timeoutMs} ms (the request was aborted)`, {
            model: model.name,
            timeoutMs,
          })
        : new DeckhandError(ErrorCode.ModelProviderError, `model '${model.name}' failed: ${err?.message ?? String(e)}`, { model: model.name });
  const message = redactSecrets(mapped.message, credentialsOf(model));
  return message === mapped.message ? mapped : new DeckhandError(mapped.code, message, mapped.data);
}

export async function callModel(
  model: ResolvedModel,
  req: ModelRequest,
  timeoutMs: number,
  invokeCallback: CallbackInvoker,
  providers: ProviderCaller | undefined,
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
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ');
        throw new DeckhandError(ErrorCode.ModelOutputInvalid, `callback model '${model.name}' must return { object, usage? }: ${issues}`);
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
    } else {
      if (!providers)
        throw new DeckhandError(ErrorCode.ModelProviderError, `model '${model.name}' cannot be called here: no provider transport`, { model: model.name });
      out = await providers(model, req, timeoutMs, signal);
    }
  } catch (e) {
    if (cancel?.aborted) throw new DeckhandError(ErrorCode.Cancelled, `the call to model '${model.name}' was cancelled by its caller`, { model: model.name });
    throw typedModelError(
      signal.aborted && !(e instanceof DeckhandError) ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : e,
      model,
      timeoutMs,
    );
  }
  // The local model takes well under a millisecond on small pages: keep the fraction.
  const ms = model.kind === 'local' ? Math.round((performance.now() - t0) * 1000) / 1000 : Math.round(performance.now() - t0);
  return { object: out.object, usage: { ...out.usage, inferenceTimeMs: ms }, confidence: out.confidence, startedAt, endedAt: Date.now() };
}
