/**
 * Node-side model resolution: a `provider/model` name, a ModelConfig or a
 * callback becomes the ResolvedModel the worker gets with each call. Keys come
 * from the config, else from the provider's usual environment variable; they are
 * read here and never stored in the browser.
 */
import { randomUUID } from 'node:crypto';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import {
  KNOWN_PROVIDERS, modelConfigSchemaFor, PROVIDER_ENV, type ModelConfig, type ModelReply, type ModelRequest, type ResolvedModel,
} from '../protocol/model';
import { describeZodError } from '../protocol/zod-errors';
import { redactSecrets } from '../protocol/redact';
import { findPrice, type Prices } from '../protocol/prices';

/** A caller's own model: given the prompt and the JSON Schema of the answer, it returns the object. */
export type CallbackModel = (request: ModelRequest) => Promise<ModelReply> | ModelReply;

export type ModelSpec = string | ModelConfig | CallbackModel | { modelName?: string; callback: CallbackModel; [key: string]: unknown };

type Env = Record<string, string | undefined>;

const ENV_KEYS = PROVIDER_ENV.keys;

const fromEnv = (env: Env, names: readonly string[] = []) => names.map((n) => env[n]).find((v) => v && v.trim());

/** Where the operator may point a provider's SDK; its environment key may go there too. */
const ENV_BASE_URLS = PROVIDER_ENV.baseUrls;

const sameEndpoint = (a: string, b: string) => a.trim().replace(/\/+$/, '').toLowerCase() === b.trim().replace(/\/+$/, '').toLowerCase();

/**
 * A credential from the environment belongs to the operator, so it may only travel to the
 * provider's own endpoint or the one the operator configured next to it. A caller that
 * names another endpoint (baseURL, an Azure resource) must bring its own key.
 */
function refuseEnvCredentialFor(provider: string, modelName: string, endpoint: string): never {
  throw new DeckhandError(
    ErrorCode.InvalidArgument,
    `model '${modelName}' names its own endpoint (${endpoint}) but no apiKey: credentials from this machine's environment are only sent to ${provider}'s own endpoint, so pass apiKey with a baseURL`,
  );
}

/** The endpoint a caller named, unless it is the operator's own configured one for this provider. */
function callerEndpoint(provider: string, baseURL: string | undefined, env: Env): string | undefined {
  if (!baseURL) return undefined;
  const operator = ENV_BASE_URLS[provider] ? env[ENV_BASE_URLS[provider]] : undefined;
  return operator && sameEndpoint(operator, baseURL) ? undefined : baseURL;
}

/** Split "provider/model" (the model id may itself contain slashes). */
export function splitModelName(name: string): { provider: string; modelId: string } | null {
  const i = name.indexOf('/');
  if (i <= 0 || i === name.length - 1) return null;
  return { provider: name.slice(0, i).toLowerCase(), modelId: name.slice(i + 1) };
}

export class CallbackRegistry {
  private readonly byId = new Map<string, CallbackModel>();
  private readonly idOf = new Map<CallbackModel, string>();
  register(fn: CallbackModel): string {
    let id = this.idOf.get(fn);
    if (!id) {
      id = randomUUID();
      this.idOf.set(fn, id);
      this.byId.set(id, fn);
    }
    return id;
  }
  get(id: string): CallbackModel | undefined {
    return this.byId.get(id);
  }
}

/**
 * The model used when none is given: a provider's default model when its key is in the
 * environment, else the built-in local model, so everything works with no account.
 */
export function defaultModel(env: Env = process.env): ModelSpec {
  if (fromEnv(env, ENV_KEYS.openai)) return 'openai/gpt-4.1-mini';
  if (fromEnv(env, ENV_KEYS.anthropic)) return 'anthropic/claude-sonnet-4-5';
  if (fromEnv(env, ENV_KEYS.google)) return 'google/gemini-2.5-flash';
  return LOCAL_MODEL;
}

export const LOCAL_MODEL = 'deckhand/local';

export function resolveModel(spec: ModelSpec, callbacks: CallbackRegistry, env: Env = process.env): ResolvedModel {
  if (spec === LOCAL_MODEL || (typeof spec === 'object' && spec && 'modelName' in spec && spec.modelName === LOCAL_MODEL && Object.keys(spec).length === 1)) {
    return { kind: 'local', name: LOCAL_MODEL };
  }
  if (typeof spec === 'function') return { kind: 'callback', name: spec.name || 'callback', callbackId: callbacks.register(spec) };
  if (spec && typeof spec === 'object' && 'callback' in spec) {
    const { callback, modelName, ...rest } = spec as { callback: unknown; modelName?: string } & Record<string, unknown>;
    if (typeof callback !== 'function') throw new DeckhandError(ErrorCode.InvalidArgument, 'model.callback must be a function');
    const secret = ['apiKey', 'headers', 'auth', 'baseURL'].filter((k) => k in rest);
    if (secret.length) {
      throw new DeckhandError(ErrorCode.InvalidArgument, `a callback model cannot also take ${secret.join(', ')}: the callback makes its own requests`);
    }
    const extra = Object.keys(rest);
    if (extra.length) throw new DeckhandError(ErrorCode.InvalidArgument, `unknown ${extra.length > 1 ? 'properties' : 'property'} ${extra.map((k) => `'${k}'`).join(', ')} in a callback model`);
    return { kind: 'callback', name: modelName ?? (callback.name || 'callback'), callbackId: callbacks.register(callback as CallbackModel) };
  }
  const config: ModelConfig = typeof spec === 'string' ? { modelName: spec } : (spec as ModelConfig);
  if (!config || typeof config !== 'object') throw new DeckhandError(ErrorCode.InvalidArgument, 'model must be a "provider/model" name, a ModelConfig or a callback');
  const schema = modelConfigSchemaFor(config);
  const parsed = schema.safeParse(config);
  if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, 'model configuration'));
  const c = parsed.data as Record<string, any>;

  if (c.provider === 'vertex') {
    const a = c.auth as Record<string, string>;
    return {
      kind: 'provider',
      name: `vertex/${c.modelName}`,
      provider: 'vertex',
      modelId: c.modelName,
      baseURL: c.providerOptions.vertex.baseURL,
      headers: c.providerOptions.vertex.headers,
      vertex: {
        project: c.providerOptions.vertex.project,
        location: c.providerOptions.vertex.location,
        clientEmail: a.clientEmail ?? a.client_email,
        privateKey: a.privateKey ?? a.private_key,
        privateKeyId: a.privateKeyId ?? a.private_key_id,
      },
    };
  }
  if (c.provider === 'azure') {
    // The Azure shapes carry their own credential (apiKey or an Entra token; the schema
    // requires one), so the environment's key is never sent to a resource a caller names.
    return {
      kind: 'provider',
      name: `azure/${c.modelName}`,
      provider: 'azure',
      modelId: c.modelName,
      apiKey: c.apiKey,
      baseURL: c.baseURL,
      headers: c.headers,
      azure: { resourceName: c.resourceName ?? env.AZURE_RESOURCE_NAME, apiVersion: c.apiVersion, token: c.auth?.token },
    };
  }

  // Generic: "provider/model", or any name with a baseURL (an OpenAI-compatible server).
  const split = splitModelName(c.modelName);
  const provider = (c.provider ?? split?.provider ?? '').toLowerCase();
  const known = (KNOWN_PROVIDERS as readonly string[]).includes(provider);
  // Only a provider prefix is stripped: "meta-llama/Llama-3" on a compatible server keeps its whole id.
  const modelId = split && split.provider === provider && known ? split.modelId : c.modelName;
  if (!known && !c.baseURL) {
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `unknown model provider in '${c.modelName}': name a model as provider/model with one of ${KNOWN_PROVIDERS.join(', ')}, or give baseURL for an OpenAI-compatible endpoint`,
    );
  }
  if (provider === 'vertex' || provider === 'azure') {
    if (provider === 'azure' && (fromEnv(env, ENV_KEYS.azure) || c.apiKey)) {
      if (!c.apiKey && callerEndpoint('azure', c.baseURL, env)) refuseEnvCredentialFor('azure', c.modelName, c.baseURL);
      return { kind: 'provider', name: c.modelName, provider: 'azure', modelId, apiKey: c.apiKey ?? fromEnv(env, ENV_KEYS.azure), baseURL: c.baseURL ?? (c.apiKey ? undefined : env.AZURE_BASE_URL), headers: c.headers, azure: { resourceName: env.AZURE_RESOURCE_NAME } };
    }
    if (provider === 'vertex' && env.GOOGLE_VERTEX_PROJECT && env.GOOGLE_CLIENT_EMAIL && env.GOOGLE_PRIVATE_KEY) {
      // A service account from the environment signs requests for Google's endpoint only.
      if (c.baseURL) refuseEnvCredentialFor('vertex', c.modelName, c.baseURL);
      return {
        kind: 'provider', name: c.modelName, provider: 'vertex', modelId, baseURL: c.baseURL, headers: c.headers,
        vertex: { project: env.GOOGLE_VERTEX_PROJECT, location: env.GOOGLE_VERTEX_LOCATION ?? 'us-central1', clientEmail: env.GOOGLE_CLIENT_EMAIL, privateKey: env.GOOGLE_PRIVATE_KEY.replace(/\\n/g, '\n') },
      };
    }
    throw new DeckhandError(ErrorCode.InvalidArgument, `'${c.modelName}' needs the ${provider} ModelConfig shape (credentials and ${provider === 'vertex' ? 'project/location' : 'resource'}), or the provider's environment variables`);
  }
  if (provider === 'bedrock') {
    const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
    const id = env.AWS_ACCESS_KEY_ID;
    const secret = env.AWS_SECRET_ACCESS_KEY;
    if (!region || !id || !secret) throw new DeckhandError(ErrorCode.NoModelConfigured, `'${c.modelName}' needs AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`);
    // AWS credentials from the environment sign requests for AWS's own endpoint only.
    if (c.baseURL) refuseEnvCredentialFor('bedrock', c.modelName, c.baseURL);
    return { kind: 'provider', name: c.modelName, provider: 'bedrock', modelId, baseURL: c.baseURL, headers: c.headers, bedrock: { region, accessKeyId: id, secretAccessKey: secret, sessionToken: env.AWS_SESSION_TOKEN } };
  }
  const envKey = known && !c.apiKey ? fromEnv(env, ENV_KEYS[provider]) : undefined;
  const foreign = callerEndpoint(provider, c.baseURL, env);
  // A caller's own endpoint with no key of its own: keyless (a local server) when the
  // environment has no key for this provider, refused when it has one (never sent there).
  if (envKey && foreign) refuseEnvCredentialFor(provider, c.modelName, foreign);
  const apiKey = c.apiKey ?? envKey;
  const compatible = !known || (provider === 'openai' && !!c.baseURL && !apiKey);
  if (!apiKey && known && !c.baseURL) {
    throw new DeckhandError(ErrorCode.NoModelConfigured, `model '${c.modelName}' needs an API key: pass apiKey or set ${ENV_KEYS[provider].join(' or ')}`);
  }
  // With the environment's key, the operator's configured endpoint (if any) is where it goes.
  const operatorBase = envKey && ENV_BASE_URLS[provider] ? env[ENV_BASE_URLS[provider]]?.trim() || undefined : undefined;
  return {
    kind: 'provider',
    name: c.modelName,
    provider: compatible ? 'openai-compatible' : (provider as 'openai' | 'anthropic' | 'google'),
    modelId,
    apiKey,
    baseURL: c.baseURL ?? operatorBase,
    headers: c.headers,
    openaiEndpointFormat: c.openaiEndpointFormat,
    structuredOutput: c.structuredOutput,
    vision: c.vision,
  };
}

/**
 * `model` carrying the caller's own price for it, when `prices` names it (by its name, the
 * same with a lower-case provider, or without a snapshot date: protocol/prices.ts). The engine
 * prices the call with it instead of the list price. The built-in model is free and takes none.
 */
export function withPrice(model: ResolvedModel, prices: Prices | undefined): ResolvedModel {
  if (!prices || model.kind === 'local') return model;
  const price = findPrice(model.name, prices);
  return price ? { ...model, price } : model;
}

/** Every credential this process could send on its own, for scrubbing them from output. */
export function environmentSecrets(env: Env = process.env): string[] {
  const single = [...Object.values(ENV_KEYS).flat(), 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'GOOGLE_PRIVATE_KEY', 'GOOGLE_CLIENT_EMAIL'];
  const values = [...single.map((n) => env[n] ?? ''), ...(env.DECKHAND_API_KEYS ?? '').split(',')]; // the service's own keys, comma-separated
  return values.map((v) => v.trim()).filter((v) => v.length >= 6);
}

/** `text` with this machine's credentials (and anything shaped like one) masked. */
export function scrubCredentials(text: string, extra: readonly string[] = [], env: Env = process.env): string {
  return redactSecrets(text, [...environmentSecrets(env), ...extra]);
}
