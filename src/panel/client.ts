/**
 * The side panel's end of the RPC: a chrome.runtime port to the worker carrying
 * the same messages Node clients send. Chromium stops an idle worker and the port
 * with it, so the client reconnects on the next call.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { ClientMethods, Methods, type CommandClient, type MethodName, type Params, type Result } from '../protocol/methods';
import { PANEL_PORT, PanelClientMethods, PanelMethods, type BridgeStatus, type PanelMethodName, type TakeoverState, type WatchEvent } from '../protocol/panel';
import { RpcPeer } from '../protocol/rpc';
import type { Approvals } from './approvals';
import { z } from 'zod';

export type LogLine = z.infer<(typeof ClientMethods)['log']['params']>;

export class PanelClient implements CommandClient {
  private port: chrome.runtime.Port | null = null;
  private readonly peer: RpcPeer;
  private readonly logListeners = new Set<(line: LogLine) => void>();
  private readonly bridgeListeners = new Set<(s: BridgeStatus) => void>();
  private readonly watchListeners = new Set<(e: WatchEvent) => void>();
  private readonly scheduleListeners = new Set<(flow: string) => void>();
  private readonly controlListeners = new Set<(s: TakeoverState) => void>();

  constructor() {
    this.peer = new RpcPeer((raw) => this.ensurePort().postMessage(raw), "extension's service worker");
    this.peer.serve(PanelClientMethods, 'log', (line) => {
      for (const f of this.logListeners) f(line);
      return null;
    });
    this.peer.serve(PanelClientMethods, 'bridge.changed', (s) => {
      for (const f of this.bridgeListeners) f(s);
      return null;
    });
    this.peer.serve(PanelClientMethods, 'schedule.changed', ({ flow }) => {
      for (const f of this.scheduleListeners) f(flow);
      return null;
    });
    this.peer.serve(PanelClientMethods, 'watch', (e) => {
      for (const f of this.watchListeners) f(e);
      return null;
    });
    // With no prompt to show it in (not mounted yet), this panel cannot decide: others may.
    this.peer.serve(PanelClientMethods, 'approval.request', (req) => this.approvals?.request(req) ?? { decision: null });
    this.peer.serve(PanelClientMethods, 'approval.settled', (end) => {
      this.approvals?.settled(end);
      return null;
    });
    this.peer.serve(PanelClientMethods, 'control.changed', (s) => {
      for (const f of this.controlListeners) f(s);
      return null;
    });
  }

  /** Where requests for approval go (the panel's prompt). */
  approvals: Approvals | null = null;

  /**
   * Connect now: the worker tells a connected panel about other callers' runs, so the panel
   * connects as it opens rather than on its first call.
   */
  connect(): void {
    this.ensurePort();
  }

  private ensurePort(): chrome.runtime.Port {
    if (this.port) return this.port;
    const port = chrome.runtime.connect({ name: PANEL_PORT });
    port.onMessage.addListener((m) => {
      if (typeof m === 'string') this.peer.receive(m);
    });
    port.onDisconnect.addListener(() => {
      if (this.port === port) this.port = null;
      // A stopped worker comes back when a program attaches again: be connected then to watch it.
      if (this.watchListeners.size) setTimeout(() => this.port ?? (this.watchListeners.size ? this.ensurePort() : null), 1000);
      this.peer.failAll(new DeckhandError(ErrorCode.WorkerGone, "the extension's service worker stopped before answering; run it again"));
    });
    this.port = port;
    return port;
  }

  /** The worker acknowledges each call with its deadline (protocol/rpc.ts). */
  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    return this.peer.call(Methods, method, params);
  }

  async panel<M extends PanelMethodName>(
    method: M,
    params: z.input<(typeof PanelMethods)[M]['params']>,
  ): Promise<z.output<(typeof PanelMethods)[M]['result']>> {
    return this.peer.call(PanelMethods, method, params, 15_000);
  }

  /** A flow's schedule or history changed in the worker. */
  onSchedule(f: (flow: string) => void): () => void {
    this.scheduleListeners.add(f);
    return () => this.scheduleListeners.delete(f);
  }

  onLog(f: (line: LogLine) => void): () => void {
    this.logListeners.add(f);
    return () => this.logListeners.delete(f);
  }

  onWatch(f: (e: WatchEvent) => void): () => void {
    this.watchListeners.add(f);
    return () => this.watchListeners.delete(f);
  }

  /** Take over: paused or resumed, calls waiting, the person's steps recorded. */
  onControl(f: (s: TakeoverState) => void): () => void {
    this.controlListeners.add(f);
    return () => this.controlListeners.delete(f);
  }

  onBridge(f: (s: BridgeStatus) => void): () => void {
    this.bridgeListeners.add(f);
    return () => this.bridgeListeners.delete(f);
  }
}
