/**
 * BrowserPort over chrome.* in the service worker: tabs are pages,
 * chrome.debugger gives each tab a CDP session, content scripts answer frame
 * requests through chrome.tabs.sendMessage.
 *
 * A page id is the id of the tab it was opened as. When a page is moved to a new tab
 * (adoptPage: how an open page goes to a data: URL), the id keeps naming the page: every
 * method maps it to the tab it is on now, and reports that tab under the page's id.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { PageInfo } from '../protocol/schemas';
import type { BrowserPort, CdpSession, FrameInfo, StatePort } from '../engine/ports';
import { takeThumbnail } from './thumbnail';

const CDP_VERSION = '1.3';
const CONTENT_SCRIPT = '/content-scripts/content.js';
/** The content script's handler alone, run through the debugger in documents that take no content script (entrypoints/debugger-handler.ts). */
const DEBUGGER_HANDLER = '/debugger-handler.js';
/** Where the page-to-tab map is kept (session storage), so a restarted worker still knows it. */
const ALIASES_KEY = 'pageAliases';

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
  /** `page`: the id the caller knows this tab by (for messages). */
  constructor(
    private readonly tabId: number,
    private readonly page: number,
  ) {}

  async send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000, retried = false): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return (await Promise.race([
        chrome.debugger.sendCommand({ tabId: this.tabId }, method, params),
        new Promise<never>((_, reject) => {
          const late = () => reject(new DeckhandError(ErrorCode.Timeout, `CDP ${method} on page ${this.page} timed out after ${timeoutMs} ms`));
          timer = setTimeout(late, timeoutMs);
        }),
      ])) as T;
    } catch (e) {
      // After some navigations (back/forward cache swaps) the debugger is left on a page that is
      // no longer the tab's; attaching again reaches the current one.
      if (!retried && /Not attached to an active page/i.test(String((e as Error)?.message))) {
        await chrome.debugger.detach({ tabId: this.tabId }).catch(() => undefined);
        await chrome.debugger.attach({ tabId: this.tabId }, CDP_VERSION);
        await chrome.debugger.sendCommand({ tabId: this.tabId }, 'Page.enable', {});
        await chrome.debugger.sendCommand({ tabId: this.tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
        return this.send<T>(method, params, timeoutMs, true);
      }
      throw mapChromeError(e, `CDP ${method}`, this.page);
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
  /** Debugger sessions and their event targets, by tab id. */
  private readonly sessions = new Map<number, Promise<TabSession>>();
  private readonly live = new Map<number, TabSession>();
  /** Close handlers, by page id. */
  private readonly closeHandlers = new Map<number, Set<() => void>>();
  /** A tab id, the last one activated. */
  private lastActive: number | null = null;
  /** Pages moved to another tab: page id → the tab it is on now, and back. Pages never moved are absent (their tab has their id). */
  private readonly tabOfPage = new Map<number, number>();
  private readonly pageOfTab = new Map<number, number>();
  /** Tabs being closed because their page moved to another tab: their closing is not the page's. */
  private readonly retired = new Set<number>();
  /** The page-to-tab map restored from session storage (a restarted worker). */
  private readonly ready: Promise<void>;
  /** The source of debugger-handler.js, read once. */
  private debuggerHandler: Promise<string> | null = null;
  /** The last failed navigation of each frame, by tab then frame id: what its error page stands for. */
  private readonly navErrors = new Map<number, Map<number, { url: string; error: string }>>();

  constructor(private readonly state?: StatePort) {
    this.ready = this.restoreAliases().catch(() => undefined);
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId !== undefined) this.live.get(source.tabId)?.emit(method, params);
    });
    chrome.debugger.onDetach.addListener((source) => {
      if (source.tabId !== undefined) {
        this.sessions.delete(source.tabId);
        this.live.delete(source.tabId);
      }
    });
    // What Chromium's error page in a frame stands for: the URL and net error of the navigation
    // that failed (the error page itself only says chrome-error://chromewebdata/). Read only while
    // the frame shows an error page, whose failure is the frame's latest; no listener on every
    // navigation, so that ordinary browsing does not keep waking the worker.
    chrome.webNavigation.onErrorOccurred.addListener((d) => {
      if (d.error === 'net::ERR_ABORTED') return; // an aborted navigation leaves the document as it was: no error page
      const frames = this.navErrors.get(d.tabId) ?? this.navErrors.set(d.tabId, new Map()).get(d.tabId)!;
      frames.set(d.frameId, { url: d.url, error: d.error });
    });
    chrome.tabs.onRemoved.addListener((tabId) => {
      this.navErrors.delete(tabId);
      this.sessions.delete(tabId);
      this.live.delete(tabId);
      if (this.lastActive === tabId) this.lastActive = null;
      void this.ready.then(() => {
        if (this.retired.delete(tabId)) return;
        const page = this.pageOf(tabId);
        if (page !== tabId) {
          this.tabOfPage.delete(page);
          this.pageOfTab.delete(tabId);
          this.saveAliases();
        }
        const hs = this.closeHandlers.get(page);
        this.closeHandlers.delete(page);
        hs?.forEach((h) => h());
      });
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

  /** The tab a page is on now. */
  private async tabOf(page: number): Promise<number> {
    await this.ready;
    return this.tabOfPage.get(page) ?? page;
  }

  /** The page id a tab is known by. */
  private pageOf(tab: number): number {
    return this.pageOfTab.get(tab) ?? tab;
  }

  private toInfo(t: chrome.tabs.Tab): PageInfo {
    return { id: this.pageOf(t.id!), url: t.url ?? t.pendingUrl ?? '', title: t.title ?? '' };
  }

  private async restoreAliases(): Promise<void> {
    const saved = await this.state?.load(ALIASES_KEY).catch(() => undefined);
    if (!Array.isArray(saved) || saved.length === 0) return;
    const open = new Set((await chrome.tabs.query({}).catch(() => [])).map((t) => t.id));
    for (const pair of saved) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'number' || typeof pair[1] !== 'number' || !open.has(pair[1])) continue;
      this.tabOfPage.set(pair[0], pair[1]);
      this.pageOfTab.set(pair[1], pair[0]);
    }
  }

  private saveAliases(): void {
    void this.state?.save(ALIASES_KEY, [...this.tabOfPage]).catch(() => undefined);
  }

  async listPages(): Promise<PageInfo[]> {
    await this.ready;
    const tabs = await chrome.tabs.query({});
    return tabs.filter((t) => t.id !== undefined && t.id !== chrome.tabs.TAB_ID_NONE && !this.retired.has(t.id)).map((t) => this.toInfo(t));
  }

  async activePage(): Promise<PageInfo | null> {
    await this.ready;
    if (this.lastActive !== null) {
      try {
        return this.toInfo(await chrome.tabs.get(this.lastActive));
      } catch {
        this.lastActive = null;
      }
    }
    // With no window left (the last tab was closed) there is no last focused window: no active page.
    const [t] = await chrome.tabs.query({ active: true, lastFocusedWindow: true }).catch(() => []);
    if (t?.id !== undefined) return this.toInfo(t);
    const [any] = await chrome.tabs.query({}).catch(() => []);
    return any?.id !== undefined ? this.toInfo(any) : null;
  }

  async createPage(url = 'about:blank', options: { beside?: number } = {}): Promise<PageInfo> {
    if (options.beside === undefined) {
      let t: chrome.tabs.Tab;
      try {
        t = await chrome.tabs.create({ url, active: true });
      } catch (e) {
        // The last window was closed (its last tab closed): a tab needs a window, so open one with it.
        const msg = String((e as Error)?.message ?? e);
        if (!/No current window|No window with id/i.test(msg)) throw new DeckhandError(ErrorCode.Internal, `opening a new tab failed: ${msg}`);
        t = await this.createWindow(url);
      }
      this.lastActive = t.id!;
      return this.toInfo(t);
    }
    const beside = options.beside;
    try {
      const b = await chrome.tabs.get(await this.tabOf(beside));
      return this.toInfo(await chrome.tabs.create({ url, windowId: b.windowId, index: b.index + 1, active: false }));
    } catch (e) {
      throw mapChromeError(e, 'opening a tab beside the page', beside);
    }
  }

  /** A new normal window showing `url`: its one tab. */
  private async createWindow(url: string): Promise<chrome.tabs.Tab> {
    let w: chrome.windows.Window | undefined;
    try {
      w = await chrome.windows.create({ url, focused: true, type: 'normal' });
    } catch (e) {
      throw new DeckhandError(ErrorCode.Internal, `no browser window was open, and opening one failed: ${(e as Error)?.message ?? e}`);
    }
    const t = w?.tabs?.[0] ?? (w?.id !== undefined ? (await chrome.tabs.query({ windowId: w.id }))[0] : undefined);
    if (t?.id === undefined) throw new DeckhandError(ErrorCode.Internal, 'no browser window was open, and the window opened for a new page has no tab');
    return t;
  }

  /**
   * Move `page` onto the tab `tab` (see BrowserPort.adoptPage). The old tab's history does not
   * come along: after a page goes to a data: URL, going back has nothing to go back to.
   */
  async adoptPage(page: number, tab: number): Promise<void> {
    const old = await this.tabOf(page);
    let o: chrome.tabs.Tab;
    try {
      o = await chrome.tabs.get(old);
    } catch (e) {
      throw mapChromeError(e, 'moving the page to its new tab', page);
    }
    try {
      // In the old tab's place: pinned if it was, just after it (its index once the old tab goes), active if it was.
      if (o.pinned) await chrome.tabs.update(tab, { pinned: true });
      await chrome.tabs.move(tab, { windowId: o.windowId, index: o.index + 1 });
      if (o.active) await chrome.tabs.update(tab, { active: true });
    } catch (e) {
      throw mapChromeError(e, "moving the new tab into the page's place", page);
    }
    // From here on the page is the new tab, whatever happens to the old one.
    this.retired.add(old);
    this.pageOfTab.delete(old);
    this.tabOfPage.set(page, tab);
    this.pageOfTab.set(tab, page);
    this.saveAliases();
    if (this.lastActive === old) this.lastActive = tab;
    this.sessions.delete(old);
    this.live.delete(old);
    await chrome.tabs.remove(old).catch(() => this.retired.delete(old));
    if (o.groupId !== undefined && o.groupId !== -1) await chrome.tabs.group({ groupId: o.groupId, tabIds: tab }).catch(() => undefined);
  }

  async pageInfo(page: number): Promise<PageInfo> {
    const tab = await this.tabOf(page);
    let info: PageInfo;
    try {
      info = this.toInfo(await chrome.tabs.get(tab));
    } catch (e) {
      throw mapChromeError(e, 'reading page info', page);
    }
    // The tabs API hides URLs outside the host permissions (about:blank, data:); the frame list names them.
    if (!info.url) info.url = (await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null))?.url ?? '';
    return info;
  }

  async resetPage(page: number): Promise<void> {
    const ms = 5000;
    const tabId = await this.tabOf(page);
    try {
      // tabs.update needs no debugger, so it works where the debugger was refused.
      await chrome.tabs.update(tabId, { url: 'about:blank' });
    } catch (e) {
      throw mapChromeError(e, 'sending the page to about:blank', page);
    }
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const [frame, tab] = await Promise.all([
        chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null),
        chrome.tabs.get(tabId).catch(() => null),
      ]);
      if (!tab) throw new DeckhandError(ErrorCode.PageClosed, `page ${page} was closed while being sent to about:blank`, { page });
      if (frame?.url === 'about:blank' && tab.status === 'complete') return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new DeckhandError(ErrorCode.Timeout, `sending page ${page} to about:blank timed out after ${ms} ms`, { page, timeoutMs: ms });
  }

  async closePage(page: number): Promise<void> {
    try {
      await chrome.tabs.remove(await this.tabOf(page));
    } catch (e) {
      throw mapChromeError(e, 'closing the page', page);
    }
  }

  async bringToFront(page: number): Promise<void> {
    try {
      const tab = await this.tabOf(page);
      const t = await chrome.tabs.update(tab, { active: true });
      if (t?.windowId !== undefined) await chrome.windows.update(t.windowId, { focused: true });
      this.lastActive = tab;
    } catch (e) {
      throw mapChromeError(e, 'bringing the page to front', page);
    }
  }

  async cdp(page: number): Promise<CdpSession> {
    const tab = await this.tabOf(page);
    let s = this.sessions.get(tab);
    if (!s) {
      const attaching = this.attach(tab, page);
      s = attaching;
      this.sessions.set(tab, attaching);
      attaching.catch(() => {
        if (this.sessions.get(tab) === attaching) this.sessions.delete(tab);
      });
    }
    return s;
  }

  async thumbnail(page: number, options: { width: number; quality: number; hide: string[] }): Promise<string> {
    return takeThumbnail(await this.cdp(page), options);
  }

  private async attach(tab: number, page: number): Promise<TabSession> {
    const target = { tabId: tab };
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
    const session = new TabSession(tab, page);
    this.live.set(tab, session);
    await session.send('Page.enable');
    // A headless or background tab has no window focus: without this, focus() fires no focus
    // event, :focus does not match and typing after focus misses what the page listens for.
    await session.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
    return session;
  }

  async frameRequest<T>(page: number, frameId: number, message: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const tab = await this.tabOf(page);
    const once = async (): Promise<T> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const reply = (await Promise.race([
        chrome.tabs.sendMessage(tab, { ...message, selfFrameId: frameId }, { frameId }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new DeckhandError(ErrorCode.Timeout, `frame ${frameId} of page ${page} did not answer '${String(message.type)}' within ${timeoutMs} ms`)),
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
      const tabGone = await chrome.tabs.get(tab).then(
        () => false,
        () => true,
      );
      if (tabGone) throw new DeckhandError(ErrorCode.PageClosed, `page ${page} was closed during ${String(message.type).replace('dh:', '')}`, { page });
      // Or the frame went on to Chromium's error page (a navigation failed under the request).
      throw (await this.errorPage(page, tab, frameId)) ?? mapChromeError(e, String(message.type), page);
    };
    try {
      return await once();
    } catch (e) {
      if (e instanceof DeckhandError && e.code === ErrorCode.Timeout) return fail(e);
      if (!/Receiving end does not exist|Could not establish connection/i.test(String((e as Error)?.message))) return fail(e);
    }
    // Chromium's error page takes no content script, and there is nothing on it to read or act on.
    const shown = await this.errorPage(page, tab, frameId);
    if (shown) throw shown;
    // No content script yet (a tab opened before the extension loaded, or a fresh about:blank): inject it.
    try {
      await chrome.scripting.executeScript({ target: { tabId: tab, frameIds: [frameId] }, files: [CONTENT_SCRIPT] });
    } catch (e) {
      const msg = String((e as Error)?.message ?? e);
      if (/showing error page/i.test(msg)) throw (await this.errorPage(page, tab, frameId, true))!;
      if (/Cannot access|cannot be scripted|chrome:\/\//i.test(msg)) {
        const refused = new DeckhandError(ErrorCode.ActionFailed, `page ${page} cannot be read by extensions (${msg})`, { page });
        // A top-level data: page, and a fresh tab or about:blank (what a script writes into it
        // included), take no content script, but the debugger reaches them.
        const top = frameId === 0 ? await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null) : null;
        if (top && (top.url.startsWith('data:') || /^about:blank([?#]|$)/.test(top.url))) {
          return this.requestThroughDebugger<T>(page, message, timeoutMs, refused);
        }
        throw refused;
      }
      throw mapChromeError(e, 'injecting the content script', page);
    }
    try {
      return await once();
    } catch (e) {
      return fail(e);
    }
  }

  /**
   * PAGE_ERROR when the frame shows Chromium's error page (its document URL is
   * chrome-error://chromewebdata/), naming the navigation that failed and its net error when
   * known; null otherwise. `known`: Chromium already said the frame shows one.
   */
  private async errorPage(page: number, tab: number, frameId: number, known = false): Promise<DeckhandError | null> {
    const frame = await chrome.webNavigation.getFrame({ tabId: tab, frameId }).catch(() => null);
    if (!known && !frame?.url.startsWith('chrome-error:')) return null;
    const failed = this.navErrors.get(tab)?.get(frameId);
    // The tab's URL is the address the top frame failed to load (the error page keeps it).
    const url =
      failed?.url ??
      (frameId === 0
        ? await chrome.tabs.get(tab).then(
            (t) => t.url || t.pendingUrl || '',
            () => '',
          )
        : '');
    const where = frameId === 0 ? `page ${page}` : `frame ${frameId} of page ${page}`;
    const what = url ? `loading ${url} failed${failed?.error ? ` (${failed.error})` : ''}` : `a navigation failed${failed?.error ? ` (${failed.error})` : ''}`;
    return new DeckhandError(
      ErrorCode.PageError,
      `${where} shows Chromium's error page: ${what}; there is no document to read or act on, so nothing was done (navigate the page again first)`,
      { page, frameId, ...(url ? { url } : {}), ...(failed?.error ? { errorText: failed.error } : {}) },
    );
  }

  /**
   * A frame request answered by the content script's handler run through the debugger, in an
   * isolated world of the top frame (entrypoints/debugger-handler.ts): for documents Chromium gives
   * no content script: a top-level data: page, about:blank. The world is kept per document and
   * debugger session, so element ids given by one snapshot resolve in the next request.
   * `refused` is the error to report when the debugger cannot reach the page either.
   */
  private async requestThroughDebugger<T>(page: number, message: Record<string, unknown>, timeoutMs: number, refused: DeckhandError): Promise<T> {
    const what = String(message.type);
    let cdp: CdpSession;
    let contextId: number;
    try {
      cdp = await this.cdp(page);
      const { frameTree } = await cdp.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree', {}, timeoutMs);
      const world = { frameId: frameTree.frame.id, worldName: 'deckhand' };
      contextId = (await cdp.send<{ executionContextId: number }>('Page.createIsolatedWorld', world, timeoutMs)).executionContextId;
    } catch (e) {
      if (e instanceof DeckhandError && (e.code === ErrorCode.PageClosed || e.code === ErrorCode.Timeout)) throw e;
      throw refused;
    }
    const run = async (expression: string): Promise<unknown> => {
      let r: { result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } };
      try {
        r = await cdp.send('Runtime.evaluate', { contextId, expression, awaitPromise: true, returnByValue: true }, timeoutMs);
      } catch (e) {
        if (e instanceof DeckhandError && e.code === ErrorCode.Timeout) {
          throw new DeckhandError(ErrorCode.Timeout, `page ${page} did not answer '${what}' within ${timeoutMs} ms`);
        }
        if (/context was destroyed|Cannot find context|Inspected target navigated/i.test(String((e as Error)?.message))) {
          throw new DeckhandError(ErrorCode.FrameDetached, `the frame navigated or went away during ${what}`, { page });
        }
        throw e;
      }
      if (r.exceptionDetails) {
        const first = (r.exceptionDetails.exception?.description ?? r.exceptionDetails.text).split('\n')[0];
        throw new DeckhandError(ErrorCode.Internal, `${what} failed in page ${page}: ${first}`);
      }
      return r.result.value;
    };
    let prelude = '';
    const tab = await this.tabOf(page);
    const hasChildFrames = async () => ((await chrome.webNavigation.getAllFrames({ tabId: tab }).catch(() => null)) ?? []).some((f) => f.parentFrameId === 0);
    if (message.type === 'dh:snapshot' && (await hasChildFrames())) {
      prelude = `globalThis.__deckhandChildFrames = ${JSON.stringify(await this.childFrames(tab, 0))};`;
    }
    const call = `${prelude} globalThis.__deckhandFrame ? globalThis.__deckhandFrame(${JSON.stringify({ ...message, selfFrameId: 0 })}) : 'not installed'`;
    let reply = await run(call);
    if (reply === 'not installed') {
      this.debuggerHandler ??= fetch(chrome.runtime.getURL(DEBUGGER_HANDLER)).then((r) => {
        if (!r.ok) throw new Error(`${DEBUGGER_HANDLER}: HTTP ${r.status}`);
        return r.text();
      });
      this.debuggerHandler.catch(() => (this.debuggerHandler = null));
      await run(await this.debuggerHandler);
      reply = await run(call);
    }
    const answer = reply as { result?: T; error?: { code: ErrorCode; message: string } } | undefined;
    if (!answer || typeof answer !== 'object') {
      throw new DeckhandError(ErrorCode.FrameDetached, `page ${page} gave no answer to '${what}' (it may have navigated)`);
    }
    if (answer.error) throw new DeckhandError(answer.error.code, answer.error.message);
    return answer.result as T;
  }

  /** The child frames of one frame, each with its position in the parent's window.frames (-1: not there, or no answer). */
  private async childFrames(page: number, parent: number): Promise<{ frameId: number; index: number; url: string; width?: number; height?: number }[]> {
    const all = (await chrome.webNavigation.getAllFrames({ tabId: page })) ?? [];
    return Promise.all(
      all
        .filter((f) => f.parentFrameId === parent && f.frameId !== parent)
        .map(async (f) => {
          const r = await this.frameRequest<{ index?: number; width?: number; height?: number }>(page, f.frameId, { type: 'dh:frameIndex' }, 1500).catch(
            () => null,
          );
          return { frameId: f.frameId, index: typeof r?.index === 'number' ? r.index : -1, url: f.url, width: r?.width, height: r?.height };
        }),
    );
  }

  async isLoading(page: number): Promise<boolean> {
    try {
      return (await chrome.tabs.get(await this.tabOf(page))).status === 'loading';
    } catch {
      return false;
    }
  }

  async frames(page: number): Promise<FrameInfo[]> {
    const frames = (await chrome.webNavigation.getAllFrames({ tabId: await this.tabOf(page) })) ?? [];
    return frames.map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url }));
  }

  onPageClosed(page: number, handler: () => void): () => void {
    const set = this.closeHandlers.get(page) ?? this.closeHandlers.set(page, new Set()).get(page)!;
    set.add(handler);
    return () => set.delete(handler);
  }
}
