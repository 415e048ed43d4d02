/**
 * BrowserPort over chrome.* in the service worker: tabs are pages,
 * chrome.debugger gives each tab a CDP session, content scripts answer frame
 * requests through chrome.tabs.sendMessage.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { PageInfo } from '../protocol/schemas';
import type { BrowserPort, CdpSession, FrameInfo } from '../engine/ports';

const CDP_VERSION = '1.3';
const CONTENT_SCRIPT = '/content-scripts/content.js';

function toInfo(t: chrome.tabs.Tab): PageInfo {
  return { id: t.id!, url: t.url ?? t.pendingUrl ?? '', title: t.title ?? '' };
}

function mapChromeError(e: unknown, what: string, page: number): DeckhandError {
  if (e instanceof DeckhandError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  if (/No tab with (given )?id|tab was closed|Target closed|Cannot access a closed tab|No frame with id/i.test(msg)) {
    return new DeckhandError(ErrorCode.PageClosed, `page ${page} is closed (${what})`, { page });
  }
  if (/message (port|channel) closed|frame was removed|back\/forward cache|document was unloaded/i.test(msg)) {
    return new DeckhandError(ErrorCode.FrameDetached, `the frame navigated or went away during ${what}`, { page });
  }
  if (/Debugger is not attached|Detached while handling command/i.test(msg)) {
    return new DeckhandError(ErrorCode.PageClosed, `the debugger lost page ${page} during ${what} (the tab closed or crashed)`, { page });
  }
  return new DeckhandError(ErrorCode.Internal, `${what} failed: ${msg}`, { page });
}

class TabSession implements CdpSession {
  private readonly listeners = new Map<string, Set<(p: any) => void>>();
  constructor(private readonly tabId: number) {}

  async send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000, retried = false): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return (await Promise.race([
        chrome.debugger.sendCommand({ tabId: this.tabId }, method, params),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DeckhandError(ErrorCode.Timeout, `CDP ${method} on page ${this.tabId} timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ])) as T;
    } catch (e) {
      // After some navigations (back/forward cache swaps) the debugger is left on a page that is
      // no longer the tab's; attaching again reaches the current one.
      if (!retried && /Not attached to an active page/i.test(String((e as Error)?.message))) {
        await chrome.debugger.detach({ tabId: this.tabId }).catch(() => undefined);
        await chrome.debugger.attach({ tabId: this.tabId }, CDP_VERSION);
        await chrome.debugger.sendCommand({ tabId: this.tabId }, 'Page.enable', {});
        return this.send<T>(method, params, timeoutMs, true);
      }
      throw mapChromeError(e, `CDP ${method}`, this.tabId);
    } finally {
      clearTimeout(timer);
    }
  }

  on(event: string, handler: (p: any) => void): () => void {
    const set = this.listeners.get(event) ?? this.listeners.set(event, new Set()).get(event)!;
    set.add(handler);
    return () => set.delete(handler);
  }

  emit(event: string, params: unknown): void {
    this.listeners.get(event)?.forEach((h) => h(params));
  }
}

export class ChromeBrowserPort implements BrowserPort {
  private readonly sessions = new Map<number, Promise<TabSession>>();
  private readonly live = new Map<number, TabSession>();
  private readonly closeHandlers = new Map<number, Set<() => void>>();
  private lastActive: number | null = null;

  constructor() {
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId !== undefined) this.live.get(source.tabId)?.emit(method, params);
    });
    chrome.debugger.onDetach.addListener((source) => {
      if (source.tabId !== undefined) {
        this.sessions.delete(source.tabId);
        this.live.delete(source.tabId);
      }
    });
    chrome.tabs.onRemoved.addListener((tabId) => {
      this.sessions.delete(tabId);
      this.live.delete(tabId);
      if (this.lastActive === tabId) this.lastActive = null;
      const hs = this.closeHandlers.get(tabId);
      this.closeHandlers.delete(tabId);
      hs?.forEach((h) => h());
    });
    // A content script asking which frames are its children (to match its iframe elements to frame
    // ids; see src/snapshot/frame-ids.ts). Chrome says which frame asked; the children answer over
    // chrome.tabs messages, so nothing of this passes through a page.
    chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
      if (sender.id !== chrome.runtime.id || !sender.tab?.id || msg?.type !== 'dh:childFrames') return false;
      this.childFrames(sender.tab.id, sender.frameId ?? 0).then(sendResponse, () => sendResponse([]));
      return true;
    });
    chrome.tabs.onActivated.addListener(({ tabId }) => {
      this.lastActive = tabId;
    });
  }

  async listPages(): Promise<PageInfo[]> {
    const tabs = await chrome.tabs.query({});
    return tabs.filter((t) => t.id !== undefined && t.id !== chrome.tabs.TAB_ID_NONE).map(toInfo);
  }

  async activePage(): Promise<PageInfo | null> {
    if (this.lastActive !== null) {
      try {
        return toInfo(await chrome.tabs.get(this.lastActive));
      } catch {
        this.lastActive = null;
      }
    }
    const [t] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    if (t?.id !== undefined) return toInfo(t);
    const [any] = await chrome.tabs.query({});
    return any?.id !== undefined ? toInfo(any) : null;
  }

  async createPage(url = 'about:blank'): Promise<PageInfo> {
    const t = await chrome.tabs.create({ url, active: true });
    this.lastActive = t.id!;
    return toInfo(t);
  }

  async pageInfo(page: number): Promise<PageInfo> {
    let info: PageInfo;
    try {
      info = toInfo(await chrome.tabs.get(page));
    } catch (e) {
      throw mapChromeError(e, 'reading page info', page);
    }
    // The tabs API hides URLs outside the host permissions (about:blank, data:); the frame list names them.
    if (!info.url) info.url = (await chrome.webNavigation.getFrame({ tabId: page, frameId: 0 }).catch(() => null))?.url ?? '';
    return info;
  }

  async resetPage(page: number): Promise<void> {
    const ms = 5000;
    try {
      // tabs.update needs no debugger, so it works where the debugger was refused.
      await chrome.tabs.update(page, { url: 'about:blank' });
    } catch (e) {
      throw mapChromeError(e, 'sending the page to about:blank', page);
    }
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const [frame, tab] = await Promise.all([
        chrome.webNavigation.getFrame({ tabId: page, frameId: 0 }).catch(() => null),
        chrome.tabs.get(page).catch(() => null),
      ]);
      if (!tab) throw new DeckhandError(ErrorCode.PageClosed, `page ${page} was closed while being sent to about:blank`, { page });
      if (frame?.url === 'about:blank' && tab.status === 'complete') return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new DeckhandError(ErrorCode.Timeout, `sending page ${page} to about:blank timed out after ${ms} ms`, { page, timeoutMs: ms });
  }

  async closePage(page: number): Promise<void> {
    try {
      await chrome.tabs.remove(page);
    } catch (e) {
      throw mapChromeError(e, 'closing the page', page);
    }
  }

  async bringToFront(page: number): Promise<void> {
    try {
      const t = await chrome.tabs.update(page, { active: true });
      if (t?.windowId !== undefined) await chrome.windows.update(t.windowId, { focused: true });
      this.lastActive = page;
    } catch (e) {
      throw mapChromeError(e, 'bringing the page to front', page);
    }
  }

  cdp(page: number): Promise<CdpSession> {
    let s = this.sessions.get(page);
    if (!s) {
      s = this.attach(page);
      this.sessions.set(page, s);
      s.catch(() => this.sessions.delete(page));
    }
    return s;
  }

  private async attach(page: number): Promise<TabSession> {
    const target = { tabId: page };
    try {
      await chrome.debugger.attach(target, CDP_VERSION);
    } catch (e) {
      // A previous worker instance may have left the tab attached: take it over.
      if (/already attached/i.test(String((e as Error)?.message ?? e))) {
        await chrome.debugger.detach(target).catch(() => undefined);
        await chrome.debugger.attach(target, CDP_VERSION).catch((e2) => {
          throw mapChromeError(e2, 'attaching the debugger', page);
        });
      } else throw mapChromeError(e, 'attaching the debugger', page);
    }
    const session = new TabSession(page);
    this.live.set(page, session);
    await session.send('Page.enable');
    return session;
  }

  async frameRequest<T>(page: number, frameId: number, message: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const once = async (): Promise<T> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const reply = (await Promise.race([
        chrome.tabs.sendMessage(page, { ...message, selfFrameId: frameId }, { frameId }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new DeckhandError(ErrorCode.Timeout, `frame ${frameId} of page ${page} did not answer '${String(message.type)}' within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]).finally(() => clearTimeout(timer))) as { result?: T; error?: { code: ErrorCode; message: string } } | undefined;
      if (!reply) throw new DeckhandError(ErrorCode.FrameDetached, `frame ${frameId} of page ${page} gave no answer (it may have navigated)`);
      if (reply.error) throw new DeckhandError(reply.error.code, reply.error.message);
      return reply.result as T;
    };
    const fail = async (e: unknown): Promise<never> => {
      // A reply channel that closed is a navigation, unless the tab itself is gone.
      const tabGone = await chrome.tabs.get(page).then(() => false, () => true);
      if (tabGone) throw new DeckhandError(ErrorCode.PageClosed, `page ${page} was closed during ${String(message.type).replace('dh:', '')}`, { page });
      throw mapChromeError(e, String(message.type), page);
    };
    try {
      return await once();
    } catch (e) {
      if (e instanceof DeckhandError && e.code === ErrorCode.Timeout) return fail(e);
      if (!/Receiving end does not exist|Could not establish connection/i.test(String((e as Error)?.message))) return fail(e);
    }
    // No content script yet (a tab opened before the extension loaded, or a fresh about:blank): inject it.
    try {
      await chrome.scripting.executeScript({ target: { tabId: page, frameIds: [frameId] }, files: [CONTENT_SCRIPT] });
    } catch (e) {
      const msg = String((e as Error)?.message ?? e);
      if (/Cannot access|cannot be scripted|chrome:\/\//i.test(msg)) {
        throw new DeckhandError(ErrorCode.ActionFailed, `page ${page} cannot be read by extensions (${msg})`, { page });
      }
      throw mapChromeError(e, 'injecting the content script', page);
    }
    try {
      return await once();
    } catch (e) {
      return fail(e);
    }
  }

  /** The child frames of one frame, each with its position in the parent's window.frames (-1: not there, or no answer). */
  private async childFrames(page: number, parent: number): Promise<{ frameId: number; index: number; url: string; width?: number; height?: number }[]> {
    const all = (await chrome.webNavigation.getAllFrames({ tabId: page })) ?? [];
    return Promise.all(
      all
        .filter((f) => f.parentFrameId === parent && f.frameId !== parent)
        .map(async (f) => {
          const r = await this.frameRequest<{ index?: number; width?: number; height?: number }>(page, f.frameId, { type: 'dh:frameIndex' }, 1500).catch(() => null);
          return { frameId: f.frameId, index: typeof r?.index === 'number' ? r.index : -1, url: f.url, width: r?.width, height: r?.height };
        }),
    );
  }

  async isLoading(page: number): Promise<boolean> {
    try {
      return (await chrome.tabs.get(page)).status === 'loading';
    } catch {
      return false;
    }
  }

  async frames(page: number): Promise<FrameInfo[]> {
    const frames = (await chrome.webNavigation.getAllFrames({ tabId: page })) ?? [];
    return frames.map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url }));
  }

  onPageClosed(page: number, handler: () => void): () => void {
    const set = this.closeHandlers.get(page) ?? this.closeHandlers.set(page, new Set()).get(page)!;
    set.add(handler);
    return () => set.delete(handler);
  }
}
