/**
 * Model configuration. A model is a `provider/model` name, one of the four
 * ModelConfig shapes, or a caller's generation callback. Node resolves any of
 * them (keys from the config or the provider's usual environment variable) into a
 * ResolvedModel sent with each call; the worker never stores it.
 */
import { z } from 'zod';
import { PageToolSchema } from './page-tools';

export const OPENAI_ENDPOINT_FORMATS = ['responses', 'chat'] as const;
// Named schemas so the generated Python and Go clients get these lists as named types, not copies.
export const OpenAIEndpointFormatSchema = z.enum(OPENAI_ENDPOINT_FORMATS);

/**
 * How a Chat Completions endpoint is asked for JSON, strongest first. `auto` starts at the top and
 * steps down when a server refuses a `response_format` (remembered per endpoint); the others force
 * one shape: `json_schema_strict` and `json_schema` (OpenAI's, strict or not), `json_object` (with
 * the schema beside it and in the prompt, as llama.cpp-class servers take it), `text` (the schema
 * in the prompt, the JSON read out of the reply), `tool` (one forced function call).
 */
export const STRUCTURED_OUTPUT_MODES = ['auto', 'json_schema_strict', 'json_schema', 'json_object', 'text', 'tool'] as const;
export type StructuredOutputMode = (typeof STRUCTURED_OUTPUT_MODES)[number];
export const StructuredOutputModeSchema = z.enum(STRUCTURED_OUTPUT_MODES);

const endpointSettings = {
  /** Default: the Responses API on OpenAI's own endpoint, Chat Completions on any other baseURL. */
  openaiEndpointFormat: OpenAIEndpointFormatSchema.optional(),
  structuredOutput: StructuredOutputModeSchema.optional(),
  /** Whether the model reads images (screenshots); default true for the named providers, false on an OpenAI-compatible server. */
  vision: z.boolean().optional(),
};

/** Generic: any `provider/model` name, or any OpenAI-compatible endpoint through baseURL. */
export const GenericModelConfigSchema = z
  .object({
    modelName: z.string().min(1, 'modelName must not be empty'),
    apiKey: z.string().min(1).optional(),
    baseURL: z.string().url().optional(),
    headers: z.record(z.string()).optional(),
    ...endpointSettings,
    provider: z.string().min(1).optional(),
  })
  .strict();

/** A Google service account key: camelCase, or the JSON key file's own snake_case fields. */
export const ServiceAccountSchema = z.union([
  z.object({ clientEmail: z.string().min(1), privateKey: z.string().min(1), privateKeyId: z.string().optional() }).strict(),
  z.object({ client_email: z.string().min(1), private_key: z.string().min(1), private_key_id: z.string().optional() }).passthrough(),
]);

export const VertexModelConfigSchema = z
  .object({
    provider: z.literal('vertex'),
    modelName: z.string().min(1),
    auth: ServiceAccountSchema,
    providerOptions: z
      .object({
        vertex: z
          .object({
            project: z.string().min(1),
            location: z.string().min(1),
            baseURL: z.string().url().optional(),
            headers: z.record(z.string()).optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

const azureCommon = {
  provider: z.literal('azure'),
  /** The deployment name. */
  modelName: z.string().min(1),
  resourceName: z.string().min(1).optional(),
  baseURL: z.string().url().optional(),
  apiVersion: z.string().min(1).optional(),
  headers: z.record(z.string()).optional(),
};

export const AzureApiKeyModelConfigSchema = z.object({ ...azureCommon, apiKey: z.string().min(1) }).strict();

export const AzureEntraModelConfigSchema = z
  .object({
    ...azureCommon,
    auth: z.object({ type: z.literal('azureEntraId'), token: z.string().min(1, 'the Entra ID token must be at least 1 character') }).strict(),
  })
  .strict();

export const ModelConfigSchema = z.union([VertexModelConfigSchema, AzureEntraModelConfigSchema, AzureApiKeyModelConfigSchema, GenericModelConfigSchema]);
export type ModelConfig = z.infer<typeof ModelConfigSchema>;
export type GenericModelConfig = z.infer<typeof GenericModelConfigSchema>;

/**
 * A model as a remote caller names it (HTTP, agent configs): a name or a ModelConfig, checked
 * when it is resolved (callbacks cannot cross HTTP).
 */
export const HttpModelSchema = z.union([z.string().min(1), z.record(z.unknown())]);

/** Pick the one schema a config claims to be, so errors name the offending property. */
export function modelConfigSchemaFor(input: unknown): z.ZodTypeAny {
  const o = (input ?? {}) as Record<string, unknown>;
  if (o.provider === 'vertex') return VertexModelConfigSchema;
  if (o.provider === 'azure') return 'auth' in o ? AzureEntraModelConfigSchema : AzureApiKeyModelConfigSchema;
  return GenericModelConfigSchema;
}

export const KNOWN_PROVIDERS = ['openai', 'anthropic', 'google', 'vertex', 'azure', 'bedrock'] as const;

/**
 * Where each client looks for a provider's key in the operator's environment, first set wins
 * (declared once; the Python and Go clients get it generated), and the variable that points
 * the provider's SDK elsewhere: that key may go there too, and nowhere else.
 */
const PROVIDER_KEYS: Record<string, readonly string[]> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  azure: ['AZURE_API_KEY', 'AZURE_OPENAI_API_KEY'],
};
const PROVIDER_BASE_URLS: Record<string, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  google: 'GOOGLE_GENERATIVE_AI_BASE_URL',
  azure: 'AZURE_BASE_URL',
};
/** What resolving a provider's model reads besides its key and endpoint (resolve-model.ts). */
const PROVIDER_SETTINGS: Record<string, readonly string[]> = {
  azure: ['AZURE_RESOURCE_NAME'],
  vertex: ['GOOGLE_VERTEX_PROJECT', 'GOOGLE_VERTEX_LOCATION', 'GOOGLE_CLIENT_EMAIL', 'GOOGLE_PRIVATE_KEY'],
  bedrock: ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'],
};

export const PROVIDER_ENV = {
  keys: PROVIDER_KEYS,
  baseUrls: PROVIDER_BASE_URLS,
  /** Every variable resolving a provider's model reads: what a client sends with a named model (key, endpoint, settings). */
  names: Object.fromEntries(
    KNOWN_PROVIDERS.map((p) => [p, [...(PROVIDER_KEYS[p] ?? []), ...(PROVIDER_BASE_URLS[p] ? [PROVIDER_BASE_URLS[p]] : []), ...(PROVIDER_SETTINGS[p] ?? [])]]),
  ) as Record<string, readonly string[]>,
  /** The model used when a caller names none: the first whose provider's key is set, else the built-in model. */
  defaults: [
    ['openai', 'openai/gpt-4.1-mini'],
    ['anthropic', 'anthropic/claude-sonnet-4-5'],
    ['google', 'google/gemini-2.5-flash'],
  ] as readonly (readonly [string, string])[],
};

/**
 * A model as the Python and Go clients send it: the caller's name or ModelConfig as given,
 * with the operator's environment variables its provider reads (PROVIDER_ENV.names). The
 * worker resolves it (resolve-model.ts), so where a key may travel is decided in one place.
 */
export const NamedModelSchema = z
  .object({
    kind: z.literal('named'),
    model: z.union([z.string().min(1), z.record(z.unknown())]),
    env: z.record(z.string()).optional(),
  })
  .strict()
  .describe("a model by its caller's name or ModelConfig, with the operator's environment variables its provider reads");
export type NamedModel = z.infer<typeof NamedModelSchema>;

const perMTok = () => z.number().finite().nonnegative('must not be negative');
/** A model's price: USD per million tokens (prices.ts holds the list). Cached input is priced as input when its price is not given. */
export const ModelPriceSchema = z
  .object({
    inputPerMTok: perMTok(),
    outputPerMTok: perMTok(),
    cachedInputPerMTok: perMTok().optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** A provider model, resolved: what one call to it needs (the key included). */
export const ProviderModelSchema = z
  .object({
    kind: z.literal('provider'),
    /** Name as the caller gave it, for messages and spans (never a key). */
    name: z.string(),
    provider: z.enum([...KNOWN_PROVIDERS, 'openai-compatible']),
    modelId: z.string().min(1),
    apiKey: z.string().optional(),
    baseURL: z.string().optional(),
    headers: z.record(z.string()).optional(),
    ...endpointSettings,
    vertex: z
      .object({ project: z.string(), location: z.string(), clientEmail: z.string(), privateKey: z.string(), privateKeyId: z.string().optional() })
      .optional(),
    azure: z.object({ resourceName: z.string().optional(), apiVersion: z.string().optional(), token: z.string().optional() }).optional(),
    bedrock: z.object({ region: z.string(), accessKeyId: z.string(), secretAccessKey: z.string(), sessionToken: z.string().optional() }).optional(),
    /** The caller's own price for this model (its `prices`); without it the engine uses the list price, if any (prices.ts). */
    price: ModelPriceSchema.optional(),
  })
  .strict();

/** What the worker receives: everything needed for one call, already resolved. */
export const ResolvedModelSchema = z.discriminatedUnion('kind', [
  ProviderModelSchema,
  /** `price`: the caller's own for a callback of this name; a callback without one has no known cost. */
  z.object({ kind: z.literal('callback'), name: z.string(), callbackId: z.string(), price: ModelPriceSchema.optional() }).strict(),
  /** The built-in model, run in the worker. */
  z.object({ kind: z.literal('local'), name: z.literal('deckhand/local') }).strict(),
]);
export type ResolvedModel = z.infer<typeof ResolvedModelSchema>;

// The outline in a prompt is exactly these lines rendered, in order, with frames spliced in: a
// model that reads structure (the local model) reads these instead of parsing the text back.
export const OutlineLineSchema = z
  .object({
    depth: z.number().int().nonnegative(),
    kind: z
      .enum(['element', 'text', 'summary', 'frame'])
      .describe('element (a node with a role), text (page text), summary (a fold: "… rows 4 to 4,999 omitted") or frame (a note about a frame\'s content)'),
    id: z.string().optional().describe('the element id as printed in brackets, e.g. "e12" or "f1e3"'),
    role: z.string().optional(),
    name: z.string().optional(),
    states: z
      .record(z.union([z.string(), z.literal(true)]))
      .describe('its states: a flag is true (disabled), a valued state its value, unquoted (value="x" gives "x"); lists stay JSON text (options)'),
    nameFrom: z.string().optional().describe('where a name that is not on screen came from (aria-label, title, alt, ...)'),
    text: z.string().optional().describe('the text of text, summary and frame lines'),
  })
  .describe('one printed line of the page outline a model request carries, as data');
export type OutlineLine = z.infer<typeof OutlineLineSchema>;

// instruction, outline and alreadyDone are the parts of act, observe and extract prompts as data,
// for models that read structure rather than text (the local model, a callback that wants them).
export const ModelRequestSchema = z
  .object({
    system: z.string(),
    prompt: z.string().describe('the whole user prompt; provider models read only this (and the images)'),
    instruction: z.string().optional(),
    outline: z.array(OutlineLineSchema).optional(),
    alreadyDone: z.string().optional().describe("act's second step: what the first step already did for this instruction"),
    today: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe("the page's local date (YYYY-MM-DD), sent when the instruction names a date by description (today, tomorrow, next Monday)"),
    tools: z
      .array(PageToolSchema)
      .optional()
      .describe('the page\'s own tools (WebMCP) the prompt lists first; act and observe may answer with method callTool on "page"'),
    schema: z.record(z.unknown()).describe('the JSON Schema of the expected object'),
    images: z
      .array(z.object({ data: z.string(), mimeType: z.string() }).describe('an image sent to the model'))
      .default([])
      .describe('the base64 PNG/JPEG screenshots, when the operation asked for one'),
    timeoutMs: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional().describe("the most tokens the answer may take (the operation's budget, OPERATIONS)"),
  })
  .describe('what the engine asks a callback model');
export type ModelRequest = z.infer<typeof ModelRequestSchema>;

export const ModelReplySchema = z
  .object({
    object: z.unknown().describe("the answer; it fits the request's schema"),
    usage: z
      .object({
        inputTokens: z.number().nonnegative().optional(),
        outputTokens: z.number().nonnegative().optional(),
        reasoningTokens: z.number().nonnegative().optional(),
        cachedInputTokens: z.number().nonnegative().optional(),
      })
      .strict()
      .describe("a callback model's token counts (zero counts may be left out)")
      .optional(),
  })
  .strict()
  .describe("a callback model's answer");
export type ModelReply = z.infer<typeof ModelReplySchema>;
