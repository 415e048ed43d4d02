/**
 * What the engine itself did to each page, as a counter: input sent, a navigation started. A
 * snapshot taken after the engine acted on a page knows the page changed without asking it.
 */
import { watchNetwork } from './network';
import type { CdpSession } from '../ports';

const acted = new Map<number, number>();
const seen = new Map<number, number>();

/**
 * The engine is sending input to `page` or navigating it: what that loads counts for the next
 * settle wait (requests are counted from the first time), and the page is known changed.
 */
export function actedOn(page: number, cdp: CdpSession): void {
  watchNetwork(cdp);
  acted.set(page, (acted.get(page) ?? 0) + 1);
}

/**
 * Whether the engine acted on `page` since the last call for it (true the first time): then
 * whatever a frame kept from an earlier read is surely out of date.
 */
export function actedSinceLastLook(page: number): boolean {
  const now = acted.get(page) ?? 0;
  const last = seen.get(page);
  seen.set(page, now);
  return last === undefined || last !== now;
}
