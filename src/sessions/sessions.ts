/**
 * Browser sessions of the HTTP service and the MCP server: each one a browser with the
 * extension (launched with its own profile, or a remote Chromium by CDP URL) and one
 * Deckhand instance. A session belongs to the tenant (API key) that started it; other
 * tenants are told it does not exist. Operations on a session run one at a time, each
 * with a hard deadline; ending a session cancels what runs in it.
 */
import { randomUUID } from 'node:crypto';
import { Deckhand, type CreateOptions } from '../client/deckhand';
import { localBrowser, type BrowserHandle } from '../client/browser';
import { gridBrowser } from '../client/grid';
import type { LogLine } from '../client/logging';
import { forTenant, type CacheStore } from '../client/cache/store';
import { DEFAULTS, MAX_CALL_MS } from '../protocol/schemas';
import type { StartSessionRequest } from '../protocol/http';
import { HttpError } from './http-error';
import { DeckhandError } from '../protocol/errors';

export interface Session {
  id: string;
  /** The tenant (a digest of the API key) that started it. */
  owner: string;
  dh: Deckhand;
  browser: BrowserHandle;
  ownsBrowser: boolean;
  busy: boolean;
  lastUsed: number;
  /** Cancels the running operation (set while busy). */
  abort: AbortController | null;
  /** When the running operation must have finished, grace included. */
  deadline: number;
  /** Receives the session's log lines while a streamed request runs. */
  listener: ((line: LogLine) => void) | null;
  /** Settles when the last operation queued on this session has finished (operations run in order). */
  tail: Promise<void>;
  /** Operations waiting their turn (queued callers only). */
  waiting: number;
}

export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
  /** URL schemes the operator opened beyond the default (file, say); callers cannot widen it. */
  allowUrlSchemes?: string[];
  /** Browsers come from this Selenium Grid instead of this machine (see gridBrowser). */
  grid?: { url: string; headers?: Record<string, string>; extensionDir?: string; packedExtension?: boolean; binary?: string };
  /**
   * Hosts (name, or name:port) whose DevTools address a caller may pass as `cdpUrl`; '*' for any.
   * None by default: a caller's cdpUrl would otherwise make the service open connections to any
   * address it can reach (the operator's own Chrome, an internal network).
   */
  allowCdpHosts?: string[];
}

/** Whether `cdpUrl`'s host is one the operator opened (by name, or name and port). */
export function cdpHostAllowed(cdpUrl: string, allowed: readonly string[] = []): boolean {
  if (allowed.includes('*')) return true;
  let u: URL;
  try {
    u = new URL(cdpUrl);
  } catch {
    return false;
  }
  const name = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? '443' : '80');
  return allowed.some((a) => {
    const entry = a.trim().toLowerCase().replace(/^\[|\](?=(:\d+)?$)/g, '');
    return entry === name || entry === `${name}:${port}`;
  });
}

/** Session ids are UUIDs; anything else is a malformed id (400), never a lookup. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * How long past its own deadline an operation may take to wind down before its session is
 * ended: at least 10 s, and as long again as the deadline (a cached act may replay and then
 * heal, each step with the full timeout), so only a truly wedged operation costs its session.
 */
const OVERRUN_GRACE_MS = 10_000;
const hardLimit = (limit: number) => limit + Math.max(OVERRUN_GRACE_MS, limit);
/** The deadline of an operation that names none. */
const DEFAULT_OPERATION_MS = DEFAULTS.modelOperationTimeoutMs;

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private starting = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly defaults: Partial<CreateOptions> = {},
    private readonly log: (line: string) => void = () => undefined,
    /** The result cache: each session sees only its owner's entries, and looks up when a call asks (`cache` on act/observe/extract). */
    private readonly cacheStore?: CacheStore,
  ) {
    // Forgotten, overdue and crashed sessions end on the next sweep.
    this.sweeper = setInterval(() => void this.sweep(), Math.min(5_000, Math.max(1000, limits.idleTimeoutMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** How long a session (and an MCP session over HTTP) may sit unused before it is ended. */
  get idleTimeoutMs(): number {
    return this.limits.idleTimeoutMs;
  }

  async start(owner: string, req: StartSessionRequest, launch: { args?: string[]; userDataDir?: string } = {}): Promise<Session> {
    if (this.sessions.size + this.starting >= this.limits.maxSessions) {
      throw new HttpError('TOO_MANY_SESSIONS', `this service runs at most ${this.limits.maxSessions} sessions at once; end one first`);
    }
    // Everything that can be checked without a browser is checked before one is launched.
    const options = {
      ...this.defaults,
      ...(req.model !== undefined ? { model: req.model as never } : {}),
      ...(req.systemPrompt !== undefined ? { systemPrompt: req.systemPrompt } : {}),
      ...(req.domSettleTimeoutMs !== undefined ? { domSettleTimeoutMs: req.domSettleTimeoutMs } : {}),
      ...(req.selfHeal !== undefined ? { selfHeal: req.selfHeal } : {}),
    };
    Deckhand.checkOptions(options);
    if (req.cdpUrl && !cdpHostAllowed(req.cdpUrl, this.limits.allowCdpHosts)) {
      throw new HttpError(
        'CDP_HOST_NOT_ALLOWED',
        `this service does not connect to DevTools addresses its callers name (${new URL(req.cdpUrl).host}); the operator can allow hosts with --allow-cdp-hosts`,
      );
    }
    if (this.limits.grid && launch.userDataDir && !req.cdpUrl) {
      throw new HttpError('INVALID_ARGUMENT', "a named browser profile lives on this machine, and this service's browsers come from a Selenium Grid: leave the profile out");
    }
    this.starting++;
    let browser: BrowserHandle | null = null;
    try {
      const grid = this.limits.grid;
      browser = req.cdpUrl
        ? await localBrowser.connect({ cdpUrl: req.cdpUrl, headers: req.cdpHeaders, allowUrlSchemes: this.limits.allowUrlSchemes })
        : grid
          ? await gridBrowser.launch({ ...grid, headless: req.headless ?? true, viewport: req.viewport, args: launch.args, allowUrlSchemes: this.limits.allowUrlSchemes })
          : await localBrowser.launch({
              headless: req.headless ?? true, viewport: req.viewport, args: launch.args, userDataDir: launch.userDataDir, allowUrlSchemes: this.limits.allowUrlSchemes,
            });
      const session: Session = {
        id: randomUUID(), owner, browser, ownsBrowser: !req.cdpUrl, busy: false, lastUsed: Date.now(), abort: null, deadline: 0, listener: null, dh: null as never, tail: Promise.resolve(), waiting: 0,
      };
      session.dh = await Deckhand.create({
        ...options,
        browser,
        ...(this.cacheStore ? { cache: { store: forTenant(this.cacheStore, owner), enabled: false } } : {}),
        logging: { level: 'debug', callback: (line) => session.listener?.(line) },
      });
      this.sessions.set(session.id, session);
      // A browser that exits (a crash, a kill) ends its session at once and frees its slot;
      // the call in flight already failed with BROWSER_CLOSED from its own connection.
      browser.onDisconnect(() => void this.finish(session, 'its browser exited: ending it'));
      return session;
    } catch (e) {
      await browser?.close().catch(() => undefined);
      throw e;
    } finally {
      this.starting--;
    }
  }

  /** The caller's own session; a malformed id is 400, someone else's is 404 like a missing one. */
  get(id: string, owner: string): Session {
    if (!SESSION_ID.test(id)) throw new HttpError('INVALID_SESSION_ID', `'${id.slice(0, 80)}' is not a session id (session ids are UUIDs)`);
    const s = this.sessions.get(id);
    if (!s || s.owner !== owner) throw new HttpError('SESSION_NOT_FOUND', `no active session '${id}' (it never existed, ended, or timed out idle)`);
    return s;
  }

  /**
   * Run one operation on a session. A second concurrent one is refused with 409, or with
   * `queue` waits its turn (MCP clients send several calls and expect them run in order).
   * The operation gets a signal that aborts when the caller leaves, when its deadline passes
   * or when the session ends; `deadlineMs` (bounded) is how long it may run, the wait for
   * its turn included.
   */
  async run<T>(id: string, owner: string, fn: (s: Session, signal: AbortSignal) => Promise<T>, opts: { deadlineMs?: number; signal?: AbortSignal; queue?: boolean } = {}): Promise<T> {
    const s = this.get(id, owner);
    if ((s.busy || s.waiting) && !opts.queue) throw new HttpError('SESSION_BUSY', `session '${id}' is running another operation; operations on one session run one at a time`);
    const limit = Math.min(opts.deadlineMs ?? DEFAULT_OPERATION_MS, MAX_CALL_MS);
    const before = s.tail;
    let release!: () => void;
    s.tail = new Promise<void>((r) => (release = r));
    try {
      await this.turn(s, before, limit, opts.signal);
    } catch (e) {
      // Leave the queue in order: the next caller still waits for the ones before this one.
      void before.then(release);
      throw e;
    }
    const abort = new AbortController();
    const onCallerGone = () => abort.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onCallerGone, { once: true });
    s.busy = true;
    s.abort = abort;
    const hard = hardLimit(limit);
    s.deadline = Date.now() + hard;
    let timer: NodeJS.Timeout | undefined;
    // The hard deadline answers the caller even when the operation itself does not return;
    // a session whose operation is wedged is ended rather than left busy (or half-free).
    const overdue = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new HttpError('TIMEOUT', `the operation on session '${id}' ran past its deadline of ${hard} ms; the session was ended`));
        void this.finish(s, 'its operation outlived its deadline: ending it');
      }, hard);
    });
    // A caller who leaves is answered at once; the operation itself was told to stop.
    const gone = new Promise<never>((_, reject) => {
      const stop = () => {
        const why = abort.signal.reason;
        reject(why instanceof DeckhandError ? why : new HttpError('CANCELLED', `the operation on session '${id}' was cancelled`));
      };
      if (abort.signal.aborted) stop();
      else abort.signal.addEventListener('abort', stop, { once: true });
    });
    gone.catch(() => undefined);
    const work = fn(s, abort.signal);
    try {
      return await Promise.race([work, overdue, gone]);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onCallerGone);
      // The session is free for the next operation only once this one has wound down (a
      // cancelled operation stops at its next step), so two never drive the page at once.
      void work.then(
        () => undefined,
        () => undefined,
      ).then(() => {
        s.busy = false;
        s.abort = null;
        s.lastUsed = Date.now();
        release();
      });
    }
  }

  /** Wait until the operations queued before this one are done, the caller leaves, or time is up. */
  private async turn(s: Session, before: Promise<void>, limitMs: number, signal?: AbortSignal): Promise<void> {
    s.waiting++;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        before,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HttpError('TIMEOUT', `session '${s.id}' stayed busy for ${limitMs} ms; this operation never started`)), limitMs);
        }),
        new Promise<never>((_, reject) => {
          onAbort = () => reject(new HttpError('CANCELLED', `cancelled while waiting for session '${s.id}'; it never started`));
          if (signal?.aborted) onAbort();
          else signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
      if (this.sessions.get(s.id) !== s) throw new HttpError('SESSION_NOT_FOUND', `session '${s.id}' ended while this operation waited for it`);
    } finally {
      s.waiting--;
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** End a session, cancelling whatever runs in it. */
  async end(id: string, owner: string): Promise<void> {
    const s = this.get(id, owner);
    await this.finish(s, 'ended by its caller');
  }

  private async finish(s: Session, why: string): Promise<void> {
    if (this.sessions.get(s.id) !== s) return;
    this.sessions.delete(s.id);
    s.abort?.abort(new HttpError('CANCELLED', `session '${s.id}' ended (${why}) while this operation ran`));
    this.log(`session ${s.id}: ${why}`);
    await s.dh.close().catch(() => undefined);
    // A remote browser is only disconnected from, never closed: this service did not start it.
    await s.browser.close().catch(() => undefined);
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const s of [...this.sessions.values()]) {
      if (!s.browser.isConnected) await this.finish(s, 'its browser is gone: ending it');
      else if (s.busy && now > s.deadline) await this.finish(s, 'its operation outlived its deadline: ending it'); // a backstop for the timer in run()
      else if (!s.busy && now - s.lastUsed > this.limits.idleTimeoutMs) await this.finish(s, `idle for ${Math.round((now - s.lastUsed) / 1000)} s: ending it`);
    }
  }

  async endAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.finish(s, 'the service is stopping')));
  }
}
