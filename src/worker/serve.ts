/**
 * The worker's RPC serving: one RpcPeer per caller, all speaking the same RPC
 * (src/protocol/rpc.ts), answering the engine's methods:
 * - Node clients over CDP: they attach to this worker target, add a binding of their
 *   own (`__dh_<tag>`) and deliver messages with `globalThis.__deckhand.receive`;
 *   only a debugger client of the worker can do that, no web page can;
 * - the side panel over a chrome.runtime port (extension pages only);
 * - a Node client on 127.0.0.1 the worker dials out to (the WebSocket bridge).
 * A caller's calls stop when it is gone. Other callers' runs are shown to the side panels, their
 * risky steps are put to whoever may decide, and they wait while the person has paused them.
 */
import type { z } from 'zod';
import type { CallContext, Engine } from '../engine/engine';
import type { Answerer, ApprovalDesk } from '../engine/people/approval';
import type { PauseGate } from '../engine/people/pause';
import type { Takeover } from '../engine/people/takeover';
import type { Watch } from '../engine/people/watch';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { answerWithin, CallerInfoSchema, ClientMethods, Methods, type MethodName, type Params } from '../protocol/methods';
import { PanelClientMethods, PanelMethods, type WatchCaller } from '../protocol/panel';
import { RpcPeer } from '../protocol/rpc';
import { describeZodError } from '../protocol/zod-errors';

/** A caller's cache store may wait up to 10 s on a locked SQLite file. */
const CACHE_CALL_MS = 15_000;
/**
 * A CDP client's end never says it closed (a binding stays in place after its session goes), so
 * while its calls run the worker asks it every PROBE_EVERY_MS whether it is still there; one
 * that has not answered within PROBE_TIMEOUT_MS is gone, and its calls are stopped. Generous,
 * so a live client whose event loop is busy for a while (a slow synchronous callback, a
 * debugger pause) is not taken for dead.
 */
const PROBE_EVERY_MS = 1_000;
/** The methods that may send the page trusted input (the panel's own runs of these are not the person's steps). */
const SENDS_INPUT: ReadonlySet<string> = new Set(['act', 'act.replay', 'agent.run', 'batch.run', 'flow.replay', 'locator.act', 'page.press']);
const PROBE_TIMEOUT_MS = 10_000;

/** What the callers are served by. */
export interface ServedParts {
  engine: Engine;
  /** Other callers' runs, told to the side panels. */
  watch: Watch;
  /** Steps waiting for approval: put to every side panel (those opened meanwhile too) and to the caller. */
  desk: ApprovalDesk;
  /** Where other programs' calls wait while the person has paused them. */
  pause: PauseGate;
  takeover: Takeover;
  /** The side panels connected now; served here, told of changes by the worker's other parts. */
  panels: Set<RpcPeer>;
}

/** A panel-only method's handler, given its validated params. */
type PanelResult<M extends keyof typeof PanelMethods> = z.input<(typeof PanelMethods)[M]['result']>;
export type PanelRuns = { [M in keyof typeof PanelMethods]: (p: z.infer<(typeof PanelMethods)[M]['params']>) => Promise<PanelResult<M>> | PanelResult<M> };
export type PanelCall = (name: string, raw: unknown) => Promise<unknown>;

/** The panel-only methods, validated with their schemas. */
export function panelMethods(runs: PanelRuns): PanelCall {
  return async (name, raw) => {
    if (!Object.hasOwn(PanelMethods, name)) throw new DeckhandError(ErrorCode.InvalidArgument, `unknown panel method '${name}'`);
    const method = name as keyof typeof PanelMethods;
    const parsed = PanelMethods[method].params.safeParse(raw ?? {});
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, `${name} parameters`));
    return (runs[method] as (p: unknown) => unknown)(parsed.data);
  };
}

export interface Serving {
  /**
   * An RPC peer over any transport, answering the engine's methods. The calls it serves stop
   * when its caller is gone (peer.closed: the transport's close calls failAll(…, true)).
   * `probe`: the transport never reports its close, so ask the caller while its calls run.
   * `caller`: who it is, for side panels watching its runs; none for a panel's own calls.
   */
  serve(send: (raw: string) => void, label: string, probe?: boolean, caller?: WatchCaller): RpcPeer;
  /** A message from a Node client over CDP, `tag` naming its binding (`__dh_<tag>`). */
  receive(message: string, tag: string): void;
  /** The client closed its link: whatever it still has running here stops. */
  release(tag: string): void;
  /** A side panel's port: the engine's methods and the panel's own; a port from anything but this extension's pages is closed. */
  panel(port: chrome.runtime.Port, panelCall: PanelCall): void;
}

export function serving(parts: ServedParts): Serving {
  const { engine, watch, desk, pause, takeover, panels } = parts;
  const panelAnswerers = new Map<RpcPeer, Answerer>();
  const answererOf = (peer: RpcPeer, name: string, table: typeof PanelClientMethods | typeof ClientMethods): Answerer => ({
    name,
    ask: (req) => peer.call(table as typeof ClientMethods, 'approval.request', req, Math.max(1000, req.deadline - Date.now() + 1000)),
    settled: (end) => void peer.call(table as typeof ClientMethods, 'approval.settled', end, 5000).catch(() => undefined),
  });

  const serve = (send: (raw: string) => void, label: string, probe = false, caller?: WatchCaller): RpcPeer => {
    const peer = new RpcPeer(send, label);
    // Each call is acknowledged with the deadline the engine holds it to: callers compute none.
    peer.ackWith(answerWithin);
    // The caller may decide on its own steps (a handler of its own, an MCP host, the HTTP endpoint); a panel's own steps go to the panels.
    const self = caller ? answererOf(peer, `the ${label}`, ClientMethods) : null;
    let running = 0;
    let probing = false;
    const probeCaller = async () => {
      if (probing) return;
      probing = true;
      try {
        while (running > 0 && !peer.closed.aborted) {
          await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
          if (running === 0 || peer.closed.aborted) break;
          const gone = await peer.call(ClientMethods, 'ping', {}, PROBE_TIMEOUT_MS).then(
            () => false,
            // Any answer means it is there (an older client answers that it has no 'ping').
            (e: unknown) => e instanceof DeckhandError && (e.code === ErrorCode.Timeout || e.code === ErrorCode.WorkerGone),
          );
          if (gone) {
            const why = `the ${label} stopped answering (no answer within ${PROBE_TIMEOUT_MS} ms)`;
            // Said in the worker's own console too: the caller that would read the error is gone.
            console.warn(`[deckhand] ${why}: its ${running} running call(s) are stopped`);
            peer.failAll(new DeckhandError(ErrorCode.Closed, why), true);
          }
        }
      } finally {
        probing = false;
      }
    };
    const ctx: CallContext = {
      signal: peer.closed,
      invokeCallback: (callbackId, request, timeoutMs) => peer.request('model.generate', { callbackId, request }, timeoutMs + 2000),
      log: (e) => void peer.request('log', e, 5000).catch(() => undefined),
      invokeTool: async (name, input, timeoutMs) => (await peer.call(ClientMethods, 'tool.call', { name, input }, timeoutMs)).output,
      askApproval: (req, signal) => desk.ask(req, [...panelAnswerers.values(), ...(self ? [self] : [])], signal),
      // The caller's store: it scopes entries to its own key; this side only names cache keys.
      cache: {
        lookup: (key, baseKey) => peer.call(ClientMethods, 'cache.lookup', { key, baseKey }, CACHE_CALL_MS),
        record: (req) => peer.call(ClientMethods, 'cache.record', req, CACHE_CALL_MS),
        invalidate: async (key) => void (await peer.call(ClientMethods, 'cache.invalidate', { key }, CACHE_CALL_MS)),
      },
      // Other programs wait while the person has paused them; the panel's own calls never do.
      ...(caller ? { pause } : {}),
    };
    for (const name of Object.keys(Methods) as MethodName[]) {
      peer.handle(name, async (params) => {
        running++;
        if (probe) void probeCaller();
        // What the caller says of itself when it connects names it in the panels from then on.
        if (caller && name === 'engine.ping') {
          const info = (params as { client?: unknown } | null)?.client;
          const said = CallerInfoSchema.safeParse(info);
          if (said.success) caller.info = said.data;
        }
        // Only while a panel is connected: with none, no watch work and no screenshots at all.
        const run = caller && panels.size > 0 ? watch.begin(name, params, { ...caller }) : null;
        // The panel's own runs send trusted input too: not the person's steps.
        const own = !caller && takeover.paused && SENDS_INPUT.has(name) ? takeover.ownRun() : null;
        // A failed act of another caller's may be fixed by the person and stored (take over).
        const failedAct = () => {
          if (!run || !caller) return;
          void takeover.failed({ runId: run.runId, callerId: caller.id, description: run.description }, params as Params<'act'>, ctx, peer.closed);
        };
        try {
          if (!run) return await engine.call(name, params as never, ctx);
          const r = await engine.call(name, params as never, {
            ...ctx,
            log: (e) => {
              ctx.log(e);
              run.log(e);
            },
          });
          run.finish(r);
          if (name === 'act' && (r as { data?: { success?: boolean } }).data?.success === false) failedAct();
          return r;
        } catch (e) {
          run?.fail(e);
          if (name === 'act') failedAct();
          throw e;
        } finally {
          running--;
          own?.();
        }
      });
    }
    return peer;
  };

  // Node clients over CDP, by the tag of their binding.
  const peers = new Map<string, RpcPeer>();
  const g = globalThis as unknown as Record<string, unknown>;
  const peerFor = (tag: string): RpcPeer => {
    let peer = peers.get(tag);
    if (!peer) {
      const self: RpcPeer = (peer = serve(
        (m) => {
          const send = g[`__dh_${tag}`];
          if (typeof send !== 'function') throw new Error('the client has detached');
          (send as (m: string) => void)(m);
        },
        'client',
        true,
        { id: crypto.randomUUID(), transport: 'cdp' },
      ));
      peers.set(tag, self);
      // A client found gone is forgotten; should it speak again, it gets a new peer.
      self.closed.addEventListener(
        'abort',
        () => {
          if (peers.get(tag) === self) peers.delete(tag);
        },
        { once: true },
      );
    }
    return peer;
  };

  const extensionOrigin = new URL(chrome.runtime.getURL('/')).origin;
  return {
    serve,
    receive(message, tag) {
      if (typeof tag !== 'string' || !/^[A-Za-z0-9]{8,64}$/.test(tag)) return;
      peerFor(tag).receive(message);
    },
    release(tag) {
      peers.get(tag)?.failAll(new DeckhandError(ErrorCode.Closed, 'the client closed its connection'), true);
      peers.delete(tag);
    },
    panel(port, panelCall) {
      // Only our own extension pages: content scripts share our id but run on web pages' origins.
      const from = port.sender?.url ? new URL(port.sender.url).origin : '';
      if (port.sender?.id !== chrome.runtime.id || from !== extensionOrigin) {
        port.disconnect();
        return;
      }
      let open = true;
      const peer = serve((m) => {
        if (!open) throw new Error('the side panel was closed');
        port.postMessage(m);
      }, 'side panel');
      for (const name of Object.keys(PanelMethods)) peer.handle(name, (raw) => panelCall(name, raw));
      panels.add(peer);
      const answerer = answererOf(peer, 'the side panel', PanelClientMethods);
      panelAnswerers.set(peer, answerer);
      desk.offer(answerer);
      port.onMessage.addListener((m) => {
        if (typeof m === 'string') peer.receive(m);
      });
      port.onDisconnect.addListener(() => {
        open = false;
        panels.delete(peer);
        panelAnswerers.delete(peer);
        peer.failAll(new DeckhandError(ErrorCode.Closed, 'the side panel was closed'), true);
        // Nobody is left to press Resume: programs go on.
        if (panels.size === 0) void takeover.resume('every side panel was closed, so nobody was left to press Resume');
      });
    },
  };
}
