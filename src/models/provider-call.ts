/**
 * Provider models through the ai SDK: one structured request (prompt, screenshots, a JSON
 * Schema for the answer, an output-token budget), its usage, and every provider failure as a
 * typed error that names the URL that failed and the setting that fixes it. Chat Completions
 * on servers other than OpenAI's go through chat-completions.ts (shapes that degrade,
 * streaming); every other endpoint through the SDK's own structured output. In the extension
 * this runs in the offscreen document (entrypoints/offscreen), where each provider's package
 * loads on first use; tests run it in-process with the SDK's mock models.
 */
import { APICallError, generateText, jsonSchema, NoObjectGeneratedError, Output, type LanguageModel, type ModelMessage } from 'ai';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { ModelRequest, ResolvedModel } from '../protocol/model';
import type { Usage } from '../protocol/schemas';
import { clip } from '../protocol/text';
import { typedModelError, type ProviderCaller, type ProviderModel } from './call';
import { chatCompletion, refusesShape } from './chat-completions';
import { readJson, replyExcerpt, schemaProblem, withNulls } from './json-reply';
import { languageModelFor, usesCompatibleChat } from './providers';

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

/** What a server said went wrong: its error's message, a Python traceback's last line, else the start of the body. */
function detailOf(e: APICallError): string {
  const body = e.responseBody ?? '';
  let said = e.message || '';
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.detail ?? j.message);
    if (m !== undefined) said = typeof m === 'string' ? m : JSON.stringify(m);
  } catch {
    if (/Traceback \(most recent call last\)/.test(body))
      said =
        body
          .trim()
          .split('\n')
          .filter((l) => l.trim())
          .at(-1)
          ?.trim() ?? said;
    else if (body.trim() && !said) said = body.trim();
  }
  return clip(said.replace(/\s+/g, ' ').trim(), 300);
}

/** The path of a request URL, for messages (never its query, which may carry a key). */
const pathOf = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split('?')[0];
  }
};

/** The setting that fixes a failure, when one does. */
function fixFor(e: APICallError, model: ResolvedModel): string {
  const path = pathOf(e.url);
  if (e.statusCode === 404 && /\/responses$/.test(path)) return "; this server has no Responses API: set openaiEndpointFormat: 'chat'";
  if (e.statusCode === 404 && /\/chat\/completions$/.test(path)) return "; check baseURL: it is the server's OpenAI-compatible root, which usually ends in /v1";
  if (refusesShape(e)) {
    const forced = model.kind === 'provider' && model.structuredOutput && model.structuredOutput !== 'auto';
    return `; the server refused the request's response_format: set structuredOutput to ${forced ? "'auto' or " : ''}'json_object' or 'text'`;
  }
  return '';
}

/** What the ai SDK's own errors mean, as typed errors; anything else is left to typedModelError. */
function classify(e: unknown, model: ResolvedModel): unknown {
  const name = `model '${model.name}'`;
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const at = `POST ${pathOf(e.url)}`;
    const detail = detailOf(e);
    const data = { model: model.name, status, url: pathOf(e.url) };
    if (status === 401 || status === 403)
      return new DeckhandError(ErrorCode.ModelAuthFailed, `${name} rejected the credentials (HTTP ${status} at ${at}): ${detail}`, data);
    if (status === 429) return new DeckhandError(ErrorCode.ModelRateLimited, `${name} is rate limited (HTTP 429 at ${at}): ${detail}`, data);
    if (status !== undefined)
      return new DeckhandError(ErrorCode.ModelProviderError, `${name} failed with HTTP ${status} at ${at}: ${detail}${fixFor(e, model)}`, data);
    return new DeckhandError(ErrorCode.ModelUnreachable, `${name} could not be reached at ${pathOf(e.url)}: ${detail}`, {
      model: model.name,
      url: pathOf(e.url),
    });
  }
  const err = e as { name?: string; message?: string };
  if (err?.name === 'TypeError' && /fetch/i.test(err.message ?? '')) {
    return new DeckhandError(ErrorCode.ModelUnreachable, `${name} could not be reached: ${err.message}`, { model: model.name });
  }
  if (NoObjectGeneratedError.isInstance(e)) {
    const said = `${name} did not return valid JSON for the requested schema: ${e.message}; its reply began ${replyExcerpt(e.text ?? '')}`;
    return new DeckhandError(ErrorCode.ModelOutputInvalid, said, { model: model.name });
  }
  return e;
}

/** Whether the model reads images: named providers do; an OpenAI-compatible server only when its config says so. */
const readsImages = (m: ProviderModel) => m.vision ?? m.provider !== 'openai-compatible';

/** The object in a raw reply, checked against the request's schema; a typed error showing the reply when it is not there. */
function objectOf(raw: string, req: ModelRequest, model: ProviderModel): unknown {
  const read = readJson(raw, req.schema);
  const value = 'value' in read ? withNulls(read.value, req.schema) : undefined;
  const problem = 'problem' in read ? read.problem : schemaProblem(value, req.schema);
  if (problem === null) return value;
  const said = `model '${model.name}' gave an answer that does not fit the schema (${problem}); its reply began ${replyExcerpt(raw)}`;
  throw new DeckhandError(ErrorCode.ModelOutputInvalid, said, { model: model.name });
}

const usageOf = (u: { inputTokens?: number; outputTokens?: number; reasoningTokens?: number; cachedInputTokens?: number }): Usage => ({
  inputTokens: n(u.inputTokens),
  outputTokens: n(u.outputTokens),
  reasoningTokens: n(u.reasoningTokens),
  cachedInputTokens: n(u.cachedInputTokens),
  inferenceTimeMs: 0,
});

/** The ProviderCaller that runs the ai SDK here, with `factory` building the SDK model. */
export function providerCaller(factory: LanguageModelFactory = languageModelFor): ProviderCaller {
  return async (model: ProviderModel, req: ModelRequest, timeoutMs: number, signal: AbortSignal): Promise<{ object: unknown; usage: Usage }> => {
    try {
      if (req.images.length && !readsImages(model)) {
        throw new DeckhandError(
          ErrorCode.InvalidArgument,
          `model '${model.name}' is not declared able to read images, and this call sends a screenshot: ` +
            "set vision: true in its ModelConfig if it reads them, or leave screenshots out (an agent's mode 'dom')",
          { model: model.name },
        );
      }
      // A factory of a test's own builds every model itself, this path included.
      if (usesCompatibleChat(model) && factory === languageModelFor) {
        const reply = await chatCompletion(model, req, signal);
        return { object: objectOf(reply.raw, req, model), usage: usageOf(reply.usage) };
      }
      const content: ModelMessage['content'] = req.images.length
        ? [{ type: 'text', text: req.prompt }, ...req.images.map((img) => ({ type: 'image' as const, image: img.data, mediaType: img.mimeType }))]
        : req.prompt;
      const languageModel = await factory(model);
      const r = await generateText({
        model: languageModel,
        system: req.system,
        messages: [{ role: 'user', content } as ModelMessage],
        output: Output.object({ schema: jsonSchema(req.schema as never) }),
        maxOutputTokens: req.maxOutputTokens,
        abortSignal: signal,
        maxRetries: 0,
      });
      const u = r.usage;
      return {
        object: r.output,
        usage: usageOf({
          inputTokens: u.inputTokens,
          outputTokens: u.outputTokens,
          reasoningTokens: u.outputTokenDetails?.reasoningTokens ?? u.reasoningTokens,
          cachedInputTokens: u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens,
        }),
      };
    } catch (e) {
      // An abort is the caller's deadline or its giving up: callModel says which.
      if (signal.aborted && !(e instanceof DeckhandError)) throw e;
      throw mapModelError(e, model, timeoutMs);
    }
  };
}
