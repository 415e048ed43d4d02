/** Page commands: navigation, evaluation, screenshots, page info. */
import { actedOn } from './activity';
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { DEFAULTS, type GotoOptions, type PageInfo, type ScreenshotOptions } from '../../protocol/schemas';
import { assertUrlAllowed, schemeOf, urlRefusal } from '../../protocol/url-policy';
import { sleep, type BrowserPort, type CdpSession } from '../ports';
import { cancellableSleep, raceCancel, throwIfCancelled } from './cancel';
import { gateOf } from './gate';

/**
 * `p`, or TIMEOUT after `ms`. `held`: time the work has spent waiting on a person (an approval),
 * which does not count: the deadline moves out by it.
 */
export function withDeadline<T>(
  p: Promise<T>,
  ms: number,
  what: string,
  /** The caller's own timeout, when `ms` adds a margin to it. */ given?: number,
  held?: () => number,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const started = Date.now();
  const heldAtStart = held?.() ?? 0;
  const t = new Promise<never>((_, reject) => {
    const said = given !== undefined ? `${what} timed out after ${given} ms (its timeout)` : `${what} timed out after ${ms} ms`;
    const check = () => {
      const left = ms - (Date.now() - started - ((held?.() ?? 0) - heldAtStart));
      if (left > 0) timer = setTimeout(check, left);
      else reject(new DeckhandError(ErrorCode.Timeout, said, { timeoutMs: given ?? ms }));
    };
    timer = setTimeout(check, ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Navigate a page, under the URL policy (protocol/url-policy.ts): `allow` is the operator's
 * opt-in, sent by the client library with each call. Every navigation of the engine lands
 * here (page.goto, context.newPage, the agent's goto), so every surface gets the same rule.
 */
export async function goto(
  port: BrowserPort,
  page: number,
  url: string,
  options: GotoOptions = {},
  allow: readonly string[] = [],
  signal?: AbortSignal,
): Promise<PageInfo> {
  assertUrlAllowed(url, allow);
  throwIfCancelled(signal);
  // A call that asked for approval: going to another site waits for one.
  const gate = gateOf(signal);
  if (gate) {
    const here = (await port.pageInfo(page).catch(() => null))?.url ?? '';
    await gate.check({ method: 'goto', args: [url], pageUrl: here, facts: null, target: url, element: url }, signal);
  }
  if (schemeOf(url) === 'data' && port.adoptPage) return gotoThroughNewTab(port, page, url, options, allow, signal);
  const timeout = options.timeout ?? DEFAULTS.navigationTimeoutMs;
  const waitUntil = options.waitUntil ?? 'load';
  const cdp = await raceCancel(sessionLeaving(port, page), signal);
  actedOn(page, cdp);
  // A page whose main thread does not answer (a script in an endless loop) cannot run its
  // unload, so no navigation of that tab ever commits: the URL opens in a fresh tab, which
  // then takes the page's place and id (the hung tab is closed).
  if (port.adoptPage && !(await answers(cdp, Math.min(HUNG_PROBE_MS, timeout / 4)))) return gotoThroughNewTab(port, page, url, options, allow, signal);
  const eventName = waitUntil === 'domcontentloaded' ? 'Page.domContentEventFired' : 'Page.loadEventFired';
  let off = () => {};
  const loaded = new Promise<void>((resolve) => {
    off = cdp.on(eventName, () => resolve());
  });
  // Chromium's error page committing in the top frame (a failed navigation shows one).
  let offError = () => {};
  const errorPage = new Promise<void>((resolve) => {
    offError = cdp.on('Page.frameNavigated', (e: { frame?: { parentId?: string; url?: string; unreachableUrl?: string } }) => {
      if (e.frame && !e.frame.parentId && (e.frame.unreachableUrl || e.frame.url?.startsWith('chrome-error:'))) resolve();
    });
  });
  // The caller gave up: stop the page loading, so nothing of this navigation goes on.
  const stop = () => void cdp.send('Page.stopLoading', {}, 5000).catch(() => undefined);
  let offClosed = () => {};
  const closed = new Promise<never>((_, reject) => {
    offClosed = port.onPageClosed(page, () => reject(new DeckhandError(ErrorCode.PageClosed, `the page was closed while navigating to ${url}`)));
  });
  closed.catch(() => undefined);
  const started = Date.now();
  let failure: DeckhandError | null = null;
  try {
    const nav = await raceCancel(
      withDeadline(
        Promise.race([cdp.send<{ loaderId?: string; errorText?: string }>('Page.navigate', { url }, timeout + 1000), closed]),
        timeout,
        `navigating to ${url}`,
      ),
      signal,
      stop,
    );
    if (nav.errorText) {
      failure = navigationFailure(url, nav.errorText);
      // Page.navigate answers before the error page commits; until it has, the old document is
      // still there and a next call would act on it (and see it vanish). Wait for the error page
      // (none comes for an aborted navigation: the old document stays).
      if (nav.errorText !== 'net::ERR_ABORTED') {
        const ms = Math.max(1000, Math.min(5000, timeout - (Date.now() - started)));
        await raceCancel(Promise.race([errorPage, closed, errorPageShown(port, page, ms)]), signal, stop).catch((e: unknown) => {
          if (e instanceof DeckhandError && e.code === ErrorCode.Cancelled) throw e;
        });
      }
    } else if (!landedAllowed(await landedUrl(port, page), allow)) {
      // A redirect may have taken it where the debugger cannot follow and no load event will
      // come. The frame list can lag the commit, so this look only decides what to wait for;
      // the check below, once the tab has settled, decides.
      await settled(port, page, Math.max(1000, timeout - (Date.now() - started)), signal);
    } else if (nav.loaderId && waitUntil !== 'commit') {
      // Same-document navigations (hash changes) have no loader and fire no load event.
      await raceCancel(withDeadline(Promise.race([loaded, closed]), timeout, `waiting for ${url} to ${waitUntil === 'load' ? 'load' : 'parse'}`), signal, stop);
    }
  } catch (e) {
    // The debugger is dropped when a navigation lands where it may not follow (another
    // extension's page), and the load then never comes: if the tab is still there, look
    // at where it went before reporting the failure.
    if (!(e instanceof DeckhandError) || (e.code !== ErrorCode.PageClosed && e.code !== ErrorCode.Timeout) || !(await pageExists(port, page))) throw e;
    failure = e;
  } finally {
    off();
    offError();
    offClosed();
  }
  if (failure?.code === ErrorCode.UrlNotAllowed) {
    await sendToBlank(port, page, failure);
    throw failure;
  }
  if (failure) {
    // A failed navigation commits its error page (or the page it was redirected to) a moment
    // after Page.navigate answers: let the tab settle before reading where it is.
    if (failure.code !== ErrorCode.Timeout) await settled(port, page, Math.max(1000, Math.min(5000, timeout - (Date.now() - started))), signal);
    const landed = await landedUrl(port, page);
    // A page still loading at the deadline may have no readable frame yet: that is a timeout, not a refusal.
    if (landed !== null || failure.code !== ErrorCode.Timeout) await refuseWhereLanded(port, page, url, allow, landed);
    throw failure;
  }
  await refuseWhereLanded(port, page, url, allow);
  return port.pageInfo(page);
}

/** How long a page's main thread may take to answer before a navigation treats it as hung. */
const HUNG_PROBE_MS = 1000;

/** Whether the page's main thread runs script within `ms`. */
async function answers(cdp: CdpSession, ms: number): Promise<boolean> {
  return cdp.send('Runtime.evaluate', { expression: '0' }, ms).then(
    () => true,
    (e: unknown) => !(e instanceof DeckhandError && e.code === ErrorCode.Timeout),
  );
}

/**
 * goto for a data: URL, or away from a hung page. Chromium refuses an extension's navigation of an open tab to data:
 * (the debugger's Page.navigate answers net::ERR_ABORTED whatever its frameId or
 * transitionType, tabs.update does nothing, and script in the page setting location is a
 * renderer-initiated top-level data: navigation, which Chromium blocks), but lets it create a
 * tab at one. So the document opens in a new tab beside the page, in the background; once it
 * has loaded, the port moves the page onto that tab (same window, index and active state; the
 * page keeps its id, so the caller's handle goes on working) and closes the old tab. Until
 * then the page is untouched: a failure or a timeout leaves it where it was.
 * The page's history is not preserved: after this, going back has nothing to go back to.
 */
async function gotoThroughNewTab(
  port: BrowserPort,
  page: number,
  url: string,
  options: GotoOptions,
  allow: readonly string[],
  signal?: AbortSignal,
): Promise<PageInfo> {
  const timeout = options.timeout ?? DEFAULTS.navigationTimeoutMs;
  const waitUntil = options.waitUntil ?? 'load';
  const deadline = Date.now() + timeout;
  const short = url.length > 80 ? `${url.slice(0, 77)}...` : url;
  let offClosed = () => {};
  const closed = new Promise<never>((_, reject) => {
    offClosed = port.onPageClosed(page, () => reject(new DeckhandError(ErrorCode.PageClosed, `the page was closed while navigating to ${short}`)));
  });
  closed.catch(() => undefined);
  const creating = port.createPage(url, { beside: page });
  let fresh: PageInfo;
  try {
    fresh = await raceCancel(withDeadline(Promise.race([creating, closed]), timeout, `opening ${short}`), signal);
  } catch (e) {
    offClosed();
    void creating.then((t) => port.closePage(t.id)).catch(() => undefined);
    throw e;
  }
  try {
    // Loaded: the tab has committed the document (its frame names a URL other than the initial
    // about:blank) and, unless waitUntil is 'commit', stopped loading. The tabs API does not
    // tell DOMContentLoaded from load, so 'domcontentloaded' waits for the load here.
    for (;;) {
      const landed = await landedUrl(port, fresh.id);
      if (landed !== null && landed !== 'about:blank' && (waitUntil === 'commit' || !(await port.isLoading(fresh.id)))) break;
      if (landed === null && !(await pageExists(port, fresh.id))) {
        const why = `navigation to ${short} failed: the tab opened for it closed before showing a document (a data: URL that downloads?)`;
        throw new DeckhandError(ErrorCode.NavigationFailed, why, { url: short });
      }
      if (Date.now() >= deadline) {
        const why = `navigating to ${short} timed out after ${timeout} ms (waiting for it to ${waitUntil === 'commit' ? 'commit' : 'load'})`;
        throw new DeckhandError(ErrorCode.Timeout, why, { timeoutMs: timeout });
      }
      await Promise.race([cancellableSleep(25, signal), closed]);
    }
    await Promise.race([port.adoptPage!(page, fresh.id), closed]);
  } catch (e) {
    await port.closePage(fresh.id).catch(() => undefined);
    throw e;
  } finally {
    offClosed();
  }
  await refuseWhereLanded(port, page, url, allow);
  return port.pageInfo(page);
}

/** Wait, at most `ms`, until the tab stops loading (a bounded wait: the caller reports its own failure either way). */
async function settled(port: BrowserPort, page: number, ms: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && (await port.isLoading(page))) await cancellableSleep(25, signal);
}

/** Resolve once the top frame shows Chromium's error page, or after `ms` (a bounded look: the caller goes on either way). */
async function errorPageShown(port: BrowserPort, page: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (schemeOf((await landedUrl(port, page)) ?? '') === 'chrome-error') return;
    await sleep(25);
  }
}

/** Open `url` in a new page (context.newPage). */
export async function openPage(
  port: BrowserPort,
  url: string,
  options: GotoOptions = {},
  allow: readonly string[] = [],
  signal?: AbortSignal,
): Promise<PageInfo> {
  assertUrlAllowed(url, allow);
  if (schemeOf(url) !== 'data') return goto(port, (await port.createPage()).id, url, options, allow, signal);
  // Chromium lets an extension open a data: URL only as a new tab (the debugger's
  // Page.navigate and tabs.update are refused), so create the tab at it and wait for it.
  const timeout = options.timeout ?? DEFAULTS.navigationTimeoutMs;
  const info = await port.createPage(url);
  await settled(port, info.id, timeout, signal);
  if (await port.isLoading(info.id)) {
    throw new DeckhandError(ErrorCode.Timeout, `waiting for the new page at ${url.slice(0, 80)} to load timed out after ${timeout} ms`, { timeoutMs: timeout });
  }
  await refuseWhereLanded(port, info.id, url, allow);
  return port.pageInfo(info.id);
}

/** The page's debugger session; a page on somewhere the debugger cannot attach is sent to about:blank first, since the caller is leaving it anyway. */
async function sessionLeaving(port: BrowserPort, page: number): Promise<CdpSession> {
  try {
    return await port.cdp(page);
  } catch (e) {
    if (e instanceof DeckhandError && (e.code === ErrorCode.PageClosed || e.code === ErrorCode.Timeout)) throw e;
    await port.resetPage(page);
    return port.cdp(page);
  }
}

function navigationFailure(url: string, errorText: string): DeckhandError {
  if (errorText === 'net::ERR_UNSAFE_REDIRECT') {
    // Chromium never follows a web redirect to file:, chrome:, data:, javascript: and the like.
    return new DeckhandError(
      ErrorCode.UrlNotAllowed,
      `navigation to ${url} was redirected to a URL a web page may not redirect to, such as file: or chrome: (Chromium refused it: ${errorText}); ` +
        'the page was sent to about:blank',
      { url, redirected: true, errorText },
    );
  }
  if (errorText === 'net::ERR_ABORTED' && schemeOf(url) === 'data') {
    return new DeckhandError(
      ErrorCode.NavigationFailed,
      `navigation to ${url.slice(0, 80)} failed: Chromium does not let an extension navigate an open page to a data: URL (${errorText}), ` +
        'and this browser adapter cannot move a page to a new tab; open it in a new page instead (context.newPage(url))',
      { url: url.slice(0, 120), errorText },
    );
  }
  return new DeckhandError(ErrorCode.NavigationFailed, `navigation to ${url} failed: ${errorText}`, { url, errorText });
}

const pageExists = (port: BrowserPort, page: number) =>
  port.pageInfo(page).then(
    () => true,
    () => false,
  );

/**
 * Where the top frame is now: from the frame list (which names data:, about: and browser
 * pages), else the tab's URL (which names this extension's own pages); null when the
 * extension may read neither (another extension's page).
 */
async function landedUrl(port: BrowserPort, page: number): Promise<string | null> {
  const frames = await port.frames(page).catch(() => [] as { parentFrameId: number; url: string }[]);
  const top = frames.find((f) => f.parentFrameId === -1)?.url;
  if (top) return top;
  const info = await port.pageInfo(page).catch(() => null);
  return info?.url || null;
}

/** Whether a page may stay where it landed (chrome-error: is Chromium showing a failed navigation, reported as NAVIGATION_FAILED). */
function landedAllowed(landed: string | null, allow: readonly string[]): boolean {
  return landed !== null && (schemeOf(landed) === 'chrome-error' || urlRefusal(landed, allow) === null);
}

/** After a navigation: if it ended on a URL the policy refuses, send the page to about:blank and throw URL_NOT_ALLOWED. */
async function refuseWhereLanded(port: BrowserPort, page: number, requested: string, allow: readonly string[], known?: string | null): Promise<void> {
  const landed = known !== undefined ? known : await landedUrl(port, page);
  if (landedAllowed(landed, allow)) return;
  const refusal = urlRefusal(landed ?? '', allow, requested)!;
  await sendToBlank(port, page, refusal);
  throw refusal;
}

async function sendToBlank(port: BrowserPort, page: number, refusal: DeckhandError): Promise<void> {
  try {
    await port.resetPage(page);
  } catch (e) {
    refusal.message = refusal.message.replace('; the page was sent to about:blank', `; sending the page to about:blank failed too (${(e as Error).message})`);
  }
}

export async function evaluate(port: BrowserPort, page: number, source: string, isFunction: boolean, arg: unknown, timeoutMs: number): Promise<unknown> {
  const cdp = await port.cdp(page);
  const expression = isFunction ? `(${source})(${arg === undefined ? 'undefined' : JSON.stringify(arg)})` : source;
  const r = await withDeadline(
    cdp.send<{
      result: { value?: unknown; type: string; unserializableValue?: string };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true, userGesture: true }, timeoutMs + 1000),
    timeoutMs,
    'page.evaluate',
  );
  if (r.exceptionDetails) {
    const d = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
    throw new DeckhandError(ErrorCode.EvaluationFailed, `page.evaluate threw: ${d.split('\n')[0]}`, { stack: d });
  }
  if (r.result.unserializableValue !== undefined) return Number(r.result.unserializableValue);
  return r.result.value;
}

export async function screenshot(port: BrowserPort, page: number, options: ScreenshotOptions = {}): Promise<{ data: string; mimeType: string }> {
  const cdp = await port.cdp(page);
  const format = options.type ?? 'png';
  const params: Record<string, unknown> = { format, ...(format === 'jpeg' ? { quality: options.quality ?? 80 } : {}) };
  if (options.fullPage) {
    const m = await cdp.send<{ cssContentSize: { width: number; height: number } }>('Page.getLayoutMetrics');
    params.captureBeyondViewport = true;
    params.clip = { x: 0, y: 0, width: Math.ceil(m.cssContentSize.width), height: Math.ceil(m.cssContentSize.height), scale: 1 };
  }
  const r = await withDeadline(cdp.send<{ data: string }>('Page.captureScreenshot', params, 30_000), 30_000, 'page.screenshot');
  return { data: r.data, mimeType: `image/${format}` };
}
