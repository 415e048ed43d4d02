/**
 * The engine's view of the browser. The worker implements these with chrome.*
 * (src/browser/chrome-port.ts); unit tests implement them with fakes.
 */
import type { PageInfo } from '../protocol/schemas';

export interface CdpSession {
  send<T = unknown>(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Subscribe to a CDP event of this tab; returns an unsubscribe function. */
  on(event: string, handler: (params: any) => void): () => void;
}

export interface FrameInfo {
  frameId: number;
  parentFrameId: number;
  url: string;
}

export interface BrowserPort {
  listPages(): Promise<PageInfo[]>;
  activePage(): Promise<PageInfo | null>;
  /** A new tab at about:blank, or at `url` when given (the one way an extension may open a data: URL). */
  createPage(url?: string): Promise<PageInfo>;
  pageInfo(page: number): Promise<PageInfo>;
  closePage(page: number): Promise<void>;
  /**
   * Send the tab to about:blank without the debugger (the tab may be on a page the debugger
   * cannot reach, such as another extension's) and wait until it is there.
   */
  resetPage(page: number): Promise<void>;
  bringToFront(page: number): Promise<void>;
  /** A debugger session on the tab (attached on first use). */
  cdp(page: number): Promise<CdpSession>;
  /** Send a request to the content script of one frame; rejects with a DeckhandError. */
  frameRequest<T = unknown>(page: number, frameId: number, message: Record<string, unknown>, timeoutMs: number): Promise<T>;
  frames(page: number): Promise<FrameInfo[]>;
  /** Whether the tab is still loading a document (from the tabs API, independent of the debugger). */
  isLoading(page: number): Promise<boolean>;
  /** Resolves when the tab is closed (used to fail in-flight work at once). */
  onPageClosed(page: number, handler: () => void): () => void;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Small persistent state that must survive the worker being stopped (metrics). */
export interface StatePort {
  load(key: string): Promise<unknown>;
  save(key: string, value: unknown): Promise<void>;
}

/** Runs an expression in the worker's own JavaScript context through CDP (MV3 forbids eval in extension code). */
export interface SelfEvaluator {
  evaluate(expression: string, timeoutMs: number): Promise<unknown>;
}
