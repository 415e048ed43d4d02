/**
 * The Node client library. `Deckhand.create({ browser })` is the only way to
 * get an instance; it claims the browser handle so one handle backs one instance.
 */
import { randomUUID } from 'node:crypto';
import { context, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { zodSchema } from 'ai';
import type { z, ZodTypeAny } from 'zod';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { ClientMethods, type CommandClient, type MethodName, type Params, type Result } from '../protocol/methods';
import { Logger, type LoggingOptions } from './logging';
import { CallbackRegistry, defaultModel, resolveModel, type ModelSpec } from './models';
import type { Action, ActResult, ExtractResult, Metrics, ObserveResult, OperationOptions } from '../protocol/schemas';
import { Locator, type BrowserContext, type Page } from '../facade/page';
import type { BrowserHandle } from './browser';

export interface CreateOptions {
  browser: BrowserHandle;
  /** Default model for act/observe/extract: "provider/model", a ModelConfig, or a callback. */
  model?: ModelSpec;
  /** Added to every model call's instructions. */
  systemPrompt?: string;
  /** Longest wait for the page to settle (DOM quiet, loaded) before an operation reads it; default 3000. */
  domSettleTimeoutMs?: number;
  logging?: LoggingOptions;
  /** OpenTelemetry: spans go to this tracer, or to the global provider's tracer of this name (a no-op unless you register one). */
  telemetry?: { tracer?: Tracer; tracerName?: string };
}

export interface CallOptions extends Omit<OperationOptions, 'page' | 'locator' | 'ignoreLocators' | 'model' | 'opId' | 'systemPrompt' | 'domSettleTimeoutMs'> {
  model?: ModelSpec;
  page?: Page | number;
  locator?: Locator | { selector: string; nth?: number } | string;
  ignoreLocators?: (Locator | { selector: string; nth?: number } | string)[];
}

const CREATE = Symbol('create');

function toWire(options: CallOptions | undefined, extra: Partial<OperationOptions>): OperationOptions {
  const spec = (l: NonNullable<CallOptions['locator']>) => (typeof l === 'string' ? { selector: l } : l instanceof Locator ? l.toSpec() : l);
  const { page, locator, ignoreLocators, model: _model, ...rest } = options ?? {};
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
  readonly #logger: Logger;
  readonly #tracer: Tracer;
  readonly #spans = new Map<string, Span>();

  /** Use `Deckhand.create()`. */
  private constructor(token: symbol, browser: BrowserHandle, options: CreateOptions) {
    if (token !== CREATE) throw new DeckhandError(ErrorCode.InvalidArgument, 'use Deckhand.create({ browser }) to make an instance');
    this.#browser = browser;
    this.#client = browser.link;
    this.#options = options;
    this.#logger = new Logger(options.logging);
    this.#tracer = options.telemetry?.tracer ?? trace.getTracer(options.telemetry?.tracerName ?? 'deckhand');
  }

  /** Worker → client calls: callback models and log lines. */
  #serve(): void {
    this.#browser.link.handle('model.generate', async (raw) => {
      const p = ClientMethods['model.generate'].params.parse(raw);
      const fn = this.#callbacks.get(p.callbackId);
      if (!fn) throw new DeckhandError(ErrorCode.NoModelConfigured, 'the callback model is no longer registered with this client');
      return await fn(p.request);
    });
    this.#browser.link.handle('log', (raw) => {
      const p = ClientMethods.log.params.parse(raw);
      this.#logger.log(p.level, p.message, p.data);
      const d = p.data ?? {};
      const parent = typeof d.opId === 'string' ? this.#spans.get(d.opId) : undefined;
      if (parent && d.span === 'model-call') {
        // Model calls ran in the worker; record them as child spans with their real times.
        const ctx = trace.setSpan(context.active(), parent);
        const span = this.#tracer.startSpan('deckhand.model_call', { startTime: Number(d.startedAt), attributes: { 'deckhand.model': String(d.model), 'gen_ai.usage.input_tokens': Number(d.inputTokens ?? 0), 'gen_ai.usage.output_tokens': Number(d.outputTokens ?? 0) } }, ctx);
        span.end(Number(d.endedAt));
      }
      return null;
    });
  }

  /** Run one model operation: resolve the model, wrap it in a span, send it. */
  async #operation<M extends 'act' | 'observe' | 'extract'>(op: M, params: Omit<Params<M>, 'options'>, options: CallOptions | undefined, needsModel: boolean): Promise<Result<M>> {
    const opId = randomUUID();
    const spec = options?.model ?? this.#options.model ?? defaultModel();
    const model = needsModel ? resolveModel(spec, this.#callbacks) : undefined;
    const wire = toWire(options, {
      opId,
      ...(model ? { model } : {}),
      ...(this.#options.systemPrompt !== undefined ? { systemPrompt: this.#options.systemPrompt } : {}),
      ...(this.#options.domSettleTimeoutMs !== undefined ? { domSettleTimeoutMs: this.#options.domSettleTimeoutMs } : {}),
    });
    return this.#tracer.startActiveSpan(`deckhand.${op}`, { attributes: { 'deckhand.operation': op, ...(model ? { 'deckhand.model': model.name } : {}) } }, async (span) => {
      this.#spans.set(opId, span);
      try {
        const r = await this.#call(op, { ...params, options: wire } as Params<M>, options?.timeout);
        const usage = (r as { metadata: { usage: { inputTokens: number; outputTokens: number } } }).metadata.usage;
        span.setAttributes({ 'gen_ai.usage.input_tokens': usage.inputTokens, 'gen_ai.usage.output_tokens': usage.outputTokens });
        return r;
      } catch (e) {
        span.recordException(e as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
        this.#logger.log('error', `${op} failed: ${(e as Error).message}`, { opId });
        throw e;
      } finally {
        this.#spans.delete(opId);
        span.end();
      }
    });
  }

  static async create(options: CreateOptions): Promise<Deckhand> {
    const browser = options?.browser;
    if (!browser || typeof browser !== 'object' || !('link' in browser)) {
      throw new DeckhandError(ErrorCode.InvalidArgument, 'Deckhand.create needs { browser } from localBrowser.launch() or localBrowser.connect()');
    }
    if (options.model !== undefined) resolveModel(options.model, new CallbackRegistry()); // fail now on a bad config
    if (options.domSettleTimeoutMs !== undefined && !(Number.isInteger(options.domSettleTimeoutMs) && options.domSettleTimeoutMs >= 0)) {
      throw new DeckhandError(ErrorCode.InvalidArgument, 'domSettleTimeoutMs must be a non-negative integer (milliseconds)');
    }
    if (browser.claimedBy) throw new DeckhandError(ErrorCode.AlreadyInUse, 'this browser handle already backs a Deckhand instance; close that instance first or launch another browser');
    if (!browser.isConnected) throw new DeckhandError(ErrorCode.BrowserClosed, 'the browser is closed');
    let instance: Deckhand;
    try {
      instance = new Deckhand(CREATE, browser, options);
    } catch (e) {
      throw e instanceof DeckhandError ? e : new DeckhandError(ErrorCode.InvalidArgument, (e as Error).message);
    }
    browser.claimedBy = instance;
    instance.#serve();
    await instance.#call('engine.ping', {});
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

  #call<M extends MethodName>(method: M, params: Params<M>, timeoutMs?: number): Promise<Result<M>> {
    if (this.#closed) return Promise.reject(new DeckhandError(ErrorCode.Closed, `cannot call ${method}: this Deckhand instance is closed`));
    return this.#client.call(method, params, { timeoutMs });
  }

  /** Do one thing: an Action runs deterministically; an instruction needs a model. */
  /** Do one thing: an Action runs deterministically; an instruction is carried out by the model. */
  act(input: string | Action, options?: CallOptions): Promise<ActResult> {
    return this.#operation('act', { input: input as string | Record<string, unknown> }, options, typeof input === 'string');
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
    const json = schema === undefined ? undefined : isZod ? (zodSchema(schema as ZodTypeAny).jsonSchema as Record<string, unknown>) : schema;
    const r = await this.#operation('extract', { instruction, schema: json }, options, true);
    if (isZod) {
      const parsed = (schema as ZodTypeAny).safeParse(r.data);
      if (!parsed.success) throw new DeckhandError(ErrorCode.ModelOutputInvalid, `the extracted data does not fit the schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; ')}`);
      return { data: parsed.data, metadata: r.metadata } as never;
    }
    return r as never;
  }

  metrics(): Promise<Metrics> {
    return this.#call('metrics', {});
  }

  /** Release this instance; the browser stays open. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#browser.claimedBy === this) this.#browser.claimedBy = null;
  }
}
