/**
 * Browser handles: `localBrowser.launch()` starts Chromium with the extension
 * loaded (CDP over a pipe: no debugging port is opened), `localBrowser.connect()`
 * attaches to a running Chromium that already has the extension.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { BrowserContext, type FacadeHost } from '../facade/page';
import { CdpConnection, PipeTransport, WebSocketTransport } from './cdp';
import { ExtensionLink } from './extension-link';
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
    /** @internal */ readonly link: ExtensionLink,
    private readonly conn: CdpConnection,
    private readonly proc: ChildProcess | null,
    private readonly tempProfile: string | null,
  ) {
    this.context = new BrowserContext(link, this.host);
  }

  get extensionId(): string {
    return this.link.extensionId;
  }
  get isConnected(): boolean {
    return !this.conn.closed;
  }
  /** @internal CDP connection, for tests and tools that need raw access. */
  get cdp(): CdpConnection {
    return this.conn;
  }

  /** Close a launched browser (or disconnect from a connected one). Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.link.close(new DeckhandError(ErrorCode.BrowserClosed, this.proc ? 'the browser was closed' : 'the browser connection was closed'));
      if (this.proc) {
        await this.conn.send('Browser.close', {}, undefined, 3000).catch(() => undefined);
        await waitForExit(this.proc, 5000);
      } else this.conn.close();
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

export const localBrowser = { launch, connect };
