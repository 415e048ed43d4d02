/**
 * The content script's request handler, for documents Chromium gives no content script: a
 * top-level data: page (an extension may neither match nor inject into it). The worker
 * evaluates this file through the debugger in an isolated world of such a document (see
 * frameRequest in src/worker/chrome-port.ts) and then calls `__deckhandFrame(request)` there.
 * An isolated world shares the page's DOM but not its globals, as a content script does, so
 * the page can neither see nor call any of this.
 */
import { handleFrameRequest } from '../src/snapshot/handler';

export default defineUnlistedScript(() => {
  const g = globalThis as unknown as Record<string, unknown>;
  // frame-ids.ts asks the worker for this frame's children over chrome.runtime, which a world
  // the debugger made lacks: the worker leaves the answer in __deckhandChildFrames before a snapshot.
  const runtime = { sendMessage: async () => g.__deckhandChildFrames ?? [] };
  Object.defineProperty(globalThis, 'chrome', { value: { ...((g.chrome as object) ?? {}), runtime }, configurable: true, writable: true });
  g.__deckhandFrame = (msg: unknown) =>
    handleFrameRequest(msg).then(
      (result) => ({ result }),
      (e: unknown) => ({ error: { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) } }),
    );
});
