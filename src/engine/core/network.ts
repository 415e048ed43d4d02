/**
 * Requests in flight on a page, from CDP's Network domain, for the settle wait before a model
 * reads the page: "settled" is no request in flight for a quiet spell and the DOM quiet, within
 * a deadline. Requests that stay open by design (WebSockets, event streams, long polls) would
 * keep a page busy forever, so a request open longer than LONG_LIVED_MS stops counting.
 */
import type { CdpSession } from '../ports';

const LONG_LIVED_MS = 2000;
const FORGET_MS = 60_000;
/** Traffic that says nothing about the page being ready: streams, beacons, media, reports, prefetches. */
const IGNORED = new Set(['WebSocket', 'EventSource', 'Ping', 'Media', 'CSPViolationReport', 'Prefetch']);

interface Watch {
  /** requestId → when it started (performance.now()). */
  open: Map<string, number>;
  /** When the last request ended or started. */
  lastChange: number;
  ready: Promise<void>;
}

const watches = new WeakMap<CdpSession, Watch>();

/**
 * Start counting a page's requests (once per CDP session; later calls are free). Requests
 * already in flight when the count starts are not seen, so this is called as soon as a page is
 * driven, not only when a settle wait begins.
 */
export function watchNetwork(cdp: CdpSession): Watch {
  let w = watches.get(cdp);
  if (w) return w;
  // Nothing seen yet counts as long quiet: a page is not held for requests it was never seen make.
  const watch: Watch = { open: new Map(), lastChange: -Infinity, ready: Promise.resolve() };
  const start = (e: { requestId: string; type?: string }) => {
    if (e.type && IGNORED.has(e.type)) return;
    watch.open.set(e.requestId, performance.now());
    watch.lastChange = performance.now();
  };
  const end = (e: { requestId: string }) => {
    if (watch.open.delete(e.requestId)) watch.lastChange = performance.now();
  };
  cdp.on('Network.requestWillBeSent', start);
  cdp.on('Network.loadingFinished', end);
  cdp.on('Network.loadingFailed', end);
  // A request served from the memory cache sends no loadingFinished.
  cdp.on('Network.requestServedFromCache', end);
  // A navigation replaces the document: what its old requests were doing no longer matters.
  cdp.on('Page.frameNavigated', (e: { frame?: { parentId?: string } }) => {
    if (e.frame && !e.frame.parentId) watch.open.clear();
  });
  // Small buffers: only the events are wanted, never the bodies.
  watch.ready = cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }, 5000).then(
    () => undefined,
    () => undefined,
  );
  w = watch;
  watches.set(cdp, w);
  return w;
}

/** Requests that count as in flight now (long-lived ones excluded). */
function busy(w: Watch, now: number): number {
  let n = 0;
  for (const [id, started] of w.open) {
    if (now - started < LONG_LIVED_MS) n++;
    else if (now - started > FORGET_MS) w.open.delete(id); // a stream that never reported its end
  }
  return n;
}

/**
 * Resolve true once no request has been in flight for `quietMs`, or false at the deadline.
 * Polls a few times per quiet spell: requests come and go faster than anyone needs told.
 */
export async function networkQuiet(cdp: CdpSession, quietMs: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const w = watchNetwork(cdp);
  await w.ready;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const now = performance.now();
    if (busy(w, now) === 0 && now - w.lastChange >= quietMs) return true;
    if (now >= deadline || signal?.aborted) return false;
    await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, deadline - now))));
  }
}
