/**
 * The service's API keys: DECKHAND_API_KEYS (comma-separated), else the key file in
 * DECKHAND_HOME; with neither, one key is generated, stored there and printed once,
 * so the service is never open by accident.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface KeyRing {
  /**
   * The tenant a valid key stands for (a digest of the key, never the key itself), or null.
   * Sessions, MCP sessions, named profiles and cache entries belong to one tenant.
   */
  tenantOf(candidate: string | undefined): string | null;
  /** The keys themselves, so output can be scrubbed of them. */
  readonly secrets: readonly string[];
  /** A key created at this start, to print once. */
  generated?: string;
}

export function loadKeys(home: string, env: Record<string, string | undefined> = process.env): KeyRing {
  let keys = (env.DECKHAND_API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  let generated: string | undefined;
  if (!keys.length) {
    const file = join(home, 'api-keys');
    if (existsSync(file)) keys = readFileSync(file, 'utf8').split('\n').map((k) => k.trim()).filter(Boolean);
    if (!keys.length) {
      generated = `dh_${randomBytes(24).toString('base64url')}`;
      mkdirSync(home, { recursive: true, mode: 0o700 });
      writeFileSync(file, `${generated}\n`, { mode: 0o600 });
      keys = [generated];
    }
  }
  const bufs = keys.map((k) => Buffer.from(k));
  const tenantOf = (candidate: string | undefined): string | null => {
    if (!candidate) return null;
    const c = Buffer.from(candidate);
    // Constant-time comparison against every key.
    const hit = bufs.find((k) => k.length === c.length && timingSafeEqual(k, c));
    return hit ? createHash('sha256').update('deckhand-tenant\0').update(hit).digest('hex').slice(0, 32) : null;
  };
  return {
    generated,
    secrets: keys,
    tenantOf,
  };
}
