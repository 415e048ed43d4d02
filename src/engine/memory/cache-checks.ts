/**
 * What a cache hit of observe or extract checks before it is served (cache.ts keys entries by
 * the call, not by the page's content):
 *   - observe: every stored element is still on the page (targets.ts, its selector updated if
 *     it moved), and where the observation returned every element of a role and name, there
 *     are still exactly that many, so "every Delete button" is not served one short after a
 *     row was added (one that picked a few among many is not affected by more coming);
 *   - extract: the part of the page the data came from (snapshot/region.ts: the smallest element
 *     holding every extracted value) reads exactly as it did, by the digest of its visible text.
 */
import { z } from 'zod';
import type { Action } from '../../protocol/schemas';
import { ContentChanged } from './cache';
import type { BrowserPort } from '../ports';
import { sameName, type SnapElement } from '../core/targets';
import { locateTarget, pageElements } from './targets';

export const StoredExtractSchema = z.object({ v: z.literal(2), data: z.unknown(), region: z.string() });
export type StoredExtract = z.infer<typeof StoredExtractSchema>;

/** The strings and numbers of extracted data, as they would read on the page. */
export function valuesOf(data: unknown, out: string[] = []): string[] {
  if (out.length >= 200) return out;
  if (typeof data === 'string') {
    if (data.trim()) out.push(data.slice(0, 2000));
  } else if (typeof data === 'number' && Number.isFinite(data)) out.push(String(data));
  else if (Array.isArray(data)) for (const v of data) valuesOf(v, out);
  else if (data && typeof data === 'object') for (const v of Object.values(data)) valuesOf(v, out);
  return out;
}

async function sha256(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The digest of the part of the page holding `data`'s values (the top frame's). */
export async function readRegion(port: BrowserPort, page: number, data: unknown): Promise<{ digest: string; found: number }> {
  const r = await port.frameRequest<{ text: string; found: number }>(page, 0, { type: 'dh:region', values: valuesOf(data) }, 5000);
  return { digest: await sha256(r.text), found: r.found };
}

/** How many elements of `els` share each role and name. */
const counter = (els: SnapElement[]) => (role: string, name: string) => els.filter((e) => e.role === role && sameName(e.name, name)).length;

/**
 * Observed actions ready to store: each target's count taken from the whole page (observe's
 * own snapshot may have folded long lists), so a hit compares like with like.
 */
export async function withPageCounts(port: BrowserPort, page: number, actions: Action[]): Promise<Action[]> {
  if (!actions.some((a) => a.target)) return actions;
  const count = counter(await pageElements(port, page, 10_000));
  return actions.map((a) => (a.target ? { ...a, target: { ...a.target, count: count(a.target.role, a.target.name) } } : a));
}

/** How long an observe hit looks for each stored element. */
const OBSERVE_WAIT_MS = 1_000;

/** The stored observation, its selectors where its elements are now; ContentChanged (or TargetChanged) when it no longer holds. */
export async function checkObserved(port: BrowserPort, page: number, stored: Action[], signal?: AbortSignal): Promise<Action[]> {
  if (!stored.some((a) => a.target)) return stored;
  const els = await pageElements(port, page, 10_000);
  const count = counter(els);
  // An observation that returned every element of a role and name ("the Delete buttons") no
  // longer holds once there are more or fewer; one that picked some among many holds while
  // each of them is still found (below).
  const groups = new Map<string, { t: NonNullable<Action['target']>; k: number }>();
  for (const a of stored) {
    if (!a.target) continue;
    const g = `${a.target.role}\u0000${a.target.name}`;
    groups.set(g, { t: a.target, k: (groups.get(g)?.k ?? 0) + 1 });
  }
  for (const { t, k } of groups.values()) {
    const n = count(t.role, t.name);
    if (k >= t.count && n !== t.count) throw new ContentChanged(`the page now has ${n} ${t.role} "${t.name}" where ${t.count} were observed`);
  }
  const out: Action[] = [];
  for (const a of stored) {
    if (!a.target) {
      out.push(a);
      continue;
    }
    const at = await locateTarget(port, page, { ...a, target: a.target }, OBSERVE_WAIT_MS, signal, els);
    out.push(at.moved ? { ...a, selector: at.selector } : a);
  }
  return out;
}
