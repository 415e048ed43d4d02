/**
 * ResolvedModel → an ai SDK language model. Providers are created per call from
 * the call's own settings, so no key outlives the call in the worker.
 */
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createVertex } from '@ai-sdk/google-vertex/edge';
import { createOpenAI } from '@ai-sdk/openai';
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

export function languageModelFor(m: ProviderModel): LanguageModel {
  switch (m.provider) {
    case 'openai':
    case 'openai-compatible': {
      const openai = createOpenAI({
        apiKey: m.apiKey ?? (m.provider === 'openai-compatible' ? 'not-needed' : need(m.apiKey, 'an API key (apiKey or OPENAI_API_KEY)', m)),
        baseURL: m.baseURL,
        headers: m.headers,
        name: m.provider === 'openai' ? 'openai' : 'openai-compatible',
      });
      return (m.openaiEndpointFormat ?? 'responses') === 'chat' ? openai.chat(m.modelId) : openai.responses(m.modelId);
    }
    case 'anthropic':
      return createAnthropic({ apiKey: need(m.apiKey, 'an API key (apiKey or ANTHROPIC_API_KEY)', m), baseURL: m.baseURL, headers: m.headers })(m.modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey: need(m.apiKey, 'an API key (apiKey or GOOGLE_GENERATIVE_AI_API_KEY)', m), baseURL: m.baseURL, headers: m.headers })(m.modelId);
    case 'vertex': {
      const v = need(m.vertex, 'Vertex project, location and service account credentials', m);
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
      if (!a.resourceName && !m.baseURL) throw new DeckhandError(ErrorCode.NoModelConfigured, `Azure model '${m.name}' needs resourceName or baseURL (or AZURE_RESOURCE_NAME)`);
      const headers = { ...(m.headers ?? {}), ...(a.token ? { Authorization: `Bearer ${a.token}` } : {}) };
      // With an Entra ID token the api-key header is not used; the bearer header authenticates.
      return createAzure({ resourceName: a.resourceName, baseURL: m.baseURL, apiVersion: a.apiVersion, apiKey: a.token ? 'entra-id' : need(m.apiKey, 'an API key or an Entra ID token', m), headers })(m.modelId);
    }
    case 'bedrock': {
      const b = need(m.bedrock, 'AWS region and credentials (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)', m);
      return createAmazonBedrock({ region: b.region, accessKeyId: b.accessKeyId, secretAccessKey: b.secretAccessKey, sessionToken: b.sessionToken, baseURL: m.baseURL, headers: m.headers })(m.modelId);
    }
  }
}
