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
import { MAX_CALL_MS } from '../protocol/schemas';
import type { StartSessionRequest } from '../protocol/http';
import { HttpError } from './http-error';
import { DeckhandError } from '../protocol/errors';
import type { SessionRecord, SessionRegistry } from './registry';
import type { ApprovalDecision, ApprovalRequest } from '../protocol/approval';

export interface Session {
  id: string;
  /** The tenant (a digest of the API key) that started it. */
  owner: string;
  dh: Deckhand;
  browser: BrowserHandle;
  ownsBrowser: boolean;
  /** Its browser runs on this machine (launched here, or a context of a browser launched here): it counts against maxSessions. */
  hosted: boolean;
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
  /** In the shared registry, reachable by other replicas (false for a browser only this machine reaches). */
  shared: boolean;
  /** The shared browser whose isolated context this session is, if it is one. */
  pooled?: PooledBrowser;
  /** Steps of its running operation that wait for approval, by request id, each with how to decide it. */
  approvals?: Map<string, { req: ApprovalRequest; decide: (d: ApprovalDecision | null) => void }>;
}

/** A browser on this machine serving several sessions of one tenant, each in an isolated context. */
interface PooledBrowser {
  key: string;
  ready: Promise<BrowserHandle>;
  /** Contexts open or being opened in it. */
  contexts: number;
}

/** Replicas that share their sessions: the registry, and this replica's name in it. */
export interface SharedSessions {
  registry: SessionRegistry;
  replica: string;
}

/**
 * How long an operation's lease runs before it is renewed: a replica that dies mid-operation
 * holds its session at most this long. Renewed every third of it while the operation runs.
 */
export const LEASE_MS = 6_000;
/** How often some replica tells the Grid each shared session is in use (any replica may: the one that started it may be gone). */
const KEEP_ALIVE_EVERY_MS = 20_000;
/** How often a queued operation asks again for a lease another replica holds. */
const LEASE_POLL_MS = 100;

export interface SessionLimits {
  /**
   * The most sessions whose browser runs on this machine. A Grid's browsers and a caller's own
   * (cdpUrl) are not counted: the Grid's capacity bounds those (its queue answers TIMEOUT when
   * full), so a replica never refuses a session it serves or adopts from a replica that died.
   */
  maxSessions: number;
  idleTimeoutMs: number;
  /** URL schemes the operator opened beyond the default (file, say); callers cannot widen it. */
  allowUrlSchemes?: string[];
  /** Browsers come from this Selenium Grid instead of this machine (see gridBrowser). */
  grid?: { url: string; headers?: Record<string, string>; extensionDir?: string; packedExtension?: boolean; binary?: string };
  /**
   * Sessions of one tenant that share a browser on this machine, each in an isolated context (its
   * own cookies, storage, downloads, pages and engine); default 1: a browser per session. Sessions
   * of different tenants never share a browser, nor do sessions with their own profile or switches.
   */
  contextsPerBrowser?: number;
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
    const entry = a
      .trim()
      .toLowerCase()
      .replace(/^\[|\](?=(:\d+)?$)/g, '');
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
/**
 * How long an operation may run when its caller names no deadline: the longest any call may
 * take. The worker holds each operation to its own deadline and the client link answers by
 * it; this only catches an operation that never settles at all.
 */
const DEFAULT_OPERATION_MS = MAX_CALL_MS;

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  /** Local browsers being launched (they count against maxSessions before their session exists). */
  private starting = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly defaults: Partial<CreateOptions> = {},
    private readonly log: (line: string) => void = () => undefined,
    /** The result cache: each session sees only its owner's entries, and looks up when a call asks (`cache` on act/observe/extract). */
    private readonly cacheStore?: CacheStore,
    /** Set when replicas share sessions (PostgreSQL): any replica serves any session whose browser it can reach. */
    private readonly shared?: SharedSessions,
  ) {
    // Forgotten, overdue and crashed sessions end on the next sweep.
    this.sweeper = setInterval(() => void this.sweep(), Math.min(5_000, Math.max(1000, limits.idleTimeoutMs / 4)));
    this.sweeper.unref();
    // A decision taken through another replica for a step waiting here.
    this.stopDecisions = shared?.registry.onApprovalDecided(shared.replica, (sid, aid, d) => this.sessions.get(sid)?.approvals?.get(aid)?.decide(d));
  }

  private readonly stopDecisions?: () => Promise<void>;

  /**
   * A step of `s`'s running operation waits for a decision: listed at GET .../approvals and
   * decided by POST .../approvals/{id} through any replica (or by the side panel, or its
   * deadline). `announce` runs once every replica lists it.
   */
  async waitForApproval(s: Session, req: ApprovalRequest, signal: AbortSignal, announce: () => void): Promise<ApprovalDecision | null> {
    const shared = this.shared && s.shared ? this.shared : undefined;
    const decided = new Promise<ApprovalDecision | null>((resolve) => {
      const list = (s.approvals ??= new Map());
      const end = (d: ApprovalDecision | null) => {
        if (!list.delete(req.id)) return;
        if (shared) void shared.registry.dropApproval(s.id, req.id).catch(() => undefined);
        resolve(d);
      };
      list.set(req.id, { req, decide: end });
      signal.addEventListener('abort', () => end(null), { once: true });
    });
    if (shared) {
      const unlisted = (e: Error) => this.log(`approval ${req.id} is not listed for other replicas: ${e.message}`);
      await shared.registry.putApproval(s.id, shared.replica, req).catch(unlisted);
    }
    announce();
    return decided;
  }

  /** The steps of session `id` waiting for approval, on this replica or another. */
  async approvalsOf(id: string, owner: string): Promise<ApprovalRequest[]> {
    const found = await this.owned(id, owner);
    const s = 'here' in found ? found.here : null;
    const here = [...(s?.approvals?.values() ?? [])].map((a) => a.req);
    // Attached here or not, a shared session's steps may wait on another replica.
    if (!this.shared || (s && !s.shared)) return here;
    const there = await this.registryAnswer(this.shared.registry.approvals(id));
    return [...here, ...there.filter((r) => !here.some((h) => h.id === r.id))];
  }

  /** Decide a step of session `id` waiting for approval, wherever it waits; false when none waits under that id. */
  async decideApproval(id: string, owner: string, approvalId: string, decision: ApprovalDecision): Promise<boolean> {
    const found = await this.owned(id, owner);
    const here = 'here' in found ? found.here.approvals?.get(approvalId) : undefined;
    if (here) {
      here.decide(decision);
      return true;
    }
    return !!this.shared && this.registryAnswer(this.shared.registry.decideApproval(id, approvalId, decision));
  }

  /**
   * Session `id` of `owner`'s: this replica's, or the record of one another replica started (with
   * shared sessions); INVALID_SESSION_ID or SESSION_NOT_FOUND otherwise (another tenant's too).
   */
  private async owned(id: string, owner: string): Promise<{ here: Session } | { elsewhere: SessionRecord }> {
    if (!SESSION_ID.test(id)) throw new HttpError('INVALID_SESSION_ID', `'${id.slice(0, 80)}' is not a session id (session ids are UUIDs)`);
    const s = this.sessions.get(id);
    if (s?.owner === owner) return { here: s };
    const rec = !s && this.shared ? await this.registryAnswer(this.shared.registry.find(id)) : null;
    if (rec?.owner === owner) return { elsewhere: rec };
    throw new HttpError('SESSION_NOT_FOUND', `no active session '${id}' (it never existed, ended, or timed out idle)`);
  }

  private registryAnswer<T>(p: Promise<T>): Promise<T> {
    return p.catch((e: Error) => {
      throw new HttpError('UNAVAILABLE', `the sessions' registry did not answer: ${e.message}`);
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions whose browser runs on this machine. */
  private hosted(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.hosted) n++;
    return n;
  }

  /** How long a session (and an MCP session over HTTP) may sit unused before it is ended. */
  get idleTimeoutMs(): number {
    return this.limits.idleTimeoutMs;
  }

  async start(owner: string, req: StartSessionRequest, launch: { args?: string[]; userDataDir?: string; via?: 'http' | 'mcp' } = {}): Promise<Session> {
    const hosted = !req.cdpUrl && !this.limits.grid;
    if (hosted && this.hosted() + this.starting >= this.limits.maxSessions) {
      throw new HttpError(
        'TOO_MANY_SESSIONS',
        `this service runs at most ${this.limits.maxSessions} browsers on this machine at once (--max-sessions); end a session first`,
      );
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
        `this service does not connect to DevTools addresses its callers name (${new URL(req.cdpUrl).host}); ` +
          'the operator can allow hosts with --allow-cdp-hosts',
      );
    }
    if (this.limits.grid && launch.userDataDir && !req.cdpUrl) {
      throw new HttpError(
        'INVALID_ARGUMENT',
        "a named browser profile lives on this machine, and this service's browsers come from a Selenium Grid: leave the profile out",
      );
    }
    if (hosted) this.starting++;
    let browser: BrowserHandle | null = null;
    let pooled: PooledBrowser | undefined;
    try {
      const grid = this.limits.grid;
      const share = !req.cdpUrl && !grid && !launch.userDataDir && !launch.args?.length && (this.limits.contextsPerBrowser ?? 1) > 1;
      if (share) ({ browser, pooled } = await this.pooledContext(owner, req.headless ?? true, req.viewport));
      browser ??= req.cdpUrl
        ? await localBrowser.connect({ cdpUrl: req.cdpUrl, headers: req.cdpHeaders, allowUrlSchemes: this.limits.allowUrlSchemes })
        : grid
          ? await gridBrowser.launch({
              ...grid,
              headless: req.headless ?? true,
              viewport: req.viewport,
              args: launch.args,
              allowUrlSchemes: this.limits.allowUrlSchemes,
            })
          : await localBrowser.launch({
              headless: req.headless ?? true,
              viewport: req.viewport,
              args: launch.args,
              userDataDir: launch.userDataDir,
              allowUrlSchemes: this.limits.allowUrlSchemes,
            });
      const id = randomUUID();
      const reach: SessionRecord['browser'] = browser.grid
        ? { grid: { url: browser.grid.url, sessionId: browser.grid.sessionId }, cdpUrl: browser.grid.cdpUrl }
        : req.cdpUrl
          ? { cdpUrl: req.cdpUrl, ...(req.cdpHeaders ? { cdpHeaders: req.cdpHeaders } : {}) }
          : null;
      const session = await this.instance(id, owner, browser, options, !req.cdpUrl, !!reach, launch.via, hosted);
      if (this.shared) {
        // A model key a caller sent stays on this replica: the registry keeps the model's name only.
        const model = typeof req.model === 'string' ? req.model : typeof req.model?.modelName === 'string' ? req.model.modelName : undefined;
        const shared: SessionRecord['options'] = {
          ...(model !== undefined ? { model } : {}),
          ...(req.systemPrompt !== undefined ? { systemPrompt: req.systemPrompt } : {}),
          ...(req.domSettleTimeoutMs !== undefined ? { domSettleTimeoutMs: req.domSettleTimeoutMs } : {}),
          ...(req.selfHeal !== undefined ? { selfHeal: req.selfHeal } : {}),
        };
        try {
          await this.shared.registry.add({ id, owner, replica: this.shared.replica, browser: reach, options: shared, via: launch.via ?? 'http' });
        } catch (e) {
          await session.dh.close().catch(() => undefined);
          throw new HttpError('UNAVAILABLE', `the sessions' registry could not record the new session: ${(e as Error).message}`);
        }
      }
      // From here the session holds its place in the shared browser; ending it gives the place back.
      session.pooled = pooled;
      pooled = undefined;
      this.adopt(session);
      return session;
    } catch (e) {
      await browser?.close().catch(() => undefined);
      if (pooled) await this.unpool(pooled);
      throw e;
    } finally {
      if (hosted) this.starting--;
    }
  }

  private readonly pool = new Map<string, PooledBrowser[]>();

  /** An isolated context in a browser of `owner`'s with room, launching one when none has. */
  private async pooledContext(
    owner: string,
    headless: boolean,
    viewport?: { width: number; height: number },
  ): Promise<{ browser: BrowserHandle; pooled: PooledBrowser }> {
    const key = `${owner}\0${headless}`;
    const list = this.pool.get(key) ?? [];
    this.pool.set(key, list);
    let entry = list.find((e) => e.contexts < this.limits.contextsPerBrowser!);
    if (!entry) {
      const ready = localBrowser.launch({ headless, isolatedContexts: true, allowUrlSchemes: this.limits.allowUrlSchemes });
      const made: PooledBrowser = { key, ready, contexts: 0 };
      entry = made;
      list.push(made);
      // A browser that failed to start, or exits, takes no more sessions (its sessions end on their own disconnect).
      ready.then(
        (b) => b.onDisconnect(() => this.forget(made)),
        () => this.forget(made),
      );
    }
    entry.contexts++;
    try {
      const shared = await entry.ready;
      return { browser: await shared.newContext({ viewport }), pooled: entry };
    } catch (e) {
      await this.unpool(entry);
      throw e;
    }
  }

  private forget(entry: PooledBrowser): void {
    const list = this.pool.get(entry.key);
    const i = list?.indexOf(entry) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
    if (list && !list.length) this.pool.delete(entry.key);
  }

  /** A context of `entry` is gone: the browser closes with its last one. */
  private async unpool(entry: PooledBrowser): Promise<void> {
    if (--entry.contexts > 0) return;
    this.forget(entry);
    await entry.ready.then((b) => b.close()).catch(() => undefined);
  }

  /** A Deckhand instance on `browser` for session `id`. */
  private async instance(
    id: string,
    owner: string,
    browser: BrowserHandle,
    options: Partial<CreateOptions>,
    ownsBrowser: boolean,
    shared: boolean,
    via: 'http' | 'mcp' = 'http',
    hosted = false,
  ): Promise<Session> {
    const session: Session = {
      id,
      owner,
      browser,
      ownsBrowser,
      hosted,
      busy: false,
      lastUsed: Date.now(),
      abort: null,
      deadline: 0,
      listener: null,
      dh: null as never,
      tail: Promise.resolve(),
      waiting: 0,
      shared,
    };
    session.dh = await Deckhand.create({
      ...this.defaults,
      ...options,
      browser,
      ...(this.cacheStore ? { cache: { store: forTenant(this.cacheStore, owner), enabled: false } } : {}),
      logging: { level: 'debug', callback: (line) => session.listener?.(line) },
      // A side panel watching the browser names the service and the session driving it.
      client: { kind: via, session: id },
    });
    return session;
  }

  private adopt(session: Session): void {
    this.sessions.set(session.id, session);
    // A browser that exits (a crash, a kill) ends its session at once and frees its slot;
    // the call in flight already failed with BROWSER_CLOSED from its own connection.
    session.browser.onDisconnect(() => void (session.browser.detached ? undefined : this.finish(session, 'its browser exited: ending it')));
  }

  private readonly attaching = new Map<string, Promise<Session>>();

  /**
   * The caller's own session; a malformed id is 400, someone else's is 404 like a missing one.
   * With shared sessions, one another replica started is attached to here (its browser is in a
   * Grid, or at a DevTools address), with the options it was started with.
   */
  async get(id: string, owner: string): Promise<Session> {
    const found = await this.owned(id, owner);
    if ('here' in found) return found.here;
    const rec = found.elsewhere;
    if (!rec.browser) {
      throw new HttpError(
        'SESSION_NOT_FOUND',
        `session '${id}' runs on replica ${rec.replica}, in a browser only that machine reaches; ` +
          'give the service a Grid (--grid) to share sessions between replicas',
      );
    }
    let pending = this.attaching.get(id);
    if (!pending) {
      pending = this.attach(rec).finally(() => this.attaching.delete(id));
      this.attaching.set(id, pending);
    }
    return pending;
  }

  /** Attach to the browser of a session another replica started. */
  private async attach(rec: SessionRecord): Promise<Session> {
    // Its browser is in a Grid or at a DevTools address, never on this machine: no limit here refuses it.
    const reach = rec.browser!;
    let browser: BrowserHandle | null = null;
    try {
      browser = reach.grid
        ? await gridBrowser.attach({
            url: reach.grid.url,
            sessionId: reach.grid.sessionId,
            cdpUrl: reach.cdpUrl,
            // The operator's Grid headers go to the operator's Grid only.
            headers: this.gridHeaders(reach.grid.url),
            allowUrlSchemes: this.limits.allowUrlSchemes,
          })
        : await localBrowser.connect({ cdpUrl: reach.cdpUrl, headers: reach.cdpHeaders, allowUrlSchemes: this.limits.allowUrlSchemes });
      // The record holds only the options that were set (JSON has no undefined).
      const session = await this.instance(rec.id, rec.owner, browser, rec.options as Partial<CreateOptions>, !!reach.grid, true, rec.via);
      this.adopt(session);
      this.log(`session ${rec.id}: attached (started on replica ${rec.replica})`);
      return session;
    } catch (e) {
      await browser?.detach().catch(() => undefined);
      throw e;
    }
  }

  /**
   * Run one operation on a session. A second concurrent one is refused with 409, or with
   * `queue` waits its turn (MCP clients send several calls and expect them run in order).
   * The operation gets a signal that aborts when the caller leaves, when its deadline passes
   * or when the session ends; `deadlineMs` (bounded) is how long it may run, the wait for
   * its turn included.
   */
  async run<T>(
    id: string,
    owner: string,
    fn: (s: Session, signal: AbortSignal) => Promise<T>,
    opts: { deadlineMs?: number; signal?: AbortSignal; queue?: boolean } = {},
  ): Promise<T> {
    const started = Date.now();
    const s = await this.get(id, owner);
    if ((s.busy || s.waiting) && !opts.queue)
      throw new HttpError('SESSION_BUSY', `session '${id}' is running another operation; operations on one session run one at a time`);
    const limit = Math.min(opts.deadlineMs ?? DEFAULT_OPERATION_MS, MAX_CALL_MS);
    const before = s.tail;
    let release!: () => void;
    s.tail = new Promise<void>((r) => (release = r));
    let lease: Lease | null = null;
    try {
      await this.turn(s, before, limit, opts.signal);
      if (this.shared && s.shared) lease = await this.lease(s, started + limit, !!opts.queue, opts.signal);
    } catch (e) {
      // Leave the queue in order: the next caller still waits for the ones before this one.
      void before.then(release);
      throw e;
    }
    const abort = new AbortController();
    lease?.onLost((why) => abort.abort(why));
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
    let settled = false;
    const done = work.then(
      () => void (settled = true),
      () => void (settled = true),
    );
    try {
      return await Promise.race([work, overdue, gone]);
    } finally {
      // A finished operation lets go of its lease before its caller hears back, so the caller's
      // next operation, through whichever replica, finds the session free.
      if (settled) await lease?.release();
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onCallerGone);
      // The session is free for the next operation only once this one has wound down (a
      // cancelled operation stops at its next step), so two never drive the page at once.
      void done.then(async () => {
        await lease?.release();
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

  /**
   * Take the session's lease in the shared registry, so one operation runs on it across all
   * replicas; a queued caller waits for another replica's operation until `deadline`.
   */
  private async lease(s: Session, deadline: number, queue: boolean, signal?: AbortSignal): Promise<Lease> {
    const { registry, replica } = this.shared!;
    const holder = `${replica}/${randomUUID().slice(0, 8)}`;
    for (;;) {
      const answer = await this.registryAnswer(registry.lease(s.id, holder, LEASE_MS));
      if (answer === 'ok') return new Lease(registry, s.id, holder, this.log);
      if (answer === 'gone') {
        void this.finish(s, 'it was ended through another replica', 'detach');
        throw new HttpError('SESSION_NOT_FOUND', `session '${s.id}' ended (through another replica)`);
      }
      if (!queue)
        throw new HttpError(
          'SESSION_BUSY',
          `session '${s.id}' is running another operation (through another replica); operations on one session run one at a time`,
        );
      if (Date.now() + LEASE_POLL_MS > deadline)
        throw new HttpError('TIMEOUT', `session '${s.id}' stayed busy on another replica until this operation's deadline; it never started`);
      if (signal?.aborted) throw new HttpError('CANCELLED', `cancelled while waiting for session '${s.id}'; it never started`);
      await new Promise((r) => setTimeout(r, LEASE_POLL_MS));
    }
  }

  /** End a session, cancelling whatever runs in it; with shared sessions, from any replica. */
  async end(id: string, owner: string): Promise<void> {
    const local = this.sessions.get(id);
    if (local || !this.shared) {
      const s = await this.get(id, owner);
      return this.finish(s, 'ended by its caller');
    }
    if (!SESSION_ID.test(id)) throw new HttpError('INVALID_SESSION_ID', `'${id.slice(0, 80)}' is not a session id (session ids are UUIDs)`);
    const rec = await this.shared.registry.find(id);
    if (!rec || rec.owner !== owner) throw new HttpError('SESSION_NOT_FOUND', `no active session '${id}' (it never existed, ended, or timed out idle)`);
    // Ended without attaching: the replica that holds it lets go on its next sweep.
    if (await this.shared.registry.remove(id)) await this.endBrowserOf(rec);
    this.log(`session ${id}: ended by its caller (started on replica ${rec.replica})`);
  }

  /** End the Grid session of a registry record no replica holds here. */
  private async endBrowserOf(rec: SessionRecord): Promise<void> {
    const g = rec.browser?.grid;
    if (!g) return; // a caller's own browser is never closed; another machine's is its replica's
    await gridBrowser.end({ url: g.url, sessionId: g.sessionId, headers: this.gridHeaders(g.url) }).catch(() => undefined);
  }

  /**
   * Let a session go here. 'end' ends it for everyone (the registry forgets it, its browser is
   * closed); 'detach' only lets go of this replica's attachment, for another to go on.
   */
  private async finish(s: Session, why: string, how: 'end' | 'detach' = 'end'): Promise<void> {
    if (this.sessions.get(s.id) !== s) return;
    this.sessions.delete(s.id);
    s.abort?.abort(new HttpError('CANCELLED', `session '${s.id}' ended (${why}) while this operation ran`));
    this.log(`session ${s.id}: ${why}`);
    await s.dh.close().catch(() => undefined);
    if (how === 'detach') return void (await s.browser.detach().catch(() => undefined));
    if (this.shared && s.shared) await this.shared.registry.remove(s.id).catch(() => undefined);
    // A remote browser is only disconnected from, never closed: this service did not start it.
    // An isolated context is removed, and its browser closed with its last context.
    await s.browser.close().catch(() => undefined);
    if (s.pooled) await this.unpool(s.pooled);
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const s of [...this.sessions.values()]) {
      if (!s.browser.isConnected) await this.finish(s, 'its browser is gone: ending it');
      else if (s.busy && now > s.deadline)
        await this.finish(s, 'its operation outlived its deadline: ending it'); // a backstop for the timer in run()
      else if (!s.busy && now - s.lastUsed > this.limits.idleTimeoutMs) {
        // A shared session idle here may be busy elsewhere: the registry decides when it ends.
        await this.finish(
          s,
          `idle for ${Math.round((now - s.lastUsed) / 1000)} s: ${this.shared && s.shared ? 'letting go here' : 'ending it'}`,
          this.shared && s.shared ? 'detach' : 'end',
        );
      }
    }
    if (this.shared) await this.sweepShared().catch((e: Error) => this.log(`the sessions' registry did not answer the sweep: ${e.message}`));
  }

  /** Shared sessions: forget what other replicas ended, end what is idle everywhere, keep Grid sessions alive. */
  private async sweepShared(): Promise<void> {
    const { registry } = this.shared!;
    const mine = [...this.sessions.values()].filter((s) => s.shared);
    const still = await registry.existing(mine.map((s) => s.id));
    for (const s of mine) if (!still.has(s.id) && !s.busy) await this.finish(s, 'it was ended through another replica', 'detach');
    for (const rec of await registry.takeIdle(this.limits.idleTimeoutMs)) {
      const s = this.sessions.get(rec.id);
      if (s) await this.finish(s, 'idle on every replica: ending it');
      else await this.endBrowserOf(rec);
      this.log(`session ${rec.id}: idle on every replica: ended`);
    }
    for (const rec of await registry.takeKeepAlive(KEEP_ALIVE_EVERY_MS)) {
      const g = rec.browser?.grid;
      if (!g) continue;
      const known = await gridBrowser.keepAlive({ url: g.url, sessionId: g.sessionId, headers: this.gridHeaders(g.url) });
      if (!known && (await registry.remove(rec.id))) {
        const s = this.sessions.get(rec.id);
        if (s) await this.finish(s, 'its Grid session is gone: ending it');
        this.log(`session ${rec.id}: its Grid session is gone: ended`);
      }
    }
  }

  /** The operator's Grid headers, for the operator's Grid only (never sent to a Grid a record names otherwise). */
  private gridHeaders(url: string): Record<string, string> | undefined {
    const grid = this.limits.grid;
    return grid && sameGrid(grid.url, url) ? grid.headers : undefined;
  }

  async endAll(): Promise<void> {
    clearInterval(this.sweeper);
    await this.stopDecisions?.();
    // Sessions other replicas can reach outlive this one: it only lets go of them.
    await Promise.all([...this.sessions.values()].map((s) => this.finish(s, 'the service is stopping', this.shared && s.shared ? 'detach' : 'end')));
  }
}

/** Whether two Grid addresses name the same Grid. */
function sameGrid(a: string, b: string): boolean {
  const norm = (u: string) => u.replace(/\/+$/, '').toLowerCase();
  return norm(a) === norm(b);
}

/** An operation's lease in the shared registry, renewed while it runs. */
class Lease {
  private readonly timer: NodeJS.Timeout;
  private lost: ((why: Error) => void) | null = null;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly id: string,
    private readonly holder: string,
    log: (line: string) => void,
  ) {
    this.timer = setInterval(() => {
      void registry.renew(id, holder, LEASE_MS).then(
        (held) => {
          if (!held) this.lost?.(new HttpError('SESSION_NOT_FOUND', `session '${id}' ended (through another replica) while this operation ran`));
        },
        (e: Error) => log(`session ${id}: the lease could not be renewed: ${e.message}`),
      );
    }, LEASE_MS / 3);
    this.timer.unref();
  }

  onLost(f: (why: Error) => void): void {
    this.lost = f;
  }

  private released: Promise<void> | null = null;

  release(): Promise<void> {
    clearInterval(this.timer);
    this.released ??= this.registry.release(this.id, this.holder).catch(() => undefined);
    return this.released;
  }
}
