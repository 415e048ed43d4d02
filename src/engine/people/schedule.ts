/**
 * Scheduled flows (protocol/schedule.ts), apart from chrome.*: when a schedule fires next, what
 * one run does (the flow replayed by name in a tab of its own, with no model) and what it
 * records. Alarms, storage and notifications come in through ports (src/worker/scheduler.ts
 * gives the chrome.* ones), so this runs under unit tests as it does in the worker.
 */
import { DeckhandError, ErrorCode, isDeckhandError } from '../../protocol/errors';
import type { FlowReplayResult } from '../../protocol/flows';
import { SCHEDULE_HISTORY_LIMIT, ScheduleEverySchema, type Schedule, type ScheduleEvery, type ScheduleInfo, type ScheduleRun } from '../../protocol/schedule';
import { describeZodError } from '../../protocol/zod-errors';
import type { BrowserPort } from '../ports';

export interface ScheduleStorePort {
  list(): Promise<Schedule[]>;
  get(flow: string): Promise<Schedule | null>;
  put(schedule: Schedule): Promise<void>;
  /** The schedule and its history; whether there was a schedule. */
  delete(flow: string): Promise<boolean>;
  /** Add a run to its flow's history, keeping the newest `keep`. */
  addRun(run: ScheduleRun, keep: number): Promise<void>;
  /** Newest first. */
  history(flow: string): Promise<ScheduleRun[]>;
}

/** When an alarm fires: at `when` (ms since epoch), then every `periodInMinutes` if given. */
export interface AlarmTime {
  when: number;
  periodInMinutes?: number;
}

export interface AlarmPort {
  set(name: string, at: AlarmTime): Promise<void>;
  clear(name: string): Promise<boolean>;
  /** When it fires next; null when there is no such alarm. */
  next(name: string): Promise<number | null>;
}

export interface ScheduleDeps {
  store: ScheduleStorePort;
  alarms: AlarmPort;
  /** Tells the person a run failed (a system notification in the extension). */
  notifyFailure: (run: ScheduleRun) => Promise<void>;
  /** Replays the flow by name where it bothers no one; resolves with what it did, or throws a DeckhandError. */
  replay: (flow: string) => Promise<FlowReplayResult>;
  flowExists: (flow: string) => Promise<boolean>;
  /** A schedule or its history changed (the panels read it again). */
  changed: (flow: string) => void;
  now?: () => Date;
}

export const SCHEDULE_ALARM_PREFIX = 'deckhand-schedule:';
export const alarmName = (flow: string) => SCHEDULE_ALARM_PREFIX + flow;
export const flowOfAlarm = (name: string): string | null => (name.startsWith(SCHEDULE_ALARM_PREFIX) ? name.slice(SCHEDULE_ALARM_PREFIX.length) : null);

/** An `every` as a caller gave it, checked: INVALID_ARGUMENT naming what is wrong. */
export function checkEvery(raw: unknown): ScheduleEvery {
  const r = ScheduleEverySchema.safeParse(raw);
  if (!r.success) throw new DeckhandError(ErrorCode.InvalidArgument, describeZodError(r.error, 'schedule every'));
  return r.data;
}

/**
 * The next time the clock in the browser's time zone shows `hhmm` after `now` (ms since epoch).
 * Built from local date parts, so a day with a daylight-saving change still lands on HH:MM.
 */
export function nextDailyRun(now: Date, hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate(), h, m, 0, 0);
  if (at.getTime() <= now.getTime()) return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, h, m, 0, 0).getTime();
  return at.getTime();
}

/**
 * The alarm for a schedule. Every N minutes: a periodic alarm, first after N minutes. Daily: a
 * one-off alarm at the next HH:MM, set again each time it fires (a fixed 24 h period would slip
 * an hour at each daylight-saving change).
 */
export function alarmFor(every: ScheduleEvery, now: Date): AlarmTime {
  if ('minutes' in every) return { when: now.getTime() + every.minutes * 60_000, periodInMinutes: every.minutes };
  return { when: nextDailyRun(now, every.dailyAt) };
}

/** What the panel says of a schedule: "every 0.5 minutes", "daily at 07:30". */
export function describeEvery(every: ScheduleEvery): string {
  if ('dailyAt' in every) return `daily at ${every.dailyAt}`;
  return `every ${every.minutes} minute${every.minutes === 1 ? '' : 's'}`;
}

export class Scheduler {
  /** Runs go one at a time: two flows replaying at once would contend for the debugger and the machine. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Flows waiting or running: a firing for one of them is skipped, so a slow flow never piles up runs. */
  private readonly pending = new Set<string>();

  constructor(private readonly deps: ScheduleDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async info(s: Schedule): Promise<ScheduleInfo> {
    const next = s.enabled ? await this.deps.alarms.next(alarmName(s.flow)) : null;
    return { ...s, ...(next !== null ? { nextRunAt: next } : {}) };
  }

  async set(p: { flow: string; every: unknown; enabled?: boolean }): Promise<ScheduleInfo> {
    const every = checkEvery(p.every);
    const flow = p.flow.trim();
    if (!(await this.deps.flowExists(flow))) {
      throw new DeckhandError(ErrorCode.NotFound, `no flow named "${flow}" is saved in the extension, so it cannot be scheduled`, { flow });
    }
    const s: Schedule = { flow, every, enabled: p.enabled ?? true, createdAt: this.now().toISOString() };
    await this.deps.store.put(s);
    await this.deps.alarms.clear(alarmName(flow));
    if (s.enabled) await this.deps.alarms.set(alarmName(flow), alarmFor(every, this.now()));
    this.deps.changed(flow);
    return this.info(s);
  }

  async remove(flow: string): Promise<{ removed: boolean }> {
    await this.deps.alarms.clear(alarmName(flow.trim()));
    const removed = await this.deps.store.delete(flow.trim());
    this.deps.changed(flow.trim());
    return { removed };
  }

  async list(): Promise<ScheduleInfo[]> {
    return Promise.all((await this.deps.store.list()).map((s) => this.info(s)));
  }

  history(flow: string): Promise<ScheduleRun[]> {
    return this.deps.store.history(flow.trim());
  }

  /** After a browser restart alarms may be gone: set again those of enabled schedules. */
  async restore(): Promise<void> {
    for (const s of await this.deps.store.list()) {
      if (s.enabled && (await this.deps.alarms.next(alarmName(s.flow))) === null) await this.deps.alarms.set(alarmName(s.flow), alarmFor(s.every, this.now()));
    }
  }

  /**
   * An alarm fired. Not one of ours: null. A schedule that is gone or off: its alarm is cleared.
   * Otherwise the run is queued; resolves with its record (null when a run of it was already waiting).
   */
  async fired(name: string): Promise<ScheduleRun | null> {
    const flow = flowOfAlarm(name);
    if (flow === null) return null;
    const s = await this.deps.store.get(flow);
    if (!s || !s.enabled) {
      await this.deps.alarms.clear(name);
      return null;
    }
    if ('dailyAt' in s.every) await this.deps.alarms.set(name, alarmFor(s.every, this.now()));
    if (this.pending.has(flow)) return null;
    this.pending.add(flow);
    const run = this.queue.then(() => this.runOnce(flow)).finally(() => this.pending.delete(flow));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Replay the flow once and record how it went; a failure is also told to the person. */
  async runOnce(flow: string): Promise<ScheduleRun> {
    const startedAt = this.now().getTime();
    let run: ScheduleRun;
    try {
      const r = await this.deps.replay(flow);
      const data = r.steps.flatMap((s) => (s.data !== undefined ? [s.data] : []));
      run = { flow, startedAt, endedAt: this.now().getTime(), success: true, steps: r.steps, url: r.url, ...(data.length ? { data } : {}) };
    } catch (e) {
      const error = isDeckhandError(e)
        ? { code: e.code, message: e.message }
        : { code: ErrorCode.Internal, message: e instanceof Error ? e.message : String(e) };
      const step = isDeckhandError(e) ? (e.data as { step?: { index?: unknown; id?: unknown; description?: unknown } } | undefined)?.step : undefined;
      const failedStep =
        step && typeof step.index === 'number' && typeof step.id === 'string' && typeof step.description === 'string'
          ? { index: step.index, id: step.id, description: step.description }
          : undefined;
      run = { flow, startedAt, endedAt: this.now().getTime(), success: false, error, ...(failedStep ? { failedStep } : {}) };
    }
    // The record is what the person reads later: keep it even when the notification fails.
    await this.deps.store.addRun(run, SCHEDULE_HISTORY_LIMIT);
    this.deps.changed(flow);
    if (!run.success) await this.deps.notifyFailure(run).catch(() => undefined);
    return run;
  }
}

/**
 * One scheduled replay's page: a new tab in the background (beside the active one, so the
 * person's tab is left alone), closed after the run whatever happened.
 */
export async function replayInOwnTab(port: BrowserPort, replay: (page: number) => Promise<FlowReplayResult>): Promise<FlowReplayResult> {
  const active = await port.activePage().catch(() => null);
  const page = await port.createPage('about:blank', active ? { beside: active.id } : {});
  try {
    return await replay(page.id);
  } finally {
    await port.closePage(page.id).catch(() => undefined);
  }
}
