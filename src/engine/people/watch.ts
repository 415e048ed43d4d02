/**
 * Watching other callers' runs from the side panel: turns one call (its params, its log lines,
 * its end) into WatchEvents, with every variable's value shown as its %name%, and takes small
 * thumbnails of the page through the port. The worker makes one Watch and asks it for a run
 * only while a panel is connected: with no panel there is no Watch work and no screenshot.
 */
import { DeckhandError } from '../../protocol/errors';
import { OPERATIONS, paramAt, type MethodName } from '../../protocol/methods';
import type { WatchCaller, WatchEvent, WatchOp } from '../../protocol/panel';
import { spanOf } from '../../protocol/log-spans';
import { maskValues, normalizeVariables, type Variables } from '../../protocol/variables';
import type { BrowserPort, LogEvent } from '../ports';

/** The methods a panel watches, by the name the panel shows. */
const WATCHED: Partial<Record<MethodName, WatchOp>> = {
  act: 'act',
  'act.replay': 'act.replay',
  observe: 'observe',
  extract: 'extract',
  'agent.run': 'agent',
  'batch.run': 'batch',
  'flow.replay': 'flow',
};

/** 320 px wide at quality 50: a few kB, enough to recognise the page, too small to read much. */
export const THUMBNAIL = { width: 320, quality: 50 };

export interface WatchStats {
  /** Thumbnails taken since the worker started (tests check that none are taken with no panel open). */
  thumbnails: number;
  /** Thumbnail requests dropped because one was in flight and a newer one replaced them. */
  dropped: number;
}

type Params = Record<string, unknown>;

export class Watch {
  readonly stats: WatchStats = { thumbnails: 0, dropped: 0 };
  private shooting = false;
  /** The newest request made while one was in flight: taken next; any older one is dropped. */
  private next: (() => Promise<void>) | null = null;
  private runs = 0;

  constructor(
    private readonly port: BrowserPort,
    private readonly send: (e: WatchEvent) => void,
  ) {}

  /** A watcher for one call, or null for a method the panel does not show. */
  begin(method: string, params: unknown, caller: WatchCaller): WatchRun | null {
    const op = WATCHED[method as MethodName];
    if (!op) return null;
    const p = (params ?? {}) as Params;
    const decl = OPERATIONS[method as MethodName];
    const opId = decl ? paramAt(p, decl.opId) : undefined;
    const runId = typeof opId === 'string' ? opId : `run-${Date.now().toString(36)}-${(++this.runs).toString(36)}`;
    return new WatchRun(this, op, p, caller, runId);
  }

  /** @internal Emit one event (never throws: a panel's trouble is never the run's). */
  emit(e: WatchEvent): void {
    try {
      this.send(e);
    } catch {
      // A panel that went away between the check and the send.
    }
  }

  /**
   * @internal A thumbnail of `page` (the active page when not given), hiding `hide`, sent through
   * `deliver`. At most one in flight; a request made meanwhile waits as the only next one, and
   * a newer request replaces it (so the picture shown is the latest, and none pile up).
   */
  thumbnail(page: number | undefined, hide: string[], deliver: (dataUrl: string) => void): void {
    const take = this.port.thumbnail;
    if (!take) return;
    const job = async () => {
      const id = page ?? (await this.port.activePage())?.id;
      if (id === undefined) return;
      const data = await take.call(this.port, id, { ...THUMBNAIL, hide });
      this.stats.thumbnails++;
      deliver(data);
    };
    if (this.shooting) {
      if (this.next) this.stats.dropped++;
      this.next = job;
      return;
    }
    void this.run(job);
  }

  private async run(job: () => Promise<void>): Promise<void> {
    this.shooting = true;
    try {
      await job().catch(() => undefined); // a tab that closed or cannot be captured: no picture
    } finally {
      this.shooting = false;
      const next = this.next;
      this.next = null;
      if (next) void this.run(next);
    }
  }
}

/** One call as the panel sees it. */
export class WatchRun {
  private seq = 0;
  private readonly started = Date.now();
  private readonly vars: Record<string, { value: string }>;
  private readonly page: number | undefined;
  readonly description: string;
  private readonly byInstruction: boolean | undefined;

  constructor(
    private readonly watch: Watch,
    private readonly op: WatchOp,
    p: Params,
    private readonly caller: WatchCaller,
    readonly runId: string,
  ) {
    const options = (p.options ?? {}) as Params;
    this.vars = normalizeVariables((options.variables ?? p.variables) as Variables | undefined);
    const page = p.page ?? options.page;
    this.page = typeof page === 'number' ? page : undefined;
    this.description = this.mask(describe(op, p));
    this.byInstruction = op === 'act' ? typeof p.input === 'string' : undefined;
    this.event('started', {});
  }

  /** Values shown as their %name%; any text going to the panel passes here. */
  private mask(text: string): string {
    return maskValues(text, this.vars);
  }

  private event(phase: WatchEvent['phase'], rest: Partial<WatchEvent>): void {
    const by = this.byInstruction === undefined ? {} : { byInstruction: this.byInstruction };
    this.watch.emit({
      runId: this.runId,
      caller: this.caller,
      op: this.op,
      description: this.description,
      ...by,
      phase,
      at: Date.now(),
      seq: this.seq++,
      ...rest,
    });
  }

  private picture(): void {
    const hide = Object.values(this.vars)
      .map((v) => v.value)
      .filter((v) => v.length >= 2);
    this.watch.thumbnail(this.page, hide, (thumbnail) => this.event('thumbnail', { thumbnail }));
  }

  /** One of the call's log lines: an agent step (with a thumbnail after it) or a line worth reading. */
  log(e: LogEvent): void {
    if (e.level === 'debug') return;
    const span = spanOf(e.data);
    if (span?.span === 'agent-step') {
      const s = span.step;
      const result = s.result === undefined ? undefined : this.mask(s.result);
      this.event('step', {
        step: {
          type: s.type,
          message: this.mask(e.message),
          ...(s.reasoning ? { reasoning: this.mask(s.reasoning) } : {}),
          ...(result !== undefined ? { result } : {}),
          outcome: result?.startsWith('error:') ? 'failure' : 'success',
        },
      });
      this.picture();
      return;
    }
    if (span?.span === 'model-call') return; // timing detail: the step that follows says what came of it
    this.event('step', { step: { message: this.mask(e.message), outcome: e.level === 'error' ? 'failure' : 'info' } });
  }

  finish(result: unknown): void {
    const r = result as { data?: { success?: boolean; message?: string }; result?: { success?: boolean; message?: string } } | null;
    const head = r?.data ?? r?.result;
    const success = head?.success ?? true;
    const message = typeof head?.message === 'string' ? this.mask(head.message) : undefined;
    this.event('finished', { outcome: { success, ...(message ? { message } : {}), durationMs: Date.now() - this.started } });
    this.picture();
  }

  fail(error: unknown): void {
    const code = error instanceof DeckhandError ? error.code : 'INTERNAL';
    const message = this.mask(error instanceof Error ? error.message : String(error));
    this.event('finished', { outcome: { success: false, error: { code, message }, durationMs: Date.now() - this.started } });
    this.picture();
  }
}

/** What the run is, as the engine prints it: the instruction, or the Action's description. */
function describe(op: WatchOp, p: Params): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (op) {
    case 'act': {
      if (typeof p.input === 'string') return p.input;
      const a = (p.input ?? {}) as Params;
      const args = Array.isArray(a.arguments) ? ` ${a.arguments.map((x) => JSON.stringify(String(x))).join(', ')}` : '';
      return `${str(a.method) || 'click'}${args} on ${str(a.description) || str(a.selector)}`;
    }
    case 'act.replay': {
      const actions = Array.isArray(p.actions) ? (p.actions as Params[]) : [];
      return (
        actions
          .map((a) => str(a.description))
          .filter(Boolean)
          .join('; ') || `${actions.length} stored actions`
      );
    }
    case 'observe':
    case 'extract':
      return str(p.instruction) || '(whole page)';
    case 'agent':
      return str(p.instruction);
    case 'batch':
      return 'a batch of operations';
    case 'flow': {
      const flow = p.flow as Params | undefined;
      return `flow "${str(p.name) || str(flow?.name)}"`;
    }
  }
}
