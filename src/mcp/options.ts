/**
 * MCP server options, from command-line flags or from the Streamable HTTP address's
 * query parameters, checked the same way: booleans must be exactly true or false,
 * a non-default model needs its key, proxies need a configured proxy, and
 * "verified" (a hosted identity feature) is refused rather than pretended.
 */
import { join } from 'node:path';
import { APPROVAL_KINDS, APPROVAL_MAX_TIMEOUT_MS, ApprovalKindSchema, type ApprovalPolicy } from '../protocol/approval';

export const LOCAL_MODEL = 'deckhand/local';

export interface McpOptions {
  modelName: string;
  modelApiKey?: string;
  keepAlive: boolean;
  /** Chromium args for the proxy, when proxies were asked for. */
  proxyArgs: string[];
  /** A named, reusable browser profile. */
  contextId?: string;
  persist: boolean;
  viewport: { width: number; height: number };
  experimental: boolean;
  /** act, observe and extract look up and record in the result cache (this key's entries only). */
  cache: boolean;
  /** The act and agent tools' risky steps wait for approval (the host's elicitation, or the side panel). */
  approval?: ApprovalPolicy;
}

export class OptionError extends Error {}

export function parseBool(name: string, v: string | undefined | boolean, def: boolean): boolean {
  if (v === undefined) return def;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new OptionError(`${name} must be exactly true or false, got ${JSON.stringify(v)}`);
}

export interface RawOptions {
  modelName?: string;
  modelApiKey?: string;
  keepAlive?: string | boolean;
  proxies?: string | boolean;
  verified?: string | boolean;
  contextId?: string;
  persist?: string | boolean;
  browserWidth?: string;
  browserHeight?: string;
  experimental?: string | boolean;
  cache?: string | boolean;
  /** Comma-separated approval kinds (submit, delete, pay, leave-site, upload). */
  approve?: string;
  /** Seconds a step waits for approval before it is refused. */
  approveTimeout?: string;
}

export function resolveMcpOptions(raw: RawOptions, env: Record<string, string | undefined> = process.env): McpOptions {
  const modelName = raw.modelName?.trim() || LOCAL_MODEL;
  if (modelName !== LOCAL_MODEL && !raw.modelApiKey) {
    throw new OptionError(`modelApiKey is required with modelName ${modelName} (the default, ${LOCAL_MODEL}, needs none)`);
  }
  if (parseBool('verified', raw.verified, false)) {
    throw new OptionError('verified browser identity is a hosted feature; a self-hosted Deckhand server has no verified identity to offer');
  }
  const proxies = parseBool('proxies', raw.proxies, false);
  const proxy = env.DECKHAND_PROXY;
  if (proxies && !proxy)
    throw new OptionError('proxies were requested but this server has no proxy configured: set DECKHAND_PROXY (e.g. http://proxy.internal:3128)');
  const size = (name: string, v: string | undefined, def: number) => {
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 100 || n > 8000)
      throw new OptionError(`${name} must be a whole number of pixels from 100 to 8000, got ${JSON.stringify(v)}`);
    return n;
  };
  if (raw.contextId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(raw.contextId)) throw new OptionError('contextId must be 1 to 64 letters, digits, _ or -');
  return {
    modelName,
    modelApiKey: raw.modelApiKey,
    keepAlive: parseBool('keepAlive', raw.keepAlive, false),
    proxyArgs: proxies ? [`--proxy-server=${proxy}`] : [],
    contextId: raw.contextId,
    persist: parseBool('persist', raw.persist, true),
    viewport: { width: size('browserWidth', raw.browserWidth, 1024), height: size('browserHeight', raw.browserHeight, 768) },
    experimental: parseBool('experimental', raw.experimental, false),
    cache: parseBool('cache', raw.cache, false),
    ...approvalOf(raw.approve, raw.approveTimeout),
  };
}

function approvalOf(kinds: string | undefined, seconds: string | undefined): { approval?: ApprovalPolicy } {
  if (kinds === undefined) {
    if (seconds !== undefined) throw new OptionError('approveTimeout needs approve (the kinds of step that wait for approval)');
    return {};
  }
  const when = kinds
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const bad = when.filter((k) => !ApprovalKindSchema.safeParse(k).success);
  if (!when.length || bad.length) throw new OptionError(`approve takes a comma-separated list of ${APPROVAL_KINDS.join(', ')}; got ${JSON.stringify(kinds)}`);
  let timeout: number | undefined;
  if (seconds !== undefined) {
    const n = Number(seconds);
    if (!Number.isFinite(n) || n < 1 || n * 1000 > APPROVAL_MAX_TIMEOUT_MS)
      throw new OptionError(`approveTimeout must be a number of seconds from 1 to ${APPROVAL_MAX_TIMEOUT_MS / 1000}, got ${JSON.stringify(seconds)}`);
    timeout = Math.round(n * 1000);
  }
  return { approval: { when: when as ApprovalPolicy['when'], ...(timeout !== undefined ? { timeout } : {}) } };
}

/** A named browser profile, kept apart per tenant so one key never opens another's logins. */
export function contextDir(home: string, tenant: string, id: string): string {
  return join(home, 'contexts', tenant, id);
}
