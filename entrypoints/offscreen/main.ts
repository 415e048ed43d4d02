/**
 * The offscreen document: runs provider model requests for the service worker (see
 * src/worker/offscreen-models.ts). Each provider's package is loaded on its first request.
 */
import { providerCaller } from '../../src/models/provider-call';
import { DeckhandError, ErrorCode } from '../../src/protocol/errors';
import { OFFSCREEN_PORT, OffscreenMethods } from '../../src/protocol/offscreen';
import { RpcPeer } from '../../src/protocol/rpc';

const call = providerCaller();
const running = new Map<string, AbortController>();
const port = chrome.runtime.connect({ name: OFFSCREEN_PORT });
const peer = new RpcPeer((m) => port.postMessage(m), 'service worker');
port.onMessage.addListener((m) => {
  if (typeof m === 'string') peer.receive(m);
});
// The worker went away (stopped, or reloaded): this document has nobody to answer; close it.
port.onDisconnect.addListener(() => window.close());

peer.serve(OffscreenMethods, 'model.call', async ({ id, model, request, timeoutMs }) => {
  const ac = new AbortController();
  running.set(id, ac);
  const signal = AbortSignal.any([ac.signal, AbortSignal.timeout(timeoutMs)]);
  try {
    return await call(model, request, timeoutMs, signal);
  } catch (e) {
    if (signal.aborted && !(e instanceof DeckhandError)) {
      if (ac.signal.aborted) {
        throw new DeckhandError(ErrorCode.Cancelled, `the call to model '${model.name}' was cancelled by its caller`, { model: model.name });
      }
      const why = `model '${model.name}' did not answer within ${timeoutMs} ms (the request was aborted)`;
      throw new DeckhandError(ErrorCode.Timeout, why, { model: model.name, timeoutMs });
    }
    throw e;
  } finally {
    running.delete(id);
  }
});
peer.serve(OffscreenMethods, 'model.cancel', ({ id }) => {
  const ac = running.get(id);
  ac?.abort();
  return { cancelled: !!ac };
});
