/**
 * Browser handles: `localBrowser.launch()` starts Chromium with the extension
 * loaded (CDP over a pipe: no debugging port is opened), `localBrowser.connect()`
 * attaches to a running Chromium that already has the extension, and
 * `localBrowser.attach()` waits for the extension in a person's own Chrome to dial
 * in over the WebSocket bridge (no remote debugging at all).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { checkMs } from '../protocol/schemas';
import { BrowserContext, type FacadeHost } from '../facade/page';
import { CdpConnection, PipeTransport, WebSocketTransport } from './cdp';
import { CHROMIUM_FLAGS, DEFAULT_VIEWPORT, LAUNCH_DEFAULTS } from '../protocol/launch';
import { BridgeLink, bridgeHost, newPairingToken } from './bridge';
import { EXTENSION_ID, ExtensionLink } from './extension-link';
import type { WorkerLink } from './link';
import { BridgePortSchema, PairingTokenSchema } from '../protocol/panel';
import { extensionDir, findChromium } from './paths';
import { createTempProfile, type TempProfile } from './temp-profiles';
import { OutputTail, chromiumReason } from './chromium-output';
import { parseAllowSchemes, type OptionalUrlScheme } from '../protocol/url-policy';

/**
 * URL schemes to open beyond http:, https:, data: and about:blank, for whoever owns the
 * machine: 'file', 'about', 'chrome', 'chrome-extension', 'devtools', 'view-source', 'blob'.
 * Every navigation through this handle (page.goto, newPage, the agent's goto) may then open
 * them. javascript: is never opened.
 */
type AllowUrlSchemes = { allowUrlSchemes?: string[] };

export interface LaunchOptions {
  headless?: boolean;
  executablePath?: string;
  viewport?: { width: number; height: number };
  userDataDir?: string;
  args?: string[];
  /** Deadline for the browser and the extension's worker to come up. */
  timeout?: number;
  /** See AllowUrlSchemes: extra URL schemes this browser may open, e.g. ['file']. */
  allowUrlSchemes?: string[];
  /**
   * Let this browser serve isolated contexts (`newContext()`): the extension is allowed in them,
   * each with its own worker and engine. Only with a temporary profile (no userDataDir).
   */
  isolatedContexts?: boolean;
}

export interface ConnectOptions extends AllowUrlSchemes {
  cdpUrl: string;
  headers?: Record<string, string>;
  timeout?: number;
}

/** What a person enters in the side panel under "Connect to a local client". */
export interface PairingInfo {
  port: number;
  token: string;
  /** The address the client listens on (always loopback). */
  host: string;
}

export interface AttachOptions extends AllowUrlSchemes {
  /** Port to listen on, 1024 to 65535; default 0: a free port, shown in onPairing. */
  port?: number;
  /** The one-time pairing token; default: a random one. */
  token?: string;
  /** A loopback address only; default 127.0.0.1 (the address the extension dials). */
  host?: string;
  /** How long to wait for the extension to pair, in ms; default 120000. */
  timeout?: number;
  /** How long a call waits for a restarted worker to dial back in, in ms; default 45000 (the extension's alarm wakes a stopped worker within 30 s). */
  reconnectTimeout?: number;
  /** Told where to pair; default: one line on stderr for the person. */
  onPairing?: (pairing: PairingInfo) => void;
  /** How the side panel names this client; default: the script's file name and process id. */
  name?: string;
}

const nodeHost = (): FacadeHost => ({
  bytes: (b64) => Buffer.from(b64, 'base64'),
  writeFile: (path, data) => writeFile(path, data),
});

/** A browser with the Deckhand extension. At most one Deckhand instance may use it. */
export class BrowserHandle {
  readonly context: BrowserContext;
  /** @internal */ claimedBy: object | null = null;
  /** @internal Host hooks of this browser's pages (the Deckhand instance adds extract). */
  readonly host: FacadeHost = nodeHost();
  private closing: Promise<void> | null = null;

  /** @internal */
  constructor(
    /** @internal */ readonly link: WorkerLink,
    /** null over the WebSocket bridge: it carries Deckhand calls only. */
    private readonly conn: CdpConnection | null,
    private readonly proc: ChildProcess | null,
    private readonly tempProfile: TempProfile | null,
    allowUrlSchemes: readonly OptionalUrlScheme[] = [],
    /** Ends what the handle holds elsewhere once its connection is closed (a Grid session, an isolated context). */
    private readonly release: (() => Promise<void>) | null = null,
    /** False for an isolated context's handle: the connection is its browser's, which outlives it. */
    private readonly ownsConnection = true,
  ) {
    this.allowUrlSchemes = Object.freeze([...allowUrlSchemes]);
    this.context = new BrowserContext(link, this.host, this.allowUrlSchemes);
  }

  /** URL schemes this handle opens beyond the default (allowUrlSchemes at launch, connect or attach). */
  readonly allowUrlSchemes: readonly OptionalUrlScheme[];

  get extensionId(): string {
    return this.link.extensionId;
  }
  get isConnected(): boolean {
    return this.link.isConnected;
  }
  /**
   * Call `f` once when the browser goes away on its own (it exited, crashed, or its connection
   * dropped), so an owner can free what it holds at once. Returns the unsubscribe function.
   * Over the WebSocket bridge nothing is reported here; `isConnected` still turns false.
   */
  onDisconnect(f: () => void): () => void {
    const conn = this.conn;
    if (!conn) return () => undefined;
    if (conn.closed) {
      queueMicrotask(f);
      return () => undefined;
    }
    const once = () => f();
    conn.once('close', once);
    return () => void conn.off('close', once);
  }

  /** @internal CDP connection, for tests and tools that need raw access. */
  get cdp(): CdpConnection {
    if (!this.conn) {
      throw new DeckhandError(
        ErrorCode.Unavailable,
        'this browser is attached over the WebSocket bridge, which carries Deckhand calls only: there is no CDP connection',
      );
    }
    return this.conn;
  }

  /**
   * @internal Where another process can reach this browser when it came from a Selenium Grid:
   * the Grid, its session id and the session's se:cdp address (a service's replicas share it).
   */
  grid: { url: string; sessionId: string; cdpUrl: string } | null = null;

  /**
   * @internal Let go of the browser without ending it or what the handle holds elsewhere (its
   * Grid session): another process goes on using it.
   */
  detach(): Promise<void> {
    this.detached = true;
    this.closing ??= (async () => {
      await this.link.close(new DeckhandError(ErrorCode.BrowserClosed, 'the browser connection was closed'));
      if (this.ownsConnection) this.conn?.close();
    })();
    return this.closing;
  }
  /** @internal Set once detach() was called: the disconnect that follows is not the browser going away. */
  detached = false;

  /**
   * A new isolated context in this browser (launched with `isolatedContexts`), as a handle of its
   * own for one Deckhand instance: its own cookies, storage and downloads, its own engine (the
   * extension's worker for that context) and pages. Closing it removes the context and all it
   * holds; the browser stays. Much lighter than a browser of its own (one renderer and one worker
   * more, against a whole browser).
   */
  async newContext(options: { viewport?: { width: number; height: number }; timeout?: number } = {}): Promise<BrowserHandle> {
    const conn = this.cdp;
    if (!this.proc)
      throw new DeckhandError(ErrorCode.InvalidArgument, 'newContext() needs a browser launched here with localBrowser.launch({ isolatedContexts: true })');
    const timeout = positiveMs('timeout', options.timeout, LAUNCH_DEFAULTS.launchTimeoutMs);
    const vp = options.viewport ?? DEFAULT_VIEWPORT;
    if (!(vp.width > 0 && vp.height > 0)) throw new DeckhandError(ErrorCode.InvalidArgument, 'viewport needs positive width and height');
    const { browserContextId } = await conn.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: false }, undefined, timeout);
    const dispose = async () => {
      await conn.send('Target.disposeBrowserContext', { browserContextId }, undefined, 5000).catch(() => undefined);
    };
    try {
      // The context's first page: its worker starts for it, and it is the engine's first active page.
      await conn.send('Target.createTarget', { url: 'about:blank', browserContextId, newWindow: true, width: vp.width, height: vp.height }, undefined, timeout);
      const link = await ExtensionLink.open(conn, { timeoutMs: timeout, browserContextId });
      return new BrowserHandle(link, conn, null, null, this.allowUrlSchemes, dispose, false);
    } catch (e) {
      await dispose();
      if (e instanceof DeckhandError && e.code === ErrorCode.ExtensionMissing) {
        e.message = `the extension did not start in the new context (was the browser launched with isolatedContexts: true?): ${e.message}`;
      }
      throw e;
    }
  }

  /** Close a launched browser (or disconnect from a connected one). Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const what = this.proc ? 'the browser was closed' : this.conn ? 'the browser connection was closed' : 'the bridge connection was closed';
      await this.link.close(new DeckhandError(ErrorCode.BrowserClosed, what));
      if (this.proc && this.conn) {
        await this.conn.send('Browser.close', {}, undefined, 3000).catch(() => undefined);
        await waitForExit(this.proc, 5000);
      } else if (this.ownsConnection) this.conn?.close();
      await this.tempProfile?.remove();
      await this.release?.();
    })();
    return this.closing;
  }
}

function waitForExit(proc: ChildProcess, ms: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve();
    }, ms);
    proc.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

async function launch(options: LaunchOptions = {}): Promise<BrowserHandle> {
  const allowUrlSchemes = parseAllowSchemes(options.allowUrlSchemes);
  const executablePath = options.executablePath ?? findChromium();
  if (!executablePath || !existsSync(executablePath)) {
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `no Chromium found${executablePath ? ` at ${executablePath}` : ''}; install it (npm run setup does) or pass executablePath`,
    );
  }
  const ext = extensionDir();
  if (!existsSync(join(ext, 'manifest.json'))) {
    throw new DeckhandError(ErrorCode.ExtensionMissing, `the extension is not built (no ${ext}/manifest.json); run npm run build`);
  }
  const vp = options.viewport ?? DEFAULT_VIEWPORT;
  if (!(vp.width > 0 && vp.height > 0)) throw new DeckhandError(ErrorCode.InvalidArgument, 'viewport needs positive width and height');
  const timeout = positiveMs('timeout', options.timeout, LAUNCH_DEFAULTS.launchTimeoutMs);
  if (options.isolatedContexts && options.userDataDir)
    throw new DeckhandError(ErrorCode.InvalidArgument, 'isolatedContexts needs a temporary profile: leave userDataDir out');
  const tempProfile = options.userDataDir ? null : await createTempProfile();
  if (options.isolatedContexts) {
    // Isolated contexts are off-the-record: an extension runs there only when the profile allows
    // it. The manifest's "incognito": "split" then gives each context a worker of its own.
    await mkdir(join(tempProfile!.dir, 'Default'), { recursive: true });
    await writeFile(join(tempProfile!.dir, 'Default', 'Preferences'), JSON.stringify({ extensions: { settings: { [EXTENSION_ID]: { incognito: true } } } }));
  }
  const args = [
    '--remote-debugging-pipe',
    `--user-data-dir=${options.userDataDir ?? tempProfile!.dir}`,
    `--disable-extensions-except=${ext}`,
    `--load-extension=${ext}`,
    ...CHROMIUM_FLAGS,
    `--window-size=${vp.width},${vp.height}`,
    ...(options.headless === false ? [] : ['--headless']),
    ...(options.args ?? []),
  ];
  let proc: ChildProcess;
  try {
    // Its own process group, so Chromium's helpers can be ended with it before its profile is removed.
    proc = spawn(executablePath, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  } catch (e) {
    await tempProfile?.remove();
    throw new DeckhandError(ErrorCode.BrowserClosed, `could not start Chromium at ${executablePath}: ${(e as Error).message}`);
  }
  tempProfile?.use(proc);
  const stderr = new OutputTail();
  proc.stderr!.on('data', (d: Buffer) => stderr.push(d));
  const said = () => {
    const reason = chromiumReason(stderr.toString());
    return reason ? `; Chromium said: ${reason}` : '';
  };
  const exitedDuringLaunch = () =>
    new DeckhandError(
      ErrorCode.BrowserClosed,
      `Chromium exited during launch (${proc.exitCode !== null ? `code ${proc.exitCode}` : `signal ${proc.signalCode}`})${said() || '; it printed nothing'}`,
      {
        executablePath,
      },
    );
  // A file that cannot be run (EACCES, ENOENT) is an 'error' event; it says more than the exit that may follow.
  let notStarted: DeckhandError | null = null;
  const exited = new Promise<never>((_, reject) => {
    proc.once('error', (e) =>
      reject((notStarted = new DeckhandError(ErrorCode.BrowserClosed, `could not start Chromium at ${executablePath}: ${e.message}`, { executablePath }))),
    );
    proc.once('exit', () => reject(notStarted ?? exitedDuringLaunch()));
  });
  exited.catch(() => undefined);
  const transport = new PipeTransport(proc.stdio[3] as Writable, proc.stdio[4] as Readable);
  const conn = new CdpConnection(transport);
  let timer: NodeJS.Timeout | undefined;
  // The link has its own deadline for the worker; this one also covers a browser that never answers the pipe.
  const overall = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DeckhandError(
            ErrorCode.Timeout,
            `launching Chromium timed out after ${timeout} ms: the browser or the extension's worker did not come up${said()}`,
            { timeoutMs: timeout },
          ),
        ),
      timeout + 2000,
    );
  });
  try {
    const link = await Promise.race([ExtensionLink.open(conn, { timeoutMs: timeout }), exited, overall]);
    // Chromium starts with no window, and the first tab opens once the extension's worker is up:
    // on two cores a tab's renderer starting beside the worker delays the worker by more than
    // the tab takes on its own. Should it fail, the engine opens one on the first call.
    await Promise.race([conn.send('Target.createTarget', { url: 'about:blank' }, undefined, timeout).catch(() => undefined), exited, overall]);
    // From now on Chromium exiting on its own (a crash, a kill) also removes the temporary profile.
    proc.once('exit', () => void tempProfile?.remove());
    if (proc.exitCode !== null || proc.signalCode !== null) void tempProfile?.remove();
    return new BrowserHandle(link, conn, proc, tempProfile, allowUrlSchemes);
  } catch (e) {
    let err = e as Error;
    // The pipe closing usually beats the exit event: give the exit a moment to be seen.
    if (err instanceof DeckhandError && err.code === ErrorCode.BrowserClosed) await exitOf(proc, 1000);
    // If Chromium itself died, its last words say more than a closed pipe does.
    if (notStarted) err = notStarted;
    else if (proc.exitCode !== null || proc.signalCode !== null) err = exitedDuringLaunch();
    else if (err instanceof DeckhandError && !err.message.includes('Chromium said:')) err.message += said();
    conn.close();
    if (tempProfile) await tempProfile.remove();
    else await killProcess(proc);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves when the process has exited, or after `ms` (whichever is first). */
function exitOf(proc: ChildProcess, ms: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    proc.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** End a launched Chromium that uses the caller's own profile (a temporary profile's removal does this itself). */
async function killProcess(proc: ChildProcess): Promise<void> {
  // No pid: it never started, so there is no exit to wait for.
  if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return;
  try {
    if (process.platform === 'win32') proc.kill('SIGKILL');
    else process.kill(-proc.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  await waitForExit(proc, 5000);
}

async function connect(options: ConnectOptions): Promise<BrowserHandle> {
  if (!options || typeof options.cdpUrl !== 'string') throw new DeckhandError(ErrorCode.InvalidArgument, 'connect() needs { cdpUrl }');
  const allowUrlSchemes = parseAllowSchemes(options.allowUrlSchemes);
  let wsUrl = options.cdpUrl;
  const timeout = positiveMs('timeout', options.timeout, LAUNCH_DEFAULTS.connectTimeoutMs);
  if (/^https?:/.test(wsUrl)) {
    const url = new URL('/json/version', wsUrl);
    let res: Response;
    try {
      res = await fetch(url, { headers: options.headers, signal: AbortSignal.timeout(timeout) });
    } catch (e) {
      throw new DeckhandError(ErrorCode.BrowserClosed, `cannot reach ${url}: ${(e as Error).message}`);
    }
    if (!res.ok) throw new DeckhandError(ErrorCode.BrowserClosed, `${url} answered ${res.status}`);
    wsUrl = ((await res.json()) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl;
  } else if (!/^wss?:/.test(wsUrl)) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `cdpUrl must be an http(s):// or ws(s):// URL, got '${options.cdpUrl}'`);
  }
  const conn = new CdpConnection(await WebSocketTransport.connect(wsUrl, options.headers, timeout));
  try {
    const link = await ExtensionLink.open(conn, { timeoutMs: Math.min(timeout, LAUNCH_DEFAULTS.connectWorkerWaitMs) });
    return new BrowserHandle(link, conn, null, null, allowUrlSchemes);
  } catch (e) {
    conn.close();
    throw e;
  }
}

/** A caller's wait in milliseconds, bounded like every deadline (past 2^31 ms Node's timers fire at once). */
const positiveMs = (name: string, value: number | undefined, fallback: number): number =>
  value === undefined ? fallback : checkMs(name, value, { whole: false });

const printPairing = ({ port, token }: PairingInfo): void => {
  process.stderr.write(`Deckhand: in Chrome, open the Deckhand side panel, choose "Connect to a local client" and enter port ${port} and token ${token}\n`);
};

/**
 * Wait for the Deckhand extension in a person's own Chrome to pair with this
 * process over the WebSocket bridge, then return its handle. Listens on 127.0.0.1 only.
 */
async function attach(options: AttachOptions = {}): Promise<BrowserHandle> {
  if (typeof options !== 'object' || options === null) throw new DeckhandError(ErrorCode.InvalidArgument, 'attach() takes an options object');
  const allowUrlSchemes = parseAllowSchemes(options.allowUrlSchemes);
  const host = bridgeHost(options.host);
  const port = options.port ?? 0;
  if (port !== 0 && !BridgePortSchema.safeParse(port).success) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `port must be 0 (a free port) or 1024 to 65535, got ${JSON.stringify(options.port)}`);
  }
  let token = newPairingToken();
  if (options.token !== undefined) {
    const t = PairingTokenSchema.safeParse(options.token);
    if (!t.success) throw new DeckhandError(ErrorCode.InvalidArgument, `token: ${t.error.issues[0]?.message ?? 'invalid'}`);
    token = t.data;
  }
  const timeout = positiveMs('timeout', options.timeout, LAUNCH_DEFAULTS.attachTimeoutMs);
  const reconnectTimeoutMs = positiveMs('reconnectTimeout', options.reconnectTimeout, LAUNCH_DEFAULTS.attachReconnectTimeoutMs);
  if (options.onPairing !== undefined && typeof options.onPairing !== 'function')
    throw new DeckhandError(ErrorCode.InvalidArgument, 'onPairing must be a function');
  const clientName = options.name ?? `${process.argv[1] ? basename(process.argv[1]) : 'node'} (pid ${process.pid})`;
  const link = await BridgeLink.listen({ host, port, token, extensionId: EXTENSION_ID, reconnectTimeoutMs, clientName });
  try {
    (options.onPairing ?? printPairing)({ port: link.port, token, host });
    await link.paired(timeout);
  } catch (e) {
    await link.close(e instanceof DeckhandError ? e : new DeckhandError(ErrorCode.Closed, `attach() failed: ${(e as Error).message}`));
    throw e;
  }
  return new BrowserHandle(link, null, null, null, allowUrlSchemes);
}

export const localBrowser = { launch, connect, attach };

/** @internal A handle over a CDP WebSocket to a browser with the extension, for launchers elsewhere (the Grid's). */
export async function handleOver(
  wsUrl: string,
  o: { headers?: Record<string, string>; timeoutMs: number; allowUrlSchemes: readonly OptionalUrlScheme[]; release: () => Promise<void> },
): Promise<BrowserHandle> {
  const conn = new CdpConnection(await WebSocketTransport.connect(wsUrl, o.headers, o.timeoutMs));
  try {
    const link = await ExtensionLink.open(conn, { timeoutMs: o.timeoutMs });
    return new BrowserHandle(link, conn, null, null, o.allowUrlSchemes, o.release);
  } catch (e) {
    conn.close();
    throw e;
  }
}
