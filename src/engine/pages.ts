/** Page commands: navigation, evaluation, screenshots, page info. */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { DEFAULTS, type GotoOptions, type PageInfo, type ScreenshotOptions } from '../protocol/schemas';
import type { BrowserPort } from './ports';

export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeckhandError(ErrorCode.Timeout, `${what} timed out after ${ms} ms`, { timeoutMs: ms })), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export async function goto(port: BrowserPort, page: number, url: string, options: GotoOptions = {}): Promise<PageInfo> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DeckhandError(ErrorCode.InvalidArgument, `'${url}' is not an absolute URL (include the scheme, e.g. https://)`);
  }
  if (!/^(https?|file|data|about|chrome-extension):$/.test(parsed.protocol)) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `cannot navigate to a ${parsed.protocol} URL`);
  }
  const timeout = options.timeout ?? DEFAULTS.navigationTimeoutMs;
  const waitUntil = options.waitUntil ?? 'load';
  const cdp = await port.cdp(page);
  const eventName = waitUntil === 'domcontentloaded' ? 'Page.domContentEventFired' : 'Page.loadEventFired';
  let off = () => {};
  const loaded = new Promise<void>((resolve) => {
    off = cdp.on(eventName, () => resolve());
  });
  let offClosed = () => {};
  const closed = new Promise<never>((_, reject) => {
    offClosed = port.onPageClosed(page, () => reject(new DeckhandError(ErrorCode.PageClosed, `the page was closed while navigating to ${url}`)));
  });
  closed.catch(() => undefined);
  try {
    const nav = await withDeadline(
      Promise.race([cdp.send<{ loaderId?: string; errorText?: string }>('Page.navigate', { url }, timeout + 1000), closed]),
      timeout,
      `navigating to ${url}`,
    );
    if (nav.errorText) throw new DeckhandError(ErrorCode.NavigationFailed, `navigation to ${url} failed: ${nav.errorText}`);
    // Same-document navigations (hash changes) have no loader and fire no load event.
    if (nav.loaderId && waitUntil !== 'commit') await withDeadline(Promise.race([loaded, closed]), timeout, `waiting for ${url} to ${waitUntil === 'load' ? 'load' : 'parse'}`);
  } finally {
    off();
    offClosed();
  }
  return port.pageInfo(page);
}

export async function evaluate(port: BrowserPort, page: number, source: string, isFunction: boolean, arg: unknown, timeoutMs: number): Promise<unknown> {
  const cdp = await port.cdp(page);
  const expression = isFunction ? `(${source})(${arg === undefined ? 'undefined' : JSON.stringify(arg)})` : source;
  const r = await withDeadline(
    cdp.send<{ result: { value?: unknown; type: string; unserializableValue?: string }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true, userGesture: true },
      timeoutMs + 1000,
    ),
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
