/**
 * The Node end of the WebSocket bridge: a server on 127.0.0.1 that the
 * extension's worker dials out to once a person enters the pairing token in the
 * side panel. No remote debugging is involved, so this drives the Chrome a person
 * already uses.
 *
 * Three walls keep everyone else out: the server listens on loopback only; the
 * upgrade must come from the extension's own origin (web pages can open WebSockets
 * to localhost, but not with a chrome-extension:// Origin); and the first frame
 * must carry the one-time token (spent on first use) or the secret issued with it.
 * A local process can forge the Origin, so guesses at the token are slowed down: after a
 * refused attempt, on any connection, the next is judged only after a backoff.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { isIPv4, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { ClientMethods, Methods, type MethodName, type Params, type Result } from '../protocol/methods';
import { BRIDGE_BYE_FROM_PANEL, BRIDGE_REFUSED, BRIDGE_TRY_LATER, readBridgeFrame, readBridgeMessage, type BridgeFrame } from '../protocol/panel';
import { RpcPeer } from '../protocol/rpc';
import { type ClientHandler, type ClientMethodName, type WorkerLink } from './link';

/** How long a fresh socket has to say hello. */
const HELLO_TIMEOUT_MS = 5_000;
/** How long close() waits for the goodbye to be acknowledged before cutting the socket. */
const CLOSE_GRACE_MS = 1_000;
/** Results such as full-page screenshots are large; CDP allows 512 MB, this is plenty. */
const MAX_PAYLOAD = 256 * 1024 * 1024;
/**
 * After n refused pairing attempts in a row the next is judged 100 ms x 2^(n-1) after the
 * last, at most 5 s: a token guesser gets one guess per 5 s, a person who mistyped barely waits.
 */
const PAIRING_BACKOFF_FIRST_MS = 100;
const PAIRING_BACKOFF_MAX_MS = 5_000;
/**
 * The longest a hello is held for its turn; one whose turn is further off is closed with
 * BRIDGE_TRY_LATER at once. Below the worker's 5 s wait for welcome, so a held worker is answered.
 */
const PAIRING_HOLD_MAX_MS = 4_000;

const pairingBackoff = (refusals: number): number => Math.min(PAIRING_BACKOFF_FIRST_MS * 2 ** Math.max(0, refusals - 1), PAIRING_BACKOFF_MAX_MS);

export interface BridgeListenOptions {
  /** Where to listen: a loopback address (see bridgeHost). */
  host: string;
  /** 0 picks a free port. */
  port: number;
  token: string;
  extensionId: string;
  /** How long a call waits for a worker that dropped off to dial back in. */
  reconnectTimeoutMs: number;
  /** How the side panel names this client. */
  clientName: string;
}

const isLoopbackAddress = (a: string | undefined): boolean =>
  !!a && ((isIPv4(a) && a.startsWith('127.')) || a === '::1' || (a.startsWith('::ffff:') && isIPv4(a.slice(7)) && a.slice(7).startsWith('127.')));

/** The address to listen on: loopback only, and the one the extension dials (127.0.0.1). */
export function bridgeHost(host: string | undefined): string {
  if (host === undefined || host === '127.0.0.1' || host.toLowerCase() === 'localhost') return '127.0.0.1';
  if (isLoopbackAddress(host)) {
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `host '${host}' is a loopback address, but the extension dials 127.0.0.1 only; leave host out or use 127.0.0.1`,
    );
  }
  throw new DeckhandError(
    ErrorCode.InvalidArgument,
    `host must be a loopback address (127.0.0.1 or localhost), got '${host}': the bridge never listens on a network interface`,
  );
}

/** Why an upgrade request is refused, or null to accept it. */
export function refuseUpgrade(req: { remoteAddress?: string; origin?: string; host?: string }, expected: { extensionId: string; port: number }): string | null {
  if (!isLoopbackAddress(req.remoteAddress))
    return `connections from ${req.remoteAddress ?? 'an unknown address'} are refused: the bridge serves this machine only`;
  if (req.origin !== `chrome-extension://${expected.extensionId}`)
    return `Origin ${req.origin ?? '(none)'} is refused: only the Deckhand extension may connect`;
  // A page that rebinds its own host name to 127.0.0.1 would also show up here with a foreign Host.
  const host = (req.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${expected.port}` && host !== `localhost:${expected.port}`) return `Host ${req.host ?? '(none)'} is refused`;
  return null;
}

/**
 * A one-time pairing token a person can read and type: four groups of four
 * lower-case letters and digits (about 82 bits), URL-safe.
 */
export function newPairingToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let s = '';
    for (let i = 0; i < 4; i++) s += alphabet[randomInt(alphabet.length)];
    groups.push(s);
  }
  return groups.join('-');
}

/** Compare secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(a), h(b));
}

type State = 'pairing' | 'up' | 'down' | 'closed';

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
}

export class BridgeLink implements WorkerLink {
  private state: State = 'pairing';
  private get current(): State {
    return this.state; // read through a getter: socket events change it between awaits
  }
  /** The paired worker's socket, while it is connected. */
  private socket: WebSocket | null = null;
  private secret: string | null = null;
  private tokenSpent = false;
  private closedError: DeckhandError | null = null;
  private closing: Promise<void> | null = null;
  private readonly peer: RpcPeer;
  private readonly waiters = new Set<Waiter>();
  /** Pairing attempts refused since the last pairing, on any connection. */
  private refusals = 0;
  /** Hellos held for their turn, not yet judged. */
  private heldHellos = 0;
  /** When the next hello may be judged (ms since the epoch). */
  private nextTurnAt = 0;
  private readonly turnTimers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
    private readonly opts: BridgeListenOptions,
  ) {
    this.peer = new RpcPeer((raw) => this.send(raw), "extension's service worker (over the bridge)");
    this.peer.serve(ClientMethods, 'ping', () => null);
    http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
  }

  /** Start listening. Fails with UNAVAILABLE when the port is taken. */
  static async listen(opts: BridgeListenOptions): Promise<BridgeLink> {
    // Plain HTTP requests get a short answer; only upgrades matter.
    const http = createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end('Deckhand bridge: WebSocket connections from the Deckhand extension only\n');
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException) =>
        reject(
          new DeckhandError(ErrorCode.Unavailable, `cannot listen on ${opts.host}:${opts.port}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`),
        );
      http.once('error', onError);
      http.listen(opts.port, opts.host, () => {
        http.off('error', onError);
        resolve();
      });
    });
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD, perMessageDeflate: false });
    return new BridgeLink(http, wss, (http.address() as AddressInfo).port, opts);
  }

  get extensionId(): string {
    return this.opts.extensionId;
  }
  get isConnected(): boolean {
    // A worker restarting is expected back (its pairing is stored): still connected until bye or close.
    return this.state !== 'closed';
  }
  /** Where the server listens. */
  get address(): AddressInfo {
    return this.http.address() as AddressInfo;
  }

  private where(): string {
    return `${this.opts.host}:${this.port}`;
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refusal =
      this.state === 'closed'
        ? 'this client is closed'
        : refuseUpgrade(
            { remoteAddress: req.socket.remoteAddress, origin: req.headers.origin, host: req.headers.host },
            { extensionId: this.opts.extensionId, port: this.port },
          );
    if (refusal) {
      const body = `${refusal}\n`;
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  }

  private onConnection(ws: WebSocket): void {
    ws.on('error', () => undefined); // a close event follows
    let stage: 'hello' | 'judging' | 'paired' = 'hello';
    const helloTimer = setTimeout(() => ws.close(1008, `no hello within ${HELLO_TIMEOUT_MS} ms`), HELLO_TIMEOUT_MS);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (stage === 'paired') {
        if (ws === this.socket) this.route(ws, text);
        return;
      }
      // One hello per connection: nothing else is expected before welcome.
      if (stage === 'judging') return;
      stage = 'judging';
      clearTimeout(helloTimer);
      this.inTurn(ws, () => {
        const refusal = this.admit(readBridgeFrame(text));
        if (refusal) {
          if (this.state !== 'closed') this.refusals++;
          ws.close(BRIDGE_REFUSED, refusal);
          return;
        }
        this.refusals = 0;
        this.nextTurnAt = Date.now();
        stage = 'paired';
        this.install(ws);
      });
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      if (ws === this.socket) this.onDrop();
    });
  }

  /**
   * Run `judge` on this hello's turn: at once when no attempt was refused lately, else one
   * backoff after the turn before it. Each turn is booked as if it will be refused too, so
   * hellos sent together are judged one backoff apart, not all at once; a turn more than
   * PAIRING_HOLD_MAX_MS away is not booked (BRIDGE_TRY_LATER), which bounds every wait.
   */
  private inTurn(ws: WebSocket, judge: () => void): void {
    const now = Date.now();
    const at = Math.max(now, this.nextTurnAt);
    if (at - now > PAIRING_HOLD_MAX_MS) {
      ws.close(BRIDGE_TRY_LATER, `too many refused pairing attempts; try again in ${Math.ceil((at - now) / 1000)} s`);
      return;
    }
    this.heldHellos++;
    this.nextTurnAt = at + pairingBackoff(this.refusals + this.heldHellos);
    const run = () => {
      this.heldHellos--;
      // A hello whose socket went away while held is not judged: it guessed nothing.
      if (ws.readyState === WebSocket.OPEN) judge();
    };
    if (at <= now) {
      run();
      return;
    }
    const timer = setTimeout(() => {
      this.turnTimers.delete(timer);
      run();
    }, at - now);
    this.turnTimers.add(timer);
  }

  /** Check the first frame; returns why it is refused, or null (and the secret is set). */
  private admit(frame: BridgeFrame | null): string | null {
    if (this.state === 'closed') return 'this client is closed';
    if (frame?.kind !== 'hello') return 'the first frame must be hello';
    if (frame.extensionId !== this.opts.extensionId) return `extension ${frame.extensionId} is not the Deckhand extension`;
    if (frame.token !== undefined) {
      // The token is spent by the first pairing; only the secret issued then gets back in.
      if (this.tokenSpent || !sameSecret(frame.token.trim(), this.opts.token)) return 'the pairing token is wrong or already used';
      this.tokenSpent = true;
      this.secret = randomBytes(32).toString('base64url');
      return null;
    }
    if (frame.secret !== undefined) {
      if (!this.secret || !sameSecret(frame.secret, this.secret)) return 'unknown pairing; pair again with a new token';
      return null;
    }
    return 'hello carries neither a token nor a secret';
  }

  private install(ws: WebSocket): void {
    const old = this.socket;
    if (old && old !== ws) {
      // The worker restarted before its old socket reported closing: calls sent to the old one are lost.
      this.socket = null;
      old.terminate();
      this.peer.failAll(
        new DeckhandError(ErrorCode.WorkerGone, "the extension's service worker restarted before answering; the next call goes to the new one"),
      );
    }
    ws.send(JSON.stringify({ kind: 'welcome', secret: this.secret!, client: this.opts.clientName } satisfies BridgeFrame));
    this.socket = ws;
    this.state = 'up';
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
  }

  private route(ws: WebSocket, text: string): void {
    const msg = readBridgeMessage(text);
    if (!msg) return;
    if ('rpc' in msg) {
      this.peer.receiveParsed(msg.rpc);
      return;
    }
    if (msg.frame.kind === 'ping') ws.send(JSON.stringify({ kind: 'pong' } satisfies BridgeFrame));
    else if (msg.frame.kind === 'bye') {
      const reason = msg.frame.reason;
      const message = `the person disconnected this client in the Deckhand side panel${reason === BRIDGE_BYE_FROM_PANEL ? '' : ` (${reason})`}`;
      void this.shutdown(new DeckhandError(ErrorCode.BrowserClosed, message, { reason }), null);
    }
  }

  private onDrop(): void {
    this.socket = null;
    if (this.state === 'closed') return;
    this.state = 'down';
    this.peer.failAll(
      new DeckhandError(
        ErrorCode.WorkerGone,
        "the extension's service worker disconnected from the bridge before answering; the next call waits for it to reconnect",
      ),
    );
  }

  private send(raw: string): void {
    const ws = this.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      throw this.closedError ?? new DeckhandError(ErrorCode.WorkerGone, "the extension's service worker is not connected to the bridge");
    }
    ws.send(raw);
  }

  /** Wait until a worker is paired (or paired again), with a deadline. */
  private waitUp(timeoutMs: number, onTimeout: () => DeckhandError): Promise<void> {
    if (this.state === 'up') return Promise.resolve();
    if (this.state === 'closed') return Promise.reject(this.closedError);
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(onTimeout());
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  /** Resolve once the extension has paired with the token; TIMEOUT after timeoutMs. */
  paired(timeoutMs: number): Promise<void> {
    return this.waitUp(
      timeoutMs,
      () =>
        new DeckhandError(
          ErrorCode.Timeout,
          `waited ${timeoutMs} ms for the Deckhand extension to pair on port ${this.port}; ` +
            'open the Deckhand side panel, choose "Connect to a local client" and enter the port and token',
          { port: this.port, timeoutMs },
        ),
    );
  }

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    if (this.current !== 'up') {
      const ms = this.opts.reconnectTimeoutMs;
      await this.waitUp(
        ms,
        () =>
          new DeckhandError(
            ErrorCode.WorkerGone,
            `'${method}' waited ${ms} ms for the extension's service worker to reconnect to the bridge on ${this.where()}, and it did not`,
            { method, timeoutMs: ms },
          ),
      );
    }
    return this.peer.call(Methods, method, params);
  }

  serve<M extends ClientMethodName>(method: M, handler: ClientHandler<M>): void {
    this.peer.serve(ClientMethods, method, handler);
  }

  hold<T>(p: Promise<T>): Promise<T> {
    return this.peer.hold(p);
  }

  /** Say goodbye to the worker (it forgets the pairing) and stop listening. Safe to call twice. */
  close(reason = new DeckhandError(ErrorCode.Closed, 'the client was closed')): Promise<void> {
    return this.shutdown(reason, 'the program closed it');
  }

  private shutdown(error: DeckhandError, byeReason: string | null): Promise<void> {
    this.closing ??= (async () => {
      this.state = 'closed';
      this.closedError = error;
      this.peer.failAll(error, true);
      for (const w of this.waiters) w.reject(error);
      this.waiters.clear();
      for (const t of this.turnTimers) clearTimeout(t);
      this.turnTimers.clear();
      const ws = this.socket;
      this.socket = null;
      if (ws && byeReason !== null && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ kind: 'bye', reason: byeReason } satisfies BridgeFrame));
      // Stop accepting first, then close every socket (the paired one after its goodbye, and any still saying hello).
      const stopped = new Promise<void>((resolve) => this.http.close(() => resolve()));
      await Promise.all([...this.wss.clients].map((c) => closeSocket(c)));
      this.wss.close();
      this.http.closeAllConnections();
      await stopped;
    })();
    return this.closing;
  }
}

/** Close with a handshake, or cut it after CLOSE_GRACE_MS. */
function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      ws.terminate();
      resolve();
    }, CLOSE_GRACE_MS);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    ws.close(1000, 'bye');
  });
}
