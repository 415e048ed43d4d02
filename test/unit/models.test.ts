/** Node-side model resolution: names, configs and callbacks into ResolvedModels, with explicit env objects. */
import { describe, expect, it } from 'vitest';
import { CallbackRegistry, resolveModel, splitModelName, type CallbackModel, type ModelSpec } from '../../src/client/models';
import { DeckhandError } from '../../src/protocol/errors';
import { ResolvedModelSchema, type ResolvedModel } from '../../src/protocol/model';

type Env = Record<string, string | undefined>;

const resolve = (spec: unknown, env: Env = {}, registry = new CallbackRegistry()): ResolvedModel => {
  const r = resolveModel(spec as ModelSpec, registry, env);
  // Whatever resolves must be what the worker accepts.
  expect(ResolvedModelSchema.parse(r)).toEqual(r);
  return r;
};

function failure(spec: unknown, env: Env, code: string, message?: RegExp | string): DeckhandError {
  let err: unknown;
  try {
    resolveModel(spec as ModelSpec, new CallbackRegistry(), env);
  } catch (e) {
    err = e;
  }
  expect(err, 'expected resolveModel to throw').toBeInstanceOf(DeckhandError);
  const e = err as DeckhandError;
  expect(e.code).toBe(code);
  if (message !== undefined) expect(e.message).toMatch(message);
  return e;
}

describe('splitModelName', () => {
  it('splits at the first slash and lowercases the provider', () => {
    expect(splitModelName('openai/gpt-4.1-mini')).toEqual({ provider: 'openai', modelId: 'gpt-4.1-mini' });
    expect(splitModelName('Anthropic/claude-sonnet-4-5')).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    expect(splitModelName('openrouter/meta-llama/llama-3-70b')).toEqual({ provider: 'openrouter', modelId: 'meta-llama/llama-3-70b' });
  });

  it('is null without a provider or without a model id', () => {
    expect(splitModelName('gpt-4o')).toBeNull();
    expect(splitModelName('/gpt-4o')).toBeNull();
    expect(splitModelName('openai/')).toBeNull();
    expect(splitModelName('')).toBeNull();
  });
});

describe('resolveModel: provider/model names', () => {
  it('openai, anthropic and google names resolve with their provider and model id', () => {
    expect(resolve('openai/gpt-4.1-mini', { OPENAI_API_KEY: 'sk-env' })).toEqual({
      kind: 'provider',
      name: 'openai/gpt-4.1-mini',
      provider: 'openai',
      modelId: 'gpt-4.1-mini',
      apiKey: 'sk-env',
      baseURL: undefined,
      headers: undefined,
      openaiEndpointFormat: undefined,
    });
    expect(resolve('anthropic/claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'ant-env' })).toMatchObject({
      name: 'anthropic/claude-sonnet-4-5',
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      apiKey: 'ant-env',
    });
    expect(resolve('google/gemini-2.5-flash', { GOOGLE_GENERATIVE_AI_API_KEY: 'g-env' })).toMatchObject({
      name: 'google/gemini-2.5-flash',
      provider: 'google',
      modelId: 'gemini-2.5-flash',
      apiKey: 'g-env',
    });
  });

  it('keeps the name as given for messages, with the provider lowercased', () => {
    expect(resolve('OpenAI/GPT-X', { OPENAI_API_KEY: 'k' })).toMatchObject({ name: 'OpenAI/GPT-X', provider: 'openai', modelId: 'GPT-X' });
  });

  it('a key from the config beats the environment', () => {
    const env = { OPENAI_API_KEY: 'env-o', ANTHROPIC_API_KEY: 'env-a', GOOGLE_GENERATIVE_AI_API_KEY: 'env-g' };
    expect(resolve({ modelName: 'openai/gpt-4.1', apiKey: 'cfg-o' }, env)).toMatchObject({ apiKey: 'cfg-o' });
    expect(resolve({ modelName: 'anthropic/claude', apiKey: 'cfg-a' }, env)).toMatchObject({ apiKey: 'cfg-a' });
    expect(resolve({ modelName: 'google/gemini', apiKey: 'cfg-g' }, env)).toMatchObject({ apiKey: 'cfg-g' });
  });

  it('takes each provider key from its own environment variable only', () => {
    expect(resolve('anthropic/claude', { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' })).toMatchObject({ apiKey: 'a' });
    failure('anthropic/claude', { OPENAI_API_KEY: 'o' }, 'NO_MODEL_CONFIGURED', /ANTHROPIC_API_KEY/);
  });

  it('google: GOOGLE_GENERATIVE_AI_API_KEY, else GEMINI_API_KEY; blank values do not count', () => {
    expect(resolve('google/gemini', { GEMINI_API_KEY: 'gem' })).toMatchObject({ apiKey: 'gem' });
    expect(resolve('google/gemini', { GOOGLE_GENERATIVE_AI_API_KEY: 'gai', GEMINI_API_KEY: 'gem' })).toMatchObject({ apiKey: 'gai' });
    expect(resolve('google/gemini', { GOOGLE_GENERATIVE_AI_API_KEY: '  ', GEMINI_API_KEY: 'gem' })).toMatchObject({ apiKey: 'gem' });
  });

  it('a missing key is NO_MODEL_CONFIGURED naming the model and the environment variable', () => {
    const e = failure('openai/gpt-4.1', {}, 'NO_MODEL_CONFIGURED', /model 'openai\/gpt-4.1' needs an API key/);
    expect(e.message).toContain('OPENAI_API_KEY');
    failure('anthropic/claude', { OPENAI_API_KEY: 'x' }, 'NO_MODEL_CONFIGURED', /ANTHROPIC_API_KEY/);
    failure('google/gemini', {}, 'NO_MODEL_CONFIGURED', /GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY/);
    failure('openai/gpt-4.1', { OPENAI_API_KEY: '' }, 'NO_MODEL_CONFIGURED', /OPENAI_API_KEY/);
    failure('openai/gpt-4.1', { OPENAI_API_KEY: '   ' }, 'NO_MODEL_CONFIGURED', /OPENAI_API_KEY/);
  });

  it('an unknown provider without baseURL is INVALID_ARGUMENT naming the name and the known providers', () => {
    const e = failure('mistral/large', { OPENAI_API_KEY: 'k' }, 'INVALID_ARGUMENT', /'mistral\/large'/);
    expect(e.message).toContain('openai, anthropic, google, vertex, azure, bedrock');
    expect(e.message).toContain('baseURL');
    failure('gpt-4o', { OPENAI_API_KEY: 'k' }, 'INVALID_ARGUMENT', /'gpt-4o'/);
  });
});

describe('resolveModel: ModelConfig', () => {
  it('baseURL with an unknown prefix is an OpenAI-compatible endpoint, key optional', () => {
    const r = resolve({ modelName: 'local/llama3', baseURL: 'http://127.0.0.1:8000/v1' });
    expect(r).toMatchObject({ kind: 'provider', provider: 'openai-compatible', name: 'local/llama3', baseURL: 'http://127.0.0.1:8000/v1', apiKey: undefined });
    expect(resolve({ modelName: 'llama3', baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'tok' })).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'llama3',
      apiKey: 'tok',
    });
  });

  it('openai with baseURL and no key anywhere is OpenAI-compatible; with a key it stays openai', () => {
    expect(resolve({ modelName: 'openai/gpt-4.1', baseURL: 'http://proxy.test/v1' })).toMatchObject({ provider: 'openai-compatible', modelId: 'gpt-4.1' });
    expect(resolve({ modelName: 'openai/gpt-4.1', baseURL: 'http://proxy.test/v1', apiKey: 'k' })).toMatchObject({
      provider: 'openai',
      apiKey: 'k',
      baseURL: 'http://proxy.test/v1',
    });
  });
});

describe("resolveModel: the environment's credentials never go to an endpoint a caller chose", () => {
  const ENV = {
    OPENAI_API_KEY: 'sk-env-openai-0000',
    ANTHROPIC_API_KEY: 'sk-ant-env-1111',
    GEMINI_API_KEY: 'AIza-env-2222',
    AZURE_API_KEY: 'az-env-3333',
    AZURE_RESOURCE_NAME: 'operator-res',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIAENV',
    AWS_SECRET_ACCESS_KEY: 'aws-env-secret',
    GOOGLE_VERTEX_PROJECT: 'p',
    GOOGLE_CLIENT_EMAIL: 'sa@p',
    GOOGLE_PRIVATE_KEY: 'pk-env',
  };
  const leaks = (r: ResolvedModel) => JSON.stringify(r).match(/sk-env|sk-ant-env|AIza-env|az-env|aws-env|AKIAENV|pk-env/);

  it("a baseURL without apiKey is refused when the environment holds that provider's key", () => {
    for (const modelName of ['openai/gpt-4.1', 'anthropic/claude-sonnet-4-5', 'google/gemini-2.5-flash', 'azure/dep', 'bedrock/m', 'vertex/gemini']) {
      failure({ modelName, baseURL: 'http://attacker.test/v1' }, ENV, 'INVALID_ARGUMENT', /only sent to .*own endpoint.*pass apiKey/);
    }
    failure({ modelName: 'gpt-4.1', provider: 'openai', baseURL: 'http://attacker.test/v1' }, ENV, 'INVALID_ARGUMENT', /pass apiKey/);
  });

  it('the Azure config shapes carry their own credential: the environment key is never filled in', () => {
    failure({ provider: 'azure', modelName: 'dep', resourceName: 'attacker-res' }, ENV, 'INVALID_ARGUMENT', /apiKey: Required/);
    const r = resolve({ provider: 'azure', modelName: 'dep', resourceName: 'mine', apiKey: 'own-azure-key' }, ENV);
    expect(r).toMatchObject({ apiKey: 'own-azure-key', azure: { resourceName: 'mine' } });
    expect(leaks(r)).toBeNull();
    // By name, the environment key goes only to the operator's resource.
    expect(resolve('azure/dep', ENV)).toMatchObject({ apiKey: 'az-env-3333', azure: { resourceName: 'operator-res' } });
  });

  it("a caller's own key goes wherever the caller says, and no environment credential rides along", () => {
    const r = resolve({ modelName: 'openai/gpt-4.1', baseURL: 'http://mine.test/v1', apiKey: 'caller-key' }, ENV);
    expect(r).toMatchObject({ apiKey: 'caller-key', baseURL: 'http://mine.test/v1' });
    expect(leaks(r)).toBeNull();
    expect(leaks(resolve({ modelName: 'local/llama', baseURL: 'http://mine.test/v1' }, ENV))).toBeNull();
  });

  it("the operator's own endpoint (OPENAI_BASE_URL) may carry the environment key, and is used by default", () => {
    const env = { ...ENV, OPENAI_BASE_URL: 'http://gateway.internal/v1' };
    expect(resolve({ modelName: 'openai/gpt-4.1', baseURL: 'http://gateway.internal/v1/' }, env)).toMatchObject({ apiKey: 'sk-env-openai-0000' });
    expect(resolve('openai/gpt-4.1', env)).toMatchObject({ apiKey: 'sk-env-openai-0000', baseURL: 'http://gateway.internal/v1' });
    failure({ modelName: 'openai/gpt-4.1', baseURL: 'http://other.test/v1' }, env, 'INVALID_ARGUMENT', /pass apiKey/);
  });

  it('with no key in the environment, a keyless endpoint (a local server) still works', () => {
    expect(resolve({ modelName: 'openai/gpt-4.1', baseURL: 'http://127.0.0.1:8000/v1' }, {})).toMatchObject({
      provider: 'openai-compatible',
      apiKey: undefined,
    });
  });
});

describe('resolveModel: more configs', () => {
  it('passes openaiEndpointFormat and headers through', () => {
    expect(resolve({ modelName: 'openai/gpt-4.1', apiKey: 'k', openaiEndpointFormat: 'chat', headers: { 'x-org': 'o1' } })).toMatchObject({
      provider: 'openai',
      openaiEndpointFormat: 'chat',
      headers: { 'x-org': 'o1' },
    });
    expect(resolve({ modelName: 'openai/gpt-4.1', apiKey: 'k', openaiEndpointFormat: 'responses' })).toMatchObject({ openaiEndpointFormat: 'responses' });
    failure({ modelName: 'openai/gpt-4.1', apiKey: 'k', openaiEndpointFormat: 'completions' }, {}, 'INVALID_ARGUMENT', /openaiEndpointFormat/);
  });

  it('an explicit provider with a bare model name', () => {
    expect(resolve({ provider: 'anthropic', modelName: 'claude-sonnet-4-5', apiKey: 'k' })).toMatchObject({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
    });
    expect(resolve({ provider: 'Google', modelName: 'gemini-2.5-pro' }, { GEMINI_API_KEY: 'g' })).toMatchObject({
      provider: 'google',
      modelId: 'gemini-2.5-pro',
      apiKey: 'g',
    });
  });

  // BUG: with an explicit provider, a model name that itself contains a slash loses its first
  // segment: { provider: 'openai', modelName: 'meta-llama/Llama-3.3-70B', baseURL } (an
  // OpenAI-compatible server such as OpenRouter or vLLM) is sent as model 'Llama-3.3-70B'.
  // resolveModel strips the part before the slash even though it is not the provider named.
  it('an explicit provider keeps a slash-containing model id whole', () => {
    expect(resolve({ provider: 'openai', modelName: 'meta-llama/Llama-3.3-70B', baseURL: 'https://router.test/v1', apiKey: 'k' })).toMatchObject({
      provider: 'openai',
      modelId: 'meta-llama/Llama-3.3-70B',
    });
  });

  it('an unknown property is refused, naming it', () => {
    const e = failure({ modelName: 'openai/gpt-4.1', apiKey: 'k', temprature: 0.2 }, {}, 'INVALID_ARGUMENT', /unknown property 'temprature'/);
    expect(e.message).toMatch(/^invalid model configuration: /);
    failure({ modelName: 'openai/gpt-4.1', apiKey: 'k', a: 1, b: 2 }, {}, 'INVALID_ARGUMENT', /unknown properties 'a', 'b'/);
  });

  it('bad field values name the field', () => {
    failure({ modelName: '', apiKey: 'k' }, {}, 'INVALID_ARGUMENT', /modelName must not be empty/);
    failure({ modelName: 'openai/x', apiKey: '' }, {}, 'INVALID_ARGUMENT', /apiKey/);
    failure({ modelName: 'openai/x', apiKey: 'k', baseURL: 'not a url' }, {}, 'INVALID_ARGUMENT', /baseURL/);
    failure(42, {}, 'INVALID_ARGUMENT', /provider\/model/);
  });
});

describe('resolveModel: Vertex', () => {
  const options = { vertex: { project: 'proj-1', location: 'europe-west4' } };

  it('camelCase service account', () => {
    const r = resolve({
      provider: 'vertex',
      modelName: 'gemini-2.5-pro',
      auth: { clientEmail: 'sa@proj.iam', privateKey: 'PEM', privateKeyId: 'kid' },
      providerOptions: options,
    });
    expect(r).toEqual({
      kind: 'provider',
      name: 'vertex/gemini-2.5-pro',
      provider: 'vertex',
      modelId: 'gemini-2.5-pro',
      baseURL: undefined,
      headers: undefined,
      vertex: { project: 'proj-1', location: 'europe-west4', clientEmail: 'sa@proj.iam', privateKey: 'PEM', privateKeyId: 'kid' },
    });
  });

  it('the key file snake_case fields (extra fields of the file allowed)', () => {
    const keyFile = { type: 'service_account', project_id: 'proj-1', client_email: 'sa@proj.iam', private_key: 'PEM2', private_key_id: 'kid2' };
    const r = resolve({
      provider: 'vertex',
      modelName: 'gemini-2.5-flash',
      auth: keyFile,
      providerOptions: { vertex: { ...options.vertex, baseURL: 'https://vx.test', headers: { h: '1' } } },
    });
    expect(r).toMatchObject({
      provider: 'vertex',
      modelId: 'gemini-2.5-flash',
      baseURL: 'https://vx.test',
      headers: { h: '1' },
      vertex: { project: 'proj-1', location: 'europe-west4', clientEmail: 'sa@proj.iam', privateKey: 'PEM2', privateKeyId: 'kid2' },
    });
    expect(r).not.toHaveProperty('apiKey');
  });

  it('refuses a config without project or credentials, and unknown properties', () => {
    failure(
      { provider: 'vertex', modelName: 'g', auth: { clientEmail: 'a', privateKey: 'b' }, providerOptions: { vertex: { location: 'l' } } },
      {},
      'INVALID_ARGUMENT',
      /project/,
    );
    failure({ provider: 'vertex', modelName: 'g', providerOptions: options }, {}, 'INVALID_ARGUMENT', /auth/);
    failure(
      { provider: 'vertex', modelName: 'g', auth: { clientEmail: 'a', privateKey: 'b' }, providerOptions: options, apiKey: 'k' },
      {},
      'INVALID_ARGUMENT',
      /unknown property 'apiKey'/,
    );
  });

  it('a vertex/... name uses the Vertex environment variables, else asks for the config shape', () => {
    const env = { GOOGLE_VERTEX_PROJECT: 'p', GOOGLE_CLIENT_EMAIL: 'sa@p', GOOGLE_PRIVATE_KEY: '-----BEGIN-----\\nabc\\n-----END-----' };
    expect(resolve('vertex/gemini-2.5-pro', env)).toMatchObject({
      provider: 'vertex',
      modelId: 'gemini-2.5-pro',
      vertex: { project: 'p', location: 'us-central1', clientEmail: 'sa@p', privateKey: '-----BEGIN-----\nabc\n-----END-----' },
    });
    failure('vertex/gemini-2.5-pro', {}, 'INVALID_ARGUMENT', /'vertex\/gemini-2.5-pro' needs the vertex ModelConfig shape/);
  });
});

describe('resolveModel: Azure', () => {
  it('API key shape', () => {
    const r = resolve(
      { provider: 'azure', modelName: 'my-deployment', apiKey: 'az-key', resourceName: 'res1', apiVersion: '2025-01-01' },
      { AZURE_API_KEY: 'env' },
    );
    expect(r).toEqual({
      kind: 'provider',
      name: 'azure/my-deployment',
      provider: 'azure',
      modelId: 'my-deployment',
      apiKey: 'az-key',
      baseURL: undefined,
      headers: undefined,
      azure: { resourceName: 'res1', apiVersion: '2025-01-01', token: undefined },
    });
  });

  it('Entra ID token shape: the token, no API key even when one is in the environment', () => {
    const r = resolve(
      { provider: 'azure', modelName: 'dep', resourceName: 'res1', auth: { type: 'azureEntraId', token: 'eyJ.tok' } },
      { AZURE_API_KEY: 'env-key' },
    );
    expect(r).toMatchObject({ provider: 'azure', modelId: 'dep', apiKey: undefined, azure: { resourceName: 'res1', token: 'eyJ.tok' } });
  });

  it("an empty Entra token is refused with 'at least 1 character'", () => {
    failure(
      { provider: 'azure', modelName: 'dep', resourceName: 'r', auth: { type: 'azureEntraId', token: '' } },
      {},
      'INVALID_ARGUMENT',
      /auth\.token: .*at least 1 character/,
    );
  });

  it('the API key shape takes AZURE_API_KEY and AZURE_RESOURCE_NAME from the environment; apiKey and auth together are refused', () => {
    expect(resolve({ provider: 'azure', modelName: 'dep', apiKey: 'k' }, { AZURE_RESOURCE_NAME: 'env-res' })).toMatchObject({
      azure: { resourceName: 'env-res' },
    });
    failure(
      { provider: 'azure', modelName: 'dep', apiKey: 'k', auth: { type: 'azureEntraId', token: 't' } },
      {},
      'INVALID_ARGUMENT',
      /unknown property 'apiKey'/,
    );
    failure({ provider: 'azure', modelName: 'dep' }, {}, 'INVALID_ARGUMENT', /apiKey/);
  });

  it('an azure/... name needs AZURE_API_KEY (or AZURE_OPENAI_API_KEY) or an apiKey', () => {
    expect(resolve('azure/dep', { AZURE_OPENAI_API_KEY: 'ek', AZURE_RESOURCE_NAME: 'r' })).toMatchObject({
      provider: 'azure',
      modelId: 'dep',
      apiKey: 'ek',
      azure: { resourceName: 'r' },
    });
    failure('azure/dep', {}, 'INVALID_ARGUMENT', /needs the azure ModelConfig shape/);
  });
});

describe('resolveModel: Bedrock', () => {
  it('takes region and credentials from the AWS environment variables', () => {
    const env = { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'sess' };
    expect(resolve('bedrock/anthropic.claude-3-5-sonnet', env)).toMatchObject({
      provider: 'bedrock',
      modelId: 'anthropic.claude-3-5-sonnet',
      bedrock: { region: 'eu-west-1', accessKeyId: 'AKIA', secretAccessKey: 'secret', sessionToken: 'sess' },
    });
    expect(resolve('bedrock/m', { AWS_DEFAULT_REGION: 'us-east-2', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 's' })).toMatchObject({
      bedrock: { region: 'us-east-2', accessKeyId: 'a', secretAccessKey: 's', sessionToken: undefined },
    });
  });

  it('missing AWS variables are NO_MODEL_CONFIGURED naming them', () => {
    failure('bedrock/m', {}, 'NO_MODEL_CONFIGURED', /AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    failure('bedrock/m', { AWS_REGION: 'r', AWS_ACCESS_KEY_ID: 'a' }, 'NO_MODEL_CONFIGURED', /'bedrock\/m'/);
  });
});

describe('resolveModel: callbacks', () => {
  it('a function is a callback model named after the function', () => {
    const registry = new CallbackRegistry();
    async function myModel() {
      return { object: {} };
    }
    const r = resolve(myModel, {}, registry);
    expect(r).toEqual({ kind: 'callback', name: 'myModel', callbackId: expect.any(String) });
    expect(registry.get((r as { callbackId: string }).callbackId)).toBe(myModel);
  });

  it('an anonymous function is named "callback"', () => {
    expect(resolve([() => ({ object: {} })][0])).toMatchObject({ kind: 'callback', name: 'callback' });
  });

  it('{ callback, modelName } uses the given name', () => {
    const registry = new CallbackRegistry();
    const fn: CallbackModel = () => ({ object: {} });
    const r = resolve({ callback: fn, modelName: 'my-llm' }, {}, registry);
    expect(r).toMatchObject({ kind: 'callback', name: 'my-llm' });
    expect(registry.get((r as { callbackId: string }).callbackId)).toBe(fn);
  });

  it('{ callback } refuses credentials and unknown properties, and a callback that is not a function', () => {
    const fn: CallbackModel = () => ({ object: {} });
    failure({ callback: fn, apiKey: 'k' }, {}, 'INVALID_ARGUMENT', /callback model cannot also take apiKey/);
    failure({ callback: fn, headers: { a: 'b' }, baseURL: 'http://x.test' }, {}, 'INVALID_ARGUMENT', /cannot also take headers, baseURL/);
    failure({ callback: fn, temperature: 0 }, {}, 'INVALID_ARGUMENT', /unknown property 'temperature' in a callback model/);
    failure({ callback: fn, a: 1, b: 2 }, {}, 'INVALID_ARGUMENT', /unknown properties 'a', 'b'/);
    failure({ callback: 'not a function' }, {}, 'INVALID_ARGUMENT', /model\.callback must be a function/);
  });

  it('the registry gives the same id to the same function and different ids to different ones', () => {
    const registry = new CallbackRegistry();
    const a: CallbackModel = () => ({ object: 1 });
    const b: CallbackModel = () => ({ object: 2 });
    const ida = registry.register(a);
    expect(registry.register(a)).toBe(ida);
    const idb = registry.register(b);
    expect(idb).not.toBe(ida);
    expect(registry.get(ida)).toBe(a);
    expect(registry.get(idb)).toBe(b);
    expect(registry.get('nope')).toBeUndefined();
    // Resolving the same function twice (bare or wrapped) reuses its id.
    const r1 = resolveModel(a, registry, {}) as { callbackId: string };
    const r2 = resolveModel({ callback: a, modelName: 'x' }, registry, {}) as { callbackId: string };
    expect(r1.callbackId).toBe(ida);
    expect(r2.callbackId).toBe(ida);
  });
});
