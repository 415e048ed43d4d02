/**
 * The worker's side of provider model calls: each goes to the offscreen document (created
 * on first use, and again if it was closed) over a port carrying the RPC. The worker itself
 * never loads the ai SDK, which keeps its start short; a stopped worker wakes faster too.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { ModelRequest } from '../protocol/model';
import { OFFSCREEN_PATH, OffscreenMethods } from '../protocol/offscreen';
import { RpcPeer } from '../protocol/rpc';
import type { ProviderCaller, ProviderModel } from '../models/call';

/** How long the document may take to load and connect. */
const CONNECT_MS = 10_000;

export class OffscreenProviders {
  private peer: RpcPeer | null = null;
  private waiting: ((peer: RpcPeer) => void)[] = [];
  private creating: Promise<void> | null = null;
  private seq = 0;

  /** The document's port, from the worker's onConnect (its sender already checked). */
  attach(port: chrome.runtime.Port): void {
    let open = true;
    const peer = new RpcPeer((m) => {
      if (!open) throw new Error('the offscreen document went away');
      port.postMessage(m);
    }, 'offscreen document');
    port.onMessage.addListener((m) => {
      if (typeof m === 'string') peer.receive(m);
    });
    port.onDisconnect.addListener(() => {
      open = false;
      if (this.peer === peer) this.peer = null;
      peer.failAll(new DeckhandError(ErrorCode.ModelProviderError, 'the offscreen document that runs model requests went away'), true);
    });
    this.peer = peer;
    for (const w of this.waiting.splice(0)) w(peer);
  }

  /** The connected document, created first when there is none. */
  private async connected(): Promise<RpcPeer> {
    if (this.peer) return this.peer;
    const ready = new Promise<RpcPeer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== done);
        reject(new DeckhandError(ErrorCode.ModelProviderError, `the offscreen document that runs model requests did not connect within ${CONNECT_MS} ms`));
      }, CONNECT_MS);
      const done = (peer: RpcPeer) => {
        clearTimeout(timer);
        resolve(peer);
      };
      this.waiting.push(done);
    });
    this.creating ??= this.create().finally(() => (this.creating = null));
    await this.creating;
    return ready;
  }

  private async create(): Promise<void> {
    const url = chrome.runtime.getURL(OFFSCREEN_PATH);
    // One left from a worker that has since stopped is connected to nobody: start afresh.
    const existing = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
    if (existing.length) await chrome.offscreen.closeDocument().catch(() => undefined);
    try {
      await chrome.offscreen.createDocument({
        url: OFFSCREEN_PATH,
        reasons: [chrome.offscreen.Reason.WORKERS],
        justification: 'Runs model requests outside the service worker, so the worker starts without loading the model SDKs.',
      });
    } catch (e) {
      // Two callers racing: the document exists, which is all that is wanted.
      if (!/single offscreen|only a single/i.test(String((e as Error)?.message))) {
        throw new DeckhandError(ErrorCode.ModelProviderError, `could not open the offscreen document that runs model requests: ${(e as Error)?.message ?? e}`);
      }
    }
  }

  readonly caller: ProviderCaller = async (model: ProviderModel, request: ModelRequest, timeoutMs: number, signal: AbortSignal) => {
    const peer = await this.connected();
    const id = `m${++this.seq}-${Date.now().toString(36)}`;
    const cancel = () => void peer.call(OffscreenMethods, 'model.cancel', { id }, 5000).catch(() => undefined);
    signal.addEventListener('abort', cancel, { once: true });
    try {
      // A little past the request's own deadline, which the document enforces.
      const r = await peer.call(OffscreenMethods, 'model.call', { id, model, request, timeoutMs }, timeoutMs + 5000);
      return { object: r.object, usage: r.usage };
    } catch (e) {
      // Stopped from here (the deadline, or the caller giving up): callModel says which.
      if (signal.aborted) throw Object.assign(new Error('the model request was aborted'), { name: 'AbortError' });
      throw e;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  };
}
