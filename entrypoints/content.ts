/**
 * Runs in every frame. Answers only the extension's own worker; page scripts
 * cannot send chrome.runtime messages to a content script. It listens to nothing
 * a page can post (no window message handler), so a page cannot detect it.
 */
import { handleFrameRequest } from '../src/snapshot/handler';
import { installRecorder, setManualSink } from '../src/snapshot/recorder';

export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  matchAboutBlank: true,
  runAt: 'document_start',
  main() {
    // Take over: the person's steps are recorded in the top frame only (a stored Action names no frame).
    if (window === window.top) {
      setManualSink((m) => void chrome.runtime.sendMessage(m).catch(() => undefined));
      installRecorder();
    }
    chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
      if (sender.id !== chrome.runtime.id || sender.tab) return false; // only the worker
      if (!msg || typeof msg.type !== 'string' || !msg.type.startsWith('dh:')) return false;
      handleFrameRequest(msg).then(
        (result) => sendResponse({ result }),
        (e: unknown) => sendResponse({ error: { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) } }),
      );
      return true;
    });
  },
});
