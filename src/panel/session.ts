/**
 * The side panel's state outside React: what runs, the live timeline of entries
 * (fed by the same step events the HTTP stream carries), the session's metrics and
 * the manual QA recording. Components read snapshots through `subscribe`/`get`.
 */
import { spanOf } from '../protocol/log-spans';
import { DeckhandError, ErrorCode, isDeckhandError } from '../protocol/errors';
import type { AgentRecording, AgentStep } from '../protocol/agent';
import { QaRecordingSchema, type QaRecording, type QaStep } from '../protocol/panel';
import { qaStepsFromAgent } from '../protocol/recording';
import { MAX_TIMEOUT_MS, type Action, type CacheInfo, type CacheRun, type Metrics, type Usage } from '../protocol/schemas';
import type { CommandClient } from '../protocol/methods';
import type { ResolvedModel } from '../protocol/model';
import type { LogLine } from './client';
import { FlowNameSchema, type Flow, type FlowReplayParams, type FlowSummary } from '../protocol/flows';

export type RunKind = 'act' | 'observe' | 'extract' | 'agent';

export interface TimelineEvent {
  at: number;
  message: string;
  step?: AgentStep;
}

export interface Entry {
  id: string;
  kind: RunKind | 'replay';
  instruction: string;
  status: 'running' | 'done' | 'failed' | 'stopped';
  startedAt: number;
  durationMs?: number;
  usage?: Usage;
  /** How the result cache served it (act, observe, extract). */
  cache?: CacheInfo;
  model?: string;
  message?: string;
  events: TimelineEvent[];
  observed?: Action[];
  data?: unknown;
  error?: { code: string; message: string };
}

export interface PanelState {
  target: { id: number; url: string; title: string } | null;
  entries: Entry[];
  running: Entry | null;
  metrics: Metrics | null;
  recording: QaRecording | null;
  /** A recorded step being replayed or re-run, for the UI to mark. */
  busyStep: string | null;
  /** The extension's saved flows, newest first (null until first read). */
  flows: FlowSummary[] | null;
}

export interface SessionDeps {
  client: CommandClient;
  onLog: (f: (line: LogLine) => void) => () => void;
  resolveModel: () => Promise<ResolvedModel>;
  /** The tab the panel works on. */
  targetTab: () => Promise<number>;
  /** Where the recording is kept, so closing the panel loses nothing (null: cleared). */
  recordingStore?: { load(): Promise<unknown>; save(recording: QaRecording | null): Promise<void> };
}

const newId = () => crypto.randomUUID().slice(0, 8);
/** The panel's instructions use the extension's own cache: a repeated instruction on an unchanged page replays. */
const PANEL_CACHE: CacheRun = { threshold: 1, selfHeal: true, store: 'extension' };
const errorOf = (e: unknown) =>
  isDeckhandError(e) ? { code: e.code, message: e.message } : { code: ErrorCode.Internal, message: e instanceof Error ? e.message : String(e) };

export class PanelSession {
  private state: PanelState = { target: null, entries: [], running: null, metrics: null, recording: null, busyStep: null, flows: null };
  private readonly listeners = new Set<() => void>();
  private opId: string | null = null;
  /** The ids of the recording's steps while the recording itself is replayed, to mark each as it runs. */
  private replaying: string[] | null = null;

  constructor(private readonly deps: SessionDeps) {
    deps.onLog((line) => {
      const opId = line.data?.opId;
      const run = this.state.running;
      if (!run || !opId || opId !== this.opId) return;
      const s = spanOf(line.data);
      const step = s?.span === 'agent-step' ? s.step : undefined;
      this.update(run.id, { events: [...run.events, { at: Date.now(), message: line.message, ...(step ? { step } : {}) }] });
      // A replayed step is done (engine/memory/flows.ts logs each with its number): mark the next one.
      const done = (line.data?.step as { index?: unknown } | undefined)?.index;
      if (this.replaying && typeof done === 'number') this.set({ busyStep: this.replaying[done] ?? null });
    });
  }

  subscribe = (f: () => void): (() => void) => {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  };
  get = (): PanelState => this.state;

  private set(patch: Partial<PanelState>): void {
    this.state = { ...this.state, ...patch };
    for (const f of this.listeners) f();
  }

  /** Every change to the recording goes through here, so the stored copy follows it. */
  private setRecording(recording: QaRecording | null): void {
    this.set({ recording });
    void this.deps.recordingStore?.save(recording).catch(() => undefined);
  }

  /** Bring back the recording a closed panel left (unless something was recorded meanwhile). */
  async restoreRecording(): Promise<void> {
    const raw = await this.deps.recordingStore?.load().catch(() => undefined);
    const parsed = QaRecordingSchema.safeParse(raw);
    if (parsed.success && !this.state.recording) this.set({ recording: parsed.data });
  }

  private update(id: string, patch: Partial<Entry>): void {
    const entries = this.state.entries.map((e) => (e.id === id ? { ...e, ...patch } : e));
    const running = this.state.running?.id === id ? (entries.find((e) => e.id === id) ?? null) : this.state.running;
    this.set({ entries, running: running && running.status === 'running' ? running : null });
  }

  async refreshTarget(): Promise<void> {
    try {
      const id = await this.deps.targetTab();
      const info = await this.deps.client.call('page.info', { page: id });
      this.set({ target: info });
    } catch {
      this.set({ target: null });
    }
  }

  async refreshMetrics(): Promise<void> {
    try {
      this.set({ metrics: await this.deps.client.call('metrics', {}) });
    } catch {
      // Metrics are informative; the next run refreshes them.
    }
  }

  /** Run one instruction on the target tab and record what it performed. */
  async run(kind: RunKind, instruction: string, schemaText?: string): Promise<void> {
    if (this.state.running) throw new DeckhandError(ErrorCode.AlreadyInUse, 'something is already running; stop it first');
    const text = instruction.trim();
    let schema: Record<string, unknown> | undefined;
    const entry: Entry = { id: newId(), kind, instruction: text, status: 'running', startedAt: Date.now(), events: [] };
    this.set({ entries: [...this.state.entries, entry], running: entry });
    try {
      if (!text && kind !== 'observe' && kind !== 'extract') {
        throw new DeckhandError(ErrorCode.InvalidArgument, `type what to ${kind === 'agent' ? 'do' : kind} first`);
      }
      if (kind === 'extract' && schemaText?.trim()) {
        try {
          schema = JSON.parse(schemaText) as Record<string, unknown>;
        } catch (e) {
          throw new DeckhandError(ErrorCode.InvalidArgument, `the JSON Schema is not valid JSON: ${(e as Error).message}`);
        }
        if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
          throw new DeckhandError(ErrorCode.InvalidArgument, 'the JSON Schema must be a JSON object');
        }
      }
      const model = await this.deps.resolveModel();
      const page = await this.deps.targetTab();
      await this.noteManualNavigation(page);
      const opId = (this.opId = newId());
      const options = { page, model, opId, cache: PANEL_CACHE };
      this.update(entry.id, { model: model.name });
      if (kind === 'act') {
        const r = await this.deps.client.call('act', { input: text, options });
        const patch: Partial<Entry> = { usage: r.metadata.usage, cache: r.metadata.cache, message: r.data.message };
        if (r.data.success && r.data.actions.length) {
          await this.record({ kind: 'act', id: newId(), description: text, actions: r.data.actions, urlAfter: await this.url(page) });
        }
        this.finish(entry, r.data.success ? 'done' : 'failed', patch, r.data.success ? undefined : { code: 'ACT_FAILED', message: r.data.message });
      } else if (kind === 'observe') {
        const r = await this.deps.client.call('observe', { instruction: text || undefined, options });
        const message = `${r.data.length} element${r.data.length === 1 ? '' : 's'} found`;
        this.finish(entry, 'done', { usage: r.metadata.usage, cache: r.metadata.cache, observed: r.data, message });
      } else if (kind === 'extract') {
        const r = await this.deps.client.call('extract', { instruction: text || undefined, schema, options });
        const urlAfter = await this.url(page);
        await this.record({ kind: 'extract', id: newId(), description: text || 'Extract the page', ...(schema ? { schema } : {}), data: r.data, urlAfter });
        this.finish(entry, 'done', { usage: r.metadata.usage, cache: r.metadata.cache, data: r.data });
      } else {
        // Steps and their time are the worker's defaults; the panel shows the cursor.
        const r = await this.deps.client.call('agent.run', {
          instruction: text,
          model,
          executionModel: model,
          highlightCursor: true,
          page,
          opId,
          record: true,
        });
        const u = r.result.usage;
        if (r.recording) await this.recordAgent(r.recording, await this.url(page));
        const stopped = this.state.entries.find((e) => e.id === entry.id)?.status === 'stopped';
        this.finish(entry, stopped ? 'stopped' : r.result.success ? 'done' : 'failed', {
          message: r.result.message,
          ...(u
            ? {
                usage: {
                  inputTokens: u.input_tokens,
                  outputTokens: u.output_tokens,
                  reasoningTokens: u.reasoning_tokens,
                  cachedInputTokens: u.cached_input_tokens,
                  inferenceTimeMs: u.inference_time_ms,
                },
              }
            : {}),
        });
      }
    } catch (e) {
      const err = errorOf(e);
      const stopped = err.code === ErrorCode.Cancelled;
      this.finish(entry, stopped ? 'stopped' : 'failed', { message: err.message }, stopped ? undefined : err);
    } finally {
      this.opId = null;
      void this.refreshMetrics();
      void this.refreshTarget();
    }
  }

  private finish(entry: Entry, status: Entry['status'], patch: Partial<Entry>, error?: Entry['error']): void {
    this.update(entry.id, { ...patch, status, durationMs: Date.now() - entry.startedAt, ...(error ? { error } : {}) });
  }

  /** Abort what is running (the agent between steps; act/observe/extract at their next await). */
  async stop(): Promise<void> {
    const run = this.state.running;
    if (!run || !this.opId) return;
    const opId = this.opId;
    this.update(run.id, { events: [...run.events, { at: Date.now(), message: 'stop requested' }] });
    const r = await this.deps.client.call('op.cancel', { opId }).catch(() => ({ cancelled: false }));
    if (r.cancelled) this.update(run.id, { status: 'stopped', durationMs: Date.now() - run.startedAt, message: 'stopped by you' });
  }

  /** Run one action an observe found (no model), and record it. */
  async runObserved(action: Action): Promise<void> {
    if (this.state.running) return;
    const entry: Entry = { id: newId(), kind: 'act', instruction: action.description, status: 'running', startedAt: Date.now(), events: [] };
    this.set({ entries: [...this.state.entries, entry], running: entry });
    try {
      const page = await this.deps.targetTab();
      await this.noteManualNavigation(page);
      const r = await this.deps.client.call('act', { input: action, options: { page } });
      if (r.data.success) {
        await this.record({ kind: 'act', id: newId(), description: action.description, actions: r.data.actions, urlAfter: await this.url(page) });
      }
      const failed = r.data.success ? undefined : { code: 'ACT_FAILED', message: r.data.message };
      this.finish(entry, r.data.success ? 'done' : 'failed', { message: r.data.message, usage: r.metadata.usage }, failed);
    } catch (e) {
      this.finish(entry, 'failed', {}, errorOf(e));
    } finally {
      void this.refreshTarget();
    }
  }

  async highlight(selector: string | null): Promise<void> {
    const page = await this.deps.targetTab().catch(() => null);
    if (page !== null) await this.deps.client.call('page.highlight', { page, selector }).catch(() => undefined);
  }

  // --- the QA recording ---

  private async url(page: number): Promise<string> {
    return (await this.deps.client.call('page.info', { page })).url;
  }

  /** The person may have navigated by hand between runs: record that as a goto so replays start right. */
  private async noteManualNavigation(page: number): Promise<void> {
    const url = await this.url(page);
    const rec = this.state.recording;
    if (!rec) {
      this.setRecording({ version: 1, title: 'Recorded in Deckhand', startUrl: url, steps: [] });
      return;
    }
    const last = [...rec.steps].reverse().find((s) => 'urlAfter' in s && s.urlAfter) as { urlAfter: string } | undefined;
    const current = last?.urlAfter ?? rec.startUrl;
    if (current !== url) await this.record({ kind: 'goto', id: newId(), description: `Open ${url}`, url, urlAfter: url });
  }

  private async record(step: QaStep): Promise<void> {
    const rec = this.state.recording;
    if (!rec) return;
    this.setRecording({ ...rec, steps: [...rec.steps, step] });
  }

  /** Turn an agent's recording into QA steps: what it performed, not what it looked at. */
  /** An agent's run as QA steps: what it performed, not what it looked at (protocol/recording.ts). */
  private async recordAgent(r: AgentRecording, finalUrl: string): Promise<void> {
    for (const step of qaStepsFromAgent(r.steps, newId, finalUrl)) await this.record(step);
  }

  deleteStep(id: string): void {
    const rec = this.state.recording;
    if (rec) this.setRecording({ ...rec, steps: rec.steps.filter((s) => s.id !== id) });
  }

  clearRecording(): void {
    this.setRecording(null);
  }

  setTitle(title: string): void {
    const rec = this.state.recording;
    if (rec) this.setRecording({ ...rec, title });
  }

  /** Perform one recorded step with no model (a re-run of a step that is not an instruction). */
  private async perform(page: number, step: QaStep): Promise<string> {
    const c = this.deps.client;
    switch (step.kind) {
      case 'goto':
        return (await c.call('page.goto', { page, url: step.url })).url;
      case 'act': {
        // The one replay of stored Actions (engine/memory/replay.ts); the model only re-finds a moved element.
        const model = await this.deps.resolveModel().catch(() => undefined);
        await c.call('act.replay', { page, actions: step.actions, ...(model ? { model } : {}) }).catch((e: unknown) => {
          throw isDeckhandError(e) ? new DeckhandError(e.code, `"${step.description}": ${e.message}`, e.data) : e;
        });
        return this.url(page);
      }
      case 'press':
        await c.call('page.press', { page, keys: step.keys });
        return this.url(page);
      case 'back':
        await c.call('page.evaluate', { page, source: 'history.back()', isFunction: false });
        return this.url(page);
      case 'wait':
        await new Promise((r) => setTimeout(r, step.ms));
        return this.url(page);
      case 'extract': {
        const model = await this.deps.resolveModel();
        await c.call('extract', { instruction: step.description, schema: step.schema, options: { page, model } });
        return this.url(page);
      }
    }
  }

  /**
   * Replay the whole recording on the target tab, from its start URL: the engine's one flow
   * replay (flow.replay), given the recording inline. No model runs unless a step's element
   * moved (the panel's model finds it again) or the step is an extract.
   */
  async replay(): Promise<void> {
    const rec = this.state.recording;
    if (!rec || this.state.running) return;
    const name = rec.title.trim().slice(0, 120) || 'Recording';
    const flow: Flow = {
      version: 1,
      name: FlowNameSchema.safeParse(name).success ? name : 'Recording',
      source: 'panel',
      savedAt: new Date().toISOString(),
      recording: rec,
    };
    this.replaying = rec.steps.map((s) => s.id);
    this.set({ busyStep: rec.steps[0]?.id ?? null });
    await this.runReplay(`Replay ${rec.steps.length} step${rec.steps.length === 1 ? '' : 's'}`, { flow });
  }

  /** Replay a saved flow on the target tab. */
  async replayFlow(name: string): Promise<void> {
    if (this.state.running) return;
    this.replaying = null;
    await this.runReplay(`Replay flow "${name}"`, { name });
  }

  private async runReplay(label: string, what: Pick<FlowReplayParams, 'name' | 'flow'>): Promise<void> {
    const entry: Entry = { id: newId(), kind: 'replay', instruction: label, status: 'running', startedAt: Date.now(), events: [] };
    this.set({ entries: [...this.state.entries, entry], running: entry });
    try {
      const page = await this.deps.targetTab();
      const model = await this.deps.resolveModel().catch(() => undefined);
      const opId = (this.opId = newId());
      // As long as the engine allows: the person watches each step and stops it with Escape.
      const r = await this.deps.client.call('flow.replay', { ...what, page, opId, timeout: MAX_TIMEOUT_MS, ...(model ? { model } : {}) });
      const healed = r.steps.filter((s) => s.status === 'healed').length;
      this.finish(entry, 'done', { usage: r.usage, message: `replayed every step${healed ? ` (${healed} found again by the model)` : ''}` });
    } catch (e) {
      const err = errorOf(e);
      const stopped = err.code === ErrorCode.Cancelled;
      this.finish(entry, stopped ? 'stopped' : 'failed', stopped ? { message: 'stopped by you' } : {}, stopped ? undefined : err);
    } finally {
      this.opId = null;
      this.replaying = null;
      this.set({ busyStep: null });
      void this.refreshMetrics();
      void this.refreshTarget();
    }
  }

  // --- saved flows (the extension's, in IndexedDB) ---

  async refreshFlows(): Promise<void> {
    try {
      this.set({ flows: await this.deps.client.call('flow.list', {}) });
    } catch {
      // Shown as empty; the next change refreshes it.
      this.set({ flows: this.state.flows ?? [] });
    }
  }

  /** A flow name as the person typed it, or an error that says what is wrong with it. */
  private flowName(raw: string): string {
    const n = FlowNameSchema.safeParse(raw);
    if (!n.success) throw new DeckhandError(ErrorCode.InvalidArgument, n.error.issues.map((i) => i.message).join('; '));
    return n.data;
  }

  /**
   * Save the current recording as a flow named `name`. 'exists' (nothing saved) when a flow
   * of that name is already saved and `replace` is not set.
   */
  async saveFlow(rawName: string, replace = false): Promise<'saved' | 'exists'> {
    const rec = this.state.recording;
    if (!rec || !rec.steps.length) throw new DeckhandError(ErrorCode.InvalidArgument, 'there is nothing recorded to save');
    const name = this.flowName(rawName);
    const c = this.deps.client;
    if (!replace && (await c.call('flow.list', {})).some((f) => f.name === name)) return 'exists';
    await c.call('flow.save', { flow: { version: 1, name, source: 'panel', savedAt: new Date().toISOString(), recording: rec } });
    await this.refreshFlows();
    return 'saved';
  }

  async renameFlow(from: string, rawTo: string): Promise<void> {
    await this.deps.client.call('flow.rename', { from, to: this.flowName(rawTo) });
    await this.refreshFlows();
  }

  async deleteFlow(name: string): Promise<void> {
    await this.deps.client.call('flow.delete', { name });
    await this.refreshFlows();
  }

  /** A saved flow, whole (to export it). */
  getFlow(name: string): Promise<Flow> {
    return this.deps.client.call('flow.get', { name, from: 'extension' });
  }

  /** Run a recorded step's instruction again with the model and keep what it performs now. */
  async rerunStep(id: string): Promise<void> {
    const rec = this.state.recording;
    const step = rec?.steps.find((s) => s.id === id);
    if (!rec || !step || this.state.running) return;
    const entry: Entry = {
      id: newId(),
      kind: step.kind === 'extract' ? 'extract' : 'act',
      instruction: step.description,
      status: 'running',
      startedAt: Date.now(),
      events: [],
    };
    this.set({ entries: [...this.state.entries, entry], running: entry, busyStep: id });
    try {
      const page = await this.deps.targetTab();
      let replacement: QaStep = step;
      if (step.kind === 'act') {
        const model = await this.deps.resolveModel();
        const r = await this.deps.client.call('act', { input: step.description, options: { page, model } });
        if (!r.data.success || !r.data.actions.length) throw new DeckhandError(ErrorCode.ActionFailed, r.data.message);
        replacement = { ...step, actions: r.data.actions, urlAfter: await this.url(page) };
        this.finish(entry, 'done', { usage: r.metadata.usage, message: r.data.message });
      } else if (step.kind === 'extract') {
        const model = await this.deps.resolveModel();
        const r = await this.deps.client.call('extract', { instruction: step.description, schema: step.schema, options: { page, model } });
        replacement = { ...step, data: r.data, urlAfter: await this.url(page) };
        this.finish(entry, 'done', { usage: r.metadata.usage, data: r.data });
      } else {
        const url = await this.perform(page, step);
        if ('urlAfter' in step) replacement = { ...step, urlAfter: step.urlAfter ? url : '' } as QaStep;
        this.finish(entry, 'done', { message: 'ran the step again' });
      }
      const now = this.state.recording;
      if (now) this.setRecording({ ...now, steps: now.steps.map((s) => (s.id === id ? replacement : s)) });
    } catch (e) {
      this.finish(entry, 'failed', {}, errorOf(e));
    } finally {
      this.set({ busyStep: null });
      void this.refreshMetrics();
      void this.refreshTarget();
    }
  }

  clearTimeline(): void {
    if (!this.state.running) this.set({ entries: [] });
  }
}
