/**
 * The service's API keys: DECKHAND_API_KEYS (comma-separated), else the key file in
 * DECKHAND_HOME; with neither, one key is generated, stored there and printed once,
 * so the service is never open by accident. Replicas that share PostgreSQL keep the keys'
 * digests there instead (src/postgres/keys.ts), so a key any replica accepts, every replica accepts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface KeyRing {
  /**
   * The tenant a valid key stands for (a digest of the key, never the key itself), or null.
   * Sessions, MCP sessions, named profiles and cache entries belong to one tenant.
   */
  tenantOf(candidate: string | undefined): Promise<string | null>;
  /** The keys this process knows, so output can be scrubbed of them. */
  readonly secrets: readonly string[];
  /** A key created at this start, to print once. */
  generated?: string;
}

/** The tenant a key stands for: a digest, so the key itself is never stored or compared in the clear. */
export function tenantDigest(key: string | Buffer): string {
  return createHash('sha256').update('deckhand-tenant\0').update(key).digest('hex').slice(0, 32);
}

/** A new random API key. */
export const newApiKey = (): string => `dh_${randomBytes(24).toString('base64url')}`;

/** The keys the operator configured in DECKHAND_API_KEYS. */
export const envKeys = (env: Record<string, string | undefined> = process.env): string[] =>
  (env.DECKHAND_API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

export function loadKeys(home: string, env: Record<string, string | undefined> = process.env): KeyRing {
  let keys = envKeys(env);
  let generated: string | undefined;
  if (!keys.length) {
    const file = join(home, 'api-keys');
    if (existsSync(file))
      keys = readFileSync(file, 'utf8')
        .split('\n')
        .map((k) => k.trim())
        .filter(Boolean);
    if (!keys.length) {
      generated = newApiKey();
      mkdirSync(home, { recursive: true, mode: 0o700 });
      writeFileSync(file, `${generated}\n`, { mode: 0o600 });
      keys = [generated];
    }
  }
  const bufs = keys.map((k) => Buffer.from(k));
  const tenantOf = async (candidate: string | undefined): Promise<string | null> => {
    if (!candidate) return null;
    const c = Buffer.from(candidate);
    // Constant-time comparison against every key.
    const hit = bufs.find((k) => k.length === c.length && timingSafeEqual(k, c));
    return hit ? tenantDigest(hit) : null;
  };
  return {
    generated,
    secrets: keys,
    tenantOf,
  };
}
