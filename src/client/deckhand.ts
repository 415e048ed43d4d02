/**
 * The Node client library. `Deckhand.create({ browser })` is the only way to
 * get an instance; it claims the browser handle so one handle backs one instance.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { CommandClient, MethodName, Params, Result } from '../protocol/methods';
import type { Action, ActResult, ExtractResult, Metrics, ObserveResult, OperationOptions } from '../protocol/schemas';
import { Locator, type BrowserContext, type Page } from '../facade/page';
import type { BrowserHandle } from './browser';

export interface CreateOptions {
  browser: BrowserHandle;
}

export interface CallOptions extends Omit<OperationOptions, 'page' | 'locator' | 'ignoreLocators'> {
  page?: Page | number;
  locator?: Locator | { selector: string; nth?: number } | string;
  ignoreLocators?: (Locator | { selector: string; nth?: number } | string)[];
}

const CREATE = Symbol('create');

function toWire(options: CallOptions | undefined): OperationOptions | undefined {
  if (!options) return undefined;
  const spec = (l: NonNullable<CallOptions['locator']>) => (typeof l === 'string' ? { selector: l } : l instanceof Locator ? l.toSpec() : l);
  const { page, locator, ignoreLocators, ...rest } = options;
  return {
    ...rest,
    ...(page !== undefined ? { page: typeof page === 'number' ? page : page.id } : {}),
    ...(locator ? { locator: spec(locator) } : {}),
    ...(ignoreLocators ? { ignoreLocators: ignoreLocators.map(spec) } : {}),
  };
}

export class Deckhand {
  #closed = false;
  readonly #browser: BrowserHandle;
  readonly #client: CommandClient;

  /** Use `Deckhand.create()`. */
  private constructor(token: symbol, browser: BrowserHandle) {
    if (token !== CREATE) throw new DeckhandError(ErrorCode.InvalidArgument, 'use Deckhand.create({ browser }) to make an instance');
    this.#browser = browser;
    this.#client = browser.link;
  }

  static async create(options: CreateOptions): Promise<Deckhand> {
    const browser = options?.browser;
    if (!browser || typeof browser !== 'object' || !('link' in browser)) {
      throw new DeckhandError(ErrorCode.InvalidArgument, 'Deckhand.create needs { browser } from localBrowser.launch() or localBrowser.connect()');
    }
    if (browser.claimedBy) throw new DeckhandError(ErrorCode.AlreadyInUse, 'this browser handle already backs a Deckhand instance; close that instance first or launch another browser');
    if (!browser.isConnected) throw new DeckhandError(ErrorCode.BrowserClosed, 'the browser is closed');
    const instance = new Deckhand(CREATE, browser);
    browser.claimedBy = instance;
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
  act(input: string | Action, options?: CallOptions): Promise<ActResult> {
    return this.#call('act', { input: input as string | Record<string, unknown>, options: toWire(options) }, options?.timeout);
  }

  observe(instruction?: string, options?: CallOptions): Promise<ObserveResult> {
    return this.#call('observe', { instruction, options: toWire(options) }, options?.timeout);
  }

  extract<T = unknown>(instruction?: string, schema?: unknown, options?: CallOptions): Promise<ExtractResult<T>> {
    return this.#call('extract', { instruction, schema, options: toWire(options) }, options?.timeout) as Promise<ExtractResult<T>>;
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
