/**
 * experimentalBatch: a caller's trusted callback runs inside the worker, so each
 * operation it makes is an in-process engine call instead of a client round trip.
 * The source is evaluated through the worker's own debugger target (CSP forbids
 * eval in extension code) and handed a context of the same Page/Locator/Context
 * classes the Node library uses, over an in-process command client.
 *
 * A batch lives as long as its caller wants it: when the caller's transport closes (or the
 * batch.run call is cancelled), CallContext.signal aborts, the operation running is cancelled
 * and every later one rejects without starting.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { CommandClient, MethodName, Params, Result } from '../protocol/methods';
import type { OperationOptions } from '../protocol/schemas';
import { cacheForCall } from '../protocol/cache';
import { BrowserContext, Page } from '../facade/page';
import type { CallContext } from './ports';
import type { SelfEvaluator } from './ports';
import { notJson } from '../protocol/json';
import type { Flow } from '../protocol/flows';
import type { Variables } from '../protocol/variables';

interface BatchState {
  params: Params<'batch.run'> & { timeout: number };
  ctx: CallContext;
  pageId: number;
  timedOut: boolean;
}

type Outcome = { ok: true; hasValue: boolean; value?: unknown } | { ok: false; message: string; stack?: string; code?: string };

const unavailable = (what: string) =>
  new DeckhandError(ErrorCode.Unavailable, `${what} is not available inside experimentalBatch (the callback runs in the extension's service worker)`);

/** The page inside a batch: the shared facade, minus what only a host process can do. */
class BatchPage extends Page {
  on(): never {
    throw unavailable('page event subscription (page.on)');
  }
  once(): never {
    throw unavailable('page event subscription (page.once)');
  }
  off(): never {
    throw unavailable('page event subscription (page.off)');
  }
}

class BatchContext extends BrowserContext {
  constructor(private readonly c: CommandClient) {
    super(c);
  }
  override page(id: number): Page {
    return new BatchPage(this.c, id);
  }
  close(): never {
    throw unavailable('context.close()');
  }
  on(): never {
    throw unavailable('context event subscription (context.on)');
  }
}

export class BatchRunner {
  private readonly running = new Map<string, BatchState>();

  constructor(
    private readonly engine: { call<M extends MethodName>(m: M, p: Params<M>, o?: unknown, ctx?: CallContext): Promise<Result<M>> },
    private readonly evaluator: SelfEvaluator | undefined,
    private readonly activePage: () => Promise<number>,
  ) {
    (globalThis as unknown as { __deckhandBatch: unknown }).__deckhandBatch = { start: (id: string, fn: unknown) => this.start(id, fn) };
  }

  async run(params: Params<'batch.run'> & { timeout: number }, ctx: CallContext): Promise<Result<'batch.run'>> {
    if (!this.evaluator) throw unavailable('experimentalBatch itself');
    const id = crypto.randomUUID();
    const state: BatchState = { params, ctx, pageId: params.page ?? (await this.activePage()), timedOut: false };
    this.running.set(id, state);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        state.timedOut = true;
        reject(
          new DeckhandError(
            ErrorCode.Timeout,
            `the batch timed out after ${params.timeout} ms; operations already running may finish, no new ones start (a batch is not atomic)`,
            { timeoutMs: params.timeout },
          ),
        );
      }, params.timeout);
    });
    try {
      // The source is wrapped in parentheses so a function expression, arrow or declaration all evaluate to the function.
      const expression = `globalThis.__deckhandBatch.start(${JSON.stringify(id)}, (\n${params.source}\n))`;
      const out = (await Promise.race([this.evaluator.evaluate(expression, params.timeout + 5000), timeout])) as Outcome;
      if (!out.ok)
        throw new DeckhandError(ErrorCode.BatchFailed, out.message, { ...(out.stack ? { stack: out.stack } : {}), ...(out.code ? { cause: out.code } : {}) });
      return out.hasValue ? { hasValue: true, value: out.value } : { hasValue: false };
    } finally {
      clearTimeout(timer);
      // Keep the state until its callback settles, so a late operation still sees timedOut.
      setTimeout(() => this.running.delete(id), params.timeout + 60_000);
    }
  }

  private async start(id: string, fn: unknown): Promise<Outcome> {
    const st = this.running.get(id);
    if (!st) return { ok: false, message: 'this batch is no longer running' };
    if (typeof fn !== 'function')
      return { ok: false, message: `the batch source must evaluate to a function (callback(context, input)); it evaluated to ${typeof fn}` };
    const client: CommandClient = {
      call: (method, params) => {
        if (st.timedOut)
          return Promise.reject(new DeckhandError(ErrorCode.Timeout, `the batch timed out after ${st.params.timeout} ms: '${method}' was not started`));
        // The caller that sent the batch is gone (or cancelled it): nothing more of it runs. The
        // operation running when that happened is stopped through the same signal (st.ctx).
        const gone = st.ctx.signal;
        if (gone?.aborted) {
          const why = gone.reason instanceof DeckhandError ? gone.reason.message : 'the batch was cancelled';
          return Promise.reject(new DeckhandError(ErrorCode.Cancelled, `${why}: '${method}' of the batch was not started`));
        }
        if (method === 'batch.run') return Promise.reject(unavailable('a nested experimentalBatch'));
        return this.engine.call(method, params, st.ctx);
      },
    };
    const defaults = st.params.defaults ?? {};
    const opts = (o?: Record<string, unknown>): OperationOptions => {
      const { page, cache: setting, ...rest } = o ?? {};
      const pageId = page === undefined ? undefined : typeof page === 'number' ? page : (page as { id?: number }).id;
      const { cache: base, ...others } = defaults;
      const cache = cacheForCall(base, st.params.cacheByDefault ?? true, setting);
      return { ...others, ...rest, ...(cache ? { cache } : {}), ...(pageId !== undefined ? { page: pageId } : {}) } as OperationOptions;
    };
    const context = new BatchContext(client);
    const batch = {
      page: context.page(st.pageId),
      context,
      act: (input: unknown, o?: Record<string, unknown>) => client.call('act', { input: input as string, options: opts(o) }),
      observe: (instruction?: string, o?: Record<string, unknown>) => client.call('observe', { instruction, options: opts(o) }),
      extract: (instruction?: string, schema?: unknown, o?: Record<string, unknown>) => client.call('extract', { instruction, schema, options: opts(o) }),
      metrics: () => client.call('metrics', {}),
      // A flow on the batch's page, with no model unless selfHeal (then the batch's model heals).
      replay: (flow: unknown, o?: Record<string, unknown>) => {
        const { page, variables, stepTimeout, timeout, selfHeal } = (o ?? {}) as {
          page?: number | { id?: number };
          variables?: Variables;
          stepTimeout?: number;
          timeout?: number;
          selfHeal?: boolean;
        };
        const pageId = page === undefined ? st.pageId : typeof page === 'number' ? page : page.id;
        return client.call('flow.replay', {
          ...(typeof flow === 'string' ? { name: flow } : { flow: flow as Flow }),
          ...(pageId !== undefined ? { page: pageId } : {}),
          ...(variables ? { variables } : {}),
          ...(stepTimeout !== undefined ? { stepTimeout } : {}),
          ...(timeout !== undefined ? { timeout } : {}),
          ...(selfHeal && defaults.model ? { model: defaults.model } : {}),
        });
      },
      experimentalBatch: () => Promise.reject(unavailable('a nested experimentalBatch')),
      close: () => Promise.reject(unavailable('close() (instance lifecycle)')),
      init: () => Promise.reject(unavailable('init() (instance lifecycle)')),
    };
    try {
      const value = await (fn as (b: unknown, input: unknown) => unknown)(batch, st.params.hasInput ? st.params.input : undefined);
      if (value === undefined) return { ok: true, hasValue: false };
      const problem = notJson(value);
      if (problem) return { ok: false, message: `the batch returned a value that is not JSON-serialisable: ${problem}` };
      return { ok: true, hasValue: true, value };
    } catch (e) {
      const err = e as { message?: string; stack?: string; code?: string; name?: string };
      let message = err?.message ?? String(e);
      if (err?.name === 'ReferenceError') {
        message +=
          " (batch callbacks run in the extension's service worker: variables from the caller's scope are not captured " +
          'and Node APIs are not available; pass values through input)';
      }
      return { ok: false, message, stack: err?.stack, code: err?.code };
    }
  }
}
