import { describe, expect, it } from 'vitest';
import { Methods } from '../../src/protocol/methods';
import { defaultModel, ModelParamSchema } from '../../src/protocol/resolve-model';
import { resolveModel, CallbackRegistry } from '../../src/client/models';

/** What the worker makes of a named model (the Python and Go clients send these). */
const named = (model: unknown, env: Record<string, string> = {}) => ModelParamSchema.parse({ kind: 'named', model, env });
const thrown = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a refusal');
};

describe('a named model, resolved in the worker by the rule the Node client runs', () => {
  it('resolves as the Node client resolves the same name and environment', () => {
    const env = { OPENAI_API_KEY: 'sk-env', ANTHROPIC_API_KEY: 'ak-env' };
    for (const spec of [
      'openai/gpt-4.1-mini',
      'anthropic/claude-sonnet-4-5',
      { modelName: 'openai/gpt-4o', apiKey: 'sk-own', baseURL: 'http://127.0.0.1:9/v1' },
    ]) {
      expect(named(spec, env)).toEqual(resolveModel(spec as never, new CallbackRegistry(), env));
    }
    expect(named('deckhand/local')).toEqual({ kind: 'local', name: 'deckhand/local' });
  });

  it("never sends the environment's key to an endpoint the caller named, and says what to pass", () => {
    const e = thrown(() => named({ modelName: 'openai/gpt-4o', baseURL: 'https://elsewhere.test/v1' }, { OPENAI_API_KEY: 'sk-env' }));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toContain('pass apiKey with a baseURL');
    expect(e.message).not.toContain('sk-env');
  });

  it('refuses a provider model with no key, naming the variables', () => {
    const e = thrown(() => named('anthropic/claude-sonnet-4-5'));
    expect(e.code).toBe('NO_MODEL_CONFIGURED');
    expect(e.message).toContain('ANTHROPIC_API_KEY');
  });

  it('is resolved where a call carries a model: act options, the agent, a replay', () => {
    const env = { OPENAI_API_KEY: 'sk-env' };
    const act = Methods.act.params.parse({ input: 'click Save', options: { model: { kind: 'named', model: 'openai/gpt-4.1-mini', env } } });
    expect(act.options?.model).toMatchObject({ kind: 'provider', provider: 'openai', apiKey: 'sk-env' });
    const m = { kind: 'named', model: 'openai/gpt-4.1-mini', env };
    const agent = Methods['agent.run'].params.parse({ instruction: 'do it', model: m, executionModel: m });
    expect(agent).toMatchObject({ model: { kind: 'provider' }, executionModel: { kind: 'provider' }, mode: 'dom', maxSteps: 20, toolTimeout: 30_000 });
  });

  it('the default model follows the first key set (providerEnv.defaults)', () => {
    expect(defaultModel({})).toBe('deckhand/local');
    expect(defaultModel({ ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' })).toBe('anthropic/claude-sonnet-4-5');
  });
});
