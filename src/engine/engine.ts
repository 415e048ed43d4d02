/**
 * The engine: one in-process implementation of every command in
 * protocol/methods.ts. The worker's RPC peer and (later) experimentalBatch both
 * call `engine.call`, so every transport gets the same behaviour and validation.
 */
import { clip } from '../protocol/text';
import { describeZodError } from '../protocol/zod-errors';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import {
  DEADLINE_MARGIN_MS,
  Methods,
  operationDeadline,
  OPERATIONS,
  paramAt,
  type CommandClient,
  type MethodName,
  type Params,
  type Parsed,
  type Result,
} from '../protocol/methods';
import {
  ActionSchema,
  DEFAULTS,
  MAX_TIMEOUT_MS,
  ZERO_USAGE,
  type Action,
  type ActResult,
  type CacheInfo,
  type ExtractResult,
  type ObserveResult,
  type OperationOptions,
  type PageInfo,
  type Metrics,
  type ResultMetadata,
  type Usage,
} from '../protocol/schemas';
import type { CallbackInvoker, ProviderCaller } from '../models/call';
import type { ResolvedModel } from '../protocol/model';
import { costOf } from '../protocol/prices';
import { focusedSelector, inferAct, inferExtract, inferObserve, type InferenceDeps, type LogEvent, type OpContext } from './core/inference';
import { normalizeVariables, substituteArgs, type Variables } from '../protocol/variables';
import { performAction, validateAction } from './core/actions';
import { callPageTool, listPageTools, toolCallSaid } from './core/page-tools';
import { countTarget, highlightTarget } from './core/frames';
import { MetricsBook } from './metrics';
import { evaluate, goto, openPage, screenshot, withDeadline } from './core/pages';
import { raceCancel, throwIfCancelled } from './core/cancel';
import { OnceRuns } from './core/once';
import type { ApprovalAsker, BrowserPort, CacheStorePort, CallContext, FlowStorePort, Resumed, SelfEvaluator, StatePort } from './ports';
export type { CallContext };
import { callerFlowStore, MemoryFlowStore, replayFlow } from './memory/flows';
import { deleteStoredFlow, flowFromInput, flowKey, getStoredFlow, putStoredFlow, summarizeFlow, type Flow, type SavedFlow } from '../protocol/flows';
import { qaStepsFromAgent } from '../protocol/recording';
import type { AgentRecording, AgentRunParams } from '../protocol/agent';
import { mentionsNamedDate } from '../models/local/values';
import { agentCacheKey, cacheKeys, cacheUrl, ContentChanged, runCached, type CachedOp, type KeyParts } from './memory/cache';
import { checkObserved, readRegion, StoredExtractSchema, withPageCounts, type StoredExtract } from './memory/cache-checks';
import { replayActions, ReplayFailed, type Healer } from './memory/replay';
import { ENGINE_VERSION } from '../protocol/version';
import { AgentRecordingSchema } from '../protocol/agent';
import { normalizeUrl } from '../protocol/url-policy';
import { BatchRunner } from './batch';
import { runAgent } from './agent/agent';
import { captureSnapshot, selectorsForIds } from './core/snapshot';
import { bindGate } from './core/gate';
import { Gate } from './people/approval';
import type { ApprovalPolicy } from '../protocol/approval';
import { GATED_METHODS, pauseBudget } from './people/pause';

/** How long a cache hit's first step looks for its element: the page is already there, and a miss then costs a model call anyway. */
const FIRST_STEP_WAIT_MS = 1_000;
const EXTENSION_FLOWS = "the extension (the side panel's flows)";
const CALLER_STORE = "this client's store";

/** The opId a call may be cancelled by (op.cancel), for the methods that take one. */
function opIdOf(method: MethodName, p: unknown): string | undefined {
  const o = OPERATIONS[method];
  const id = o ? paramAt(p, o.opId) : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** A call's idempotency key, beside its opId in its params (act, observe and extract: options.idempotencyKey). */
function idempotencyKeyOf(method: MethodName, p: unknown): string | undefined {
  const o = OPERATIONS[method];
  const key = o ? paramAt(p, o.opId.replace(/opId$/, 'idempotencyKey')) : undefined;
  return typeof key === 'string' ? key : undefined;
}

/** What a call asks, for comparing a retry with its first run: its params without the per-call opId. */
function askedOf(method: MethodName, p: unknown): string {
  return JSON.stringify([method, p], (k, v: unknown) => (k === 'opId' ? undefined : v));
}

/** How long an op.cancel for an opId not (yet) running is kept, for a call that arrives after its cancel. */
const EARLY_CANCEL_MS = 60_000;

type Handler = (params: any, ctx: CallContext) => Promise<unknown>;

/** What a cached call is keyed on (cache.ts cacheKeys): the same for a computed result and for a fix stored by hand. */
function keyPartsOf(instruction: string, url: string, o: { variables?: unknown; screenshot?: boolean }, schema?: unknown): Omit<KeyParts, 'op'> {
  return {
    instruction,
    url: cacheUrl(url),
    ...(schema !== undefined ? { schema } : {}),
    variableNames: Object.keys((o.variables as Record<string, unknown> | undefined) ?? {}),
    screenshot: !!o.screenshot,
  };
}

/** Said once when a call starts waiting at the pause gate: to its caller's log and the watching panel. */
function pausedLog(ctx: CallContext, what: string, opId: string | undefined): void {
  const message = `${what} waits: the run is paused in Deckhand's side panel until the person presses Resume`;
  ctx.log({ level: 'info', message, data: { opId, paused: true } });
}

function resumedLog(ctx: CallContext, what: string, opId: string | undefined, r: Resumed): void {
  ctx.log({ level: 'info', message: `${what} goes on after ${r.waitedMs} ms paused: ${r.reason}`, data: { opId, paused: false } });
}

const NO_CALLER: CallContext = {
  invokeCallback: async () => {
    throw new DeckhandError(ErrorCode.NoModelConfigured, 'callback models need a connected client');
  },
  log: () => undefined,
};

export { describeZodError };

export class Engine implements CommandClient {
  readonly metricsBook = new MetricsBook();
  private readonly handlers: Record<MethodName, Handler>;

  private readonly restored: Promise<void>;
  private readonly batches: BatchRunner;
  /** Running calls by opId (see opIdOf): what op.cancel aborts. */
  private readonly cancels = new Map<string, AbortController>();
  /** Runs named by an idempotency key, for their retries. */
  private readonly once = new OnceRuns();
  /** op.cancel for opIds not running yet, with when it came (see EARLY_CANCEL_MS). */
  private readonly cancelledEarly = new Map<string, number>();
  /** Where the side panel's hover outline is drawn, so the next hover clears it. */
  private highlighted: { page: number; frameId: number } | null = null;

  constructor(
    private readonly port: BrowserPort,
    private readonly extensionId: string,
    private readonly state?: StatePort,
    /** How provider models are called (the offscreen document in the extension). */
    private readonly providers?: ProviderCaller,
    selfEvaluator?: SelfEvaluator,
    /** The extension's own result cache (`cache.store: 'extension'`): the side panel's. */
    private readonly cacheStore?: CacheStorePort,
    /** The extension's saved flows (the side panel's). */
    private readonly flows: FlowStorePort = new MemoryFlowStore(),
  ) {
    this.batches = new BatchRunner(this, selfEvaluator, async () => (await this.activePage()).id);
    // Metrics outlive a stopped worker: restore them before the first command.
    this.restored = (state?.load('metrics') ?? Promise.resolve(undefined)).then(
      (m) => {
        if (m && typeof m === 'object') this.metricsBook.restore(m as Partial<Metrics>);
      },
      () => undefined,
    );
    this.handlers = {
      'engine.ping': async () => ({ version: ENGINE_VERSION, extensionId: this.extensionId }),
      'context.pages': async () => this.port.listPages(),
      'context.activePage': async () => this.activePage(),
      'context.newPage': async (p: Parsed<'context.newPage'>, ctx) =>
        p.url ? openPage(this.port, p.url, { timeout: p.timeout }, p.allowSchemes, ctx.signal) : this.port.createPage(),
      'page.goto': async (p: Parsed<'page.goto'>, ctx) => goto(this.port, p.page, p.url, p.options, p.allowSchemes, ctx.signal),
      'page.info': async (p: Parsed<'page.info'>) => this.port.pageInfo(p.page),
      'page.close': async (p: Parsed<'page.close'>) => {
        await this.port.closePage(p.page);
        return { closed: true };
      },
      'page.bringToFront': async (p: Parsed<'page.bringToFront'>) => {
        await this.port.bringToFront(p.page);
        return this.port.pageInfo(p.page);
      },
      'page.evaluate': async (p: Parsed<'page.evaluate'>) => ({
        value: await evaluate(this.port, p.page, p.source, p.isFunction, p.arg, p.timeout ?? DEFAULTS.navigationTimeoutMs),
      }),
      'page.screenshot': async (p: Parsed<'page.screenshot'>) => screenshot(this.port, p.page, p.options),
      'page.snapshot': async (p: Parsed<'page.snapshot'>) =>
        captureSnapshot(this.port, p.page ?? (await this.activePage()).id, {
          locator: p.locator,
          ignoreLocators: p.ignoreLocators,
          budget: p.budget,
          timeoutMs: p.timeout,
        }),
      'page.selectors': async (p: Parsed<'page.selectors'>) => selectorsForIds(this.port, p.page, p.ids),
      'page.press': async (p: Parsed<'page.press'>, ctx) =>
        validateAction('press', [p.keys]) &&
        performAction(
          this.port,
          p.page,
          { selector: await focusedSelector(this.port, p.page) },
          'press',
          [p.keys],
          p.timeout ?? DEFAULTS.actionTimeoutMs,
          ctx.signal,
        ),
      'page.highlight': async (p: Parsed<'page.highlight'>) => {
        // Clear the outline wherever it was drawn last, then draw the new one.
        const last = this.highlighted;
        this.highlighted = null;
        if (last) await this.port.frameRequest(last.page, last.frameId, { type: 'dh:highlight', selector: null }, 3000).catch(() => undefined);
        if (p.selector === null) return { count: 0 };
        const r = await highlightTarget(this.port, p.page, p.selector, 5000);
        if (r.count) this.highlighted = { page: p.page, frameId: r.frameId };
        return { count: r.count };
      },
      'page.tools': async (p: Parsed<'page.tools'>) => listPageTools(this.port, p.page),
      'page.callTool': async (p: Parsed<'page.callTool'>, ctx) =>
        callPageTool(this.port, p.page, p.name, p.input, p.timeout ?? DEFAULTS.actionTimeoutMs, ctx.signal),
      'locator.count': async (p: Parsed<'locator.count'>) => ({ count: await countTarget(this.port, p.page, p.locator.selector, 10_000) }),
      'locator.act': async (p: Parsed<'locator.act'>, ctx) =>
        validateAction(p.method, p.arguments ?? []) &&
        performAction(
          this.port,
          p.page,
          { selector: p.locator.selector, nth: p.locator.nth },
          p.method,
          p.arguments ?? [],
          p.timeout ?? DEFAULTS.actionTimeoutMs,
          ctx.signal,
        ),
      'agent.run': async (p: AgentRunParams, ctx) => {
        // A cached run: replay the recording stored under its key, or record this one.
        // A run that names a date by description ("today's date") is not replayed on another day: never cached.
        const store = p.cache && !mentionsNamedDate(p.instruction) ? (ctx.cache ?? null) : null;
        let replay = p.replay;
        let cacheKey: string | undefined;
        if (store && !replay) {
          const start = p.page !== undefined ? await this.port.pageInfo(p.page) : await this.activePage();
          cacheKey = await agentCacheKey(p, normalizeUrl(start.url));
          const look = await store.lookup(cacheKey, cacheKey);
          const stored = look.entry ? AgentRecordingSchema.safeParse(look.entry.result) : null;
          if (stored?.success) replay = stored.data;
        }
        const startUrl = p.saveAs ? (p.page !== undefined ? await this.port.pageInfo(p.page) : await this.activePage()).url : '';
        const r = await runAgent(
          {
            deps: { ...this.deps(ctx), cancel: ctx.signal },
            port: this.port,
            activePage: async () => (await this.activePage()).id,
            addUsage: (u, cost) => this.addUsage('act', u, cost),
            invokeTool: ctx.invokeTool,
            // Paused mid-run: the next step waits, as long as a step may take.
            between: ctx.pause
              ? async () => {
                  const budget = Math.min(p.toolTimeout * 3 + 10_000, MAX_TIMEOUT_MS);
                  const resumed = await ctx.pause!.wait("the agent's next step", budget, ctx.signal, () => pausedLog(ctx, 'the agent', p.opId));
                  if (resumed) resumedLog(ctx, 'the agent', p.opId, resumed);
                }
              : undefined,
          },
          { ...p, ...(replay ? { replay } : {}), record: p.record || !!p.saveAs || (!!cacheKey && !replay) },
        );
        if (store && cacheKey && r.recording) {
          await store.record({ key: cacheKey, baseKey: cacheKey, op: 'agent', result: r.recording, usage: { ...ZERO_USAGE } });
        }
        const entry = r.recording ?? (r.result.metadata?.replayed ? replay : undefined);
        const saved = p.saveAs && r.result.success && entry ? await this.saveAgentFlow(p.saveAs, p.instruction, startUrl, entry, ctx) : undefined;
        return { ...r, ...(cacheKey && entry ? { cacheEntry: { cacheKey, entry } } : {}), ...(saved ? { flow: saved } : {}) };
      },
      'op.cancel': async (p: Parsed<'op.cancel'>) => {
        const c = this.cancels.get(p.opId);
        if (c) {
          c.abort(new DeckhandError(ErrorCode.Cancelled, 'the operation was cancelled by its caller', { opId: p.opId }));
          return { cancelled: true };
        }
        // Its call may not have arrived yet (sent just before, on another path): cancel it as it starts.
        const now = Date.now();
        for (const [id, at] of this.cancelledEarly) if (now - at > EARLY_CANCEL_MS) this.cancelledEarly.delete(id);
        this.cancelledEarly.set(p.opId, now);
        return { cancelled: false };
      },
      'batch.run': async (p: Parsed<'batch.run'>, ctx) => this.batches.run({ ...p, timeout: p.timeout ?? DEFAULTS.batchTimeoutMs }, ctx),
      act: async (p: Parsed<'act'>, ctx) => this.act(p, ctx),
      'act.replay': async (p: Parsed<'act.replay'>, ctx) => {
        const heal = p.model ? this.healer(await this.opContext('act', { page: p.page, model: p.model, variables: p.variables }, ctx), ctx) : null;
        try {
          return await replayActions(this.port, p.page, p.actions, normalizeVariables(p.variables), heal, undefined, ctx.signal);
        } catch (e) {
          if (e instanceof ReplayFailed) throw new DeckhandError(ErrorCode.ActionFailed, e.message);
          throw e;
        }
      },
      observe: async (p: Parsed<'observe'>, ctx) => {
        const op = await this.opContext('observe', p.options, ctx);
        return this.cached<ObserveResult>('observe', p.options, ctx, op, p.instruction ?? '', undefined, async () => {
          const r = await inferObserve(this.deps(ctx), op, p.instruction);
          const metadata = this.meta(r.usage, r.confidence, op.model);
          await this.addUsage('observe', r.usage, metadata.costUsd);
          return { data: r.data, metadata };
        });
      },
      extract: async (p: Parsed<'extract'>, ctx) => {
        if (p.schema !== undefined && (typeof p.schema !== 'object' || p.schema === null || Array.isArray(p.schema))) {
          throw new DeckhandError(ErrorCode.InvalidArgument, 'the extract schema must be a zod schema or a JSON Schema object');
        }
        const op = await this.opContext('extract', p.options, ctx);
        return this.cached<ExtractResult<unknown>>('extract', p.options, ctx, op, p.instruction ?? '', p.schema, async () => {
          const r = await inferExtract(this.deps(ctx), op, p.instruction, p.schema as Record<string, unknown> | undefined);
          const metadata = this.meta(r.usage, r.confidence, op.model);
          await this.addUsage('extract', r.usage, metadata.costUsd);
          return { data: r.data, metadata };
        });
      },
      metrics: async () => {
        await this.restored;
        return this.metricsBook.snapshot();
      },
      'flow.replay': async (p: Parsed<'flow.replay'>, ctx) => {
        const flow = p.flow ? flowFromInput(p.flow) : await this.findFlow(p.name!, ctx);
        const page = p.page ?? (await this.activePage()).id;
        const op = p.model ? await this.opContext('act', { page, model: p.model, variables: p.variables, opId: p.opId }, ctx) : null;
        return replayFlow(
          {
            port: this.port,
            page,
            vars: normalizeVariables(p.variables),
            heal: op ? this.healer(op, ctx) : null,
            extract: op
              ? async (step) => {
                  const r = await inferExtract(this.deps(ctx), { ...op, deadline: Date.now() + op.timeoutMs }, step.description, step.schema);
                  await this.addUsage('extract', r.usage);
                  return { data: r.data, usage: r.usage };
                }
              : null,
            stepTimeoutMs: p.stepTimeout,
            signal: ctx.signal,
            log: (message, data) => ctx.log({ level: 'info', message, data: { ...data, opId: p.opId } }),
          },
          flow,
        );
      },
      'flow.list': async () => (await this.flows.list()).map(summarizeFlow),
      // The caller's own store (its tenant's) is reached through the cache calls made back to it.
      'flow.get': async (p: Parsed<'flow.get'>, ctx) => {
        if (p.from === 'anywhere') return this.findFlow(p.name, ctx);
        if (p.from === 'store') return (await getStoredFlow(callerFlowStore(ctx), p.name)) ?? this.noFlow(p.name, CALLER_STORE);
        return (await this.flows.get(p.name.trim())) ?? this.noFlow(p.name, EXTENSION_FLOWS);
      },
      'flow.save': async (p: Parsed<'flow.save'>, ctx) => {
        const flow = flowFromInput(p.flow);
        if (p.to === 'store') await putStoredFlow(callerFlowStore(ctx), flow);
        else await this.flows.put(flow);
        return summarizeFlow(flow);
      },
      'flow.rename': async (p: Parsed<'flow.rename'>, ctx) => {
        const [from, to] = [p.from.trim(), p.to.trim()];
        if (p.where === 'store') {
          // In a store, a flow already under `to` is replaced.
          const store = callerFlowStore(ctx);
          const flow = { ...((await getStoredFlow(store, from)) ?? this.noFlow(from, CALLER_STORE)), name: to };
          await putStoredFlow(store, flow);
          if (from !== to) await store.invalidate(await flowKey(from));
          return summarizeFlow(flow);
        }
        const r = await this.flows.rename(from, to);
        if (r === 'missing') this.noFlow(from, EXTENSION_FLOWS);
        if (r === 'taken') throw new DeckhandError(ErrorCode.AlreadyInUse, `a flow named "${to}" is already saved; delete or rename it first`);
        return summarizeFlow((await this.flows.get(to))!);
      },
      'flow.delete': async (p: Parsed<'flow.delete'>, ctx) => ({
        deleted: p.from === 'store' ? await deleteStoredFlow(callerFlowStore(ctx), p.name) : await this.flows.delete(p.name.trim()),
      }),
    };
  }

  async call<M extends MethodName>(method: M, params: Params<M>, ctx: CallContext = NO_CALLER): Promise<Result<M>> {
    const def = Methods[method];
    if (!def) throw new DeckhandError(ErrorCode.ProtocolError, `unknown method '${String(method)}'`);
    const parsed = def.params.safeParse(params ?? {});
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, `${method} parameters`));
    const opId = method === 'op.cancel' ? undefined : opIdOf(method, parsed.data);
    const onceKey = idempotencyKeyOf(method, parsed.data);
    const asked = onceKey === undefined ? '' : askedOf(method, parsed.data);
    const prior = onceKey === undefined ? undefined : this.once.find(onceKey, asked);
    if (prior) {
      // A retry: it waits for the first run's outcome, and its own opId cancels that run.
      if (opId !== undefined && this.cancelledEarly.delete(opId)) {
        throw new DeckhandError(ErrorCode.Cancelled, 'the operation was cancelled by its caller', { opId });
      }
      if (opId !== undefined) this.cancels.set(opId, prior.control);
      try {
        return (await raceCancel(prior.outcome, ctx.signal)) as Result<M>;
      } finally {
        if (opId !== undefined && this.cancels.get(opId) === prior.control) this.cancels.delete(opId);
      }
    }
    // The call's own signal: its caller going away, op.cancel with its opId, or its deadline.
    const control = new AbortController();
    const outcome = this.run(method, parsed.data, ctx, control, opId, onceKey === undefined);
    if (onceKey !== undefined) this.once.keep(onceKey, asked, outcome, control);
    return outcome;
  }

  /** One call, under `control`: `stopWithCaller` stops it when its caller goes away. */
  private async run<M extends MethodName>(
    method: M,
    params: Parsed<M>,
    ctx: CallContext,
    control: AbortController,
    opId: string | undefined,
    stopWithCaller: boolean,
  ): Promise<Result<M>> {
    if (opId !== undefined) {
      if (this.cancelledEarly.delete(opId)) control.abort(new DeckhandError(ErrorCode.Cancelled, 'the operation was cancelled by its caller', { opId }));
      else this.cancels.set(opId, control);
    }
    const caller = ctx.signal;
    const callerGone = () => {
      const r: unknown = caller?.reason;
      // A batch's own cancellation passes through as it is; a transport's close says why it stopped.
      const why = `${method} was stopped: its caller is gone${r instanceof DeckhandError ? ` (${r.message})` : ''}`;
      control.abort(r instanceof DeckhandError && r.code === ErrorCode.Cancelled ? r : new DeckhandError(ErrorCode.Cancelled, why));
    };
    if (stopWithCaller && caller?.aborted) callerGone();
    else if (stopWithCaller) caller?.addEventListener('abort', callerGone, { once: true });
    // Approval: the call's own policy, else the one of the batch it runs in; its actions find it by the signal.
    const gate = this.gateFor(method, params, opId, ctx) ?? ctx.gate;
    bindGate(control.signal, gate);
    try {
      throwIfCancelled(control.signal);
      const inner = { ...ctx, signal: control.signal, ...(gate ? { gate } : {}) };
      // Paused by the person in the side panel: wait first; the wait counts towards the call's deadline.
      const paused = ctx.pause && GATED_METHODS.has(method) ? ctx.pause : null;
      const run = paused
        ? paused
            .wait(method, pauseBudget(method, params), control.signal, () => pausedLog(ctx, method, opId))
            .then((resumed) => {
              if (resumed) resumedLog(ctx, method, opId, resumed);
              return this.handlers[method](params, inner);
            })
        : this.handlers[method](params, inner);
      const own = operationDeadline(method, params);
      // A call that was cancelled answers at once; the work winds down behind it.
      if (own === null) return (await raceCancel(run, control.signal)) as Result<M>;
      // A moment past the operation's own deadline, so that its own, more telling error
      // (ELEMENT_NOT_FOUND after waiting, say) wins whenever the page still answers.
      const limit = own + DEADLINE_MARGIN_MS;
      // The whole operation answers by its deadline, even when a step inside it hangs (a hung
      // renderer never answers its content script); the running work is told to stop.
      try {
        // Time spent waiting on a person's approval does not count against the deadline.
        return (await raceCancel(withDeadline(run, limit, method, own, gate ? () => gate.heldMs() : undefined), control.signal)) as Result<M>;
      } catch (e) {
        if (e instanceof DeckhandError && e.code === ErrorCode.Timeout && !control.signal.aborted) control.abort(e);
        throw e;
      }
    } finally {
      caller?.removeEventListener('abort', callerGone);
      if (opId !== undefined && this.cancels.get(opId) === control) this.cancels.delete(opId);
    }
  }

  /** The Gate of a call that asked for approval (act, agent.run, batch.run); none for others. */
  private gateFor(method: MethodName, p: unknown, opId: string | undefined, ctx: CallContext): Gate | undefined {
    const q = p as {
      approval?: ApprovalPolicy;
      options?: { approval?: ApprovalPolicy; variables?: Variables };
      variables?: Variables;
      input?: unknown;
      instruction?: string;
    };
    const own = method === 'agent.run' || method === 'batch.run' || method === 'page.callTool';
    const policy = method === 'act' ? q.options?.approval : own ? q.approval : undefined;
    if (!policy) return undefined;
    const vars = normalizeVariables(method === 'act' ? q.options?.variables : q.variables);
    const instruction = typeof q.input === 'string' ? q.input : q.instruction;
    // With nobody to ask, a step that needs approval is refused at once, saying so.
    const ask: ApprovalAsker = ctx.askApproval ?? (async () => null);
    return new Gate(policy, ask, vars, opId, instruction);
  }

  private deps(ctx: CallContext): InferenceDeps {
    return { port: this.port, invokeCallback: ctx.invokeCallback, log: ctx.log, providers: this.providers };
  }

  /** A result's metadata. `model`: the model the call used, whose price gives `costUsd`; without one, nothing was spent. */
  private meta(usage: Usage, confidence?: number, model?: ResolvedModel): ResultMetadata {
    const costUsd = model ? costOf(usage, model) : 0;
    return {
      actionId: crypto.randomUUID(),
      cache: { status: 'DISABLED' },
      usage,
      ...(confidence !== undefined ? { confidence } : {}),
      ...(costUsd !== undefined ? { costUsd } : {}),
    };
  }

  private async addUsage(op: 'act' | 'observe' | 'extract', usage: Usage, costUsd?: number): Promise<void> {
    await this.restored;
    this.metricsBook.add(op, usage, costUsd);
    await this.state?.save('metrics', this.metricsBook.snapshot()).catch(() => undefined);
  }

  /** A cache hit: what it saved counts in metrics. */
  private async addSaved(op: CachedOp, info: CacheInfo): Promise<void> {
    await this.restored;
    this.metricsBook.addSaved(op, info.tokensSaved?.totalTokens ?? 0, info.costSavedUsd);
    await this.state?.save('metrics', this.metricsBook.snapshot()).catch(() => undefined);
  }

  private async opContext(op: string, options: OperationOptions | undefined, ctx: CallContext): Promise<OpContext> {
    const o = options ?? {};
    if (!o.model) this.noModel(op);
    const timeoutMs = o.timeout ?? DEFAULTS.modelOperationTimeoutMs;
    const page = o.page ?? (await this.activePage()).id;
    ctx.log({ level: 'info', message: `${op} on page ${page} with ${o.model!.name}`, data: { opId: o.opId } });
    return {
      signal: ctx.signal,
      page,
      model: o.model!,
      timeoutMs,
      deadline: Date.now() + timeoutMs,
      systemPrompt: o.systemPrompt,
      domSettleTimeoutMs: o.domSettleTimeoutMs ?? DEFAULTS.domSettleTimeoutMs,
      locator: o.locator,
      ignoreLocators: o.ignoreLocators,
      variables: o.variables,
      screenshot: o.screenshot,
      opId: o.opId,
      iframes: o.iframes,
    };
  }

  /**
   * act/observe/extract through the result cache (memory/cache.ts). Keys name the call, not the
   * page's content; what decides whether a stored result still applies is checked on the hit:
   * act replays its stored Actions only on the elements they were recorded on (memory/targets.ts),
   * healing a moved one; observe's elements must all still be there, as many of each as there
   * were; extract's data is served while the part of the page it came from reads the same.
   * A locator or ignoreLocators skips the lookup.
   */
  private cached<R extends { metadata: ResultMetadata }>(
    kind: CachedOp,
    options: OperationOptions | undefined,
    ctx: CallContext,
    op: OpContext,
    instruction: string,
    schema: unknown,
    compute: () => Promise<R>,
  ): Promise<R> {
    const setting = options?.locator || options?.ignoreLocators ? undefined : options?.cache;
    const store = (setting?.store === 'extension' ? this.cacheStore : ctx.cache) ?? null;
    const keyParts = async (): Promise<Omit<KeyParts, 'op'>> => keyPartsOf(instruction, (await this.port.pageInfo(op.page)).url, op, schema);
    return runCached<R>(store, setting, {
      op: kind,
      keyParts,
      compute,
      replay: async (entry) => {
        if (kind === 'extract') {
          const stored = StoredExtractSchema.safeParse(entry.result);
          if (!stored.success) throw new ContentChanged('the stored extraction is in an older form');
          if ((await readRegion(this.port, op.page, stored.data.data)).digest !== stored.data.region) {
            throw new ContentChanged('the part of the page the data came from has changed');
          }
          return { result: { data: stored.data.data, metadata: this.meta({ ...ZERO_USAGE }) } as unknown as R };
        }
        if (kind === 'observe') {
          const data = await checkObserved(this.port, op.page, entry.result as Action[], op.signal);
          return { result: { data, metadata: this.meta({ ...ZERO_USAGE }) } as unknown as R };
        }
        const healer = setting!.selfHeal ? this.healer(op, ctx) : null;
        const r = await replayActions(this.port, op.page, entry.result as Action[], normalizeVariables(op.variables), healer, undefined, op.signal, {
          healChangedTargets: false,
          firstWaitMs: FIRST_STEP_WAIT_MS,
        });
        const n = r.actions.length;
        const result: ActResult = {
          data: {
            success: true,
            message: `replayed ${n} cached action${n === 1 ? '' : 's'}${r.healed ? ' (self-healed)' : ''}`,
            actionDescription: clip(instruction, 1000),
            actions: r.actions,
          },
          metadata: this.meta(r.usage, undefined, op.model),
        };
        return { result: result as unknown as R, ...(r.healed ? { healed: r.actions } : {}) };
      },
      cacheable: async (r) => {
        if (kind === 'extract') {
          const data = (r as unknown as ExtractResult<unknown>).data;
          return { v: 2, data, region: (await readRegion(this.port, op.page, data)).digest } satisfies StoredExtract;
        }
        if (kind === 'observe') return withPageCounts(this.port, op.page, (r as unknown as ObserveResult).data);
        const act = r as unknown as ActResult;
        return act.data.success && act.data.actions.length ? act.data.actions : undefined;
      },
      usageOf: (r) => r.metadata.usage,
      withCache: (r, cache: CacheInfo) => ({ ...r, metadata: { ...r.metadata, cache } }),
      costOf: (u) => costOf(u, op.model),
      onHit: (info) => this.addSaved(kind, info),
    });
  }

  /**
   * Store what the person did by hand as the cached result of an act that failed (Take over in
   * the side panel): under the key that same act computes on that page, in the store that act
   * would read (the caller's, or the extension's for `cache.store: 'extension'`), so the next
   * identical call replays the person's steps with no model.
   */
  async storeFix(p: Parsed<'act'>, startUrl: string, ctx: CallContext, actions: Action[]): Promise<{ store: 'caller' | 'extension'; key: string }> {
    if (typeof p.input !== 'string') {
      throw new DeckhandError(ErrorCode.InvalidArgument, 'only an act with an instruction can take a fix: an Action is replayed as it is');
    }
    if (!actions.length) throw new DeckhandError(ErrorCode.InvalidArgument, 'there are no recorded actions to store');
    for (const a of actions) validateAction(a.method, a.arguments ?? []);
    const o = p.options ?? {};
    if (o.locator || o.ignoreLocators) {
      const why = 'this act was scoped with locator or ignoreLocators, which never use the cache: a fix stored for it would never be read';
      throw new DeckhandError(ErrorCode.InvalidArgument, why);
    }
    const extension = o.cache && o.cache.store === 'extension';
    const store = extension ? this.cacheStore : ctx.cache;
    if (!store) {
      const why = extension ? 'the extension has no result cache here' : 'the program that ran this act has no result cache to store the fix in';
      throw new DeckhandError(ErrorCode.Unavailable, why);
    }
    const { key, baseKey } = await cacheKeys({ op: 'act', ...keyPartsOf(p.input, startUrl, o) });
    await store.record({ key, baseKey, op: 'act', result: actions, usage: { ...ZERO_USAGE }, replace: true });
    return { store: extension ? 'extension' : 'caller', key };
  }

  /** Re-infer one stored step with the operation's model; a successful heal counts towards metrics. */
  private healer(op: OpContext, ctx: CallContext, model = op.model): Healer {
    return async (instruction) => {
      ctx.log({ level: 'info', message: `cache: self-healing with "${instruction}"`, data: { opId: op.opId } });
      const h = await inferAct(this.deps(ctx), { ...op, model }, instruction);
      if (h.result.data.success) await this.addUsage('act', h.usage, costOf(h.usage, model));
      return { success: h.result.data.success, message: h.result.data.message, actions: h.result.data.actions, usage: h.usage };
    };
  }

  /** An agent run kept as a named flow: in the caller's own store when it has one, else in the extension. */
  private async saveAgentFlow(name: string, instruction: string, startUrl: string, rec: AgentRecording, ctx: CallContext): Promise<SavedFlow> {
    let n = 0;
    const finalUrl = rec.steps.length ? (await this.activePage()).url : startUrl;
    const flow: Flow = {
      version: 1,
      name: name.trim(),
      source: 'agent',
      savedAt: new Date().toISOString(),
      recording: { version: 1, title: clip(instruction, 200), startUrl, steps: qaStepsFromAgent(rec.steps, () => `s${++n}`, finalUrl) },
    };
    if (ctx.cache) {
      const stored = await putStoredFlow(ctx.cache, flow).then(
        () => true,
        () => false,
      );
      if (stored) return { ...summarizeFlow(flow), savedIn: 'store' };
    }
    await this.flows.put(flow);
    return { ...summarizeFlow(flow), savedIn: 'extension' };
  }

  /** A flow by name: the caller's own store (its tenant's) first, then the extension's. */
  private async findFlow(name: string, ctx: CallContext): Promise<Flow> {
    // A client with no store of its own (or one that does not answer) has no flows of its own.
    const mine = ctx.cache ? await getStoredFlow(ctx.cache, name).catch(() => null) : null;
    return mine ?? (await this.flows.get(name.trim())) ?? this.noFlow(name);
  }

  private noFlow(name: string, where = "this client's store or the extension (the side panel's flows)"): never {
    throw new DeckhandError(ErrorCode.NotFound, `no flow named "${name.trim()}" is saved in ${where}`, { flow: name.trim() });
  }

  private async activePage(): Promise<PageInfo> {
    const p = await this.port.activePage();
    if (p) return p;
    return this.port.createPage();
  }

  private noModel(op: string): never {
    throw new DeckhandError(
      ErrorCode.NoModelConfigured,
      `${op} needs a model, and none is configured: pass model (e.g. 'openai/gpt-4.1-mini' with OPENAI_API_KEY set) to Deckhand.create or to the call` +
        (op === 'act' ? ', or pass an Action ({ selector, method, arguments }) for a deterministic action' : ''),
    );
  }

  private async act(p: Parsed<'act'>, ctx: CallContext): Promise<ActResult> {
    if (typeof p.input === 'string') {
      if (!p.input.trim()) throw new DeckhandError(ErrorCode.InvalidArgument, 'act needs a non-empty instruction or an Action');
      const op = await this.opContext('act', p.options, ctx);
      const instruction = p.input;
      // "Enter today's date" is another value tomorrow: what was done today is no answer to replay then.
      const options = mentionsNamedDate(instruction) && p.options?.cache ? { ...p.options, cache: undefined } : p.options;
      return this.cached<ActResult>('act', options, ctx, op, instruction, undefined, async () => {
        const r = await inferAct(this.deps(ctx), op, instruction);
        const metadata = this.meta(r.usage, r.confidence, op.model);
        // Only a successful operation counts towards metrics.
        if (r.result.data.success) await this.addUsage('act', r.usage, metadata.costUsd);
        return { ...r.result, metadata };
      });
    }
    const parsed = ActionSchema.safeParse(p.input);
    if (!parsed.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(parsed.error, 'Action'));
    const action = parsed.data;
    const opts = p.options ?? {};
    const args = action.arguments ?? [];
    const method = validateAction(action.method, args); // before any page is looked up or opened
    const page = opts.page ?? (await this.activePage()).id;
    const timeout = opts.timeout ?? DEFAULTS.actionTimeoutMs;
    // An observed action keeps %name% placeholders; their values are filled in only as it runs, and
    // the result reports the placeholders, never the values.
    const filled = substituteArgs(method, args, normalizeVariables(opts.variables));
    const done = await performAction(this.port, page, { selector: action.selector, frameId: opts.frameId }, method, filled, timeout, ctx.signal);
    return {
      data: {
        success: true,
        message: method === 'callTool' ? toolCallSaid(done.element, done.output, done.navigated) : `${method} performed on ${done.element}`,
        actionDescription: action.description,
        actions: [{ ...action, method, arguments: args }],
      },
      metadata: this.meta({ ...ZERO_USAGE }),
    };
  }
}
