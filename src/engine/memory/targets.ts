/**
 * A stored action's target, checked before a replay acts on it. The selector alone says where
 * an element was, not what it was: after a row moved, a button was renamed or another user's
 * data loaded, the same selector can point at something else. So each action remembers its
 * element's role and accessible name as the snapshot showed them, its surroundings (its row's
 * other text, its group's label or the heading above it) and how many elements shared its role
 * and name (core/targets.ts). A replay acts only on the one element that still matches all of that:
 *   - the stored selector still points at it: as recorded;
 *   - it is elsewhere now (markup changed, a banner pushed it down): its new selector (healed);
 *   - nothing matches, or several do where one did: TargetChanged, and nothing is done.
 */
import type { Action, ActionTarget } from '../../protocol/schemas';
import { throwIfCancelled } from '../core/cancel';
import type { BrowserPort } from '../ports';
import { sleep } from '../ports';
import { ReplayFailed } from './replay-failed';
import { captureSnapshot, selectorsForIds, surroundingsOf } from '../core/snapshot';
import { elementsOf, sameName, sameSurroundings, type SnapElement } from '../core/targets';

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

/** The page's elements, from one whole-page snapshot. */
export async function pageElements(port: BrowserPort, page: number, timeoutMs: number): Promise<SnapElement[]> {
  return elementsOf((await captureSnapshot(port, page, { budget: FIND_BUDGET, timeoutMs: Math.max(1000, timeoutMs) })).text);
}

/** The elements that match `t` among `els` (one look at the page), and how many share its role and name. */
export async function candidates(
  port: BrowserPort,
  page: number,
  t: ActionTarget,
  els: SnapElement[],
): Promise<{ selectors: string[]; sameRoleAndName: number }> {
  const same = els.filter((e) => e.role === t.role && sameName(e.name, t.name));
  if (!same.length) return { selectors: [], sameRoleAndName: 0 };
  // Among several alike, selectors (a search each on a big page) are built only for those whose surroundings match.
  let ids = same.map((e) => e.id);
  if (ids.length > 1) {
    const around = await surroundingsOf(port, page, ids);
    ids = ids.filter((id) => sameSurroundings(t.context, around.get(id) ?? ''));
    if (!ids.length) return { selectors: [], sameRoleAndName: same.length };
  }
  const described = await selectorsForIds(port, page, ids, true);
  const selectors = described.flatMap((d) => (d && sameSurroundings(t.context, d.context ?? '') ? [d.selector] : []));
  return { selectors, sameRoleAndName: same.length };
}

/**
 * Where `a`'s element is in one look at the page, or why it cannot be acted on. One match is it
 * (moved, if its selector changed) only when its surroundings told it apart when it was chosen;
 * where several looked the same, only the same set, unchanged, with the stored selector among
 * them, is acted on (by place). Anything else is a TargetChanged: nothing is done.
 */
export function placeIn(
  a: Action & { target: ActionTarget },
  c: { selectors: string[]; sameRoleAndName: number },
): { selector: string; moved: boolean } | TargetChanged {
  const t = a.target;
  // Targets stored before `alike` was kept: one of a kind is told apart, several are not known to be.
  const alike = t.alike ?? (t.count <= 1 ? 1 : undefined);
  if (c.selectors.length === 1 && alike === 1) return { selector: c.selectors[0], moved: c.selectors[0] !== a.selector };
  if (c.selectors.length >= 1 && c.sameRoleAndName === t.count && (alike === undefined || c.selectors.length === alike) && c.selectors.includes(a.selector)) {
    return { selector: a.selector, moved: false };
  }
  if (!c.selectors.length) {
    const elsewhere = c.sameRoleAndName ? ' (elements with that name are, in other places)' : '';
    return new TargetChanged(`${describe(t)} is no longer on the page${elsewhere}; nothing was done`, 'gone');
  }
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
export async function locateTarget(
  port: BrowserPort,
  page: number,
  a: Action & { target: ActionTarget },
  waitMs: number,
  signal?: AbortSignal,
  firstLook?: SnapElement[],
): Promise<{ selector: string; moved: boolean }> {
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
