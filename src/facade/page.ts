/**
 * The Page / Locator / BrowserContext facade, built only on a CommandClient so
 * the same classes serve the Node library (commands over RPC) and code running
 * inside the worker (commands in-process). Host-only features (writing files)
 * come through an optional `host` adapter.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { CommandClient } from '../protocol/methods';
import type { GotoOptions, LocatorSpec, PageInfo, ScreenshotOptions, SnapshotResult } from '../protocol/schemas';
import type { OptionalUrlScheme } from '../protocol/url-policy';
import type { CallToolResult, PageTool } from '../protocol/page-tools';
import type { ApprovalPolicyInput } from '../protocol/approval';

export interface ElementRef {
  id: string;
  selector: string;
  role: string;
  name: string;
}

export interface FacadeHost {
  /** Decode base64 screenshot data into the host's byte type. */
  bytes(base64: string): Uint8Array;
  writeFile?(path: string, data: Uint8Array): Promise<void>;
  /** Model-driven page.extract, provided by the Deckhand instance that uses this browser. */
  extract?(page: number, args: PageExtractOptions): Promise<unknown>;
}

/** page.extract's parameters (all optional). */
export interface PageExtractOptions {
  instruction?: string;
  /** A zod schema or a JSON Schema object. */
  schema?: unknown;
  /** XPath scoping the extraction. */
  selector?: string;
  /** Include iframe content (default false). */
  iframes?: boolean;
  modelName?: string;
  modelClientOptions?: { apiKey?: string; baseURL?: string; headers?: Record<string, string> };
  /** Wait for the page to settle first (default 30000). */
  domSettleTimeoutMs?: number;
}

export interface ActOptions {
  timeout?: number;
  /** Aborting it cancels the action in the browser (the wait for the element included); the call rejects at once with CANCELLED. */
  signal?: AbortSignal;
}

/** page.callTool's options: its deadline, a signal that cancels it, and steps to approve (the call waits as a click would). */
export interface CallToolOptions extends ActOptions {
  approval?: ApprovalPolicyInput;
}

/** page.goto's options: those sent to the browser, and a signal that cancels the navigation (the page stops loading). */
export type PageGotoOptions = GotoOptions & { signal?: AbortSignal };

/** An id for op.cancel to name a call by. */
function newOpId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID ? c.randomUUID() : `op-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Send a call that `signal` may cancel. Without a signal it is sent as it is. With one, the call
 * carries an opId; on abort, op.cancel with that opId stops it in the browser, and the returned
 * promise rejects at once with CANCELLED (what the call answers afterwards is dropped).
 */
function cancellable<T>(client: CommandClient, signal: AbortSignal | undefined, what: string, send: (opId?: string) => Promise<T>): Promise<T> {
  if (!signal) return send();
  if (signal.aborted) return Promise.reject(new DeckhandError(ErrorCode.Cancelled, `${what} was cancelled before it started`));
  const opId = newOpId();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      void client.call('op.cancel', { opId }).catch(() => undefined);
      reject(new DeckhandError(ErrorCode.Cancelled, `${what} was cancelled by its caller`, { opId }));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    send(opId)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type Evaluatable<A, R> = string | ((arg: A) => R | Promise<R>);

export class Locator {
  constructor(
    private readonly client: CommandClient,
    readonly page: Page,
    readonly selector: string,
    private readonly index?: number,
  ) {
    if (typeof selector !== 'string' || !selector.trim())
      throw new DeckhandError(ErrorCode.InvalidSelector, 'a locator needs a non-empty CSS or XPath selector');
  }

  /** The i-th match (0-based) of this locator's selector. */
  nth(i: number): Locator {
    if (!Number.isInteger(i) || i < 0) throw new DeckhandError(ErrorCode.InvalidArgument, `nth() takes a non-negative integer, got ${i}`);
    return new Locator(this.client, this.page, this.selector, i);
  }
  first(): Locator {
    return this.nth(0);
  }

  /** The wire form used by snapshot scoping and act. */
  toSpec(): LocatorSpec {
    return this.index === undefined ? { selector: this.selector } : { selector: this.selector, nth: this.index };
  }

  private async run(method: string, args: string[] = [], opts: ActOptions = {}): Promise<void> {
    await cancellable(this.client, opts.signal, `${method} on '${this.selector}'`, (opId) =>
      this.client.call('locator.act', {
        page: this.page.id,
        locator: this.toSpec(),
        method,
        arguments: args,
        timeout: opts.timeout,
        ...(opId ? { opId } : {}),
      }),
    );
  }

  click(opts?: ActOptions) {
    return this.run('click', [], opts);
  }
  dblclick(opts?: ActOptions) {
    return this.run('doubleClick', [], opts);
  }
  rightClick(opts?: ActOptions) {
    return this.run('rightClick', [], opts);
  }
  hover(opts?: ActOptions) {
    return this.run('hover', [], opts);
  }
  fill(value: string, opts?: ActOptions) {
    return this.run('fill', [value], opts);
  }
  type(text: string, opts?: ActOptions) {
    return this.run('type', [text], opts);
  }
  press(key: string, opts?: ActOptions) {
    return this.run('press', [key], opts);
  }
  /** Selects (highlights) text shown in the element; it must be shown there once. */
  selectText(text: string, opts?: ActOptions) {
    return this.run('selectText', [text], opts);
  }
  check(opts?: ActOptions) {
    return this.run('check', [], opts);
  }
  uncheck(opts?: ActOptions) {
    return this.run('uncheck', [], opts);
  }
  selectOption(values: string | string[], opts?: ActOptions) {
    return this.run('selectOption', Array.isArray(values) ? values : [values], opts);
  }
  scrollIntoView(opts?: ActOptions) {
    return this.run('scrollIntoView', [], opts);
  }
  scrollTo(percent: number | string, opts?: ActOptions) {
    return this.run('scrollTo', [String(percent)], opts);
  }
  dragTo(target: Locator | string, opts?: ActOptions) {
    return this.run('dragAndDrop', [typeof target === 'string' ? target : target.selector], opts);
  }

  async count(): Promise<number> {
    const r = await this.client.call('locator.count', { page: this.page.id, locator: { selector: this.selector } });
    return this.index === undefined ? r.count : r.count > this.index ? 1 : 0;
  }
}

export interface SnapshotCallOptions {
  locator?: Locator | LocatorSpec | string;
  ignoreLocators?: (Locator | LocatorSpec | string)[];
  budget?: number;
  timeout?: number;
}

const toSpec = (l: Locator | LocatorSpec | string): LocatorSpec => (typeof l === 'string' ? { selector: l } : l instanceof Locator ? l.toSpec() : l);

/** The operator's URL opt-in (protocol/url-policy.ts), sent with every navigating call. */
const withSchemes = (allow: readonly OptionalUrlScheme[]) => (allow.length ? { allowSchemes: [...allow] } : {});

export class Page {
  constructor(
    private readonly client: CommandClient,
    readonly id: number,
    private readonly host?: FacadeHost,
    /** Schemes opened beyond the default, from the browser handle (never from a remote caller). */
    private readonly allowSchemes: readonly OptionalUrlScheme[] = [],
  ) {}

  async goto(url: string, options?: PageGotoOptions): Promise<PageInfo> {
    const { signal, ...wire } = options ?? {};
    const opts = options ? wire : undefined;
    return cancellable(this.client, signal, `goto ${url}`, (opId) =>
      this.client.call('page.goto', { page: this.id, url, options: opts, ...withSchemes(this.allowSchemes), ...(opId ? { opId } : {}) }),
    );
  }
  async url(): Promise<string> {
    return (await this.client.call('page.info', { page: this.id })).url;
  }
  async title(): Promise<string> {
    return (await this.client.call('page.info', { page: this.id })).title;
  }
  /** Run a function (or an expression string) in the page; the argument and result are JSON values. */
  async evaluate<R = unknown, A = unknown>(fn: Evaluatable<A, R>, arg?: A, opts: { timeout?: number } = {}): Promise<R> {
    const isFunction = typeof fn === 'function';
    const source = isFunction ? fn.toString() : fn;
    const r = await this.client.call('page.evaluate', { page: this.id, source, isFunction, arg, timeout: opts.timeout });
    return r.value as R;
  }
  async screenshot(options: ScreenshotOptions & { path?: string } = {}): Promise<Uint8Array> {
    const { path, ...rest } = options;
    if (path && !this.host?.writeFile)
      throw new DeckhandError(
        ErrorCode.Unavailable,
        'screenshot({ path }) writes a local file, which is only available from Node (not inside experimentalBatch); take the returned bytes instead',
      );
    const r = await this.client.call('page.screenshot', { page: this.id, options: rest });
    const data = this.host ? this.host.bytes(r.data) : Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
    if (path) await this.host!.writeFile!(path, data);
    return data;
  }
  async close(): Promise<void> {
    await this.client.call('page.close', { page: this.id });
  }
  async bringToFront(): Promise<void> {
    await this.client.call('page.bringToFront', { page: this.id });
  }
  locator(selector: string): Locator {
    return new Locator(this.client, this, selector);
  }
  /** Press keys (e.g. 'Enter', 'Control+A') on whatever has focus in the page. */
  async press(keys: string, opts: ActOptions = {}): Promise<void> {
    await cancellable(this.client, opts.signal, `press ${keys}`, (opId) =>
      this.client.call('page.press', { page: this.id, keys, timeout: opts.timeout, ...(opId ? { opId } : {}) }),
    );
  }
  /** The page's own tools (WebMCP), as the snapshot lists them: name, description, input schema. */
  async tools(): Promise<PageTool[]> {
    return (await this.client.call('page.tools', { page: this.id })).tools;
  }
  /**
   * Call one of the page's own tools with `input` (checked against its input schema first). A tool
   * a form declares fills the form and submits it. Resolves with the tool's answer as text (JSON
   * text for an object) in `output`, absent when it answered nothing (a form that navigated the page: `navigated`).
   */
  async callTool(name: string, input?: Record<string, unknown>, opts: CallToolOptions = {}): Promise<CallToolResult> {
    return cancellable(this.client, opts.signal, `tool ${name}`, (opId) =>
      this.client.call('page.callTool', {
        page: this.id,
        name,
        ...(input !== undefined ? { input } : {}),
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
        ...(opts.approval ? { approval: opts.approval } : {}),
        ...(opId ? { opId } : {}),
      }),
    );
  }
  /**
   * The earlier extract interface: `extract()` → `{ pageText }` (the page's accessibility-tree
   * text, no model); `extract(instruction)` → `{ extraction }`; `extract({ instruction, schema,
   * selector, iframes, modelName, modelClientOptions, domSettleTimeoutMs })` → data.
   */
  async extract(arg?: string | PageExtractOptions): Promise<unknown> {
    if (arg === undefined) return { pageText: (await this.snapshot({ budget: 50_000_000 })).text };
    const opts: PageExtractOptions = typeof arg === 'string' ? { instruction: arg } : arg;
    if (typeof opts !== 'object' || opts === null)
      throw new DeckhandError(ErrorCode.InvalidArgument, 'page.extract takes nothing, an instruction, or an options object');
    if (!opts.instruction && opts.schema === undefined) {
      const text = (await this.snapshot({ budget: 50_000_000, ...(opts.selector ? { locator: { selector: opts.selector } } : {}) })).text;
      return { pageText: text };
    }
    if (!this.host?.extract) {
      throw new DeckhandError(
        ErrorCode.Unavailable,
        'page.extract with an instruction or schema needs a Deckhand instance on this browser (Deckhand.create), ' +
          'and is not available inside experimentalBatch (use batch.extract)',
      );
    }
    return this.host.extract(this.id, opts);
  }

  /** Selectors for element ids of a snapshot (null where the element is gone). */
  async selectorsFor(ids: string[]): Promise<(ElementRef | null)[]> {
    return this.client.call('page.selectors', { page: this.id, ids });
  }
  /** The text a model reads for this page. */
  async snapshot(options: SnapshotCallOptions = {}): Promise<SnapshotResult> {
    return this.client.call('page.snapshot', {
      page: this.id,
      locator: options.locator ? toSpec(options.locator) : undefined,
      ignoreLocators: options.ignoreLocators?.map(toSpec),
      budget: options.budget,
      timeout: options.timeout,
    });
  }
}

export class BrowserContext {
  private readonly cache = new Map<number, Page>();
  constructor(
    private readonly client: CommandClient,
    private readonly host?: FacadeHost,
    private readonly allowSchemes: readonly OptionalUrlScheme[] = [],
  ) {}

  /** The Page object for a page id (one object per page). */
  page(id: number): Page {
    let p = this.cache.get(id);
    if (!p) this.cache.set(id, (p = new Page(this.client, id, this.host, this.allowSchemes)));
    return p;
  }
  async pages(): Promise<Page[]> {
    const list = await this.client.call('context.pages', {});
    return list.map((i) => this.page(i.id));
  }
  async activePage(): Promise<Page> {
    return this.page((await this.client.call('context.activePage', {})).id);
  }
  async newPage(url?: string, opts: { timeout?: number } = {}): Promise<Page> {
    const info = await this.client.call('context.newPage', { url, timeout: opts.timeout, ...withSchemes(this.allowSchemes) });
    return this.page(info.id);
  }
}
