/**
 * The worker's end of the WebSocket bridge: dials out to a Node client on
 * 127.0.0.1 that a person paired from the side panel with a one-time token.
 *
 * - The pairing (port + the secret the client issued in `welcome`) lives in
 *   chrome.storage.session: it survives the worker being stopped and is gone when
 *   the browser closes. Never sync or local storage.
 * - While attached, a `ping` every BRIDGE_KEEPALIVE_MS keeps the worker alive
 *   (Chrome stops an idle worker 30 s after its last event; WebSocket traffic counts).
 * - While a pairing is stored, an alarm wakes a worker that was stopped anyway, and
 *   `resume()` dials again with the secret. An unexpected drop is retried with backoff.
 *
 * Bundled into the worker: no `node:` imports. Storage, alarms and the socket come
 * through BridgeEnv so the same code runs against fakes and `ws` in Node tests.
 */
import { z } from 'zod';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import {
  BRIDGE_BYE_FROM_PANEL,
  BRIDGE_KEEPALIVE_MS,
  BRIDGE_REFUSED,
  BridgePortSchema,
  PairingTokenSchema,
  readBridgeFrame,
  readBridgeMessage,
  type BridgeFrame,
  type BridgeStatus,
} from '../protocol/panel';
import { describeZodError } from '../protocol/zod-errors';

export const BRIDGE_ALARM = 'deckhand-bridge';
/** How long the client has to answer `hello` with `welcome`. */
export const BRIDGE_HANDSHAKE_MS = 5_000;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;
/** A client unreachable this long is gone for good (its process ended without `bye`): forget the pairing. */
export const BRIDGE_GIVE_UP_MS = 5 * 60_000;
const PAIRING_KEY = 'deckhand.bridge.pairing';
const OPEN = 1; // WebSocket.OPEN, the same number in browsers and in `ws`

/** What the worker keeps between restarts. `failingSince`: when reconnecting started failing. */
const StoredPairingSchema = z.object({ port: BridgePortSchema, secret: z.string().min(1), failingSince: z.number().optional() }).strict();
export type StoredPairing = z.infer<typeof StoredPairingSchema>;

export interface BridgeTransportPeer {
  receive(raw: string): void;
  receiveParsed(message: unknown): void;
  failAll(error: DeckhandError, permanently?: boolean): void;
}

/** The part of the WebSocket API the bridge uses (the browser's WebSocket and `ws` both fit). */
export interface BridgeSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface BridgeEnv {
  openSocket(url: string): BridgeSocket;
  loadPairing(): Promise<unknown>;
  savePairing(p: StoredPairing): Promise<void>;
  forgetPairing(): Promise<void>;
  /** Keep a periodic wake-up (the alarm) while a pairing is stored. */
  setWakeUp(on: boolean): Promise<void>;
}

/** The real thing: the global WebSocket, chrome.storage.session and chrome.alarms. */
export function chromeBridgeEnv(): BridgeEnv {
  return {
    openSocket: (url) => new WebSocket(url) as unknown as BridgeSocket,
    loadPairing: async () => (await chrome.storage.session.get(PAIRING_KEY))[PAIRING_KEY],
    savePairing: (p) => chrome.storage.session.set({ [PAIRING_KEY]: p }),
    forgetPairing: () => chrome.storage.session.remove(PAIRING_KEY),
    setWakeUp: async (on) => {
      // 0.5 minutes is the shortest period Chrome allows; a stopped worker is back within 30 s.
      if (on) await chrome.alarms.create(BRIDGE_ALARM, { periodInMinutes: 0.5 });
      else await chrome.alarms.clear(BRIDGE_ALARM);
    },
  };
}

export interface WorkerBridgeOptions {
  extensionId: string;
  version: string;
  /** Make an RPC peer that sends through `send` and answers the engine's methods. */
  /** `client`: the name the client gave in its welcome. */
  serve: (send: (raw: string) => void, client: string) => BridgeTransportPeer;
  onStatus: (status: BridgeStatus) => void;
  /** Defaults to chromeBridgeEnv(). */
  env?: BridgeEnv;
}

/** Why a dial failed: `refused` (close code 4001) means the pairing is no good and must not be retried. */
export class BridgeDialError extends DeckhandError {
  constructor(
    readonly why: 'refused' | 'unreachable' | 'timeout',
    message: string,
  ) {
    super(why === 'timeout' ? ErrorCode.Timeout : ErrorCode.Unavailable, message, { why });
    this.name = 'BridgeDialError';
  }
}

interface Live {
  socket: BridgeSocket;
  peer: BridgeTransportPeer;
  port: number;
  keepalive: ReturnType<typeof setInterval>;
}

type Credentials = { token: string } | { secret: string };

const where = (port: number) => `127.0.0.1:${port}`;

export class WorkerBridge {
  private current: BridgeStatus = { state: 'off', since: Date.now() };
  private readonly env: BridgeEnv;
  private live: Live | null = null;
  /** The pairing in memory; storage holds the same for the next worker. */
  private pairing: StoredPairing | null = null;
  /** Bumped by connect, disconnect and bye: a dial or retry started under an older epoch drops its result. */
  private epoch = 0;
  private reconnecting: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay = RETRY_FIRST_MS;

  constructor(private readonly opts: WorkerBridgeOptions) {
    this.env = opts.env ?? chromeBridgeEnv();
  }

  status(): BridgeStatus {
    return this.current;
  }

  /** Pair with the client on 127.0.0.1:port using the token the person entered. Replaces any existing connection. */
  async connect(port: number, token: string): Promise<BridgeStatus> {
    const p = BridgePortSchema.safeParse(port);
    if (!p.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(p.error, 'port'));
    const t = PairingTokenSchema.safeParse(token);
    if (!t.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(t.error, 'token'));
    const epoch = ++this.epoch;
    this.stopRetry();
    const replaced = new DeckhandError(ErrorCode.Closed, 'the connection to the local client was replaced by a new pairing');
    this.end('replaced by a new pairing from the side panel', replaced);
    await this.forget();
    if (epoch !== this.epoch) return this.current;
    this.setStatus({ state: 'connecting', port: p.data, message: `connecting to a local client on ${where(p.data)}` });
    try {
      await this.dial(p.data, { token: t.data }, epoch);
    } catch (e) {
      if (epoch !== this.epoch) return this.current;
      const err = e instanceof BridgeDialError ? e : new BridgeDialError('unreachable', String((e as Error)?.message ?? e));
      this.setStatus({ state: err.why === 'refused' ? 'refused' : 'error', port: p.data, message: err.message });
    }
    return this.current;
  }

  /** Say goodbye to the client, close, and forget the pairing. */
  async disconnect(): Promise<BridgeStatus> {
    this.epoch++;
    this.stopRetry();
    const wasLive = this.end(BRIDGE_BYE_FROM_PANEL, new DeckhandError(ErrorCode.Closed, 'the local client was disconnected from the side panel'));
    await this.forget();
    this.setStatus({ state: 'off', ...(wasLive ? { message: 'disconnected from the local client' } : {}) });
    return this.current;
  }

  /** After a worker start or an alarm: reconnect with a stored pairing, if any. */
  resume(): Promise<void> {
    // Live, a retry already scheduled, or a fresh pairing being dialled: nothing to resume.
    if (this.live || this.retryTimer || this.current.state === 'connecting') return Promise.resolve();
    return this.reconnect();
  }

  private setStatus(s: Omit<BridgeStatus, 'since'>): void {
    this.current = { ...s, since: Date.now() };
    try {
      this.opts.onStatus(this.current);
    } catch {
      // A listener's failure must not break the bridge.
    }
  }

  private async forget(): Promise<void> {
    this.pairing = null;
    await Promise.all([this.env.forgetPairing().catch(() => undefined), this.env.setWakeUp(false).catch(() => undefined)]);
  }

  private stopRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryDelay = RETRY_FIRST_MS;
  }

  /** Close the live connection, if any; with a reason, tell the client first. Returns whether there was one. */
  private end(byeReason: string | null, error: DeckhandError): boolean {
    const live = this.live;
    if (!live) return false;
    this.live = null;
    clearInterval(live.keepalive);
    live.socket.onmessage = live.socket.onclose = live.socket.onerror = null;
    if (byeReason !== null) sendFrame(live.socket, { kind: 'bye', reason: byeReason });
    try {
      live.socket.close(1000, 'bye');
    } catch {
      // Already closing.
    }
    live.peer.failAll(error, true);
    return true;
  }

  /**
   * Open the socket, say hello, wait for welcome. The connection is installed
   * synchronously inside the welcome handler, so no message can slip past it.
   */
  private dial(port: number, credentials: Credentials, epoch: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let socket: BridgeSocket;
      try {
        socket = this.env.openSocket(`ws://${where(port)}`);
      } catch (e) {
        reject(new BridgeDialError('unreachable', `could not connect to a local client on ${where(port)}: ${(e as Error).message}`));
        return;
      }
      let opened = false;
      let settled = false;
      const fail = (err: BridgeDialError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
        try {
          socket.close();
        } catch {
          // Never opened.
        }
        reject(err);
      };
      const timer = setTimeout(
        () => fail(new BridgeDialError('timeout', `the local client on ${where(port)} did not answer the pairing within ${BRIDGE_HANDSHAKE_MS} ms`)),
        BRIDGE_HANDSHAKE_MS,
      );
      socket.onerror = () => undefined; // a close event with the details follows
      socket.onopen = () => {
        opened = true;
        sendFrame(socket, { kind: 'hello', ...credentials, extensionId: this.opts.extensionId, version: this.opts.version });
      };
      socket.onclose = (ev) => {
        if (ev.code === BRIDGE_REFUSED) {
          const what = 'token' in credentials ? 'the pairing token (wrong or already used)' : "this browser's earlier pairing; pair again with a new token";
          fail(new BridgeDialError('refused', `the client on ${where(port)} refused ${what}${ev.reason ? `: ${ev.reason}` : ''}`));
        } else if (opened) {
          const code = `code ${ev.code}${ev.reason ? `: ${ev.reason}` : ''}`;
          fail(new BridgeDialError('unreachable', `the local client on ${where(port)} closed the connection before pairing (${code})`));
        } else {
          const why = `could not connect to a local client on ${where(port)}: nothing is listening there, or it refused the connection`;
          fail(new BridgeDialError('unreachable', why));
        }
      };
      socket.onmessage = (ev) => {
        const frame = readBridgeFrame(ev.data);
        if (frame?.kind !== 'welcome' || settled) return; // nothing else is expected before welcome
        settled = true;
        clearTimeout(timer);
        if (epoch !== this.epoch) {
          // Superseded while dialing (a newer connect, or disconnect): this connection is unwanted.
          sendFrame(socket, { kind: 'bye', reason: 'superseded by a newer pairing or a disconnect' });
          socket.onmessage = socket.onclose = null;
          socket.close(1000, 'bye');
          resolve();
          return;
        }
        this.attach(socket, port, frame);
        resolve();
      };
    });
  }

  private attach(socket: BridgeSocket, port: number, welcome: Extract<BridgeFrame, { kind: 'welcome' }>): void {
    const peer = this.opts.serve((raw) => {
      if (socket.readyState !== OPEN) throw new Error(`the connection to the local client on ${where(port)} is closed`);
      socket.send(raw);
    }, welcome.client);
    const live: Live = { socket, peer, port, keepalive: setInterval(() => sendFrame(socket, { kind: 'ping' }), BRIDGE_KEEPALIVE_MS) };
    this.live = live;
    this.pairing = { port, secret: welcome.secret };
    this.stopRetry();
    socket.onmessage = (ev) => this.onMessage(live, ev.data);
    socket.onclose = (ev) => this.onDrop(live, ev.code, ev.reason);
    socket.onerror = () => undefined;
    this.setStatus({ state: 'attached', port, message: `attached to ${welcome.client} on ${where(port)}` });
    const epoch = this.epoch;
    void (async () => {
      try {
        await this.env.savePairing({ port, secret: welcome.secret });
        await this.env.setWakeUp(true);
      } catch (e) {
        if (this.live === live && epoch === this.epoch) {
          const message =
            `attached to ${welcome.client} on ${where(port)}, but the pairing could not be saved (${(e as Error).message}): ` +
            'a worker restart will need a new pairing';
          this.setStatus({ state: 'attached', port, message });
        }
        return;
      }
      // A disconnect or bye that landed while saving has already forgotten the pairing: keep it forgotten.
      if (epoch !== this.epoch) await this.forget();
    })();
  }

  private onMessage(live: Live, data: unknown): void {
    if (typeof data !== 'string' || this.live !== live) return;
    const msg = readBridgeMessage(data);
    if (!msg) return;
    if ('rpc' in msg) {
      live.peer.receiveParsed(msg.rpc);
      return;
    }
    if (msg.frame.kind === 'ping') sendFrame(live.socket, { kind: 'pong' });
    else if (msg.frame.kind === 'bye') {
      // The client is done with this browser: forget the pairing, nothing to reconnect to.
      const reason = msg.frame.reason;
      this.epoch++;
      this.stopRetry();
      this.end(null, new DeckhandError(ErrorCode.Closed, `the local client closed the connection: ${reason}`));
      void this.forget();
      this.setStatus({ state: 'off', port: live.port, message: `the local client on ${where(live.port)} ended the connection (${reason})` });
    }
  }

  private onDrop(live: Live, code: number, reason: string): void {
    if (this.live !== live) return;
    this.live = null;
    clearInterval(live.keepalive);
    live.peer.failAll(new DeckhandError(ErrorCode.Closed, `the connection to the local client on ${where(live.port)} dropped`), true);
    if (code === BRIDGE_REFUSED) {
      void this.forget();
      this.setStatus({ state: 'refused', port: live.port, message: `the client on ${where(live.port)} ended the pairing${reason ? `: ${reason}` : ''}` });
      return;
    }
    if (!this.pairing) {
      this.setStatus({ state: 'off', port: live.port, message: `the connection to the local client on ${where(live.port)} closed` });
      return;
    }
    const message = `the connection to the local client on ${where(live.port)} dropped (code ${code}); reconnecting`;
    this.setStatus({ state: 'reconnecting', port: live.port, message });
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const epoch = this.epoch;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (epoch === this.epoch) void this.reconnect();
    }, delay);
  }

  /** Dial again with the stored secret. One attempt at a time; failures schedule the next. */
  private reconnect(): Promise<void> {
    this.reconnecting ??= this.reconnectOnce().finally(() => (this.reconnecting = null));
    return this.reconnecting;
  }

  private async reconnectOnce(): Promise<void> {
    if (this.live) return;
    const epoch = this.epoch;
    let pairing = this.pairing;
    if (!pairing) {
      const stored = StoredPairingSchema.safeParse(await this.env.loadPairing().catch(() => undefined));
      if (epoch !== this.epoch || this.live) return;
      if (!stored.success) {
        // Nothing to resume (or something unreadable): make sure no alarm keeps waking us for nothing.
        await this.forget();
        return;
      }
      pairing = this.pairing = stored.data;
    }
    if (this.current.state !== 'reconnecting') {
      this.setStatus({ state: 'reconnecting', port: pairing.port, message: `reconnecting to the local client on ${where(pairing.port)}` });
    }
    try {
      await this.dial(pairing.port, { secret: pairing.secret }, epoch);
      // Attached: the welcome handler saved the pairing again, without failingSince.
    } catch (e) {
      if (epoch !== this.epoch) return;
      const err = e instanceof BridgeDialError ? e : new BridgeDialError('unreachable', String((e as Error)?.message ?? e));
      if (err.why === 'refused') {
        await this.forget();
        this.setStatus({ state: 'refused', port: pairing.port, message: err.message });
        return;
      }
      const since = pairing.failingSince ?? Date.now();
      if (Date.now() - since >= BRIDGE_GIVE_UP_MS) {
        await this.forget();
        this.setStatus({
          state: 'error',
          port: pairing.port,
          message:
            `gave up reconnecting: the local client on ${where(pairing.port)} has not answered for ${Math.round(BRIDGE_GIVE_UP_MS / 60_000)} minutes; ` +
            'pair again from the side panel',
        });
        return;
      }
      if (pairing.failingSince === undefined) {
        pairing.failingSince = since;
        await this.env.savePairing(pairing).catch(() => undefined);
      }
      this.setStatus({ state: 'reconnecting', port: pairing.port, message: `${err.message}; retrying in ${(this.retryDelay / 1000).toFixed(1)} s` });
      this.scheduleRetry();
    }
  }
}

function sendFrame(socket: BridgeSocket, frame: BridgeFrame): void {
  if (socket.readyState !== OPEN) return;
  try {
    socket.send(JSON.stringify(frame));
  } catch {
    // The close event reports it.
  }
}
