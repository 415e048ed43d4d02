/**
 * Browser handles: `localBrowser.launch()` starts Chromium with the extension
 * loaded (CDP over a pipe: no debugging port is opened), `localBrowser.connect()`
 * attaches to a running Chromium that already has the extension, and
 * `localBrowser.attach()` waits for the extension in a person's own Chrome to dial
 * in over the WebSocket bridge (no remote debugging at all).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { BrowserContext, type FacadeHost } from '../facade/page';
import { CdpConnection, PipeTransport, WebSocketTransport } from './cdp';
import { BridgeLink, bridgeHost, newPairingToken } from './bridge';
import { EXTENSION_ID, ExtensionLink } from './extension-link';
import type { WorkerLink } from './link';
import { BridgePortSchema, PairingTokenSchema } from '../protocol/panel';
import { extensionDir, findChromium } from './paths';

export interface LaunchOptions {
  headless?: boolean;
  executablePath?: string;
  viewport?: { width: number; height: number };
  userDataDir?: string;
  args?: string[];
  /** Deadline for the browser and the extension's worker to come up. */
  timeout?: number;
}

export interface ConnectOptions {
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

export interface AttachOptions {
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
    private readonly tempProfile: string | null,
  ) {
    this.context = new BrowserContext(link, this.host);
  }

  get extensionId(): string {
    return this.link.extensionId;
  }
  get isConnected(): boolean {
    return this.link.isConnected;
  }
  /** @internal CDP connection, for tests and tools that need raw access. */
  get cdp(): CdpConnection {
    if (!this.conn) {
      throw new DeckhandError(ErrorCode.Unavailable, 'this browser is attached over the WebSocket bridge, which carries Deckhand calls only: there is no CDP connection');
    }
    return this.conn;
  }

  /** Close a launched browser (or disconnect from a connected one). Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const what = this.proc ? 'the browser was closed' : this.conn ? 'the browser connection was closed' : 'the bridge connection was closed';
      await this.link.close(new DeckhandError(ErrorCode.BrowserClosed, what));
      if (this.proc && this.conn) {
        await this.conn.send('Browser.close', {}, undefined, 3000).catch(() => undefined);
        await waitForExit(this.proc, 5000);
      } else this.conn?.close();
      if (this.tempProfile) await rm(this.tempProfile, { recursive: true, force: true }).catch(() => undefined);
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
  const executablePath = options.executablePath ?? findChromium();
  if (!executablePath || !existsSync(executablePath)) {
    throw new DeckhandError(ErrorCode.InvalidArgument, `no Chromium found${executablePath ? ` at ${executablePath}` : ''}; install it (npm run setup does) or pass executablePath`);
  }
  const ext = extensionDir();
  if (!existsSync(join(ext, 'manifest.json'))) {
    throw new DeckhandError(ErrorCode.ExtensionMissing, `the extension is not built (no ${ext}/manifest.json); run npm run build`);
  }
  const tempProfile = options.userDataDir ? null : await mkdtemp(join(tmpdir(), 'deckhand-profile-'));
  const vp = options.viewport ?? { width: 1280, height: 800 };
  if (!(vp.width > 0 && vp.height > 0)) throw new DeckhandError(ErrorCode.InvalidArgument, 'viewport needs positive width and height');
  const args = [
    '--remote-debugging-pipe',
    `--user-data-dir=${options.userDataDir ?? tempProfile}`,
    `--disable-extensions-except=${ext}`,
    `--load-extension=${ext}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--silent-debugger-extension-api',
    '--disable-features=Translate,MediaRouter,OptimizationHints',
    `--window-size=${vp.width},${vp.height}`,
    ...(options.headless === false ? [] : ['--headless']),
    ...(options.args ?? []),
    'about:blank',
  ];
  const proc = spawn(executablePath, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: false });
  let stderr = '';
  proc.stderr!.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const transport = new PipeTransport(proc.stdio[3] as Writable, proc.stdio[4] as Readable);
  const conn = new CdpConnection(transport);
  const exited = new Promise<never>((_, reject) =>
    proc.once('exit', (code) => reject(new DeckhandError(ErrorCode.BrowserClosed, `Chromium exited during launch (code ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`))),
  );
  exited.catch(() => undefined);
  try {
    const link = await Promise.race([ExtensionLink.open(conn, { timeoutMs: options.timeout ?? 15_000 }), exited]);
    return new BrowserHandle(link, conn, proc, tempProfile);
  } catch (e) {
    // If Chromium itself died, its last words say more than a closed pipe does.
    if (proc.exitCode !== null || proc.signalCode !== null) {
      e = new DeckhandError(ErrorCode.BrowserClosed, `Chromium exited during launch (code ${proc.exitCode ?? proc.signalCode}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }
    proc.kill('SIGKILL');
    if (tempProfile) await rm(tempProfile, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
}

async function connect(options: ConnectOptions): Promise<BrowserHandle> {
  if (!options || typeof options.cdpUrl !== 'string') throw new DeckhandError(ErrorCode.InvalidArgument, 'connect() needs { cdpUrl }');
  let wsUrl = options.cdpUrl;
  const timeout = options.timeout ?? 10_000;
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
    const link = await ExtensionLink.open(conn, { timeoutMs: Math.min(timeout, 3000) });
    return new BrowserHandle(link, conn, null, null);
  } catch (e) {
    conn.close();
    throw e;
  }
}

function positiveMs(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new DeckhandError(ErrorCode.InvalidArgument, `${name} must be a positive number of milliseconds, got ${JSON.stringify(value)}`);
  return value;
}

const printPairing = ({ port, token }: PairingInfo): void => {
  process.stderr.write(`Deckhand: in Chrome, open the Deckhand side panel, choose "Connect to a local client" and enter port ${port} and token ${token}\n`);
};

/**
 * Wait for the Deckhand extension in a person's own Chrome to pair with this
 * process over the WebSocket bridge, then return its handle. Listens on 127.0.0.1 only.
 */
async function attach(options: AttachOptions = {}): Promise<BrowserHandle> {
  if (typeof options !== 'object' || options === null) throw new DeckhandError(ErrorCode.InvalidArgument, 'attach() takes an options object');
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
  const timeout = positiveMs('timeout', options.timeout, 120_000);
  const reconnectTimeoutMs = positiveMs('reconnectTimeout', options.reconnectTimeout, 45_000);
  if (options.onPairing !== undefined && typeof options.onPairing !== 'function') throw new DeckhandError(ErrorCode.InvalidArgument, 'onPairing must be a function');
  const clientName = options.name ?? `${process.argv[1] ? basename(process.argv[1]) : 'node'} (pid ${process.pid})`;
  const link = await BridgeLink.listen({ host, port, token, extensionId: EXTENSION_ID, reconnectTimeoutMs, clientName });
  try {
    (options.onPairing ?? printPairing)({ port: link.port, token, host });
    await link.paired(timeout);
  } catch (e) {
    await link.close(e instanceof DeckhandError ? e : new DeckhandError(ErrorCode.Closed, `attach() failed: ${(e as Error).message}`));
    throw e;
  }
  return new BrowserHandle(link, null, null, null);
}

export const localBrowser = { launch, connect, attach };
