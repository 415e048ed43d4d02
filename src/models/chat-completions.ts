/**
 * Chat Completions on servers other than OpenAI's own (llama.cpp, Ollama, LM Studio, vLLM and
 * the like), through the ai SDK's OpenAI-compatible provider. Each server takes a different
 * `response_format`, so the request is shaped per structured-output mode (protocol/model.ts):
 * `auto` starts with a strict JSON Schema and steps down when a server refuses the shape,
 * remembering per endpoint where it landed. Every request streams, so that an abandoned call
 * closes its connection and the server stops generating, and carries the operation's
 * output-token budget.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, jsonSchema, streamText, tool, type ModelMessage } from 'ai';
import type { ModelRequest, StructuredOutputMode } from '../protocol/model';
import type { ProviderModel } from './call';
import { opensAnswer } from './json-reply';

type Shape = Exclude<StructuredOutputMode, 'auto'>;

/** `auto`'s order, strongest first: each step down asks less of the server. */
const AUTO_ORDER: readonly Shape[] = ['json_schema_strict', 'json_schema', 'json_object', 'text'];

/** Where `auto` landed per endpoint and model, so that later calls skip the shapes it refused. */
const learned = new Map<string, Shape>();

const endpointOf = (m: ProviderModel) => `${(m.baseURL ?? '').trim().replace(/\/+$/, '').toLowerCase()} ${m.modelId}`;

/** The shapes to try for this model, in order. */
export function shapesFor(m: ProviderModel): Shape[] {
  const mode = m.structuredOutput ?? 'auto';
  if (mode !== 'auto') return [mode];
  const from = learned.get(endpointOf(m));
  return from ? AUTO_ORDER.slice(AUTO_ORDER.indexOf(from)) : [...AUTO_ORDER];
}

/** Forgets what `auto` learned (tests, or a server swapped under the same address). */
export function forgetLearnedShapes(): void {
  learned.clear();
}

/** Whether a failure is the server refusing the request's `response_format` (so a weaker shape may do). */
export function refusesShape(e: unknown): boolean {
  if (!APICallError.isInstance(e)) return false;
  const status = e.statusCode ?? 0;
  if (status < 400 || [401, 403, 404, 408, 429].includes(status)) return false;
  return /response_format|json_schema|json_object|structured output|grammar/i.test(`${e.responseBody ?? ''}\n${e.message}`);
}

/** Said to the model when the server cannot hold it to the schema itself. */
const schemaInPrompt = (schema: Record<string, unknown>) =>
  `\n\nAnswer with one JSON object and nothing else (no prose, no code fence). It must follow this JSON Schema:\n${JSON.stringify(schema)}`;

/** The request body for one shape: the SDK builds it, this sets its response_format. */
function shapeBody(shape: Shape, schema: Record<string, unknown>) {
  return (body: Record<string, unknown>): Record<string, unknown> => {
    const { response_format: _dropped, ...rest } = body;
    switch (shape) {
      case 'json_schema_strict':
        return { ...rest, response_format: { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema } } };
      case 'json_schema':
        return { ...rest, response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } };
      case 'json_object':
        // The schema beside the type: llama.cpp-class servers turn it into a grammar; others ignore it.
        return { ...rest, response_format: { type: 'json_object', schema } };
      default:
        return rest;
    }
  };
}

export interface ChatReply {
  /** The reply's text (a tool call's arguments in `tool` mode). */
  raw: string;
  usage: { inputTokens?: number; outputTokens?: number; reasoningTokens?: number; cachedInputTokens?: number };
  shape: Shape;
}

/**
 * Watches a reply's text for the end of its first JSON value (brackets balanced outside
 * strings). A model that goes on after its answer (prose, another object, whitespace a grammar
 * allows) is stopped there rather than left to spend the rest of the budget.
 */
export function jsonEndWatcher(opens: RegExp = /[{[]/): (chunk: string) => boolean {
  let depth = 0;
  let started = false;
  let inString = false;
  let escaped = false;
  return (chunk) => {
    for (const ch of chunk) {
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = started;
      else if ((ch === '{' || ch === '[') && (started || opens.test(ch))) {
        started = true;
        depth++;
      } else if ((ch === '}' || ch === ']') && started && --depth === 0) return true;
    }
    return false;
  };
}

/** One streamed request in one shape; `accepted` is called when the server starts answering. */
async function generate(m: ProviderModel, req: ModelRequest, shape: Shape, outer: AbortSignal, accepted: () => void): Promise<ChatReply> {
  // Ours to stop the stream once the answer is complete; the caller's to stop it any time.
  const enough = new AbortController();
  const signal = AbortSignal.any([outer, enough.signal]);
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: m.baseURL ?? '',
    apiKey: m.apiKey,
    headers: m.headers,
    includeUsage: true,
    transformRequestBody: shapeBody(shape, req.schema),
  });
  const prompt = shape === 'json_object' || shape === 'text' ? req.prompt + schemaInPrompt(req.schema) : req.prompt;
  // Text-only servers drop array content: a request without images sends plain text.
  const content: ModelMessage['content'] = req.images.length
    ? [{ type: 'text', text: prompt }, ...req.images.map((img) => ({ type: 'image' as const, image: img.data, mediaType: img.mimeType }))]
    : prompt;
  const tools = shape === 'tool' ? { answer: tool({ description: 'Give the answer.', inputSchema: jsonSchema(req.schema as never) }) } : undefined;
  const stream = streamText({
    model: provider.chatModel(m.modelId),
    system: req.system,
    messages: [{ role: 'user', content } as ModelMessage],
    maxOutputTokens: req.maxOutputTokens,
    abortSignal: signal,
    maxRetries: 0,
    ...(tools ? { tools, toolChoice: { type: 'tool' as const, toolName: 'answer' as const } } : {}),
    onError: () => undefined, // read from the stream below
  });
  let text = '';
  let args = '';
  let usage: ChatReply['usage'] = {};
  const ends = jsonEndWatcher(opensAnswer(req.schema));
  let complete = false;
  for await (const part of stream.fullStream) {
    if (part.type === 'text-delta' || part.type === 'tool-input-delta') {
      accepted();
      // More after the answer (text, or a tool call's arguments going on): stop there. The finish
      // and usage events of a reply that ends come on their own.
      if (complete) {
        enough.abort();
        break;
      }
      const chunk = part.type === 'text-delta' ? part.text : part.delta;
      if (part.type === 'text-delta') text += chunk;
      else args += chunk;
      // A tool call's arguments are one object; the text beside them is not watched.
      if ((shape === 'tool') === (part.type === 'tool-input-delta')) complete = ends(chunk);
    } else if (part.type === 'tool-call' && !args) args = JSON.stringify(part.input);
    else if (part.type === 'error') {
      // Arguments the SDK could not take as the tool's input are still the reply, read and checked like any other.
      if (shape === 'tool' && args && !APICallError.isInstance(part.error)) continue;
      throw part.error;
    } else if (part.type === 'finish') {
      const u = part.totalUsage;
      usage = {
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        reasoningTokens: u.outputTokenDetails?.reasoningTokens ?? u.reasoningTokens,
        cachedInputTokens: u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens,
      };
    }
  }
  if (outer.aborted) throw outer.reason instanceof Error ? outer.reason : Object.assign(new Error('aborted'), { name: 'AbortError' });
  return { raw: shape === 'tool' ? args || text : text, usage, shape };
}

/**
 * The model's raw reply, in the strongest shape the endpoint takes. A refusal of the shape
 * steps down (in `auto`) and is remembered; any other failure is the caller's to type.
 */
export async function chatCompletion(m: ProviderModel, req: ModelRequest, signal: AbortSignal): Promise<ChatReply> {
  const shapes = shapesFor(m);
  for (const [i, shape] of shapes.entries()) {
    try {
      // The shape is learned once the server takes it, even if this call ends before its answer does.
      return await generate(m, req, shape, signal, () => {
        if ((m.structuredOutput ?? 'auto') === 'auto') learned.set(endpointOf(m), shape);
      });
    } catch (e) {
      if (i === shapes.length - 1 || signal.aborted || !refusesShape(e)) throw e;
    }
  }
  throw new Error('unreachable: no structured-output shape to try');
}
