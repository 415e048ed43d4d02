/**
 * How a model's name or configuration becomes the ResolvedModel one call needs, with keys from
 * the operator's environment where the caller gave none. Declared once: the Node client runs it
 * where it resolves, and the worker runs it for the named models the Python and Go clients send
 * (NamedModelSchema), so the rule of where a key may travel lives in one place.
 */
import { DeckhandError, ErrorCode } from './errors';
import { z } from 'zod';
import {
  KNOWN_PROVIDERS,
  modelConfigSchemaFor,
  NamedModelSchema,
  PROVIDER_ENV,
  ResolvedModelSchema,
  type ModelConfig,
  type NamedModel,
  type ResolvedModel,
} from './model';
import { describeZodError } from './zod-errors';

export type Env = Record<string, string | undefined>;

export const ENV_KEYS = PROVIDER_ENV.keys;

export const fromEnv = (env: Env, names: readonly string[] = []) => names.map((n) => env[n]).find((v) => v && v.trim());

/** Where the operator may point a provider's SDK; its environment key may go there too. */
export const ENV_BASE_URLS = PROVIDER_ENV.baseUrls;

const sameEndpoint = (a: string, b: string) => a.trim().replace(/\/+$/, '').toLowerCase() === b.trim().replace(/\/+$/, '').toLowerCase();

/**
 * A credential from the environment belongs to the operator, so it may only travel to the
 * provider's own endpoint or the one the operator configured next to it. A caller that
 * names another endpoint (baseURL, an Azure resource) must bring its own key.
 */
export function refuseEnvCredentialFor(provider: string, modelName: string, endpoint: string): never {
  throw new DeckhandError(
    ErrorCode.InvalidArgument,
    `model '${modelName}' names its own endpoint (${endpoint}) but no apiKey: ` +
      `credentials from this machine's environment are only sent to ${provider}'s own endpoint, so pass apiKey with a baseURL`,
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

/** The built-in model's name. */
export const LOCAL_MODEL = 'deckhand/local';

/** The model used when a caller names none: the first provider whose key the environment holds, else the built-in model. */
export function defaultModel(env: Env): string {
  return PROVIDER_ENV.defaults.find(([provider]) => fromEnv(env, ENV_KEYS[provider]))?.[1] ?? LOCAL_MODEL;
}

/** A name or a ModelConfig (not a callback: those stay with their client), resolved against `env`. */
export function resolveModelConfig(spec: string | ModelConfig, env: Env): ResolvedModel {
  if (spec === LOCAL_MODEL || (typeof spec === 'object' && spec && spec.modelName === LOCAL_MODEL && Object.keys(spec).length === 1)) {
    return { kind: 'local', name: LOCAL_MODEL };
  }
  const config: ModelConfig = typeof spec === 'string' ? { modelName: spec } : spec;
  if (!config || typeof config !== 'object')
    throw new DeckhandError(ErrorCode.InvalidArgument, 'model must be a "provider/model" name, a ModelConfig or a callback');
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
      `unknown model provider in '${c.modelName}': name a model as provider/model with one of ${KNOWN_PROVIDERS.join(', ')}, ` +
        'or give baseURL for an OpenAI-compatible endpoint',
    );
  }
  if (provider === 'vertex' || provider === 'azure') {
    if (provider === 'azure' && (fromEnv(env, ENV_KEYS.azure) || c.apiKey)) {
      if (!c.apiKey && callerEndpoint('azure', c.baseURL, env)) refuseEnvCredentialFor('azure', c.modelName, c.baseURL);
      return {
        kind: 'provider',
        name: c.modelName,
        provider: 'azure',
        modelId,
        apiKey: c.apiKey ?? fromEnv(env, ENV_KEYS.azure),
        baseURL: c.baseURL ?? (c.apiKey ? undefined : env.AZURE_BASE_URL),
        headers: c.headers,
        azure: { resourceName: env.AZURE_RESOURCE_NAME },
      };
    }
    if (provider === 'vertex' && env.GOOGLE_VERTEX_PROJECT && env.GOOGLE_CLIENT_EMAIL && env.GOOGLE_PRIVATE_KEY) {
      // A service account from the environment signs requests for Google's endpoint only.
      if (c.baseURL) refuseEnvCredentialFor('vertex', c.modelName, c.baseURL);
      return {
        kind: 'provider',
        name: c.modelName,
        provider: 'vertex',
        modelId,
        baseURL: c.baseURL,
        headers: c.headers,
        vertex: {
          project: env.GOOGLE_VERTEX_PROJECT,
          location: env.GOOGLE_VERTEX_LOCATION ?? 'us-central1',
          clientEmail: env.GOOGLE_CLIENT_EMAIL,
          privateKey: env.GOOGLE_PRIVATE_KEY.replace(/\\n/g, '\n'),
        },
      };
    }
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `'${c.modelName}' needs the ${provider} ModelConfig shape (credentials and ${provider === 'vertex' ? 'project/location' : 'resource'}), ` +
        "or the provider's environment variables",
    );
  }
  if (provider === 'bedrock') {
    const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
    const id = env.AWS_ACCESS_KEY_ID;
    const secret = env.AWS_SECRET_ACCESS_KEY;
    if (!region || !id || !secret)
      throw new DeckhandError(ErrorCode.NoModelConfigured, `'${c.modelName}' needs AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`);
    // AWS credentials from the environment sign requests for AWS's own endpoint only.
    if (c.baseURL) refuseEnvCredentialFor('bedrock', c.modelName, c.baseURL);
    return {
      kind: 'provider',
      name: c.modelName,
      provider: 'bedrock',
      modelId,
      baseURL: c.baseURL,
      headers: c.headers,
      bedrock: { region, accessKeyId: id, secretAccessKey: secret, sessionToken: env.AWS_SESSION_TOKEN },
    };
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

/** A named model resolved in the worker: only the variables its provider reads count. */
export function resolveNamedModel(m: NamedModel): ResolvedModel {
  return resolveModelConfig(m.model as string | ModelConfig, m.env ?? {});
}

/**
 * A model in a call's params: resolved by a Node client, or named by a Python or Go client and
 * resolved here, on receipt (a refusal is the typed error resolution throws).
 */
export const ModelParamSchema = z
  .union([ResolvedModelSchema, NamedModelSchema])
  .transform((m): ResolvedModel => (m.kind === 'named' ? resolveNamedModel(m) : m));
