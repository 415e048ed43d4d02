/**
 * Take over: the person at the browser pauses programs' runs from the side panel. While paused,
 * each new operation of a program (one that acts on or reads the page) waits at this gate until
 * Resume, or fails with PAUSED when its own timeout runs out first; a running agent waits
 * between its steps. The panel's own calls never pass here (the worker gives the gate only to
 * other callers' calls).
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import { isModelOperation, OPERATIONS, paramAt, type MethodName } from '../../protocol/methods';
import { DEFAULTS, MAX_TIMEOUT_MS } from '../../protocol/schemas';
import type { PausePort, Resumed } from '../ports';

/** The methods that wait while paused: everything that acts on or reads the page. Not ping, metrics, op.cancel, flow listing. */
export const GATED_METHODS: ReadonlySet<MethodName> = new Set<MethodName>([
  'act',
  'act.replay',
  'observe',
  'extract',
  'agent.run',
  'batch.run',
  'flow.replay',
  'page.goto',
  'page.evaluate',
  'page.press',
  'page.tools',
  'page.callTool',
  'page.screenshot',
  'page.snapshot',
  'page.selectors',
  'locator.act',
  'locator.count',
  'context.newPage',
  'page.close',
  'page.bringToFront',
]);

/**
 * How long a call may wait at the gate: its own timeout, else the default its caller's RPC
 * deadline is built on (a model operation's, else a navigation's), at most MAX_TIMEOUT_MS. The
 * wait counts towards the call's own deadline, so the caller hears PAUSED before it gives up.
 */
export function pauseBudget(method: MethodName, params: unknown): number {
  const o = OPERATIONS[method];
  const own = o?.timeout ? paramAt(params, o.timeout) : undefined;
  const p = (params ?? {}) as { timeout?: unknown; options?: { timeout?: unknown } };
  const given =
    typeof own === 'number' ? own : typeof p.timeout === 'number' ? p.timeout : typeof p.options?.timeout === 'number' ? p.options.timeout : undefined;
  if (given !== undefined) return Math.min(given, MAX_TIMEOUT_MS);
  if (o?.deadline === 'action' || (o?.deadline === 'instruction' && !isModelOperation(method, params))) return DEFAULTS.actionTimeoutMs;
  return isModelOperation(method, params) ? DEFAULTS.modelOperationTimeoutMs : DEFAULTS.navigationTimeoutMs;
}

export const RESUMED_BY_PERSON = 'the person pressed Resume';

export interface PauseState {
  paused: boolean;
  /** When the pause began (ms since epoch). */
  since?: number;
  /** Calls waiting at the gate now. */
  waiting: number;
}

export class PauseGate implements PausePort {
  private since: number | null = null;
  private readonly waiters = new Set<(reason: string) => void>();
  private readonly listeners = new Set<(s: PauseState) => void>();

  get paused(): boolean {
    return this.since !== null;
  }

  state(): PauseState {
    return { paused: this.paused, ...(this.since !== null ? { since: this.since } : {}), waiting: this.waiters.size };
  }

  /** Told of every change: paused, resumed, a call started or stopped waiting. */
  onChange(f: (s: PauseState) => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  pause(): PauseState {
    if (this.since === null) {
      this.since = Date.now();
      this.changed();
    }
    return this.state();
  }

  resume(reason = RESUMED_BY_PERSON): PauseState {
    if (this.since !== null) {
      this.since = null;
      for (const release of [...this.waiters]) release(reason);
      this.changed();
    }
    return this.state();
  }

  wait(what: string, budgetMs: number, signal?: AbortSignal, onWait?: () => void): Promise<Resumed | null> {
    if (this.since === null) return Promise.resolve(null);
    if (signal?.aborted) return Promise.reject(signal.reason);
    onWait?.();
    const t0 = Date.now();
    return new Promise<Resumed | null>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(release);
        this.changed();
      };
      const release = (reason: string) => {
        done();
        resolve({ waitedMs: Date.now() - t0, reason });
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
      };
      const timer = setTimeout(
        () => {
          done();
          reject(
            new DeckhandError(
              ErrorCode.Paused,
              `${what} waited ${budgetMs} ms and did not start: the person at the browser paused the run in Deckhand's side panel and has not pressed Resume`,
              { waitedMs: budgetMs },
            ),
          );
        },
        Math.max(0, budgetMs),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(release);
      this.changed();
    });
  }

  private changed(): void {
    const s = this.state();
    for (const f of this.listeners) {
      try {
        f(s);
      } catch {
        // A listener's trouble is never the gate's.
      }
    }
  }
}
