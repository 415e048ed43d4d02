/**
 * A stored action's target, checked before a replay acts on it. The selector alone says where
 * an element was, not what it was: after a row moved, a button was renamed or another user's
 * data loaded, the same selector can point at something else. So each action remembers its
 * element's role and accessible name as the snapshot showed them, its surroundings (its row's
 * other text, its group's label or the heading above it) and how many elements shared its role
 * and name. A replay acts only on the one element that still matches all of that:
 *   - the stored selector still points at it: as recorded;
 *   - it is elsewhere now (markup changed, a banner pushed it down): its new selector (healed);
 *   - nothing matches, or several do where one did: TargetChanged, and nothing is done.
 */
import type { Action, ActionTarget } from '../protocol/schemas';
import { throwIfCancelled } from './cancel';
import type { BrowserPort } from './ports';
import { sleep } from './ports';
import { ReplayFailed } from './replay-failed';
import { captureSnapshot, selectorsForIds } from './snapshot';

/** The stored target is gone from the page, or can no longer be told apart. */
export class TargetChanged extends ReplayFailed {
  constructor(
    message: string,
    readonly reason: 'gone' | 'ambiguous',
  ) {
    super(message);
  }
}

/** The budget of a snapshot that finds targets again: the whole page, unfolded. */
const FIND_BUDGET = 50_000;
const POLL_MS = 150;

export interface SnapElement {
  id: string;
  role: string;
  name: string;
}

/** The elements of a printed snapshot: `[e12] button "Place order" …`. */
export function elementsOf(snapshotText: string): SnapElement[] {
  const out: SnapElement[] = [];
  for (const line of snapshotText.split('\n')) {
    const m = /^\s*\[((?:f\d+)?e\d+)\] ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(line);
    if (!m) continue;
    let name = '';
    try {
      name = m[3] ? (JSON.parse(m[3]) as string) : '';
    } catch {
      name = m[3]?.slice(1, -1) ?? '';
    }
    out.push({ id: m[1], role: m[2], name });
  }
  return out;
}

const fold = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Names equal, whitespace and case aside; a name the snapshot clipped ("Long name…") matches by its start. */
export function sameName(a: string, b: string): boolean {
  const x = fold(a);
  const y = fold(b);
  if (x === y) return true;
  const clipped = (s: string) => s.endsWith('…') && s.length > 8;
  if (clipped(x)) return y.startsWith(x.slice(0, -1));
  if (clipped(y)) return x.startsWith(y.slice(0, -1));
  return false;
}

const words = (s: string) => fold(s).split(/[^\p{L}\p{N}@.#$€£%-]+/u).filter(Boolean);

/** Every word of the stored surroundings is still there (more may have been added: a badge, a new column). */
export function sameSurroundings(stored: string, now: string): boolean {
  if (!stored) return true;
  const have = new Set(words(now));
  return words(stored).every((w) => have.has(w));
}

/**
 * Selectors for snapshot element ids, each with its target as the snapshot `text` showed it
 * (no target for an id the text does not print); ids no longer on the page are left out.
 */
export async function targetsOf(port: BrowserPort, page: number, text: string, ids: string[]): Promise<Map<string, { selector: string; target?: ActionTarget }>> {
  const els = elementsOf(text);
  const byId = new Map(els.map((e) => [e.id, e]));
  const wanted = ids.map((id) => id.trim());
  const alikeOf = (me: SnapElement) => els.filter((e) => e.role === me.role && sameName(e.name, me.name));
  // One request describes the ids and, where several share a role and name, those others too.
  const all = new Set(wanted);
  for (const id of wanted) {
    const me = byId.get(id);
    const peers = me ? alikeOf(me) : [];
    if (peers.length > 1) for (const p of peers) all.add(p.id);
  }
  const described = new Map((await selectorsForIds(port, page, [...all], true)).flatMap((d) => (d ? [[d.id, d] as const] : [])));
  const out = new Map<string, { selector: string; target?: ActionTarget }>();
  for (const id of wanted) {
    const d = described.get(id);
    if (!d) continue;
    const me = byId.get(id);
    if (!me) {
      out.set(id, { selector: d.selector });
      continue;
    }
    const same = alikeOf(me);
    const context = (d.context ?? '').slice(0, 500);
    // Several alike: how many of them its surroundings do not tell apart (a replay may then go by place only).
    const alike = same.length > 1 ? same.filter((e) => { const o = described.get(e.id); return !!o && sameSurroundings(context, o.context ?? ''); }).length : 1;
    out.set(id, { selector: d.selector, target: { role: me.role, name: me.name.slice(0, 500), context, count: same.length, alike: Math.max(1, alike) } });
  }
  return out;
}

/** The page's elements, from one whole-page snapshot. */
export async function pageElements(port: BrowserPort, page: number, timeoutMs: number): Promise<SnapElement[]> {
  return elementsOf((await captureSnapshot(port, page, { budget: FIND_BUDGET, timeoutMs: Math.max(1000, timeoutMs) })).text);
}

/** The elements that match `t` among `els` (one look at the page), and how many share its role and name. */
export async function candidates(port: BrowserPort, page: number, t: ActionTarget, els: SnapElement[]): Promise<{ selectors: string[]; sameRoleAndName: number }> {
  const same = els.filter((e) => e.role === t.role && sameName(e.name, t.name));
  if (!same.length) return { selectors: [], sameRoleAndName: 0 };
  const described = await selectorsForIds(port, page, same.map((e) => e.id), true);
  const selectors = described.flatMap((d) => (d && sameSurroundings(t.context, d.context ?? '') ? [d.selector] : []));
  return { selectors, sameRoleAndName: same.length };
}

/**
 * Where `a`'s element is in one look at the page, or why it cannot be acted on. One match is it
 * (moved, if its selector changed) only when its surroundings told it apart when it was chosen;
 * where several looked the same, only the same set, unchanged, with the stored selector among
 * them, is acted on (by place). Anything else is a TargetChanged: nothing is done.
 */
export function placeIn(a: Action & { target: ActionTarget }, c: { selectors: string[]; sameRoleAndName: number }): { selector: string; moved: boolean } | TargetChanged {
  const t = a.target;
  // Targets stored before `alike` was kept: one of a kind is told apart, several are not known to be.
  const alike = t.alike ?? (t.count <= 1 ? 1 : undefined);
  if (c.selectors.length === 1 && alike === 1) return { selector: c.selectors[0], moved: c.selectors[0] !== a.selector };
  if (c.selectors.length >= 1 && c.sameRoleAndName === t.count && (alike === undefined || c.selectors.length === alike) && c.selectors.includes(a.selector)) {
    return { selector: a.selector, moved: false };
  }
  if (!c.selectors.length) return new TargetChanged(`${describe(t)} is no longer on the page${c.sameRoleAndName ? ' (elements with that name are, in other places)' : ''}; nothing was done`, 'gone');
  return new TargetChanged(
    c.selectors.length === 1
      ? `${describe(t)} was one of ${alike ?? t.count} alike, told apart by its place only, and the others are gone; nothing was done`
      : `${c.selectors.length} elements now match ${describe(t)}, where ${alike ?? 1} did; nothing was done`,
    'ambiguous',
  );
}

function describe(t: ActionTarget): string {
  return `${t.role} "${t.name}"${t.context ? ` (in "${t.context.slice(0, 80)}")` : ''}`;
}

/**
 * Where `a` must act now: its stored selector, or where its element went. Looks again until
 * `waitMs` has passed (the element may still be rendering), then throws TargetChanged.
 */
export async function locateTarget(port: BrowserPort, page: number, a: Action & { target: ActionTarget }, waitMs: number, signal?: AbortSignal, firstLook?: SnapElement[]): Promise<{ selector: string; moved: boolean }> {
  const deadline = Date.now() + waitMs;
  let els = firstLook;
  for (;;) {
    throwIfCancelled(signal);
    els ??= await pageElements(port, page, deadline - Date.now());
    const at = placeIn(a, await candidates(port, page, a.target, els));
    if (!(at instanceof TargetChanged)) return at;
    if (Date.now() + POLL_MS >= deadline) throw at;
    els = undefined;
    await sleep(POLL_MS);
  }
}
