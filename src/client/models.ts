/**
 * Node-side model resolution: a callback is registered with this client; a `provider/model`
 * name or a ModelConfig is resolved by the one rule in protocol/resolve-model.ts, with keys
 * from the config, else from this process's environment. Keys are never stored in the browser.
 */
import { randomUUID } from 'node:crypto';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { ModelConfig, ModelReply, ModelRequest, ResolvedModel } from '../protocol/model';
import { defaultModel as defaultModelOf, ENV_KEYS, LOCAL_MODEL, resolveModelConfig, type Env } from '../protocol/resolve-model';
import { redactSecrets } from '../protocol/redact';
import { findPrice, type Prices } from '../protocol/prices';

/** A caller's own model: given the prompt and the JSON Schema of the answer, it returns the object. */
export type CallbackModel = (request: ModelRequest) => Promise<ModelReply> | ModelReply;

export type ModelSpec = string | ModelConfig | CallbackModel | { modelName?: string; callback: CallbackModel; [key: string]: unknown };

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
  return defaultModelOf(env);
}

export { LOCAL_MODEL, splitModelName } from '../protocol/resolve-model';

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
    if (extra.length)
      throw new DeckhandError(
        ErrorCode.InvalidArgument,
        `unknown ${extra.length > 1 ? 'properties' : 'property'} ${extra.map((k) => `'${k}'`).join(', ')} in a callback model`,
      );
    return { kind: 'callback', name: modelName ?? (callback.name || 'callback'), callbackId: callbacks.register(callback as CallbackModel) };
  }
  return resolveModelConfig(spec as string | ModelConfig, env);
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
  const single = [
    ...Object.values(ENV_KEYS).flat(),
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'GOOGLE_PRIVATE_KEY',
    'GOOGLE_CLIENT_EMAIL',
  ];
  const values = [...single.map((n) => env[n] ?? ''), ...(env.DECKHAND_API_KEYS ?? '').split(',')]; // the service's own keys, comma-separated
  return values.map((v) => v.trim()).filter((v) => v.length >= 6);
}

/** `text` with this machine's credentials (and anything shaped like one) masked. */
export function scrubCredentials(text: string, extra: readonly string[] = [], env: Env = process.env): string {
  return redactSecrets(text, [...environmentSecrets(env), ...extra]);
}
