/**
 * Boots the engine in the service worker. Node clients attach over CDP to this
 * worker target, add a binding of their own (`__dh_<tag>`) and deliver messages
 * with `globalThis.__deckhand.receive(message, tag)`: only a debugger client of
 * the worker can do that, and no web page can. The worker exposes nothing to
 * pages: no externally_connectable, no onMessageExternal.
 */
import { ChromeBrowserPort } from '../src/browser/chrome-port';
import { ChromeSelfEvaluator } from '../src/browser/self-eval';
import { Engine, ENGINE_VERSION, type CallContext } from '../src/engine/engine';
import { Methods, type MethodName } from '../src/protocol/methods';
import { RpcPeer } from '../src/protocol/rpc';

export default defineBackground(() => {
  // Session storage: survives the worker being stopped, gone when the browser closes; never sync storage.
  const state = {
    load: async (key: string) => (await chrome.storage.session.get(key))[key],
    save: (key: string, value: unknown) => chrome.storage.session.set({ [key]: value }),
  };
  const engine = new Engine(new ChromeBrowserPort(), chrome.runtime.id, state, undefined, new ChromeSelfEvaluator());
  const peers = new Map<string, RpcPeer>();
  const g = globalThis as unknown as Record<string, unknown>;

  const peerFor = (tag: string): RpcPeer => {
    let peer = peers.get(tag);
    if (!peer) {
      peer = new RpcPeer((m) => {
        const send = g[`__dh_${tag}`];
        if (typeof send !== 'function') throw new Error('the client has detached');
        (send as (m: string) => void)(m);
      }, 'client');
      const p = peer;
      const ctx: CallContext = {
        invokeCallback: (callbackId, request, timeoutMs) => p.request('model.generate', { callbackId, request }, timeoutMs + 2000),
        log: (e) => void p.request('log', e, 5000).catch(() => undefined),
        invokeTool: async (name, input, timeoutMs) => ((await p.request('tool.call', { name, input }, timeoutMs)) as { output: string }).output,
      };
      for (const name of Object.keys(Methods) as MethodName[]) peer.handle(name, (params) => engine.call(name, params as never, undefined, ctx));
      peers.set(tag, peer);
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
      peers.delete(tag);
    },
  };
});
