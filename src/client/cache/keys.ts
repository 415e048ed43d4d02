/** Cache keys: what makes two calls the same call on the same page. */
import { createHash } from 'node:crypto';

export interface KeyParts {
  op: 'act' | 'observe' | 'extract';
  /** The instruction (or an Action's JSON). */
  instruction: string;
  url: string;
  fingerprint: string;
  /** JSON Schema for extract. */
  schema?: unknown;
  /** Variable names only: values never reach the cache. */
  variableNames: string[];
  screenshot: boolean;
}

const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/** The key, and the same without the page fingerprint (to tell "page changed" from "never seen"). */
export function cacheKeys(p: KeyParts): { key: string; baseKey: string } {
  const base = { v: 1, op: p.op, instruction: p.instruction.trim(), url: p.url, schema: p.schema ?? null, vars: [...p.variableNames].sort(), screenshot: p.screenshot };
  return { key: hash({ ...base, fingerprint: p.fingerprint }), baseKey: hash(base) };
}
