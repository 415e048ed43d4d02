/**
 * Take over, the worker's side: Pause and Resume (through the gate, pause.ts), the person's steps
 * recorded while paused, and the programs' recently failed act runs, so that the person's fix
 * can be stored as that act's cached result (Engine.storeFix). The worker supplies the
 * browser-facing hooks; nothing here touches chrome.*.
 */
import { DeckhandError, ErrorCode } from '../../protocol/errors';
import type { Params } from '../../protocol/methods';
import type { FixPreview, TakeoverState } from '../../protocol/panel';
import type { Action } from '../../protocol/schemas';
import type { PauseGate } from './pause';
import type { CallContext } from '../ports';

/** Failed runs kept for a fix: the latest few, for half an hour (a person fixes a step soon or not at all). */
export const KEEP_FAILED_RUNS = 20;
export const KEEP_FAILED_MS = 30 * 60_000;
/** The person's steps kept per pause: more is not a fix of one step. */
export const MAX_RECORDED = 200;
/** A step arriving this soon after the panel's own run ended is that run's input, late. */
export const OWN_RUN_TAIL_MS = 300;

export interface TakeoverHooks {
  /** Tell the panels what changed. */
  changed(s: TakeoverState): void;
  /** Start or stop recording the person's steps on the pages. */
  record(on: boolean): Promise<void>;
  /** The URL of a page (the active one when not given). */
  pageUrl(page?: number): Promise<string>;
}

export interface FailedRunRef {
  runId: string;
  callerId: string;
  /** The instruction as the panel shows it (variables masked). */
  description: string;
}

interface FailedAct extends FailedRunRef {
  params: Params<'act'>;
  url: string;
  ctx: CallContext;
  /** Aborted when the program that ran it is gone. */
  closed: AbortSignal;
  at: number;
}

export class Takeover {
  private steps: Action[] = [];
  private resumedBecause: string | undefined;
  private readonly failedRuns = new Map<string, FailedAct>();
  private ownRuns = 0;
  private ownEnded = 0;

  constructor(
    private readonly gate: PauseGate,
    private readonly engine: { storeFix(p: Params<'act'>, url: string, ctx: CallContext, actions: Action[]): Promise<{ key: string }> },
    private readonly hooks: TakeoverHooks,
    private readonly now: () => number = Date.now,
  ) {
    gate.onChange(() => this.hooks.changed(this.state()));
  }

  get paused(): boolean {
    return this.gate.paused;
  }

  /**
   * The panel's own call runs now (it is never held): the trusted input it sends is not the
   * person's, so steps are not recorded until it ends. Returns its end.
   */
  ownRun(): () => void {
    this.ownRuns++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.ownRuns--;
      this.ownEnded = this.now();
    };
  }

  state(): TakeoverState {
    const g = this.gate.state();
    return { ...g, recorded: [...this.steps], ...(this.resumedBecause && !g.paused ? { resumedBecause: this.resumedBecause } : {}) };
  }

  async pause(): Promise<TakeoverState> {
    if (!this.gate.paused) {
      this.steps = [];
      this.resumedBecause = undefined;
      this.gate.pause();
    }
    await this.hooks.record(true).catch(() => undefined);
    return this.state();
  }

  /** `reason`: why, when it is not the person's Resume (every panel closed). */
  async resume(reason?: string): Promise<TakeoverState> {
    if (this.gate.paused) {
      this.resumedBecause = reason;
      this.gate.resume(reason);
      await this.hooks.record(false).catch(() => undefined);
    }
    return this.state();
  }

  /** One step of the person's, while paused. `merge`: more typing into the field of the previous step. */
  recorded(action: Action, merge: boolean): void {
    if (!this.gate.paused || this.ownRuns > 0 || this.now() - this.ownEnded < OWN_RUN_TAIL_MS) return;
    const last = this.steps.at(-1);
    if (merge && last && last.selector === action.selector && last.method === 'fill' && action.method === 'fill') this.steps[this.steps.length - 1] = action;
    else if (this.steps.length < MAX_RECORDED) this.steps.push(action);
    this.hooks.changed(this.state());
  }

  /** Remember a program's act that failed, for a fix by hand (only an act with an instruction has a cache entry to fill). */
  async failed(ref: FailedRunRef, params: Params<'act'>, ctx: CallContext, closed: AbortSignal): Promise<void> {
    if (typeof params.input !== 'string') return;
    const url = await this.hooks.pageUrl(params.options?.page).catch(() => '');
    if (!url) return;
    this.prune();
    this.failedRuns.delete(keyOf(ref.runId, ref.callerId));
    this.failedRuns.set(keyOf(ref.runId, ref.callerId), { ...ref, params, url, ctx, closed, at: this.now() });
    while (this.failedRuns.size > KEEP_FAILED_RUNS) this.failedRuns.delete(this.failedRuns.keys().next().value!);
  }

  preview(runId: string, callerId: string): FixPreview {
    this.prune();
    const run = this.failedRuns.get(keyOf(runId, callerId));
    if (!run) {
      throw new DeckhandError(
        ErrorCode.NotFound,
        `no failed act run '${runId}' of that program is remembered: only a program's act with an instruction that failed while a side panel was open ` +
          `can take a fix (the last ${KEEP_FAILED_RUNS}, for ${KEEP_FAILED_MS / 60_000} minutes)`,
        { runId },
      );
    }
    if (!this.steps.length) {
      const why = 'nothing was recorded: press Pause, do the step yourself on the page (click, type, choose), then save it';
      throw new DeckhandError(ErrorCode.InvalidArgument, why, { runId });
    }
    const store = run.params.options?.cache && run.params.options.cache.store === 'extension' ? 'extension' : 'caller';
    return { runId, instruction: run.description, url: run.url, actions: [...this.steps], store };
  }

  async save(runId: string, callerId: string): Promise<FixPreview & { key: string }> {
    const preview = this.preview(runId, callerId);
    const run = this.failedRuns.get(keyOf(runId, callerId))!;
    if (preview.store === 'caller' && run.closed.aborted) {
      const why = 'the program that ran this act has disconnected: its cache cannot take the fix any more; run it again and save the fix while it is connected';
      throw new DeckhandError(ErrorCode.Closed, why, { runId });
    }
    const { key } = await this.engine.storeFix(run.params, run.url, run.ctx, preview.actions);
    return { ...preview, key };
  }

  private prune(): void {
    const old = this.now() - KEEP_FAILED_MS;
    for (const [k, r] of this.failedRuns) if (r.at < old) this.failedRuns.delete(k);
  }
}

const keyOf = (runId: string, callerId: string) => `${callerId}\n${runId}`;
