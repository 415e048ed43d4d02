/**
 * The Node client library. `Deckhand.create({ browser })` is the only way to
 * get an instance; it claims the browser handle so one handle backs one instance.
 */
import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { jsonSchemaOf } from './json-schema';
import type { z, ZodTypeAny } from 'zod';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { ClientMethods, type CommandClient, type MethodName, type Params, type Result } from '../protocol/methods';
import { Logger, type LoggingOptions } from './logging';
import { CallbackRegistry, defaultModel, resolveModel, withPrice, type ModelSpec } from './models';
import { parsePrices, type ModelPrice } from '../protocol/prices';
import type { ResolvedModel } from '../protocol/model';
import { cacheBase, cacheSettings, type CacheOption, type CacheSettings } from './cache/cache';
import { cacheForCall, parseCacheCallOption } from '../protocol/cache';
import { notJson, schemaTooBig } from '../protocol/json';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { checkMs, type Action, type ActResult, type ExtractResult, type Metrics, type ObserveResult, type OperationOptions } from '../protocol/schemas';
import type { CacheCallOption } from '../protocol/cache';
import { AgentExecuteRequestSchema, type AgentExecuteRequest, type AgentRecording, type AgentResult, type AgentStep } from '../protocol/agent';
import { describeZodError } from '../protocol/zod-errors';
import { serveWorkerCalls } from './worker-calls';
import type { ApprovalHandler, ApprovalPolicy, ApprovalPolicyInput } from '../protocol/approval';
import { agentModel, agentTools, type AgentOptions, type ExecuteInput } from './agent-options';
export type { AgentOptions, ExecuteInput };
import { spanOf } from '../protocol/log-spans';
import { Locator, type BrowserContext, type Page, type PageExtractOptions } from '../facade/page';
import type { BrowserHandle } from './browser';
import type { Flow, FlowInput, FlowLookIn, FlowPlace as FlowPlaceWire, FlowReplayResult, FlowSummary } from '../protocol/flows';
import type { Variables } from '../protocol/variables';
import type { CallToolResult, PageTool } from '../protocol/page-tools';

export interface CreateOptions {
  browser: BrowserHandle;
  /** Default model for act/observe/extract: "provider/model", a ModelConfig, or a callback. */
  model?: ModelSpec;
  /** Added to every model call's instructions. */
  systemPrompt?: string;
  /** Longest wait for the page to settle (DOM quiet, loaded) before an operation reads it; default 3000. */
  domSettleTimeoutMs?: number;
  logging?: LoggingOptions;
  /**
   * How a side panel watching this browser names the program driving it: `kind` (default
   * 'node'), the service `session` it serves, a `name` of your choosing.
   */
  client?: { kind?: string; session?: string; name?: string };
  /** OpenTelemetry: spans go to this tracer, or to the global provider's tracer of this name (a no-op unless you register one). */
  telemetry?: { tracer?: Tracer; tracerName?: string };
  /**
   * The result cache. With `apiKey` and `apiUrl` a Deckhand cache service serves it. Without
   * them, `cache: true` (or `{ store: 'local' }`) uses a SQLite file in DECKHAND_HOME, and
   * `{ store: 'memory' }` keeps it in this process; otherwise lookups are DISABLED.
   * `threshold`: identical results needed before hits are served (default 1).
   */
  cache?: CacheOption;
  /** Key of a Deckhand service (for its cache). */
  apiKey?: string;
  /** Address of a Deckhand service, e.g. http://127.0.0.1:3000. */
  apiUrl?: string;
  /** Re-infer a cached step whose element no longer resolves (default true). */
  selfHeal?: boolean;
  /**
   * Your own model prices, in US dollars per million tokens, by model name (`provider/model`,
   * or a callback model's name): `{ 'openai/gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6,
   * cachedInputPerMTok: 0.1 } }`. They win over the built-in list prices (protocol/prices.ts)
   * in results' `metadata.costUsd` and the cost counters of `metrics()`.
   */
  prices?: Record<string, ModelPrice>;
  /**
   * Risky steps of act, agentExecute and experimentalBatch wait for approval: `{ when: ['submit',
   * 'pay'], words?: [...], timeout?: ms }` (see ApprovalPolicy). A call's own `approval` wins.
   */
  approval?: ApprovalPolicyInput;
  /**
   * Decides a step that waits for approval, for every call of this instance without a handler of
   * its own. Return 'approve', 'skip' or 'stop', or null to leave it to the side panel (and, with
   * no answer by the deadline, a NOT_APPROVED refusal). `signal` aborts when the request ends
   * another way (someone else decided, or it timed out).
   */
  onApproval?: ApprovalHandler;
}

export type { ApprovalHandler };

/** callTool's options: the page (default the active one), its deadline, a signal that cancels it, and its approval. */
export interface CallToolCallOptions {
  page?: Page | number;
  timeout?: number;
  signal?: AbortSignal;
  approval?: ApprovalPolicyInput;
  onApproval?: ApprovalHandler;
}

export interface CallOptions extends Omit<OperationOptions, 'page' | 'locator' | 'ignoreLocators' | 'model' | 'opId' | 'systemPrompt' | 'cache'> {
  model?: ModelSpec;
  /** false: no lookup; true; or { threshold: n }. */
  cache?: CacheCallOption;
  /** Aborting it cancels the operation in the worker (the model request included). */
  signal?: AbortSignal;
  page?: Page | number;
  locator?: Locator | { selector: string; nth?: number } | string;
  ignoreLocators?: (Locator | { selector: string; nth?: number } | string)[];
  /** act: risky steps wait for approval (the instance's `approval` otherwise). */
  approval?: ApprovalPolicyInput;
  /** Decides this call's steps that wait for approval (the instance's `onApproval` otherwise). */
  onApproval?: ApprovalHandler;
}

const CREATE = Symbol('create');

export interface ReplayOptions {
  /** Values for the %name% placeholders in the flow's recorded arguments. */
  variables?: Variables;
  /** The page to replay on (default: the active page); the replay opens the flow's start URL there. */
  page?: Page | number;
  /**
   * Re-find a step whose element is gone or changed (and run extract steps) with this model.
   * None by default: no model is called, and such a step stops the replay with a typed error.
   */
  model?: ModelSpec;
  /** true: heal with this instance's model (as act would use it), unless `model` names another. */
  selfHeal?: boolean;
  /** How long each step may wait for its element (default 3000 ms). */
  stepTimeout?: number;
  /** How long the whole replay may take (default 120000 ms); past it the replay stops with TIMEOUT. */
  timeout?: number;
  /** Aborting it stops the replay in the worker (CANCELLED). */
  signal?: AbortSignal;
}

/** Where a flow is kept: the extension's saved flows (the side panel's, in the browser profile), or this client's own cache store. */
export type FlowPlace = FlowPlaceWire;

/** The flows the extension keeps (the side panel's), and those in this client's own store. The worker keeps both. */
export interface FlowsApi {
  /** The extension's saved flows, newest first. */
  list(): Promise<FlowSummary[]>;
  /**
   * A saved flow, whole: by default where a replay by name looks (this client's store, then the
   * extension's), or `from` one place. NOT_FOUND when there is none.
   */
  get(name: string, options?: { from?: FlowLookIn }): Promise<Flow>;
  /**
   * Save (or replace) a flow: in the extension (default), or in this client's own store, where a replay by name looks first.
   * Version (1), source ('client') and savedAt (now) may be left out.
   */
  save(flow: FlowInput, options?: { to?: FlowPlace }): Promise<FlowSummary>;
  /** Rename a saved flow (the extension's by default: ALREADY_IN_USE when `to` is taken; in the store, a flow under `to` is replaced). */
  rename(from: string, to: string, options?: { where?: FlowPlace }): Promise<FlowSummary>;
  /** Delete a flow (the extension's by default); whether there was one. */
  delete(name: string, options?: { from?: FlowPlace }): Promise<boolean>;
}

/** What a batch callback receives as its first argument. */
export interface BatchContextApi {
  page: Page;
  context: BrowserContext;
  act(input: string | Action, options?: Record<string, unknown>): Promise<ActResult>;
  observe(instruction?: string, options?: Record<string, unknown>): Promise<ObserveResult>;
  extract(instruction?: string, schema?: Record<string, unknown>, options?: Record<string, unknown>): Promise<ExtractResult<unknown>>;
  metrics(): Promise<Metrics>;
  /** A flow, by name or whole, on the batch's page (or `page`), with no model unless `selfHeal` (then the batch's model). */
  replay(
    flow: string | Flow,
    options?: { variables?: Variables; page?: Page | number; stepTimeout?: number; timeout?: number; selfHeal?: boolean },
  ): Promise<FlowReplayResult>;
}

export const deckhandHome = () => process.env.DECKHAND_HOME ?? join(homedir(), '.deckhand');

function toWire(options: CallOptions | undefined, extra: Partial<OperationOptions>): OperationOptions {
  const spec = (l: NonNullable<CallOptions['locator']>) => (typeof l === 'string' ? { selector: l } : l instanceof Locator ? l.toSpec() : l);
  const { page, locator, ignoreLocators, model: _model, cache: _cache, signal: _signal, onApproval: _onApproval, ...rest } = options ?? {};
  return {
    ...rest,
    ...extra,
    ...(page !== undefined ? { page: typeof page === 'number' ? page : page.id } : {}),
    ...(locator ? { locator: spec(locator) } : {}),
    ...(ignoreLocators ? { ignoreLocators: ignoreLocators.map(spec) } : {}),
  };
}

export class Deckhand {
  #closed = false;
  readonly #browser: BrowserHandle;
  readonly #client: CommandClient;
  readonly #options: CreateOptions;
  readonly #callbacks = new CallbackRegistry();
  readonly #prices: Record<string, ModelPrice> | undefined;
  readonly #logger: Logger;
  readonly #tracer: Tracer;
  readonly #spans = new Map<string, Span>();
  #cache!: CacheSettings;
  readonly #stepListeners = new Set<(line: { data?: Record<string, unknown> }) => void>();
  /** The caller's own agent tools, by name, while an agent run uses them. */
  readonly #tools = new Map<string, (input: unknown) => Promise<string>>();
  /** Calls' own approval handlers, by opId, while they run. */
  readonly #approvers = new Map<string, ApprovalHandler>();

  /** Use `Deckhand.create()`. */
  private constructor(token: symbol, browser: BrowserHandle, options: CreateOptions) {
    if (token !== CREATE) throw new DeckhandError(ErrorCode.InvalidArgument, 'use Deckhand.create({ browser }) to make an instance');
    this.#browser = browser;
    this.#client = browser.link;
    this.#options = options;
    this.#prices = options.prices === undefined ? undefined : parsePrices(options.prices);
    this.#logger = new Logger(options.logging);
    this.#tracer = options.telemetry?.tracer ?? trace.getTracer(options.telemetry?.tracerName ?? 'deckhand');
  }

  /** Worker → client calls: callback models, tools, the cache and log lines (worker-calls.ts). */
  #serve(): void {
    serveWorkerCalls({
      link: this.#browser.link,
      approver: (opId) => (opId !== undefined ? this.#approvers.get(opId) : undefined) ?? this.#options.onApproval,
      store: () => this.#cache.store,
      callbacks: this.#callbacks,
      tools: this.#tools,
      logger: this.#logger,
      stepListeners: this.#stepListeners,
      spans: this.#spans,
      tracer: this.#tracer,
    });
  }

  /** A model spec as the worker gets it: resolved, with this instance's own price for it. */
  #resolve(spec: ModelSpec): ResolvedModel {
    return withPrice(resolveModel(spec, this.#callbacks), this.#prices);
  }

  /** Run one model operation: resolve the model, wrap it in a span, send it. */
  async #operation<M extends 'act' | 'observe' | 'extract'>(
    op: M,
    params: Omit<Params<M>, 'options'>,
    options: CallOptions | undefined,
    needsModel: boolean,
  ): Promise<Result<M>> {
    const opId = randomUUID();
    const spec = options?.model ?? this.#options.model ?? defaultModel();
    const model = needsModel ? this.#resolve(spec) : undefined;
    const cache = cacheForCall(cacheBase(this.#cache), this.#cache.enabled, options?.cache);
    const approval = op === 'act' ? (options?.approval ?? this.#options.approval) : undefined;
    const wire = toWire(options, {
      opId,
      ...(approval ? { approval: approval as ApprovalPolicy } : {}),
      ...(cache ? { cache } : {}),
      ...(model ? { model } : {}),
      ...(this.#options.systemPrompt !== undefined ? { systemPrompt: this.#options.systemPrompt } : {}),
      ...(options?.domSettleTimeoutMs === undefined && this.#options.domSettleTimeoutMs !== undefined
        ? { domSettleTimeoutMs: this.#options.domSettleTimeoutMs }
        : {}),
    });
    return this.#tracer.startActiveSpan(
      `deckhand.${op}`,
      { attributes: { 'deckhand.operation': op, ...(model ? { 'deckhand.model': model.name } : {}) } },
      async (span) => {
        this.#spans.set(opId, span);
        if (options?.onApproval) this.#approvers.set(opId, options.onApproval);
        try {
          const r = await this.#cancellable(opId, options?.signal, op, () => this.#call(op, { ...params, options: wire } as Params<M>));
          const usage = (r as { metadata: { usage: { inputTokens: number; outputTokens: number } } }).metadata.usage;
          span.setAttributes({ 'gen_ai.usage.input_tokens': usage.inputTokens, 'gen_ai.usage.output_tokens': usage.outputTokens });
          return r;
        } catch (e) {
          span.recordException(e as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
          this.#logger.log('debug', `${op} failed: ${(e as Error).message}`, { opId }); // the caller gets the error itself
          throw e;
        } finally {
          this.#spans.delete(opId);
          this.#approvers.delete(opId);
          span.end();
        }
      },
    );
  }

  /**
   * Send a call that `signal` may cancel: on abort, op.cancel stops it in the worker (its opId
   * is `opId`) and the caller is answered at once with CANCELLED.
   */
  #cancellable<T>(opId: string, signal: AbortSignal | undefined, what: string, send: () => Promise<T>): Promise<T> {
    if (!signal) return send();
    if (signal.aborted) return Promise.reject(new DeckhandError(ErrorCode.Cancelled, `${what} was cancelled before it started`));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        void this.#call('op.cancel', { opId }).catch(() => undefined);
        reject(new DeckhandError(ErrorCode.Cancelled, `${what} was cancelled by its caller`, { opId }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      send()
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * The checks of create() that need no browser: a service runs them before it launches one,
   * so a bad model answers at once and costs no browser.
   */
  static checkOptions(options: Omit<CreateOptions, 'browser'>): void {
    if (options.model !== undefined) resolveModel(options.model, new CallbackRegistry()); // fail now on a bad config
    if (options.domSettleTimeoutMs !== undefined) checkMs('domSettleTimeoutMs', options.domSettleTimeoutMs, { min: 0 });
    if (options.prices !== undefined) parsePrices(options.prices);
  }

  static async create(options: CreateOptions): Promise<Deckhand> {
    const browser = options?.browser;
    if (!browser || typeof browser !== 'object' || !('link' in browser)) {
      throw new DeckhandError(
        ErrorCode.InvalidArgument,
        'Deckhand.create needs { browser } from localBrowser.launch(), localBrowser.connect() or localBrowser.attach()',
      );
    }
    Deckhand.checkOptions(options);
    if (browser.claimedBy)
      throw new DeckhandError(
        ErrorCode.AlreadyInUse,
        'this browser handle already backs a Deckhand instance; close that instance first or launch another browser',
      );
    if (!browser.isConnected) throw new DeckhandError(ErrorCode.BrowserClosed, 'the browser is closed');
    let instance: Deckhand;
    try {
      instance = new Deckhand(CREATE, browser, options);
    } catch (e) {
      throw e instanceof DeckhandError ? e : new DeckhandError(ErrorCode.InvalidArgument, (e as Error).message);
    }
    instance.#cache = await cacheSettings(options, deckhandHome());
    browser.claimedBy = instance;
    browser.host.extract = (page, args) => instance.#pageExtract(page, args);
    instance.#serve();
    const client = {
      kind: options.client?.kind ?? 'node',
      ...(options.client?.session ? { session: options.client.session } : {}),
      ...(options.client?.name ? { name: options.client.name } : {}),
    };
    // An extension from before callers named themselves refuses the field: it is only a label.
    await instance.#call('engine.ping', { client }).catch((e: unknown) => {
      if (e instanceof DeckhandError && e.code === ErrorCode.InvalidArgument) return instance.#call('engine.ping', {});
      throw e;
    });
    return instance;
  }

  get initialized(): boolean {
    return !this.#closed;
  }
  get browser(): BrowserHandle {
    return this.#browser;
  }
  get context(): BrowserContext {
    return this.#browser.context;
  }

  #call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    if (this.#closed) return Promise.reject(new DeckhandError(ErrorCode.Closed, `cannot call ${method}: this Deckhand instance is closed`));
    return this.#client.call(method, params);
  }

  /** Do one thing: an Action runs deterministically; an instruction is carried out by the model (or replayed from the cache). */
  async act(input: string | Action, options?: CallOptions): Promise<ActResult> {
    if (typeof input !== 'string') {
      parseCacheCallOption(options?.cache);
      return this.#operation('act', { input: input as Record<string, unknown> }, { ...options, cache: false }, false);
    }
    return this.#operation('act', { input }, options, true);
  }

  /** Elements that match the instruction (or the page's main actions), as Actions that act() can run. */
  observe(instruction?: string, options?: CallOptions): Promise<ObserveResult> {
    return this.#operation('observe', { instruction }, options, true);
  }

  /**
   * Data from the page. With a zod schema (or a JSON Schema) the data follows it; without
   * one the result is `{ extraction: string }`.
   */
  async extract<S extends ZodTypeAny | Record<string, unknown> | undefined = undefined>(
    instruction?: string,
    schema?: S,
    options?: CallOptions,
  ): Promise<ExtractResult<S extends ZodTypeAny ? z.infer<S> : S extends undefined ? { extraction: string } : unknown>> {
    const isZod = !!schema && typeof (schema as { safeParse?: unknown }).safeParse === 'function';
    const json = schema === undefined ? undefined : isZod ? jsonSchemaOf(schema as ZodTypeAny) : schema;
    const tooBig = json === undefined ? null : schemaTooBig(json);
    if (tooBig) throw new DeckhandError(ErrorCode.InvalidArgument, `extract: ${tooBig}`);
    const r = (await this.#operation('extract', { instruction, schema: json }, options, true)) as ExtractResult<unknown>;
    if (isZod) {
      const parsed = (schema as ZodTypeAny).safeParse(r.data);
      if (!parsed.success)
        throw new DeckhandError(
          ErrorCode.ModelOutputInvalid,
          `the extracted data does not fit the schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; ')}`,
        );
      return { data: parsed.data, metadata: r.metadata } as never;
    }
    return r as never;
  }

  /** page.extract with an instruction or schema: extract scoped to that page, with the earlier defaults. */
  async #pageExtract(page: number, o: PageExtractOptions): Promise<unknown> {
    const model: ModelSpec | undefined = o.modelName
      ? o.modelClientOptions && Object.keys(o.modelClientOptions).length
        ? { modelName: o.modelName, ...o.modelClientOptions }
        : o.modelName
      : undefined;
    const r = await this.extract(o.instruction, o.schema as never, {
      page,
      domSettleTimeoutMs: o.domSettleTimeoutMs ?? 30_000,
      ...(model !== undefined ? { model } : {}),
      ...(o.selector ? { locator: { selector: o.selector.startsWith('xpath=') || o.selector.startsWith('/') ? o.selector : `xpath=${o.selector}` } } : {}),
      iframes: o.iframes ?? false,
    });
    return r.data;
  }

  /**
   * Run a trusted, self-contained callback inside the extension's service worker, so the
   * operations it makes skip the client round trip. It is called with (batch, input):
   * `batch.page` (the `page` option or the active page at the start, fixed for the batch),
   * `batch.context`, `batch.act`, `batch.observe`, `batch.extract`, `batch.metrics`,
   * `batch.replay` (a flow, as `replay` here, on the batch's page).
   *
   * The function is sent as its source: variables from your scope are NOT captured and Node
   * APIs do not exist there; pass values through `input` (JSON). The result must be JSON
   * (undefined comes back as undefined). Default timeout 30 s; after it no new operation
   * starts, but one already running may finish. A batch is not atomic.
   */
  async experimentalBatch<R = unknown, I = unknown>(
    callback: ((batch: BatchContextApi, input: I) => R | Promise<R>) | string,
    ...rest: [
      input?: I,
      options?: { timeout?: number; page?: Page | number; signal?: AbortSignal; approval?: ApprovalPolicyInput; onApproval?: ApprovalHandler },
    ]
  ): Promise<R> {
    const source = typeof callback === 'function' ? callback.toString() : callback;
    if (typeof source !== 'string' || !source.trim())
      throw new DeckhandError(ErrorCode.InvalidArgument, 'experimentalBatch needs a function or its source as a string');
    const hasInput = rest.length > 0 && rest[0] !== undefined;
    const input = rest[0];
    if (hasInput) {
      const problem = notJson(input, 'input');
      if (problem) throw new DeckhandError(ErrorCode.InvalidArgument, `the batch input must be JSON-serialisable: ${problem}`);
    }
    const o = rest[1] ?? {};
    const model = this.#resolve(this.#options.model ?? defaultModel());
    // Every call in the batch applies its own cache option over these, as the library's calls do.
    const cache = cacheBase(this.#cache);
    const defaults = toWire(undefined, {
      model,
      ...(cache ? { cache } : {}),
      ...(this.#options.systemPrompt !== undefined ? { systemPrompt: this.#options.systemPrompt } : {}),
      ...(this.#options.domSettleTimeoutMs !== undefined ? { domSettleTimeoutMs: this.#options.domSettleTimeoutMs } : {}),
    });
    const page = o.page === undefined ? undefined : typeof o.page === 'number' ? o.page : o.page.id;
    const opId = randomUUID();
    const approval = (o.approval ?? this.#options.approval) as ApprovalPolicy | undefined;
    if (o.onApproval) this.#approvers.set(opId, o.onApproval);
    try {
      const r = await this.#cancellable(opId, o.signal, 'experimentalBatch', () =>
        this.#call('batch.run', {
          source,
          hasInput,
          ...(hasInput ? { input } : {}),
          ...(page !== undefined ? { page } : {}),
          ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
          defaults,
          cacheByDefault: this.#cache.enabled,
          opId,
          ...(approval ? { approval } : {}),
        }),
      );
      return (r.hasValue ? r.value : undefined) as R;
    } catch (e) {
      // Errors thrown in the callback come back with their message and the callback's stack.
      if (e instanceof DeckhandError && typeof e.data?.stack === 'string') e.stack = e.data.stack;
      throw e;
    } finally {
      this.#approvers.delete(opId);
    }
  }

  /** The page's own tools (WebMCP) on the active page, or on `options.page`. */
  async tools(options: { page?: Page | number } = {}): Promise<PageTool[]> {
    return (await this.#call('page.tools', { page: await this.#pageOrActive(options.page) })).tools;
  }

  /** A page's id: the one given, else the active page's (the page tools' calls name their page). */
  async #pageOrActive(page: Page | number | undefined): Promise<number> {
    return page === undefined ? (await this.context.activePage()).id : typeof page === 'number' ? page : page.id;
  }

  /**
   * Call one of the page's own tools (WebMCP) on the active page, or on `options.page`: as
   * page.callTool, with this instance's approval policy and handler (or the call's own).
   */
  async callTool(name: string, input?: Record<string, unknown>, options: CallToolCallOptions = {}): Promise<CallToolResult> {
    const page = await this.#pageOrActive(options.page);
    const opId = randomUUID();
    const approval = (options.approval ?? this.#options.approval) as ApprovalPolicy | undefined;
    if (options.onApproval) this.#approvers.set(opId, options.onApproval);
    try {
      return await this.#cancellable(opId, options.signal, `tool ${name}`, () =>
        this.#call('page.callTool', {
          page,
          name,
          ...(input !== undefined ? { input } : {}),
          opId,
          ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
          ...(approval ? { approval } : {}),
        }),
      );
    } finally {
      this.#approvers.delete(opId);
    }
  }

  /**
   * Run the autonomous agent on the active page (the shape of agentExecute). Steps are
   * reported through `onStep` as they happen. With `replay`, a recorded run is replayed
   * with no model call; with `record`, the result carries a recording for later replay.
   */
  async agentExecute(
    req: AgentExecuteRequest,
    opts: {
      signal?: AbortSignal;
      onStep?: (step: AgentStep) => void;
      searchUrl?: string;
      record?: boolean;
      replay?: AgentRecording;
      /** Look the run up in this client's cache and replay it on a hit; record it when computed. */
      cache?: boolean;
      /** Save the run, when it succeeds, as a named flow: this client's store, else the extension's (see `flow` in the result). */
      saveAs?: string;
      context?: string;
      waitBetweenActions?: number;
      autoScreenshot?: boolean;
      page?: Page | number;
      /** The caller's own tools: name → JSON Schema, description and a function run here, in Node. */
      tools?: { name: string; description: string; inputSchema: Record<string, unknown>; run: (input: unknown) => Promise<string> }[];
      /** Decides this run's steps that wait for approval (executeOptions.approval, or the instance's). */
      onApproval?: ApprovalHandler;
    } = {},
  ): Promise<Result<'agent.run'>> {
    const parsed = AgentExecuteRequestSchema.safeParse(req);
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, 'agentExecute request'));
    const { agentConfig: c, executeOptions: x } = parsed.data;
    // mode wins over the deprecated cua flag when both are given; with neither, the worker's default.
    const mode = c.mode ?? (c.cua ? 'cua' : undefined);
    const name = (m: unknown) => (typeof m === 'string' && c.provider && !m.includes('/') ? `${c.provider}/${m}` : m);
    const spec = (c.model !== undefined ? name(c.model) : (this.#options.model ?? defaultModel())) as ModelSpec;
    const model = this.#resolve(spec);
    const executionModel = c.executionModel !== undefined ? this.#resolve(name(c.executionModel) as ModelSpec) : model;
    if (x.useSearch && !opts.searchUrl) {
      throw new DeckhandError(ErrorCode.InvalidArgument, 'useSearch needs a search provider, and none is configured: set DECKHAND_SEARCH_URL on the service');
    }
    const opId = randomUUID();
    const stepListener = (line: { data?: Record<string, unknown> }) => {
      const s = spanOf(line.data);
      if (s?.span === 'agent-step' && s.opId === opId) opts.onStep?.(s.step);
    };
    this.#stepListeners.add(stepListener);
    for (const t of opts.tools ?? []) this.#tools.set(t.name, t.run);
    if (opts.onApproval) this.#approvers.set(opId, opts.onApproval);
    const approval = x.approval ?? (this.#options.approval as ApprovalPolicy | undefined);
    try {
      return await this.#cancellable(opId, opts.signal, 'agentExecute', () =>
        this.#call('agent.run', {
          instruction: x.instruction,
          ...(mode ? { mode } : {}),
          model,
          executionModel,
          ...((c.systemPrompt ?? this.#options.systemPrompt) ? { systemPrompt: c.systemPrompt ?? this.#options.systemPrompt } : {}),
          ...(x.maxSteps !== undefined ? { maxSteps: x.maxSteps } : {}),
          ...(x.toolTimeout !== undefined ? { toolTimeout: x.toolTimeout } : {}),
          ...(x.highlightCursor !== undefined ? { highlightCursor: x.highlightCursor } : {}),
          ...(x.variables ? { variables: x.variables } : {}),
          ...(approval ? { approval } : {}),
          ...(x.useSearch && opts.searchUrl ? { searchUrl: opts.searchUrl } : {}),
          ...(opts.page !== undefined ? { page: typeof opts.page === 'number' ? opts.page : opts.page.id } : {}),
          ...(parsed.data.frameId !== undefined ? { frameId: parsed.data.frameId } : {}),
          opId,
          ...(opts.replay ? { replay: opts.replay } : {}),
          ...(opts.record ? { record: true } : {}),
          ...(opts.cache ? { cache: true } : {}),
          ...((opts.saveAs ?? x.saveAs) !== undefined ? { saveAs: opts.saveAs ?? x.saveAs } : {}),
          ...(opts.context ? { context: opts.context } : {}),
          ...(opts.waitBetweenActions ? { waitBetweenActions: opts.waitBetweenActions } : {}),
          ...(opts.autoScreenshot ? { autoScreenshot: true } : {}),
          ...(opts.tools?.length ? { extraTools: opts.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) } : {}),
          // The browser handle's URL opt-in, so the agent's goto opens what page.goto opens.
          ...(this.#browser.allowUrlSchemes.length ? { allowSchemes: [...this.#browser.allowUrlSchemes] } : {}),
        }),
      );
    } finally {
      this.#stepListeners.delete(stepListener);
      for (const t of opts.tools ?? []) this.#tools.delete(t.name);
      this.#approvers.delete(opId);
    }
  }

  /**
   * The earlier agent interface: `agent({ provider?, model, instructions, options, integrations, tools })`
   * returns `{ execute }`, which runs on the same agent loop as agentExecute.
   */
  agent(config: AgentOptions = {}): { execute(input: string | ExecuteInput): Promise<AgentResult> } {
    // No model configured: the instance's (the built-in one when none was given).
    const model = agentModel(config);
    if (model !== undefined) resolveModel(model, this.#callbacks); // a bad config fails here, not at execute
    return {
      execute: async (input) => {
        const x: ExecuteInput = typeof input === 'string' ? { instruction: input } : input;
        const tools = await agentTools(config);
        try {
          const r = await this.agentExecute(
            {
              agentConfig: { ...(model !== undefined ? { model: model as never } : {}), ...(config.instructions ? { systemPrompt: config.instructions } : {}) },
              executeOptions: {
                instruction: x.instruction,
                ...(x.maxSteps !== undefined ? { maxSteps: x.maxSteps } : {}),
                ...(x.approval ? { approval: x.approval as ApprovalPolicy } : {}),
              },
            },
            {
              ...(x.autoScreenshot !== undefined ? { autoScreenshot: x.autoScreenshot } : {}),
              waitBetweenActions: x.waitBetweenActions ?? 0,
              context: x.context,
              tools: tools.list,
              ...(x.saveAs !== undefined ? { saveAs: x.saveAs } : {}),
              ...(x.onApproval ? { onApproval: x.onApproval } : {}),
            },
          );
          return r.result;
        } finally {
          await tools.close();
        }
      },
    };
  }

  /**
   * Replay a flow (a recording saved under a name) with no model: by name, from this client's
   * own store first and then the extension's saved flows (the side panel's), or given whole.
   * Each step is performed as recorded; one that no longer applies stops the replay with a
   * typed error whose `data.step` names it ({ index, id, description }), unless a model heals it
   * (`model`, or `selfHeal: true` for this instance's model).
   */
  async replay(nameOrFlow: string | FlowInput, options: ReplayOptions = {}): Promise<FlowReplayResult> {
    const target = typeof nameOrFlow === 'string' ? { name: nameOrFlow } : { flow: nameOrFlow };
    const spec = options.model ?? (options.selfHeal ? (this.#options.model ?? defaultModel()) : undefined);
    const model = spec !== undefined ? resolveModel(spec, this.#callbacks) : undefined;
    const page = options.page === undefined ? undefined : typeof options.page === 'number' ? options.page : options.page.id;
    const opId = randomUUID();
    return this.#tracer.startActiveSpan(
      'deckhand.replay',
      { attributes: { 'deckhand.operation': 'replay', ...(model ? { 'deckhand.model': model.name } : {}) } },
      async (span) => {
        this.#spans.set(opId, span);
        try {
          return await this.#cancellable(opId, options.signal, 'replay', () =>
            this.#call('flow.replay', {
              ...target,
              opId,
              ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
              ...(page !== undefined ? { page } : {}),
              ...(options.variables ? { variables: options.variables } : {}),
              ...(model ? { model } : {}),
              ...(options.stepTimeout !== undefined ? { stepTimeout: options.stepTimeout } : {}),
            }),
          );
        } catch (e) {
          span.recordException(e as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
          throw e;
        } finally {
          this.#spans.delete(opId);
          span.end();
        }
      },
    );
  }

  /** The flows the extension keeps (the side panel's) and those in this client's own store (the worker keeps both). */
  get flows(): FlowsApi {
    return {
      list: () => this.#call('flow.list', {}),
      get: (name, o = {}) => this.#call('flow.get', { name, ...(o.from !== undefined ? { from: o.from } : {}) }),
      save: (flow, o = {}) => this.#call('flow.save', { flow, ...(o.to !== undefined ? { to: o.to } : {}) }),
      rename: (from, to, o = {}) => this.#call('flow.rename', { from, to, ...(o.where !== undefined ? { where: o.where } : {}) }),
      delete: async (name, o = {}) => (await this.#call('flow.delete', { name, ...(o.from !== undefined ? { from: o.from } : {}) })).deleted,
    };
  }

  metrics(): Promise<Metrics> {
    return this.#call('metrics', {});
  }

  /** Release this instance; the browser stays open. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#browser.claimedBy === this) {
      this.#browser.claimedBy = null;
      delete this.#browser.host.extract;
    }
  }
}
