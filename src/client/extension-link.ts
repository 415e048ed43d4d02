/**
 * The Node end of the RPC over CDP: attaches to the extension's service-worker
 * target, adds a private binding for the worker's replies, and delivers requests
 * with Runtime.evaluate. When Chromium stops the worker, calls in flight fail
 * with WORKER_GONE and the next call starts the worker again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { ClientMethods, Methods, type MethodName, type Params, type Result } from '../protocol/methods';
import { RpcPeer } from '../protocol/rpc';
import { EXTENSION_KEY } from '../extension-key';
import type { CdpConnection } from './cdp';
import { type ClientHandler, type ClientMethodName, type WorkerLink } from './link';

export const EXTENSION_ID = (() => {
  const hex = createHash('sha256').update(Buffer.from(EXTENSION_KEY, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
})();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}

type State = 'up' | 'stopped' | 'detached' | 'closed';

export class ExtensionLink implements WorkerLink {
  private readonly tag = randomBytes(12).toString('hex');
  private readonly binding = `__dh_${this.tag}`;
  private readonly peer: RpcPeer;
  private sessionId: string | null = null;
  private state = 'detached' as State;
  private get current(): State {
    return this.state; // read through a getter: event handlers change it between awaits
  }
  private restarting: Promise<void> | null = null;
  private readonly onEvent = (e: { method: string; params: any; sessionId?: string }) => this.handleEvent(e);

  private constructor(
    private readonly conn: CdpConnection,
    readonly extensionId: string,
    /**
     * The browser context whose worker this link talks to: with the extension in split mode each
     * isolated context has its own worker (and engine). Set from the first worker found when not
     * given, so a restart never lands on another context's worker.
     */
    private browserContextId?: string,
  ) {
    this.peer = new RpcPeer((raw, id) => this.deliver(raw, id), "extension's service worker");
    // The worker asks while this client's calls run: CDP never tells it when this end goes away.
    this.peer.serve(ClientMethods, 'ping', () => null);
    conn.on('event', this.onEvent);
    conn.once('close', () => {
      this.state = 'closed';
      this.peer.failAll(new DeckhandError(ErrorCode.BrowserClosed, 'the browser closed'), true);
    });
  }

  /** Attach to the extension in a browser; fails fast with EXTENSION_MISSING when it is not there. */
  static async open(conn: CdpConnection, opts: { extensionId?: string; timeoutMs?: number; browserContextId?: string } = {}): Promise<ExtensionLink> {
    const link = new ExtensionLink(conn, opts.extensionId ?? EXTENSION_ID, opts.browserContextId);
    await conn.send('Target.setDiscoverTargets', { discover: true });
    await link.connect(opts.timeoutMs ?? 5_000, true);
    return link;
  }

  private workerUrlPrefix(): string {
    return `chrome-extension://${this.extensionId}/`;
  }

  private async findWorker(): Promise<TargetInfo | undefined> {
    const { targetInfos } = await this.conn.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    return targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(this.workerUrlPrefix()) && this.inContext(t));
  }

  private inContext(t: TargetInfo): boolean {
    return this.browserContextId === undefined || t.browserContextId === undefined || t.browserContextId === this.browserContextId;
  }

  private async connect(timeoutMs: number, firstTime: boolean): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let target = await this.findWorker();
    let started = false;
    while (!target && Date.now() < deadline) {
      if (!started && !firstTime) {
        await this.startWorker().catch(() => undefined);
        started = true;
      }
      // Short polls: the worker's start is on the launch's critical path (a Target.getTargets
      // over the pipe costs a fraction of a millisecond).
      await sleep(5);
      target = await this.findWorker();
      // A browser without the extension has no worker to start; after a short wait, try starting it once.
      if (!target && firstTime && !started && Date.now() > deadline - timeoutMs / 2) {
        await this.startWorker().catch(() => undefined);
        started = true;
      }
    }
    if (!target) {
      throw new DeckhandError(
        firstTime ? ErrorCode.ExtensionMissing : ErrorCode.WorkerGone,
        firstTime
          ? `the browser has no Deckhand extension (no service worker at ${this.workerUrlPrefix()}); ` +
              'launch it with localBrowser.launch() or load the extension from .output/chrome-mv3'
          : `the extension's service worker did not come back within ${timeoutMs} ms`,
      );
    }
    this.browserContextId ??= target.browserContextId;
    const { sessionId } = await this.conn.send<{ sessionId: string }>('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    this.sessionId = sessionId;
    await this.afterAttach(Math.max(1000, deadline - Date.now()));
  }

  private async afterAttach(timeoutMs: number): Promise<void> {
    const sid = this.sessionId!;
    await this.conn.send('Runtime.addBinding', { name: this.binding }, sid);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.conn.send<{ result: { value?: unknown } }>(
        'Runtime.evaluate',
        { expression: 'globalThis.__deckhand?.ready === true', returnByValue: true },
        sid,
      );
      if (r.result.value === true) break;
      if (Date.now() > deadline) throw new DeckhandError(ErrorCode.ExtensionMissing, `the extension's worker did not start its engine within ${timeoutMs} ms`);
      await sleep(5);
    }
    this.state = 'up';
  }

  /** Wake a stopped worker through the ServiceWorker domain of any page. */
  private async startWorker(): Promise<void> {
    const { targetInfos } = await this.conn.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    let page = targetInfos.find((t) => t.type === 'page' && this.inContext(t));
    let created: string | null = null;
    if (!page) {
      const { targetId } = await this.conn.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        background: true,
        ...(this.browserContextId ? { browserContextId: this.browserContextId } : {}),
      });
      created = targetId;
      page = { targetId, type: 'page', url: 'about:blank' };
    }
    const { sessionId } = await this.conn.send<{ sessionId: string }>('Target.attachToTarget', { targetId: page.targetId, flatten: true });
    try {
      await this.conn.send('ServiceWorker.enable', {}, sessionId);
      // The domain learns registrations asynchronously after enable: retry until it knows ours.
      for (let attempt = 0; ; attempt++) {
        try {
          await this.conn.send('ServiceWorker.startWorker', { scopeURL: this.workerUrlPrefix() }, sessionId);
          break;
        } catch (e) {
          if (attempt >= 40) throw e;
          await sleep(50);
        }
      }
    } finally {
      await this.conn.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      if (created) await this.conn.send('Target.closeTarget', { targetId: created }).catch(() => undefined);
    }
  }

  private handleEvent(e: { method: string; params: any; sessionId?: string }): void {
    if (e.method === 'Runtime.bindingCalled' && e.sessionId === this.sessionId && e.params?.name === this.binding) {
      this.peer.receive(String(e.params.payload));
      return;
    }
    const ours = e.sessionId === this.sessionId || (e.method === 'Target.detachedFromTarget' && e.params?.sessionId === this.sessionId);
    if (!ours || !this.sessionId) return;
    if (e.method === 'Inspector.targetCrashed') this.down('stopped');
    else if (e.method === 'Target.detachedFromTarget') {
      this.sessionId = null;
      this.down('detached');
    } else if (e.method === 'Inspector.targetReloadedAfterCrash' && this.state !== 'closed') {
      // The worker came back on the same target: its globals are new, so add the binding again.
      this.afterAttach(10_000).catch(() => undefined);
    }
  }

  private down(state: State): void {
    if (this.state === 'closed') return;
    this.state = state;
    this.peer.failAll(new DeckhandError(ErrorCode.WorkerGone, "the extension's service worker stopped before answering; the next call starts it again"));
  }

  private async ensureUp(): Promise<void> {
    if (this.state === 'up') return;
    if (this.state === 'closed') throw new DeckhandError(ErrorCode.Closed, 'this connection is closed');
    if (this.restarting) return this.restarting;
    this.restarting = (async () => {
      if (this.state === 'stopped' && this.sessionId) {
        await this.startWorker();
        const deadline = Date.now() + 10_000;
        while (this.current !== 'up' && Date.now() < deadline) {
          if (this.current === 'detached') return this.connect(Math.max(1000, deadline - Date.now()), false);
          await sleep(20);
        }
        if (this.current !== 'up') {
          // Fall back to a fresh attach if the old session never reported the restart.
          if (this.sessionId) await this.conn.send('Target.detachFromTarget', { sessionId: this.sessionId }).catch(() => undefined);
          this.sessionId = null;
          return this.connect(5_000, false);
        }
        return;
      }
      return this.connect(10_000, false);
    })().finally(() => (this.restarting = null));
    return this.restarting;
  }

  private deliver(raw: string, id?: number): void {
    const sid = this.sessionId;
    if (!sid || this.state !== 'up') throw new DeckhandError(ErrorCode.WorkerGone, "the extension's service worker is not running");
    const expression = `globalThis.__deckhand.receive(${JSON.stringify(raw)}, ${JSON.stringify(this.tag)})`;
    this.conn.send<{ exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression }, sid).then(
      (r) => {
        if (r.exceptionDetails && id !== undefined)
          this.peer.fail(id, new DeckhandError(ErrorCode.WorkerGone, `the worker could not take the call: ${r.exceptionDetails.text}`));
      },
      (e: Error) => {
        if (id !== undefined) this.peer.fail(id, e instanceof DeckhandError ? e : new DeckhandError(ErrorCode.WorkerGone, e.message));
      },
    );
  }

  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    await this.ensureUp();
    return this.peer.call(Methods, method, params);
  }

  get isConnected(): boolean {
    return this.state !== 'closed' && !this.conn.closed;
  }

  /** Answer a call the worker makes to this client (callback models, log lines). */
  serve<M extends ClientMethodName>(method: M, handler: ClientHandler<M>): void {
    this.peer.serve(ClientMethods, method, handler);
  }

  hold<T>(p: Promise<T>): Promise<T> {
    return this.peer.hold(p);
  }

  /** Detach from the worker; the browser and its tabs are left alone. */
  async close(reason = new DeckhandError(ErrorCode.Closed, 'the client was closed')): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.peer.failAll(reason, true);
    this.conn.off('event', this.onEvent);
    const sid = this.sessionId;
    this.sessionId = null;
    if (sid && !this.conn.closed) {
      await this.conn.send('Runtime.evaluate', { expression: `globalThis.__deckhand?.release(${JSON.stringify(this.tag)})` }, sid, 2000).catch(() => undefined);
      await this.conn.send('Runtime.removeBinding', { name: this.binding }, sid, 2000).catch(() => undefined);
      await this.conn.send('Target.detachFromTarget', { sessionId: sid }, undefined, 2000).catch(() => undefined);
    }
  }
}
