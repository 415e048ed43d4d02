/**
 * Which extension frame id belongs to an <iframe> element. Chrome has no API for
 * it in content scripts, so the parent asks the child over a private
 * MessageChannel; the child learns its own id from the worker (sender.frameId)
 * the first time it is asked.
 */
const QUERY = '__deckhandFrameQuery';
let myFrameId: Promise<number> | null = null;
const known = new WeakMap<Element, { win: Window | null; id: number }>();

function ownFrameId(): Promise<number> {
  myFrameId ??= chrome.runtime.sendMessage({ type: 'dh:whoami' }).then((r: { frameId?: number } | undefined) => {
    if (typeof r?.frameId !== 'number') throw new Error('no frame id');
    return r.frameId;
  });
  myFrameId.catch(() => (myFrameId = null));
  return myFrameId;
}

/** The worker tells each frame its id with every request; remember it. */
export function setOwnFrameId(id: number): void {
  myFrameId = Promise.resolve(id);
}

/** Child side: answer a parent's query on the port it sent. */
export function installFrameIdResponder(): void {
  if (window.top === window) return;
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || !e.data || e.data[QUERY] !== true || !e.ports[0]) return;
    const port = e.ports[0];
    ownFrameId().then(
      (id) => port.postMessage({ frameId: id }),
      () => port.postMessage({ frameId: -1 }),
    );
  });
}

/** Parent side: the frame id of an iframe element, or null if it does not answer in time. */
export async function frameIdOf(el: HTMLIFrameElement | HTMLFrameElement, timeoutMs = 1500): Promise<number | null> {
  const win = el.contentWindow;
  if (!win) return null;
  const cached = known.get(el);
  if (cached && cached.win === win) return cached.id;
  const channel = new MessageChannel();
  const answer = new Promise<number | null>((resolve) => {
    const t = setTimeout(() => resolve(null), timeoutMs);
    channel.port1.onmessage = (m) => {
      clearTimeout(t);
      const id = (m.data as { frameId?: number })?.frameId;
      resolve(typeof id === 'number' && id > 0 ? id : null);
    };
  });
  win.postMessage({ [QUERY]: true }, '*', [channel.port2]);
  const id = await answer;
  channel.port1.close();
  if (id !== null) known.set(el, { win, id });
  return id;
}

/** Resolve the ids of many iframes at once (for a snapshot walk, which is synchronous). */
export async function frameIdsOf(frames: Element[]): Promise<Map<Element, number>> {
  const out = new Map<Element, number>();
  await Promise.all(
    frames.map(async (f) => {
      const id = await frameIdOf(f as HTMLIFrameElement);
      if (id !== null) out.set(f, id);
    }),
  );
  return out;
}
