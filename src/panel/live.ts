/**
 * Other programs' runs as the side panel shows them: WatchEvents from the worker gathered by
 * run, with each run's steps in order, its outcome and its latest thumbnail. Components read
 * snapshots through `subscribe`/`get`, as with PanelSession.
 */
import type { WatchCaller, WatchEvent, WatchOp } from '../protocol/panel';

export interface LiveStep {
  seq: number;
  /** When the worker sent it (ms since epoch) and when this panel received it (performance.timeOrigin based). */
  at: number;
  shownAt: number;
  type?: string;
  message: string;
  reasoning?: string;
  result?: string;
  outcome: 'success' | 'failure' | 'info';
}

export interface LiveRun {
  runId: string;
  caller: WatchCaller;
  op: WatchOp;
  description: string;
  /** act: given an instruction (a failed one can take the person's fix). */
  byInstruction?: boolean;
  startedAt: number;
  status: 'running' | 'done' | 'failed';
  steps: LiveStep[];
  outcome?: NonNullable<WatchEvent['outcome']>;
  thumbnail?: string;
}

/** Kept in the panel: enough to follow what happened, never a growing heap on a long session. */
const MAX_RUNS = 30;
const MAX_STEPS = 300;

/** Who drives, as a person reads it: "Node client", "HTTP service · session 1a2b…", "local client my-app (bridge)". */
export function describeCaller(c: WatchCaller): string {
  const kinds: Record<string, string> = { node: 'Node client', python: 'Python client', go: 'Go client', http: 'HTTP service', mcp: 'MCP server' };
  const kind = c.info?.kind;
  let who = kind ? (kinds[kind] ?? kind) : c.transport === 'bridge' ? 'local client' : 'a program over CDP';
  if (c.transport === 'bridge' && c.bridgeClient) who += ` ${c.bridgeClient}`;
  if (c.info?.name) who += ` “${c.info.name}”`;
  if (c.info?.session) who += ` · session ${c.info.session}`;
  return c.transport === 'bridge' ? `${who} (bridge)` : who;
}

export class LiveRuns {
  private runs: LiveRun[] = [];
  private listeners = new Set<() => void>();

  subscribe = (f: () => void): (() => void) => {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  };
  get = (): LiveRun[] => this.runs;

  clear(): void {
    this.runs = this.runs.filter((r) => r.status === 'running');
    this.changed();
  }

  add(e: WatchEvent): void {
    let run = this.runs.find((r) => r.runId === e.runId && r.caller.id === e.caller.id);
    if (!run) {
      // A run whose start this panel missed (it opened mid-run) still shows, from what arrives.
      run = {
        runId: e.runId,
        caller: e.caller,
        op: e.op,
        description: e.description,
        ...(e.byInstruction !== undefined ? { byInstruction: e.byInstruction } : {}),
        startedAt: e.at,
        status: 'running',
        steps: [],
      };
      this.runs = [...this.runs, run].slice(-MAX_RUNS);
    }
    const next: LiveRun = { ...run, caller: e.caller };
    if (e.phase === 'step' && e.step) {
      const step: LiveStep = { seq: e.seq, at: e.at, shownAt: performance.timeOrigin + performance.now(), ...e.step };
      // In order of the worker's sequence, whatever order they arrive in.
      next.steps = [...run.steps, step].sort((a, b) => a.seq - b.seq).slice(-MAX_STEPS);
    } else if (e.phase === 'thumbnail' && e.thumbnail) {
      next.thumbnail = e.thumbnail;
    } else if (e.phase === 'finished' && e.outcome) {
      next.outcome = e.outcome;
      next.status = e.outcome.success ? 'done' : 'failed';
    }
    this.runs = this.runs.map((r) => (r === run ? next : r));
    this.changed();
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }
}
