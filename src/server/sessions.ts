/**
 * Browser sessions of the HTTP service: each one a browser with the extension
 * (launched with its own profile, or a remote Chromium by CDP URL) and one
 * Deckhand instance. Operations on a session run one at a time.
 */
import { randomUUID } from 'node:crypto';
import { Deckhand, type CreateOptions } from '../client/deckhand';
import { localBrowser, type BrowserHandle } from '../client/browser';
import type { LogLine } from '../client/logging';
import type { StartSessionRequest } from '../protocol/http';
import { HttpError } from './http-error';

export interface Session {
  id: string;
  dh: Deckhand;
  browser: BrowserHandle;
  ownsBrowser: boolean;
  busy: boolean;
  lastUsed: number;
  /** Receives the session's log lines while a streamed request runs. */
  listener: ((line: LogLine) => void) | null;
}

export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
}

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private starting = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly defaults: Partial<CreateOptions> = {},
    private readonly log: (line: string) => void = () => undefined,
  ) {
    // Forgotten sessions end after the idle timeout.
    this.sweeper = setInterval(() => void this.sweep(), Math.min(30_000, Math.max(1000, limits.idleTimeoutMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  async start(req: StartSessionRequest, launch: { args?: string[]; userDataDir?: string } = {}): Promise<Session> {
    if (this.sessions.size + this.starting >= this.limits.maxSessions) {
      throw new HttpError(429, 'TOO_MANY_SESSIONS', `this service runs at most ${this.limits.maxSessions} sessions at once; end one first`);
    }
    this.starting++;
    let browser: BrowserHandle | null = null;
    try {
      browser = req.cdpUrl
        ? await localBrowser.connect({ cdpUrl: req.cdpUrl, headers: req.cdpHeaders })
        : await localBrowser.launch({ headless: req.headless ?? true, viewport: req.viewport, args: launch.args, userDataDir: launch.userDataDir });
      const session: Session = { id: randomUUID(), browser, ownsBrowser: !req.cdpUrl, busy: false, lastUsed: Date.now(), listener: null, dh: null as never };
      session.dh = await Deckhand.create({
        ...this.defaults,
        browser,
        ...(req.model !== undefined ? { model: req.model as never } : {}),
        ...(req.systemPrompt !== undefined ? { systemPrompt: req.systemPrompt } : {}),
        ...(req.domSettleTimeoutMs !== undefined ? { domSettleTimeoutMs: req.domSettleTimeoutMs } : {}),
        ...(req.selfHeal !== undefined ? { selfHeal: req.selfHeal } : {}),
        logging: { level: 'debug', callback: (line) => session.listener?.(line) },
      });
      this.sessions.set(session.id, session);
      return session;
    } catch (e) {
      await browser?.close().catch(() => undefined);
      throw e;
    } finally {
      this.starting--;
    }
  }

  get(id: string): Session {
    const s = this.sessions.get(id);
    if (!s) throw new HttpError(404, 'SESSION_NOT_FOUND', `no active session '${id}' (it never existed, ended, or timed out idle)`);
    return s;
  }

  /** Run one operation on a session; a second concurrent one is refused with 409. */
  async run<T>(id: string, fn: (s: Session) => Promise<T>): Promise<T> {
    const s = this.get(id);
    if (s.busy) throw new HttpError(409, 'SESSION_BUSY', `session '${id}' is running another operation; operations on one session run one at a time`);
    s.busy = true;
    try {
      return await fn(s);
    } finally {
      s.busy = false;
      s.lastUsed = Date.now();
    }
  }

  async end(id: string): Promise<void> {
    const s = this.get(id);
    this.sessions.delete(id);
    await this.close(s);
  }

  private async close(s: Session): Promise<void> {
    await s.dh.close().catch(() => undefined);
    // A remote browser is only disconnected from, never closed: this service did not start it.
    await s.browser.close().catch(() => undefined);
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const s of [...this.sessions.values()]) {
      if (!s.busy && now - s.lastUsed > this.limits.idleTimeoutMs) {
        this.log(`session ${s.id} idle for ${Math.round((now - s.lastUsed) / 1000)} s: ending it`);
        this.sessions.delete(s.id);
        await this.close(s);
      }
    }
  }

  async endAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => this.close(s)));
  }
}
