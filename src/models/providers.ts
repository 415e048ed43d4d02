/**
 * ResolvedModel → an ai SDK language model. Providers are created per call from
 * the call's own settings, so no key outlives the call in the worker.
 *
 * Each `@ai-sdk/*` package is imported on first use of its provider, so loading Deckhand
 * (the Node entry, which reaches this file through the model call code) does not load six
 * SDKs it may never call. The worker bundle is a classic script, where the bundler inlines
 * these imports; there they cost nothing extra.
 */
import type { LanguageModel } from 'ai';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { ResolvedModel } from '../protocol/model';

type ProviderModel = Extract<ResolvedModel, { kind: 'provider' }>;

function need<T>(v: T | undefined, what: string, model: ProviderModel): T {
  if (v === undefined || v === '') {
    throw new DeckhandError(ErrorCode.NoModelConfigured, `model '${model.name}' needs ${what}`);
  }
  return v;
}

/** One loader per package: a literal specifier each, so bundlers see every one. */
const PACKAGES = {
  '@ai-sdk/openai': () => import('@ai-sdk/openai'),
  '@ai-sdk/anthropic': () => import('@ai-sdk/anthropic'),
  '@ai-sdk/google': () => import('@ai-sdk/google'),
  '@ai-sdk/google-vertex/edge': () => import('@ai-sdk/google-vertex/edge'),
  '@ai-sdk/azure': () => import('@ai-sdk/azure'),
  '@ai-sdk/amazon-bedrock': () => import('@ai-sdk/amazon-bedrock'),
};

/** The provider's package; one that cannot be loaded is a typed error naming it and the model. */
async function load<P extends keyof typeof PACKAGES>(pkg: P, model: ProviderModel): Promise<Awaited<ReturnType<(typeof PACKAGES)[P]>>> {
  try {
    return (await PACKAGES[pkg]()) as Awaited<ReturnType<(typeof PACKAGES)[P]>>;
  } catch (e) {
    throw new DeckhandError(
      ErrorCode.ModelProviderError,
      `model '${model.name}' needs the package ${pkg}, which could not be loaded: ${(e as Error)?.message ?? e}`,
      {
        model: model.name,
        package: pkg,
      },
    );
  }
}

/** Whether requests go to OpenAI's own API (no baseURL, or one on api.openai.com). */
function onOpenAIsOwn(m: ProviderModel): boolean {
  if (!m.baseURL) return m.provider === 'openai';
  try {
    return new URL(m.baseURL).hostname.toLowerCase() === 'api.openai.com';
  } catch {
    return false;
  }
}

/** The OpenAI wire format a model is called in: the Responses API on OpenAI's own endpoint, Chat Completions anywhere else. */
export function openaiFormatOf(m: ProviderModel): 'responses' | 'chat' {
  return m.openaiEndpointFormat ?? (onOpenAIsOwn(m) ? 'responses' : 'chat');
}

/** Whether a model is called through Chat Completions on a server other than OpenAI's (chat-completions.ts). */
export function usesCompatibleChat(m: ProviderModel): boolean {
  return (m.provider === 'openai' || m.provider === 'openai-compatible') && openaiFormatOf(m) === 'chat' && !onOpenAIsOwn(m);
}

/** Settings are checked before the package is loaded, so a missing key fails the same way, and fast. */
export async function languageModelFor(m: ProviderModel): Promise<LanguageModel> {
  switch (m.provider) {
    case 'openai':
    case 'openai-compatible': {
      const apiKey = m.apiKey ?? (m.provider === 'openai-compatible' ? 'not-needed' : need(m.apiKey, 'an API key (apiKey or OPENAI_API_KEY)', m));
      const { createOpenAI } = await load('@ai-sdk/openai', m);
      const openai = createOpenAI({ apiKey, baseURL: m.baseURL, headers: m.headers, name: m.provider === 'openai' ? 'openai' : 'openai-compatible' });
      return openaiFormatOf(m) === 'chat' ? openai.chat(m.modelId) : openai.responses(m.modelId);
    }
    case 'anthropic': {
      const apiKey = need(m.apiKey, 'an API key (apiKey or ANTHROPIC_API_KEY)', m);
      const { createAnthropic } = await load('@ai-sdk/anthropic', m);
      return createAnthropic({ apiKey, baseURL: m.baseURL, headers: m.headers })(m.modelId);
    }
    case 'google': {
      const apiKey = need(m.apiKey, 'an API key (apiKey or GOOGLE_GENERATIVE_AI_API_KEY)', m);
      const { createGoogleGenerativeAI } = await load('@ai-sdk/google', m);
      return createGoogleGenerativeAI({ apiKey, baseURL: m.baseURL, headers: m.headers })(m.modelId);
    }
    case 'vertex': {
      const v = need(m.vertex, 'Vertex project, location and service account credentials', m);
      const { createVertex } = await load('@ai-sdk/google-vertex/edge', m);
      return createVertex({
        project: v.project,
        location: v.location,
        baseURL: m.baseURL,
        headers: m.headers,
        googleCredentials: { clientEmail: v.clientEmail, privateKey: v.privateKey, privateKeyId: v.privateKeyId },
      })(m.modelId);
    }
    case 'azure': {
      const a = m.azure ?? {};
      if (!a.resourceName && !m.baseURL)
        throw new DeckhandError(ErrorCode.NoModelConfigured, `Azure model '${m.name}' needs resourceName or baseURL (or AZURE_RESOURCE_NAME)`);
      const headers = { ...(m.headers ?? {}), ...(a.token ? { Authorization: `Bearer ${a.token}` } : {}) };
      // With an Entra ID token the api-key header is not used; the bearer header authenticates.
      const apiKey = a.token ? 'entra-id' : need(m.apiKey, 'an API key or an Entra ID token', m);
      const { createAzure } = await load('@ai-sdk/azure', m);
      return createAzure({ resourceName: a.resourceName, baseURL: m.baseURL, apiVersion: a.apiVersion, apiKey, headers })(m.modelId);
    }
    case 'bedrock': {
      const b = need(m.bedrock, 'AWS region and credentials (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)', m);
      const { createAmazonBedrock } = await load('@ai-sdk/amazon-bedrock', m);
      return createAmazonBedrock({
        region: b.region,
        accessKeyId: b.accessKeyId,
        secretAccessKey: b.secretAccessKey,
        sessionToken: b.sessionToken,
        baseURL: m.baseURL,
        headers: m.headers,
      })(m.modelId);
    }
  }
}
