/**
 * Boots the engine in the service worker and gives it three kinds of callers,
 * all speaking the same RPC (src/protocol/rpc.ts):
 * - Node clients over CDP: they attach to this worker target, add a binding of their
 *   own (`__dh_<tag>`) and deliver messages with `globalThis.__deckhand.receive`;
 *   only a debugger client of the worker can do that, no web page can;
 * - the side panel over a chrome.runtime port (extension pages only);
 * - a Node client on 127.0.0.1 the worker dials out to (the WebSocket bridge),
 *   once a person has paired it from the side panel.
 * The worker exposes nothing to pages: no externally_connectable, no onMessageExternal.
 */
import { ChromeBrowserPort } from '../src/browser/chrome-port';
import { ChromeSelfEvaluator } from '../src/browser/self-eval';
import { IdbCacheStore } from '../src/browser/idb-store';
import { IdbFlowStore } from '../src/browser/idb-flows';
import { WorkerBridge, BRIDGE_ALARM } from '../src/browser/bridge';
import { chromeAlarms, IdbScheduleStore, notifyFailure } from '../src/browser/scheduler';
import { replayInOwnTab, Scheduler } from '../src/engine/people/schedule';
import { Engine, type CallContext } from '../src/engine/engine';
import { Watch } from '../src/engine/people/watch';
import { ApprovalDesk, type Answerer } from '../src/engine/people/approval';
import { PauseGate } from '../src/engine/people/pause';
import { Takeover } from '../src/engine/people/takeover';
import { ManualActionMessageSchema } from '../src/protocol/content-messages';
import { ENGINE_VERSION } from '../src/protocol/version';
import type { Params } from '../src/protocol/methods';
import { answerWithin, CallerInfoSchema, ClientMethods, Methods, type MethodName } from '../src/protocol/methods';
import { PANEL_PORT, PanelClientMethods, PanelMethods, type BridgeStatus, type WatchCaller } from '../src/protocol/panel';
import { describeZodError } from '../src/protocol/zod-errors';
import { DeckhandError, ErrorCode } from '../src/protocol/errors';
import { RpcPeer } from '../src/protocol/rpc';
import { OFFSCREEN_PATH, OFFSCREEN_PORT } from '../src/protocol/offscreen';
import { OffscreenProviders } from '../src/browser/offscreen-models';
import type { z } from 'zod';

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

export default defineBackground(() => {
  // Session storage: survives the worker being stopped, gone when the browser closes; never sync storage.
  // Every isolated context's worker shares it with the others: each keeps its state under a
  // tag of its own, kept in its context's IndexedDB (which is the context's alone).
  const prefix = chrome.extension.inIncognitoContext ? contextTag().then((t) => `ctx:${t}:`) : Promise.resolve('');
  const state = {
    load: async (key: string) => {
      const k = (await prefix) + key;
      return (await chrome.storage.session.get(k))[k];
    },
    save: async (key: string, value: unknown) => chrome.storage.session.set({ [(await prefix) + key]: value }),
  };
  // Provider model requests run in the offscreen document: the worker never loads the ai SDK.
  const offscreen = new OffscreenProviders();
  const port = new ChromeBrowserPort(state);
  const flowStore = new IdbFlowStore();
  const engine = new Engine(port, chrome.runtime.id, state, offscreen.caller, new ChromeSelfEvaluator(), new IdbCacheStore(), flowStore);
  // The side panels connected now: other callers' runs are shown to them (see `watch` below).
  const panels = new Set<RpcPeer>();
  const watch = new Watch(port, (e) => {
    for (const p of panels) void p.call(PanelClientMethods, 'watch', e, 5000).catch(() => undefined);
  });
  // Steps waiting for approval: put to every side panel (those opened meanwhile too) and to the caller.
  const desk = new ApprovalDesk();
  const panelAnswerers = new Map<RpcPeer, Answerer>();
  const answererOf = (peer: RpcPeer, name: string, table: typeof PanelClientMethods | typeof ClientMethods): Answerer => ({
    name,
    ask: (req) => peer.call(table as typeof ClientMethods, 'approval.request', req, Math.max(1000, req.deadline - Date.now() + 1000)),
    settled: (end) => void peer.call(table as typeof ClientMethods, 'approval.settled', end, 5000).catch(() => undefined),
  });
  // Take over: the person pauses programs' runs from a panel and may store their own fix of a failed act.
  const gate = new PauseGate();
  const takeover = new Takeover(gate, engine, {
    changed: (s) => {
      for (const p of panels) void p.call(PanelClientMethods, 'control.changed', s, 5000).catch(() => undefined);
    },
    // The person's steps are recorded in every tab's top frame while paused (a new document asks nothing: see onUpdated below).
    record: async (on) => {
      const tabs = await chrome.tabs.query({});
      await Promise.all(tabs.map((t) => (t.id === undefined ? null : chrome.tabs.sendMessage(t.id, { type: 'dh:record', on }, { frameId: 0 }).catch(() => undefined))));
    },
    pageUrl: async (page) => (page !== undefined ? await port.pageInfo(page) : await port.activePage())?.url ?? '',
  });
  // A document that loads while paused starts recording too.
  chrome.tabs.onUpdated.addListener((tabId, info) => {
    if (info.status === 'complete' && gate.paused) void chrome.tabs.sendMessage(tabId, { type: 'dh:record', on: true }, { frameId: 0 }).catch(() => undefined);
  });
  // The person's steps, from the content scripts of this extension's own tabs' top frames.
  chrome.runtime.onMessage.addListener((msg, sender) => {
    if (sender.id !== chrome.runtime.id || !sender.tab || sender.frameId !== 0) return false;
    if ((msg as { type?: unknown } | null)?.type !== 'dh:manual') return false;
    const m = ManualActionMessageSchema.safeParse(msg);
    if (m.success) takeover.recorded(m.data.action, m.data.merge);
    return false;
  });

  /**
   * An RPC peer over any transport, answering the engine's methods. The calls it serves stop
   * when its caller is gone (peer.closed: the transport's close calls failAll(…, true)).
   * `probe`: the transport never reports its close, so ask the caller while its calls run.
   * `caller`: who it is, for side panels watching its runs; none for a panel's own calls.
   */
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
            // Said in the worker's own console too: the caller that would read the error is gone.
            console.warn(`[deckhand] the ${label} stopped answering (no answer within ${PROBE_TIMEOUT_MS} ms): its ${running} running call(s) are stopped`);
            peer.failAll(new DeckhandError(ErrorCode.Closed, `the ${label} stopped answering (no answer within ${PROBE_TIMEOUT_MS} ms)`), true);
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
      ...(caller ? { pause: gate } : {}),
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
          if (name === 'act' && (r as { data?: { success?: boolean } }).data?.success === false) void takeover.failed({ runId: run.runId, callerId: caller!.id, description: run.description }, params as Params<'act'>, ctx, peer.closed);
          return r;
        } catch (e) {
          run?.fail(e);
          if (run && caller && name === 'act') void takeover.failed({ runId: run.runId, callerId: caller.id, description: run.description }, params as Params<'act'>, ctx, peer.closed);
          throw e;
        } finally {
          running--;
          own?.();
        }
      });
    }
    return peer;
  };

  // --- Node clients over CDP ---
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
      self.closed.addEventListener('abort', () => {
        if (peers.get(tag) === self) peers.delete(tag);
      }, { once: true });
    }
    return peer;
  };
  g.__deckhand = {
    version: ENGINE_VERSION,
    ready: true,
    receive(message: string, tag: string) {
      if (typeof tag !== 'string' || !/^[A-Za-z0-9]{8,64}$/.test(tag)) return;
      peerFor(tag).receive(message);
    },
    release(tag: string) {
      // The client closed its link: whatever it still has running here stops.
      peers.get(tag)?.failAll(new DeckhandError(ErrorCode.Closed, 'the client closed its connection'), true);
      peers.delete(tag);
    },
    /**
     * The side panel's own methods (bridge.connect, ...), for a debugger client of this
     * worker: how tests play the person at the panel. No page can reach the worker's globals.
     */
    panel: (name: string, params: unknown) => panelCall(name, params),
    /** Thumbnails taken for watching panels, and the panels connected: tests check none are taken with no panel open. */
    watchStats: () => ({ ...watch.stats, panels: panels.size }),
  };

  // --- The WebSocket bridge (dial-out to a local Node client) ---
  const bridge = new WorkerBridge({
    extensionId: chrome.runtime.id,
    version: ENGINE_VERSION,
    serve: (send, client) => serve(send, 'local client', false, { id: crypto.randomUUID(), transport: 'bridge', bridgeClient: client }),
    onStatus: (s: BridgeStatus) => {
      for (const p of panels) void p.call(PanelClientMethods, 'bridge.changed', s, 5000).catch(() => undefined);
    },
  });
  // --- Scheduled flows: replayed by the worker itself, with no client and no model ---
  // Isolated contexts' workers have no scheduled flows: those belong to the person's own profile.
  const scheduler = new Scheduler({
    store: new IdbScheduleStore(),
    alarms: chromeAlarms,
    notifyFailure,
    // Each run in a background tab of its own, closed after it: the person's tabs are left alone.
    replay: (flow) => replayInOwnTab(port, (page) => engine.call('flow.replay', { name: flow, page })),
    flowExists: async (flow) => (await flowStore.get(flow)) !== null,
    changed: (flow) => {
      for (const p of panels) void p.call(PanelClientMethods, 'schedule.changed', { flow }, 5000).catch(() => undefined);
    },
  });
  // Registered synchronously at the top level: an alarm is what wakes a stopped worker, and its event goes to listeners present by then.
  chrome.alarms.onAlarm.addListener((a) => {
    if (a.name === BRIDGE_ALARM && !chrome.extension.inIncognitoContext) void bridge.resume();
    else if (!chrome.extension.inIncognitoContext) void scheduler.fired(a.name).catch((e: unknown) => console.warn('[deckhand] a scheduled flow could not run:', e));
  });
  if (!chrome.extension.inIncognitoContext) void scheduler.restore().catch(() => undefined);
  // A pairing belongs to the person's own windows, never to an isolated context's worker.
  if (!chrome.extension.inIncognitoContext) void bridge.resume();

  /** The panel-only methods, validated with their schemas. */
  type PanelResult<M extends keyof typeof PanelMethods> = z.input<(typeof PanelMethods)[M]['result']>;
  const panelRuns: { [M in keyof typeof PanelMethods]: (p: z.infer<(typeof PanelMethods)[M]['params']>) => Promise<PanelResult<M>> | PanelResult<M> } = {
    'bridge.connect': (p) => bridge.connect(p.port, p.token),
    'bridge.disconnect': () => bridge.disconnect(),
    'bridge.status': () => bridge.status(),
    'schedule.set': (p) => scheduler.set(p),
    'schedule.remove': (p) => scheduler.remove(p.flow),
    'schedule.list': () => scheduler.list(),
    'schedule.history': (p) => scheduler.history(p.flow),
    'control.pause': () => takeover.pause(),
    'control.resume': () => takeover.resume(),
    'control.status': () => takeover.state(),
    'takeover.preview': (p) => takeover.preview(p.runId, p.callerId),
    'takeover.save': (p) => takeover.save(p.runId, p.callerId),
  };
  const panelCall = async (name: string, raw: unknown): Promise<unknown> => {
    if (!Object.hasOwn(PanelMethods, name)) throw new DeckhandError(ErrorCode.InvalidArgument, `unknown panel method '${name}'`);
    const method = name as keyof typeof PanelMethods;
    const parsed = PanelMethods[method].params.safeParse(raw ?? {});
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, `${name} parameters`));
    return (panelRuns[method] as (p: unknown) => unknown)(parsed.data);
  };

  // --- The side panel ---
  // The toolbar button opens the panel on the current tab.
  void chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
  const extensionOrigin = new URL(chrome.runtime.getURL('/')).origin;
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name === OFFSCREEN_PORT) {
      // Only the offscreen document this extension opened.
      if (port.sender?.id === chrome.runtime.id && port.sender?.url === chrome.runtime.getURL(OFFSCREEN_PATH)) offscreen.attach(port);
      else port.disconnect();
      return;
    }
    if (port.name !== PANEL_PORT) return;
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
  });
});

/** This context's tag: made once and kept in its IndexedDB, so its worker finds it after a restart. */
function contextTag(): Promise<string> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('deckhand-context', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('tag');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('tag', 'readwrite');
      const store = tx.objectStore('tag');
      const get = store.get('tag');
      get.onsuccess = () => {
        const tag = (get.result as string | undefined) ?? crypto.randomUUID();
        if (!get.result) store.put(tag, 'tag');
        tx.oncomplete = () => resolve(tag);
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}
