/**
 * A symmetric JSON-RPC-style peer: either side may call the other. Messages are
 * validated by zod on receipt; every outgoing request has a deadline, so a call
 * never hangs even if the far side vanishes without a word. A side that decides its calls'
 * deadlines (the worker: protocol/methods.ts answerWithin) acknowledges each request at once
 * with how long its answer may take, and the caller waits that long plus a grace: callers
 * compute no deadline of their own.
 */
import { z } from 'zod';
import { DeckhandError, ErrorCode, ReceivedErrorSchema, deserializeError, serializeError, type SerializedError } from './errors';
import { describeZodError } from './zod-errors';
import { DEFAULTS } from './schemas';

/** A call; `method` names one of the Methods (or ClientMethods, PanelMethods) and `params` is its params. */
export const RpcRequestSchema = z.object({ kind: z.literal('req'), id: z.number().int(), method: z.string(), params: z.unknown() });
/** The answer to the request with the same id: the method's result. */
export const RpcResultSchema = z.object({ kind: z.literal('res'), id: z.number().int(), result: z.unknown() });
/** The failure of the request with the same id. */
export const RpcErrorSchema = z.object({ kind: z.literal('err'), id: z.number().int(), error: ReceivedErrorSchema });
/** Sent at once for a request with the same id: its answer comes within `ms` milliseconds (the caller adds DEFAULTS.rpcGraceMs). */
export const RpcAckSchema = z.object({ kind: z.literal('ack'), id: z.number().int(), ms: z.number().int().nonnegative().max(2_000_000_000) });
export const RpcMessageSchema = z.discriminatedUnion('kind', [RpcRequestSchema, RpcResultSchema, RpcErrorSchema, RpcAckSchema]);
export type RpcMessage = z.infer<typeof RpcMessageSchema>;

export type RpcHandler = (params: unknown) => Promise<unknown> | unknown;

/** Methods one side serves: each with the schema of its params and of its result (protocol/methods.ts). */
export type MethodTable = Record<string, { params: z.ZodTypeAny; result: z.ZodTypeAny }>;
export type TableParams<T extends MethodTable, M extends keyof T> = z.input<T[M]['params']>;
export type TableResult<T extends MethodTable, M extends keyof T> = z.output<T[M]['result']>;

interface Pending {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Time left on its deadline when last armed, and when that was (see hold). */
  left: number;
  /** What the far side's ack promised, once it came. */
  acked?: number;
  armedAt: number;
  expire: () => void;
}

export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, RpcHandler>();
  private closedError: DeckhandError | null = null;
  private readonly closing = new AbortController();

  constructor(
    private readonly sendRaw: (message: string, requestId?: number) => void,
    private readonly label = 'peer',
  ) {}

  handle(method: string, handler: RpcHandler): void {
    this.handlers.set(method, handler);
  }

  /** Acknowledge each request this side serves with how long its answer may take (`within` says; undefined: no ack). */
  ackWith(within: (method: string, params: unknown) => number | undefined): void {
    this.within = within;
  }

  private within: ((method: string, params: unknown) => number | undefined) | undefined;

  /**
   * Call the far side. `timeoutMs`: how long to wait for the answer, or, when the far side
   * acknowledges calls, for its ack; the ack then sets the deadline (its ms plus DEFAULTS.rpcGraceMs).
   */
  request(method: string, params: unknown, timeoutMs: number = DEFAULTS.rpcAckMs): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const expire = () => {
        const p = this.pending.get(id);
        this.pending.delete(id);
        const waited = p?.acked ? `its promised ${p.acked} ms and ${DEFAULTS.rpcGraceMs} ms more` : `${timeoutMs} ms`;
        reject(
          new DeckhandError(ErrorCode.Timeout, `'${method}' timed out after ${waited} waiting for the ${this.label}`, {
            method,
            timeoutMs: p?.left ?? timeoutMs,
          }),
        );
      };
      // While a hold is on, the clock of a new call starts when it ends.
      const timer = this.holds ? undefined : setTimeout(expire, timeoutMs);
      let raw: string;
      try {
        raw = JSON.stringify({ kind: 'req', id, method, params });
      } catch (e) {
        // The caller's parameters (a cycle, a BigInt, nesting past the stack), not the far side.
        clearTimeout(timer);
        reject(new DeckhandError(ErrorCode.InvalidArgument, `the parameters of '${method}' cannot be sent as JSON: ${(e as Error).message}`));
        return;
      }
      this.pending.set(id, { method, resolve, reject, timer, left: timeoutMs, armedAt: Date.now(), expire });
      try {
        this.sendRaw(raw, id);
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(
          e instanceof DeckhandError ? e : new DeckhandError(ErrorCode.WorkerGone, `could not send '${method}' to the ${this.label}: ${(e as Error).message}`),
        );
      }
    });
  }

  /**
   * Call one method of a table. The answer is checked against the method's result schema, so
   * a far side of another version fails here, with the field named, not deep in the caller.
   */
  async call<T extends MethodTable, M extends keyof T & string>(
    table: T,
    method: M,
    params: TableParams<T, M>,
    timeoutMs?: number,
  ): Promise<TableResult<T, M>> {
    const raw = await this.request(method, params, timeoutMs);
    const r = table[method].result.safeParse(raw);
    if (!r.success) throw new DeckhandError(ErrorCode.ProtocolError, describeZodError(r.error, `the answer to '${method}'`));
    return r.data;
  }

  /** Serve one method of a table: the handler sees params already checked against its schema. */
  serve<T extends MethodTable, M extends keyof T & string>(
    table: T,
    method: M,
    handler: (params: z.output<T[M]['params']>) => Promise<z.input<T[M]['result']>> | z.input<T[M]['result']>,
  ): void {
    this.handle(method, (raw) => {
      const p = table[method].params.safeParse(raw ?? {});
      if (!p.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(p.error, `${method} parameters`));
      return handler(p.data);
    });
  }

  /** Feed one raw message from the transport. */
  receive(raw: string): void {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return; // Malformed: nothing sane to answer to.
    }
    this.receiveParsed(value);
  }

  /** Feed one message the transport has already parsed (it looked at `kind` to route it). */
  receiveParsed(value: unknown): void {
    const parsed = RpcMessageSchema.safeParse(value);
    if (!parsed.success) return; // Not ours: nothing sane to answer to.
    const msg: RpcMessage = parsed.data;
    if (msg.kind === 'req') {
      void this.dispatch(msg.id, msg.method, msg.params);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.kind === 'ack') {
      // The far side's promise replaces the wait for the ack; a hold in force keeps the clock stopped.
      p.acked = msg.ms;
      p.left = msg.ms + DEFAULTS.rpcGraceMs;
      p.armedAt = Date.now();
      if (p.timer !== undefined) {
        clearTimeout(p.timer);
        p.timer = setTimeout(p.expire, p.left);
      }
      return;
    }
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.kind === 'res') p.resolve(msg.result);
    else p.reject(deserializeError(msg.error as SerializedError));
  }

  private async dispatch(id: number, method: string, params: unknown): Promise<void> {
    const handler = this.handlers.get(method);
    const ms = handler && this.within?.(method, params);
    if (ms !== undefined && ms !== null) {
      try {
        this.sendRaw(JSON.stringify({ kind: 'ack', id, ms: Math.ceil(ms) }));
      } catch {
        // The caller is gone; its own deadline reports that.
      }
    }
    let reply: RpcMessage;
    try {
      if (!handler) throw new DeckhandError(ErrorCode.ProtocolError, `unknown method '${method}'`);
      const result = await handler(params);
      reply = { kind: 'res', id, result: result === undefined ? null : result };
    } catch (e) {
      reply = { kind: 'err', id, error: serializeError(e) };
    }
    let raw: string;
    try {
      raw = JSON.stringify(reply);
    } catch (e) {
      raw = JSON.stringify({
        kind: 'err',
        id,
        error: { code: ErrorCode.Internal, message: `the result of '${method}' cannot be sent as JSON: ${(e as Error).message}` },
      });
    }
    try {
      this.sendRaw(raw);
    } catch {
      // The caller is gone; its own deadline reports that.
    }
  }

  /**
   * Stop the clocks of the calls in flight while `p` runs: the far side is waiting on a person
   * (an approval), and that time is not the call's. Their deadlines resume, with what was left,
   * when the last hold ends.
   */
  async hold<T>(p: Promise<T>): Promise<T> {
    if (this.holds++ === 0) {
      const now = Date.now();
      for (const x of this.pending.values()) {
        if (x.timer === undefined) continue;
        clearTimeout(x.timer);
        x.timer = undefined;
        x.left = Math.max(0, x.left - (now - x.armedAt));
      }
    }
    try {
      return await p;
    } finally {
      if (--this.holds === 0) {
        const now = Date.now();
        for (const x of this.pending.values()) {
          x.armedAt = now;
          x.timer = setTimeout(x.expire, x.left);
        }
      }
    }
  }

  private holds = 0;

  /** Fail one call in flight (its message could not be delivered). */
  fail(id: number, error: DeckhandError): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.reject(error);
  }

  /**
   * Aborted, with the error given, once failAll(…, true) says the far side is gone for good:
   * what the calls this peer serves watch to stop working for a caller that is not there.
   */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /** Fail every call in flight (the far side went away) and optionally refuse new ones. */
  failAll(error: DeckhandError, permanently = false): void {
    if (permanently) {
      this.closedError = error;
      if (!this.closing.signal.aborted) this.closing.abort(error);
    }
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new DeckhandError(error.code, `'${p.method}' failed: ${error.message}`, error.data));
      this.pending.delete(id);
    }
  }

  get inFlight(): number {
    return this.pending.size;
  }
}
