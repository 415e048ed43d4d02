/**
 * `gridBrowser.launch()`: a browser from a Selenium Grid 4 instead of this machine. The Grid
 * queues the new-session request, a node starts Chromium with the extension, and the handle
 * drives it through the session's `se:cdp` WebSocket (which the Grid's router proxies), the
 * same way `localBrowser.connect()` drives any browser with the extension. Closing the
 * handle deletes the Grid session. The Grid ends sessions that see no command for a while;
 * the handle's health check over CDP (Grid 4.41 counts that traffic) and a periodic cheap
 * WebDriver command keep an open handle's session alive.
 */
import { readFile } from 'node:fs/promises';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { DEFAULT_VIEWPORT, LAUNCH_DEFAULTS, SHARED_CHROMIUM_FLAGS } from '../protocol/launch';
import { checkMs } from '../protocol/schemas';
import { parseAllowSchemes } from '../protocol/url-policy';
import { handleOver, type BrowserHandle } from './browser';
import { extensionDir } from './paths';

export interface GridLaunchOptions {
  /** The Grid's address (its router or standalone server), e.g. http://127.0.0.1:4444 or http://grid:4444/wd/hub. */
  url: string;
  /** Headers for every request to the Grid and its CDP proxy (a reverse proxy's Authorization, say). Never logged. */
  headers?: Record<string, string>;
  /** Default true. */
  headless?: boolean;
  viewport?: { width: number; height: number };
  /**
   * The built extension's folder as the node sees it; default: this machine's build (right when
   * the node runs here, or has the same path mounted). Chromium and Chrome for Testing load it;
   * branded Chrome 137 and later ignore --load-extension.
   */
  extensionDir?: string;
  /**
   * Send the extension with the session request instead (the package `npm run build` writes
   * beside the build, .output/chrome-mv3.crx, in goog:chromeOptions.extensions): for nodes that
   * do not have its files. chromedriver unpacks it and loads it with --load-extension itself.
   */
  packedExtension?: boolean;
  /** Chromium's path on the node (goog:chromeOptions.binary); default: the node's own choice. */
  binary?: string;
  /** More switches for the node's Chromium. */
  args?: string[];
  /** More W3C capabilities to match a node by (platformName, se:name, ...); goog:chromeOptions is Deckhand's. */
  capabilities?: Record<string, unknown>;
  /** How long the new session may take, the Grid's queue included, in ms; default 60000. */
  timeout?: number;
  /** How often the handle tells the Grid the session is in use, in ms; default 60000 (keep it under the Grid's --session-timeout). */
  keepAlive?: number;
  /** See localBrowser.launch: extra URL schemes this browser may open. */
  allowUrlSchemes?: string[];
}

/**
 * How often the handle checks that the browser behind the Grid still answers, and how long it
 * waits: the Grid's CDP proxy keeps the WebSocket open when a node's browser dies, so without
 * this a call would wait out its own deadline.
 */
const HEALTH_EVERY_MS = 5000;
const HEALTH_WAIT_MS = 10_000;

/** The Grid's own words from a WebDriver error body, short. */
async function gridSays(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  let msg = text;
  try {
    const v = (JSON.parse(text) as { value?: { error?: string; message?: string } }).value;
    if (v?.message) msg = v.error ? `${v.error}: ${v.message}` : v.message;
  } catch {
    /* not JSON: the text as it came */
  }
  msg = msg.split('\n')[0].trim();
  return msg.length > 300 ? msg.slice(0, 297) + '...' : msg || `HTTP ${res.status}`;
}

function baseOf(url: unknown): string {
  if (typeof url !== 'string')
    throw new DeckhandError(ErrorCode.InvalidArgument, "gridBrowser.launch() needs { url }: the Grid's address, e.g. http://127.0.0.1:4444");
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DeckhandError(ErrorCode.InvalidArgument, `the Grid's url must be an http(s):// URL, got '${url.slice(0, 200)}'`);
  }
  // Before any message that repeats the url: it would repeat the password too.
  if (u.username || u.password) throw new DeckhandError(ErrorCode.InvalidArgument, "put the Grid's credentials in headers (Authorization), not in its url");
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new DeckhandError(ErrorCode.InvalidArgument, `the Grid's url must be an http(s):// URL, got '${url.slice(0, 200)}'`);
  return u.origin + u.pathname.replace(/\/+$/, '');
}

async function launch(options: GridLaunchOptions): Promise<BrowserHandle> {
  if (typeof options !== 'object' || options === null)
    throw new DeckhandError(ErrorCode.InvalidArgument, "gridBrowser.launch() takes an options object with the Grid's url");
  const base = baseOf(options.url);
  const allowUrlSchemes = parseAllowSchemes(options.allowUrlSchemes);
  const timeout = options.timeout === undefined ? LAUNCH_DEFAULTS.gridTimeoutMs : checkMs('timeout', options.timeout, { whole: false });
  const keepAlive = options.keepAlive === undefined ? LAUNCH_DEFAULTS.gridKeepAliveMs : checkMs('keepAlive', options.keepAlive, { whole: false });
  if (keepAlive < LAUNCH_DEFAULTS.gridKeepAliveMinMs)
    throw new DeckhandError(ErrorCode.InvalidArgument, `keepAlive must be at least ${LAUNCH_DEFAULTS.gridKeepAliveMinMs} ms, got ${keepAlive}`);
  const vp = options.viewport ?? DEFAULT_VIEWPORT;
  if (!(vp.width > 0 && vp.height > 0)) throw new DeckhandError(ErrorCode.InvalidArgument, 'viewport needs positive width and height');
  const ext = options.extensionDir ?? extensionDir();
  let packed: string | null = null;
  if (options.packedExtension) {
    const crx = `${extensionDir()}.crx`;
    try {
      packed = (await readFile(crx)).toString('base64');
    } catch {
      throw new DeckhandError(ErrorCode.ExtensionMissing, `no packed extension at ${crx}: npm run build writes it where Chromium is installed`);
    }
  }
  const headers = { ...(options.headers ?? {}) };
  const deadline = Date.now() + timeout;
  const left = () => Math.max(1, deadline - Date.now());

  const args = [
    // Not the switches only for a Chromium Deckhand starts itself (src/protocol/launch.ts).
    ...SHARED_CHROMIUM_FLAGS,
    // A packed extension is unpacked by chromedriver into a folder of its choosing, which it loads itself.
    ...(packed ? [] : [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`]),
    `--window-size=${vp.width},${vp.height}`,
    ...(options.headless === false ? [] : ['--headless=new']),
    ...(options.args ?? []),
  ];
  const chromeOptions: Record<string, unknown> = { args };
  if (options.binary) chromeOptions.binary = options.binary;
  if (packed) chromeOptions.extensions = [packed];
  const body = { capabilities: { alwaysMatch: { browserName: 'chrome', ...(options.capabilities ?? {}), 'goog:chromeOptions': chromeOptions } } };

  let res: Response;
  try {
    res = await fetch(`${base}/session`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(left()),
    });
  } catch (e) {
    const err = e as Error;
    if (err.name === 'TimeoutError' || err.name === 'AbortError') {
      throw new DeckhandError(
        ErrorCode.Timeout,
        `the Selenium Grid at ${base} gave no browser within ${timeout} ms (its queue may be full, or no node matches)`,
        { timeoutMs: timeout },
      );
    }
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new DeckhandError(ErrorCode.BrowserUnavailable, `the Selenium Grid at ${base} could not be reached: ${cause?.code ?? cause?.message ?? err.message}`);
  }
  if (!res.ok)
    throw new DeckhandError(ErrorCode.BrowserUnavailable, `the Selenium Grid at ${base} gave no browser: ${await gridSays(res)}`, { status: res.status });
  const value = ((await res.json().catch(() => null)) as { value?: { sessionId?: string; capabilities?: Record<string, unknown> } } | null)?.value;
  const id = value?.sessionId;
  if (typeof id !== 'string' || !/^[\w-]{1,200}$/.test(id))
    throw new DeckhandError(ErrorCode.BrowserUnavailable, `the Selenium Grid at ${base} answered a new session without a session id`);

  const cdp = value?.capabilities?.['se:cdp'];
  if (typeof cdp !== 'string' || !/^wss?:\/\//.test(cdp)) {
    await deleteSession(base, id, headers);
    throw new DeckhandError(
      ErrorCode.BrowserUnavailable,
      `the Selenium Grid at ${base} gave a session with no se:cdp address: its node's browser is not Chromium, or the Grid does not proxy CDP`,
    );
  }
  try {
    return await over(base, id, cdp, { headers, keepAlive, timeoutMs: Math.min(left(), 30_000), allowUrlSchemes, endOnFailure: true });
  } catch (e) {
    if (e instanceof DeckhandError && e.code === ErrorCode.ExtensionMissing && !packed) {
      e.message += ` (the Grid's node was asked to load it from ${ext}: that folder must exist on the node, with the extension built)`;
    }
    throw e;
  }
}

/** Delete a Grid session; a Grid that is gone, or no longer knows it, already ended it. */
function deleteSession(base: string, id: string, headers: Record<string, string>): Promise<void> {
  return fetch(`${base}/session/${encodeURIComponent(id)}`, { method: 'DELETE', headers, signal: AbortSignal.timeout(10_000) }).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * A handle on Grid session `id` through its se:cdp address, keeping the session alive while it
 * is open. Closing it deletes the session; detaching leaves it to whoever goes on using it.
 * `endOnFailure`: a session this handle was to start is deleted when the handle cannot be made;
 * one another process started (attach) is left to it.
 */
async function over(
  base: string,
  id: string,
  cdp: string,
  o: { headers: Record<string, string>; keepAlive: number; timeoutMs: number; allowUrlSchemes: ReturnType<typeof parseAllowSchemes>; endOnFailure: boolean },
): Promise<BrowserHandle> {
  const { headers, keepAlive } = o;
  let ended: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let health: NodeJS.Timeout | undefined;
  const stopTimers = () => {
    clearInterval(timer);
    clearInterval(health);
  };
  /** Delete the Grid session (once). */
  const end = (): Promise<void> => {
    stopTimers();
    ended ??= deleteSession(base, id, headers);
    return ended;
  };
  let handle: BrowserHandle | null = null;
  /** The browser is gone: calls in flight and later ones fail with BROWSER_CLOSED, and the Grid session is ended. */
  const lost = () => {
    if (handle?.isConnected) handle.cdp.close();
    void end();
  };
  // Any WebDriver command resets the Grid's idle clock; asking for the window handle costs the node nothing.
  // A session the Grid no longer knows (it timed out, its node went away) is a browser that is gone.
  timer = setInterval(() => {
    void keepAliveOnce(base, id, headers, Math.min(keepAlive, 30_000)).then((known) => {
      if (!known) lost();
    });
  }, keepAlive);
  timer.unref();
  try {
    handle = await handleOver(cdp, { headers, timeoutMs: o.timeoutMs, allowUrlSchemes: o.allowUrlSchemes, release: end });
    const h = handle;
    h.grid = { url: base, sessionId: id, cdpUrl: cdp };
    h.onDisconnect(() => void (h.detached ? stopTimers() : end()));
    health = setInterval(() => {
      if (!h.isConnected) return void clearInterval(health);
      h.cdp.send('Browser.getVersion', {}, undefined, HEALTH_WAIT_MS).catch(() => lost());
    }, HEALTH_EVERY_MS);
    health.unref();
    return h;
  } catch (e) {
    if (o.endOnFailure) await end();
    else stopTimers();
    throw e;
  }
}

/**
 * Tell the Grid session `id` is in use (a cheap WebDriver command); false when the Grid answers
 * that it does not know the session (it ended, or its node went away). An unreachable Grid is
 * not taken for an ended session: true.
 */
async function keepAliveOnce(base: string, id: string, headers: Record<string, string>, timeoutMs = 30_000): Promise<boolean> {
  try {
    const res = await fetch(`${base}/session/${encodeURIComponent(id)}/window`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => undefined);
    return res.status !== 404;
  } catch {
    return true;
  }
}

export interface GridAttachOptions {
  /** The Grid's address, as for launch. */
  url: string;
  /** The Grid session to attach to (one a gridBrowser.launch() elsewhere started). */
  sessionId: string;
  /** Its se:cdp address; default the Grid's own form, ws(s)://<grid>/session/<id>/se/cdp. */
  cdpUrl?: string;
  headers?: Record<string, string>;
  /** How long attaching may take, in ms (default `LAUNCH_DEFAULTS.gridAttachTimeoutMs`). */
  timeout?: number;
  keepAlive?: number;
  allowUrlSchemes?: string[];
}

/**
 * Attach to a Grid session another process started with launch() (a service's other replica,
 * say): the same handle, keeping the session alive; close() deletes the Grid session.
 */
async function attach(options: GridAttachOptions): Promise<BrowserHandle> {
  if (typeof options !== 'object' || options === null) throw new DeckhandError(ErrorCode.InvalidArgument, 'gridBrowser.attach() takes { url, sessionId }');
  const base = baseOf(options.url);
  if (typeof options.sessionId !== 'string' || !/^[\w-]{1,200}$/.test(options.sessionId))
    throw new DeckhandError(ErrorCode.InvalidArgument, 'gridBrowser.attach() needs { sessionId }: a Grid session id');
  const allowUrlSchemes = parseAllowSchemes(options.allowUrlSchemes);
  const timeout = options.timeout === undefined ? LAUNCH_DEFAULTS.gridAttachTimeoutMs : checkMs('timeout', options.timeout, { whole: false });
  const keepAlive = options.keepAlive === undefined ? LAUNCH_DEFAULTS.gridKeepAliveMs : checkMs('keepAlive', options.keepAlive, { whole: false });
  if (keepAlive < LAUNCH_DEFAULTS.gridKeepAliveMinMs)
    throw new DeckhandError(ErrorCode.InvalidArgument, `keepAlive must be at least ${LAUNCH_DEFAULTS.gridKeepAliveMinMs} ms, got ${keepAlive}`);
  const cdp = options.cdpUrl ?? `${base.replace(/^http/, 'ws')}/session/${options.sessionId}/se/cdp`;
  if (!/^wss?:\/\//.test(cdp)) throw new DeckhandError(ErrorCode.InvalidArgument, `cdpUrl must be a ws(s):// address, got '${cdp.slice(0, 200)}'`);
  const headers = { ...(options.headers ?? {}) };
  if (!(await keepAliveOnce(base, options.sessionId, headers, Math.min(timeout, 10_000)))) {
    throw new DeckhandError(ErrorCode.BrowserUnavailable, `the Selenium Grid at ${base} has no session ${options.sessionId} (it ended, or its node went away)`);
  }
  return over(base, options.sessionId, cdp, { headers, keepAlive, timeoutMs: timeout, allowUrlSchemes, endOnFailure: false });
}

/** End Grid session `sessionId` without attaching to it (a service ending a session another replica started). */
async function end(options: { url: string; sessionId: string; headers?: Record<string, string> }): Promise<void> {
  await deleteSession(baseOf(options.url), options.sessionId, { ...(options.headers ?? {}) });
}

/** Keep Grid session `sessionId` alive once; false when the Grid no longer knows it. */
function keepAlive(options: { url: string; sessionId: string; headers?: Record<string, string> }): Promise<boolean> {
  return keepAliveOnce(baseOf(options.url), options.sessionId, { ...(options.headers ?? {}) });
}

export const gridBrowser = { launch, attach, end, keepAlive };
