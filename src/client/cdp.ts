/**
 * A minimal CDP connection (flattened sessions) over a WebSocket or Chromium's
 * --remote-debugging-pipe. Every command has a deadline; when the connection
 * drops, every pending command fails with BROWSER_CLOSED.
 */
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import { DeckhandError, ErrorCode } from '../protocol/errors';

export interface CdpTransport {
  send(message: string): void;
  close(): void;
  onmessage?: (message: string) => void;
  onclose?: () => void;
}

export class WebSocketTransport implements CdpTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (d) => this.onmessage?.(d.toString()));
    ws.on('close', () => this.onclose?.());
    ws.on('error', () => undefined);
  }
  static connect(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<WebSocketTransport> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new DeckhandError(ErrorCode.BrowserClosed, `connecting to ${url} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      ws.once('open', () => {
        clearTimeout(timer);
        resolve(new WebSocketTransport(ws));
      });
      ws.once('error', (e) => {
        clearTimeout(timer);
        reject(new DeckhandError(ErrorCode.BrowserClosed, `cannot connect to ${url}: ${e.message}`));
      });
    });
  }
  send(message: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) throw new DeckhandError(ErrorCode.BrowserClosed, 'the browser connection is closed');
    this.ws.send(message);
  }
  close(): void {
    this.ws.close();
  }
}

/** NUL-delimited JSON over fds 3 (to Chromium) and 4 (from Chromium). */
export class PipeTransport implements CdpTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;
  private pending: Buffer[] = [];
  private closed = false;
  constructor(
    private readonly out: Writable,
    input: Readable,
  ) {
    input.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let i = chunk.indexOf(0); i !== -1; i = chunk.indexOf(0, start)) {
        this.pending.push(chunk.subarray(start, i));
        const msg = Buffer.concat(this.pending).toString('utf8');
        this.pending = [];
        start = i + 1;
        this.onmessage?.(msg);
      }
      if (start < chunk.length) this.pending.push(chunk.subarray(start));
    });
    const done = () => {
      if (this.closed) return;
      this.closed = true;
      this.onclose?.();
    };
    input.on('close', done);
    input.on('error', done);
    out.on('error', done);
  }
  send(message: string): void {
    if (this.closed) throw new DeckhandError(ErrorCode.BrowserClosed, 'the browser connection is closed');
    this.out.write(message);
    this.out.write('\0');
  }
  close(): void {
    this.out.end();
  }
}

interface Pending {
  method: string;
  resolve: (v: any) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class CdpConnection extends EventEmitter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  closed = false;

  constructor(private readonly transport: CdpTransport) {
    super();
    // A browser serving isolated contexts has a link and a handle per context on this one connection.
    this.setMaxListeners(0);
    transport.onmessage = (raw) => this.onMessage(raw);
    transport.onclose = () => this.onClose();
  }

  send<T = any>(method: string, params: Record<string, unknown> = {}, sessionId?: string, timeoutMs = 30_000): Promise<T> {
    if (this.closed) return Promise.reject(new DeckhandError(ErrorCode.BrowserClosed, `cannot send ${method}: the browser is closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new DeckhandError(ErrorCode.Timeout, `CDP ${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      try {
        this.transport.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(e);
      }
    });
  }

  private onMessage(raw: string): void {
    let msg: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string }; sessionId?: string };
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new DeckhandError(ErrorCode.ProtocolError, `CDP ${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method) this.emit('event', { method: msg.method, params: msg.params, sessionId: msg.sessionId });
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new DeckhandError(ErrorCode.BrowserClosed, `the browser closed during CDP ${p.method}`));
    }
    this.pending.clear();
    this.emit('close');
  }

  /** Close the connection; calls still waiting fail at once (a peer that never acknowledges the close cannot hold them). */
  close(): void {
    this.transport.close();
    this.onClose();
  }
}
