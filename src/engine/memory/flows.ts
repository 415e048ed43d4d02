/**
 * Replaying a named flow (protocol/flows.ts): its recorded steps, in order, on one page, with
 * no model. Act steps go through the one replay of stored Actions (replay.ts), which checks
 * each step's element is still the one recorded. A step that no longer applies is re-found
 * with the model when the caller gave one; otherwise the replay stops with a typed error
 * naming the step (its number, id and description in `data.step`).
 */
import { DeckhandError, ErrorCode, isDeckhandError } from '../../protocol/errors';
import type { Flow, FlowReplayResult } from '../../protocol/flows';
import type { QaStep } from '../../protocol/recording';
import { addUsage, MAX_TIMEOUT_MS, ZERO_USAGE, type Usage } from '../../protocol/schemas';
import { substitute } from '../../protocol/variables';
import { performAction } from '../core/actions';
import { throwIfCancelled } from '../core/cancel';
import { focusedSelector } from '../core/inference';
import { evaluate, goto } from '../core/pages';
import type { BrowserPort, CacheStorePort, CallContext, FlowStorePort } from '../ports';
import { replayActions, ReplayFailed, REPLAY_STEP_TIMEOUT_MS, type Healer } from './replay';

export interface FlowRun {
  port: BrowserPort;
  page: number;
  vars: Record<string, { value: string }>;
  /** Re-finds a step's element with the model; null: no model was given. */
  heal: Healer | null;
  /** Runs an extract step with the model; null: no model was given. */
  extract: ((step: Extract<QaStep, { kind: 'extract' }>) => Promise<{ data: unknown; usage: Usage }>) | null;
  stepTimeoutMs?: number;
  signal?: AbortSignal;
  log: (message: string, data?: Record<string, unknown>) => void;
}

/** The saved flows a replay by name may come from, the caller's store first. */
export interface FlowSource {
  find(name: string): Promise<Flow | null>;
}

const NO_STORE =
  'this client has no cache store to keep flows in: create it with a cache store (or an API key and URL), ' +
  "or keep the flow in the extension (to: 'extension')";

/**
 * The caller's own cache store, as its flows are kept there: the cache calls made back to it.
 * A caller with none (it answers that it has no cache store) gets INVALID_ARGUMENT saying so.
 */
export function callerFlowStore(ctx: CallContext): CacheStorePort {
  const port = ctx.cache;
  if (!port) throw new DeckhandError(ErrorCode.InvalidArgument, NO_STORE);
  const asked = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      if (isDeckhandError(e) && e.code === ErrorCode.InvalidArgument && /no cache store/.test(e.message)) {
        throw new DeckhandError(ErrorCode.InvalidArgument, NO_STORE);
      }
      throw e;
    }
  };
  return {
    lookup: (key, baseKey) => asked(() => port.lookup(key, baseKey)),
    record: (req) => asked(() => port.record(req)),
    invalidate: (key) => asked(() => port.invalidate(key)),
  };
}

const sleepFor = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

export async function replayFlow(run: FlowRun, flow: Flow): Promise<FlowReplayResult> {
  const { port, page, vars, signal } = run;
  const stepTimeout = run.stepTimeoutMs ?? REPLAY_STEP_TIMEOUT_MS;
  const rec = flow.recording;
  let usage: Usage = { ...ZERO_USAGE };
  const steps: FlowReplayResult['steps'] = [];
  await goto(port, page, rec.startUrl, {}, [], signal);
  run.log(`flow "${flow.name}": opened ${rec.startUrl}`);
  for (const [i, step] of rec.steps.entries()) {
    throwIfCancelled(signal);
    const where = { index: i + 1, id: step.id, description: step.description };
    const t0 = Date.now();
    let healed = false;
    let data: unknown;
    try {
      switch (step.kind) {
        case 'goto':
          await goto(port, page, step.url, {}, [], signal);
          break;
        case 'act': {
          const r = await replayActions(port, page, step.actions, vars, run.heal, stepTimeout, signal);
          usage = addUsage(usage, r.usage);
          healed = r.healed;
          break;
        }
        case 'press':
          await performAction(port, page, { selector: await focusedSelector(port, page) }, 'press', substitute([step.keys], vars), stepTimeout, signal);
          break;
        case 'back':
          await evaluate(port, page, 'history.back()', false, undefined, stepTimeout);
          break;
        case 'wait':
          await sleepFor(Math.min(step.ms, MAX_TIMEOUT_MS), signal);
          break;
        case 'extract': {
          if (!run.extract) {
            const why = 'an extract step reads the page with a model, and this replay was given none (pass model to replay)';
            throw new DeckhandError(ErrorCode.NoModelConfigured, why);
          }
          const r = await run.extract(step);
          usage = addUsage(usage, r.usage);
          data = r.data;
          break;
        }
      }
    } catch (e) {
      const said = `step ${where.index} of flow "${flow.name}" ("${step.description}")`;
      if (e instanceof ReplayFailed) {
        const why = `${said} no longer applies: ${e.message}${run.heal ? '' : '; pass a model to replay to re-find it'}`;
        throw new DeckhandError(ErrorCode.ActionFailed, why, { step: where });
      }
      if (isDeckhandError(e)) throw new DeckhandError(e.code, `${said}: ${e.message}`, { ...(e.data ?? {}), step: where });
      throw e;
    }
    steps.push({ id: step.id, kind: step.kind, description: step.description, status: healed ? 'healed' : 'done', ...(data !== undefined ? { data } : {}) });
    const how = healed ? 'healed' : 'done';
    run.log(`flow "${flow.name}": step ${where.index}/${rec.steps.length} ${how}: ${step.description} (${Date.now() - t0} ms)`, { step: where });
  }
  return { name: flow.name, steps, url: (await port.pageInfo(page)).url, usage };
}

/** Flows kept in memory: the engine's store when the extension gives none (unit tests, fakes). */
export class MemoryFlowStore implements FlowStorePort {
  private readonly flows = new Map<string, Flow>();
  async list(): Promise<Flow[]> {
    return [...this.flows.values()].sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  }
  async get(name: string): Promise<Flow | null> {
    return this.flows.get(name) ?? null;
  }
  async put(flow: Flow): Promise<void> {
    this.flows.set(flow.name, flow);
  }
  async rename(from: string, to: string): Promise<'renamed' | 'missing' | 'taken'> {
    const f = this.flows.get(from);
    if (!f) return 'missing';
    if (from === to) return 'renamed';
    if (this.flows.has(to)) return 'taken';
    this.flows.delete(from);
    this.flows.set(to, { ...f, name: to });
    return 'renamed';
  }
  async delete(name: string): Promise<boolean> {
    return this.flows.delete(name);
  }
}
