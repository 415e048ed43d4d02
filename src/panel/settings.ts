/**
 * The panel's model settings, per provider, in chrome.storage.local (never sync
 * storage: keys stay on this machine). The UI only ever gets a public view (the
 * key's last four characters); the key itself is read at call time and sent to the
 * worker with that one call, never to a page.
 */
import { z } from 'zod';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { ResolvedModel } from '../protocol/model';
import { describeZodError } from '../protocol/zod-errors';

export const PROVIDERS = [
  { id: 'local', label: 'Built-in (offline)', defaultModel: 'deckhand/local', needsKey: false },
  { id: 'openai', label: 'OpenAI', defaultModel: 'gpt-4.1-mini', needsKey: true },
  { id: 'anthropic', label: 'Anthropic', defaultModel: 'claude-sonnet-4-5', needsKey: true },
  { id: 'google', label: 'Google', defaultModel: 'gemini-2.5-flash', needsKey: true },
  { id: 'openai-compatible', label: 'OpenAI-compatible server', defaultModel: '', needsKey: false },
] as const;
export type ProviderId = (typeof PROVIDERS)[number]['id'];
const ProviderIdSchema = z.enum(PROVIDERS.map((p) => p.id) as [ProviderId, ...ProviderId[]]);

const ProviderSettingsSchema = z
  .object({
    modelName: z.string().trim().min(1, 'the model name must not be empty').optional(),
    apiKey: z.string().trim().min(1).optional(),
    baseURL: z.string().trim().url('the base URL must be a full URL, like http://127.0.0.1:8000/v1').optional(),
  })
  .strict();
export const PanelSettingsSchema = z.object({ provider: ProviderIdSchema, providers: z.record(ProviderSettingsSchema) }).strict();
export type PanelSettings = z.infer<typeof PanelSettingsSchema>;

/** What the UI may show: no key, only whether one is saved and its last four characters. */
export interface PublicProviderSettings {
  modelName?: string;
  baseURL?: string;
  keyHint?: string;
}
export interface PublicSettings {
  provider: ProviderId;
  providers: Partial<Record<ProviderId, PublicProviderSettings>>;
}

const KEY = 'deckhand.settings';
const DEFAULT: PanelSettings = { provider: 'local', providers: {} };

async function load(): Promise<PanelSettings> {
  const raw = (await chrome.storage.local.get(KEY))[KEY];
  const parsed = PanelSettingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : DEFAULT;
}

export const keyHint = (key: string): string => `…${key.slice(-4)}`;

export function publicView(s: PanelSettings): PublicSettings {
  const providers: PublicSettings['providers'] = {};
  for (const [id, p] of Object.entries(s.providers)) {
    providers[id as ProviderId] = { modelName: p.modelName, baseURL: p.baseURL, ...(p.apiKey ? { keyHint: keyHint(p.apiKey) } : {}) };
  }
  return { provider: s.provider, providers };
}

export async function loadPublicSettings(): Promise<PublicSettings> {
  return publicView(await load());
}

/**
 * Save one provider's settings and make it the active one. An empty apiKey keeps the
 * saved key (the field is never filled back in); `clearKey` removes it.
 */
export async function saveProviderSettings(
  provider: ProviderId,
  input: { modelName?: string; apiKey?: string; baseURL?: string; clearKey?: boolean },
): Promise<PublicSettings> {
  const s = await load();
  const before = s.providers[provider] ?? {};
  const blank = (v?: string) => (v && v.trim() ? v.trim() : undefined);
  const next = {
    modelName: blank(input.modelName),
    baseURL: blank(input.baseURL),
    apiKey: input.clearKey ? undefined : (blank(input.apiKey) ?? before.apiKey),
  };
  const parsed = ProviderSettingsSchema.safeParse(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)));
  if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, `${provider} settings`));
  if (provider === 'openai-compatible' && !parsed.data.baseURL)
    throw new DeckhandError(ErrorCode.InvalidArgument, 'an OpenAI-compatible server needs its base URL');
  if (provider === 'openai-compatible' && !parsed.data.modelName)
    throw new DeckhandError(ErrorCode.InvalidArgument, 'an OpenAI-compatible server needs a model name');
  const updated: PanelSettings = { provider, providers: { ...s.providers, [provider]: parsed.data } };
  await chrome.storage.local.set({ [KEY]: updated });
  return publicView(updated);
}

export async function selectProvider(provider: ProviderId): Promise<PublicSettings> {
  const s = await load();
  const updated = { ...s, provider };
  await chrome.storage.local.set({ [KEY]: updated });
  return publicView(updated);
}

/** The model for one call, with its key, read from storage just before the call. */
export async function resolvePanelModel(): Promise<ResolvedModel> {
  return resolveFrom(await load());
}

export function resolveFrom(s: PanelSettings): ResolvedModel {
  const meta = PROVIDERS.find((p) => p.id === s.provider)!;
  if (meta.id === 'local') return { kind: 'local', name: 'deckhand/local' };
  const p = s.providers[meta.id] ?? {};
  const modelId = p.modelName ?? meta.defaultModel;
  if (meta.needsKey && !p.apiKey && !p.baseURL) {
    throw new DeckhandError(ErrorCode.NoModelConfigured, `${meta.label} needs an API key: add it in Settings, or choose the built-in model`);
  }
  if (meta.id === 'openai-compatible' && (!p.baseURL || !modelId)) {
    throw new DeckhandError(ErrorCode.NoModelConfigured, 'the OpenAI-compatible server needs a base URL and a model name in Settings');
  }
  return {
    kind: 'provider',
    name: `${meta.id}/${modelId}`,
    provider: meta.id,
    modelId,
    ...(p.apiKey ? { apiKey: p.apiKey } : {}),
    ...(p.baseURL ? { baseURL: p.baseURL } : {}),
    ...(meta.id === 'openai-compatible' ? { openaiEndpointFormat: 'chat' as const } : {}),
  };
}
