/** Provider packages load on first use; settings are checked first, and a package that fails to load is a typed error. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResolvedModel } from '../../src/protocol/model';

type ProviderModel = Extract<ResolvedModel, { kind: 'provider' }>;
const model = (m: Partial<ProviderModel>): ProviderModel => ({ kind: 'provider', name: 'x/y', provider: 'openai', modelId: 'y', ...m }) as ProviderModel;

afterEach(() => {
  vi.doUnmock('@ai-sdk/anthropic');
  vi.resetModules();
});

describe('languageModelFor', () => {
  it('builds the provider model from its package, loaded when first asked for', async () => {
    const { languageModelFor } = await import('../../src/models/providers');
    const m = (await languageModelFor(
      model({ provider: 'openai-compatible', name: 'local/llama', modelId: 'llama', baseURL: 'http://127.0.0.1:1/v1', openaiEndpointFormat: 'chat' }),
    )) as { provider: string; modelId: string };
    expect(m.provider).toBe('openai-compatible.chat');
    expect(m.modelId).toBe('llama');
    const a = (await languageModelFor(model({ provider: 'anthropic', name: 'anthropic/claude', modelId: 'claude', apiKey: 'k' }))) as { provider: string };
    expect(a.provider).toBe('anthropic.messages');
  });

  it('a missing key is NO_MODEL_CONFIGURED, as before, without loading the package', async () => {
    const loaded = vi.fn();
    vi.doMock('@ai-sdk/anthropic', () => {
      loaded();
      return {};
    });
    const { languageModelFor } = await import('../../src/models/providers');
    await expect(languageModelFor(model({ provider: 'anthropic', name: 'anthropic/claude' }))).rejects.toMatchObject({
      code: 'NO_MODEL_CONFIGURED',
      message: "model 'anthropic/claude' needs an API key (apiKey or ANTHROPIC_API_KEY)",
    });
    expect(loaded).not.toHaveBeenCalled();
  });

  it('a provider package that cannot be loaded is MODEL_PROVIDER_ERROR naming the package and the model', async () => {
    vi.doMock('@ai-sdk/anthropic', () => {
      throw new Error("Cannot find package '@ai-sdk/anthropic'");
    });
    const { languageModelFor } = await import('../../src/models/providers');
    const err = await languageModelFor(model({ provider: 'anthropic', name: 'anthropic/claude', apiKey: 'k' })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'MODEL_PROVIDER_ERROR', data: { model: 'anthropic/claude', package: '@ai-sdk/anthropic' } });
    expect((err as Error).message).toMatch(/^model 'anthropic\/claude' needs the package @ai-sdk\/anthropic, which could not be loaded: /);
  });
});
