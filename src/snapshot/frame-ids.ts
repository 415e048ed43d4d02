/**
 * Which extension frame id belongs to an <iframe> element. Chrome gives content
 * scripts no API for it, and nothing here may travel through the page: a page
 * sees every window.postMessage and can answer one itself, so a handshake there
 * lets any page detect Deckhand and lets a child frame lie about its id.
 *
 * So the worker does the asking, over chrome.tabs messages no page can send, read
 * or answer: for the parent frame (sender.frameId, from Chrome) it lists the child
 * frames (webNavigation) and asks each child's content script where its window
 * sits in its parent's `window.frames`. The parent then matches each iframe's
 * contentWindow against `window.frames` by identity, in its isolated world, where
 * page scripts cannot redefine what these return. Nothing is posted to any window.
 * An iframe this cannot match for sure (one in a shadow root is not in
 * `window.frames`; a frame list that changed meanwhile) is reported as unknown and
 * printed as "frame content unavailable", never silently blank.
 */

export interface ChildFrame {
  frameId: number;
  /** Position of the child's window in its parent's window.frames, -1 when it is not there (an iframe in a shadow root). */
  index: number;
  /** URL of the child's document, as the browser reports it. */
  url: string;
  /** The child's viewport size (its iframe's content box), to tell apart iframes outside window.frames. */
  width?: number;
  height?: number;
}

const known = new WeakMap<Element, { win: Window; id: number }>();

/** Child side: where this window sits in its parent's frame list (asked by the worker only). */
export function ownFrameIndex(): { index: number; url: string; width: number; height: number } {
  let index = -1;
  try {
    const siblings = window.parent.frames;
    for (let i = 0; i < siblings.length; i++) {
      if (siblings[i] === window) {
        index = i;
        break;
      }
    }
  } catch {
    /* no parent */
  }
  return { index, url: location.href, width: window.innerWidth, height: window.innerHeight };
}

const frameList = (): Window[] => Array.from({ length: window.frames.length }, (_, i) => window.frames[i]);

async function childFrames(): Promise<ChildFrame[]> {
  const r = (await chrome.runtime.sendMessage({ type: 'dh:childFrames' })) as ChildFrame[] | undefined;
  return Array.isArray(r) ? r : [];
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

interface Traits {
  url: string;
  width: number;
  height: number;
}

function traitsOf(f: HTMLIFrameElement): Traits {
  let url: string;
  try {
    url = f.contentWindow!.location.href; // same-origin: where it is now
  } catch {
    url = f.src; // cross-origin: where it was sent
  }
  return { url, width: f.clientWidth - pad(f, 'Left') - pad(f, 'Right'), height: f.clientHeight - pad(f, 'Top') - pad(f, 'Bottom') };
}

const pad = (f: Element, side: 'Left' | 'Right' | 'Top' | 'Bottom'): number => parseFloat(getComputedStyle(f)[`padding${side}`]) || 0;

/** The frame ids of these iframe elements; an element left out could not be identified for sure. */
export async function frameIdsOf(frames: Element[]): Promise<Map<Element, number>> {
  const out = new Map<Element, number>();
  const todo: Element[] = [];
  for (const f of frames) {
    const win = (f as HTMLIFrameElement).contentWindow;
    const k = known.get(f);
    if (win && k && k.win === win) out.set(f, k.id);
    else if (win) todo.push(f);
  }
  if (!todo.length) return out;
  for (let attempt = 0; attempt < 2; attempt++) {
    const before = frameList();
    let kids: ChildFrame[];
    try {
      kids = await childFrames();
    } catch {
      return out;
    }
    const after = frameList();
    // The page added or removed frames while the children answered: their positions may be stale.
    if (before.length !== after.length || before.some((w, i) => w !== after[i])) continue;
    const byIndex = new Map<number, ChildFrame>();
    for (const k of kids) if (k.index >= 0 && !byIndex.has(k.index)) byIndex.set(k.index, k);
    const positions = new Map<Window, number>(after.map((w, i) => [w, i]));
    const used = new Set<number>();
    const left: Element[] = [];
    for (const f of todo) {
      const win = (f as HTMLIFrameElement).contentWindow!;
      const i = positions.get(win);
      const kid = i === undefined ? undefined : byIndex.get(i);
      if (!kid) {
        left.push(f);
        continue;
      }
      // A same-origin child's address is readable here: a mismatch means the lists disagree.
      let href: string | null = null;
      try {
        href = win.location.href;
      } catch {
        /* cross-origin */
      }
      if (href !== null && !sameUrl(href, kid.url)) continue;
      out.set(f, kid.frameId);
      used.add(kid.frameId);
      known.set(f, { win, id: kid.frameId });
    }
    // Iframes outside window.frames (in shadow roots): pair by address and size when exactly one
    // child fits and no other iframe could be it; otherwise the iframe stays unidentified.
    const spare = kids.filter((k) => k.index < 0 && !used.has(k.frameId));
    const traits = new Map(left.map((f) => [f, traitsOf(f as HTMLIFrameElement)]));
    const fitsOf = (t: Traits) => spare.filter((k) => sameUrl(k.url, t.url) && (k.width === undefined || (k.width === t.width && k.height === t.height)));
    for (const f of left) {
      const t = traits.get(f)!;
      const fits = fitsOf(t);
      const rivals = left.filter((o) => o !== f && fitsOf(traits.get(o)!).some((k) => fits.includes(k)));
      if (fits.length === 1 && !rivals.length) {
        out.set(f, fits[0].frameId);
        known.set(f, { win: (f as HTMLIFrameElement).contentWindow!, id: fits[0].frameId });
      }
    }
    return out;
  }
  return out;
}

/** The frame id of one iframe element, or null if it cannot be told for sure. */
export async function frameIdOf(el: HTMLIFrameElement | HTMLFrameElement): Promise<number | null> {
  return (await frameIdsOf([el])).get(el) ?? null;
}
