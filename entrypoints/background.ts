/**
 * Boots the worker: the engine with its chrome.* ports and stores, the parts that serve people
 * (watching, approval, take over, schedules), and its callers, all served by src/worker/serve.ts:
 * Node clients over CDP, the side panel, and a Node client on 127.0.0.1 the worker dials out to
 * (the WebSocket bridge) once a person has paired it from the side panel.
 * The worker exposes nothing to pages: no externally_connectable, no onMessageExternal.
 */
import { ChromeBrowserPort } from '../src/worker/chrome-port';
import { ChromeSelfEvaluator } from '../src/worker/self-eval';
import { IdbCacheStore } from '../src/worker/idb-store';
import { IdbFlowStore } from '../src/worker/idb-flows';
import { WorkerBridge, BRIDGE_ALARM } from '../src/worker/bridge';
import { chromeAlarms, IdbScheduleStore, notifyFailure } from '../src/worker/scheduler';
import { OffscreenProviders } from '../src/worker/offscreen-models';
import { panelMethods, serving } from '../src/worker/serve';
import { sessionState } from '../src/worker/session-state';
import { replayInOwnTab, Scheduler } from '../src/engine/people/schedule';
import { Engine } from '../src/engine/engine';
import { Watch } from '../src/engine/people/watch';
import { ApprovalDesk } from '../src/engine/people/approval';
import { PauseGate } from '../src/engine/people/pause';
import { Takeover } from '../src/engine/people/takeover';
import { ManualActionMessageSchema } from '../src/protocol/content-messages';
import { ENGINE_VERSION } from '../src/protocol/version';
import { PANEL_PORT, PanelClientMethods, type BridgeStatus } from '../src/protocol/panel';
import type { RpcPeer } from '../src/protocol/rpc';
import { OFFSCREEN_PATH, OFFSCREEN_PORT } from '../src/protocol/offscreen';

export default defineBackground(() => {
  const state = sessionState();
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
  // Take over: the person pauses programs' runs from a panel and may store their own fix of a failed act.
  const gate = new PauseGate();
  const takeover = new Takeover(gate, engine, {
    changed: (s) => {
      for (const p of panels) void p.call(PanelClientMethods, 'control.changed', s, 5000).catch(() => undefined);
    },
    // The person's steps are recorded in every tab's top frame while paused (a new document asks nothing: see onUpdated below).
    record: async (on) => {
      const tabs = await chrome.tabs.query({});
      const tell = (tab: number) => chrome.tabs.sendMessage(tab, { type: 'dh:record', on }, { frameId: 0 }).catch(() => undefined);
      await Promise.all(tabs.map((t) => (t.id === undefined ? null : tell(t.id))));
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

  const served = serving({ engine, watch, desk, pause: gate, takeover, panels });

  // --- Node clients over CDP ---
  const g = globalThis as unknown as Record<string, unknown>;
  g.__deckhand = {
    version: ENGINE_VERSION,
    ready: true,
    receive: (message: string, tag: string) => served.receive(message, tag),
    release: (tag: string) => served.release(tag),
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
    serve: (send, client) => served.serve(send, 'local client', false, { id: crypto.randomUUID(), transport: 'bridge', bridgeClient: client }),
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
    else if (!chrome.extension.inIncognitoContext) {
      void scheduler.fired(a.name).catch((e: unknown) => console.warn('[deckhand] a scheduled flow could not run:', e));
    }
  });
  if (!chrome.extension.inIncognitoContext) void scheduler.restore().catch(() => undefined);
  // A pairing belongs to the person's own windows, never to an isolated context's worker.
  if (!chrome.extension.inIncognitoContext) void bridge.resume();

  // --- The side panel's own methods ---
  const panelCall = panelMethods({
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
  });

  // --- The side panel ---
  // The toolbar button opens the panel on the current tab.
  void chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name === OFFSCREEN_PORT) {
      // Only the offscreen document this extension opened.
      if (port.sender?.id === chrome.runtime.id && port.sender?.url === chrome.runtime.getURL(OFFSCREEN_PATH)) offscreen.attach(port);
      else port.disconnect();
      return;
    }
    if (port.name === PANEL_PORT) served.panel(port, panelCall);
  });
});
