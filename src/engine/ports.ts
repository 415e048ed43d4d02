/**
 * The engine's view of the browser. The worker implements these with chrome.*
 * (src/worker/chrome-port.ts); unit tests implement them with fakes.
 */
import type { PageInfo } from '../protocol/schemas';
import type { CacheLookupResponse, CacheRecordRequest } from '../protocol/cache';
import type { CallbackInvoker } from '../models/call';
import type { ApprovalDecision, ApprovalRequest, RiskFacts } from '../protocol/approval';

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
  /**
   * A new tab at about:blank, or at `url` when given (the one way an extension may open a data: URL).
   * With `beside`, the tab opens in the background, in that page's window just after it: the
   * first half of putting a document in an open page's place (see adoptPage).
   */
  createPage(url?: string, options?: { beside?: number }): Promise<PageInfo>;
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
  /**
   * Let `page` name the tab `tab` from now on, in place of the tab it names now, which is
   * closed: `tab` moves to the old tab's window and index and is made active if it was (and
   * pinned if it was). Every method taking a page id then reaches `tab`, listPages/activePage/
   * pageInfo report it as `page`, and closing the old tab is not reported as `page` closing.
   * History is not carried over: the new tab's history starts at its own document.
   * This is how an open page goes to a data: URL: Chromium refuses an extension's navigation
   * of an open tab there, but lets it create a tab at one. Ports that cannot (test fakes)
   * leave it out, and goto then reports that data: cannot be opened in an open page.
   */
  adoptPage?(page: number, tab: number): Promise<void>;
  /**
   * A small JPEG of what the tab shows, as a data URL, `width` CSS pixels wide at most, with any
   * field or text holding one of `hide` painted over: the side panel's view of another caller's
   * run. Ports that cannot (test fakes) leave it out, and the panel shows no picture.
   */
  thumbnail?(page: number, options: { width: number; quality: number; hide: string[] }): Promise<string>;
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

/**
 * Where the result cache keeps its entries (memory/cache.ts holds the policy). Implemented by
 * the caller's store over RPC (the SQLite file on the Node side, scoped there to the caller's
 * key), by IndexedDB in the extension (src/worker/idb-store.ts), and in memory for tests.
 */
export interface CacheStorePort {
  /** Count one more use of `key` and return its entry; `pageChanged` when only `baseKey` is known. */
  lookup(key: string, baseKey: string): Promise<CacheLookupResponse>;
  /** Store a computed result, counting agreement with the one stored before. */
  record(req: CacheRecordRequest): Promise<{ agree: number }>;
  /** Drop an entry whose stored steps no longer work. */
  invalidate(key: string): Promise<void>;
}

/** The extension's saved flows (the side panel's): IndexedDB in the worker, memory in tests. */
export interface FlowStorePort {
  /** Newest first. */
  list(): Promise<import('../protocol/flows').Flow[]>;
  get(name: string): Promise<import('../protocol/flows').Flow | null>;
  put(flow: import('../protocol/flows').Flow): Promise<void>;
  /** Atomic: the flow is under `to` and no longer under `from`, or nothing changed (false: `from` is not there, or `to` is taken). */
  rename(from: string, to: string): Promise<'renamed' | 'missing' | 'taken'>;
  delete(name: string): Promise<boolean>;
}

/** A log line of an operation, for its caller (never keys or variable values). */
export interface LogEvent {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  data?: Record<string, unknown>;
}

/** Asks whoever can decide (the side panels, the caller); resolves with the first decision, or null at the deadline. */
export type ApprovalAsker = (req: ApprovalRequest, signal: AbortSignal | undefined) => Promise<{ decision: ApprovalDecision; by: string } | null>;

/** An action as a gate sees it: found on the page, not yet acted on. `facts` is null for a goto (no element). */
export interface GatedStep {
  method: string;
  args: string[];
  pageUrl: string;
  facts: RiskFacts | null;
  target?: string;
  element: string;
}

/**
 * What a call's actions wait on before any input goes out: its approval (people/approval.ts),
 * found through the call's signal (core/gate.ts).
 */
export interface ActionGate {
  /** Whether `method` is one the gate ever stops. */
  gates(method: string): boolean;
  /** Time spent waiting for decisions so far, the wait going on now included. */
  heldMs(): number;
  /** Returns when the step may go ahead; a refusal is a NOT_APPROVED DeckhandError. */
  check(step: GatedStep, signal: AbortSignal | undefined): Promise<void>;
}

/** What a call may be held at while the person has paused programs (people/pause.ts): the engine sees only this. */
export interface PausePort {
  /**
   * Resolves at once (null) when not paused; else when resumed, saying how long it waited and
   * why it goes on. Rejects with PAUSED after `budgetMs`, or with the signal's reason.
   */
  wait(what: string, budgetMs: number, signal?: AbortSignal, onWait?: () => void): Promise<Resumed | null>;
}

export interface Resumed {
  waitedMs: number;
  /** Why it goes on: the person pressed Resume, or nobody was left to press it. */
  reason: string;
}

/** What the engine may ask of the caller that sent a command (its callback models, its log). */
export interface CallContext {
  /**
   * Aborted when the caller is gone (its transport closed) or no longer wants the call; the
   * reason is the DeckhandError to report. Inside a call it is that call's own signal: also
   * aborted by op.cancel with the call's opId, and at its deadline.
   */
  signal?: AbortSignal;
  invokeCallback: CallbackInvoker;
  log: (e: LogEvent) => void;
  /** Run one of the caller's own agent tools on the caller's side. */
  invokeTool?: (name: string, input: unknown, timeoutMs: number) => Promise<string>;
  /** The caller's result cache (`cache.store: 'caller'`), answered by the caller within its own tenant. */
  cache?: CacheStorePort;
  /** Puts a step that waits for approval to whoever can decide (side panels, the caller); none: nobody can, and such a step is refused. */
  askApproval?: ApprovalAsker;
  /** The approval of the call this one runs inside (a batch's), which its own calls keep. */
  gate?: ActionGate;
  /** Where the call waits while the person has paused programs in the side panel (people/pause.ts); none for the panel's own calls. */
  pause?: PausePort;
}
