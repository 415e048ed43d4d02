/**
 * Scheduled flows apart from Chromium: when a daily schedule fires next (across midnight, on the
 * minute itself), what `every` accepts and how it says no, and the Scheduler over in-memory
 * ports: a run recorded with its data, a failed run with its step and a notification, a
 * history kept to its limit, an unknown flow refused, a daily alarm set again when it fires.
 */
import { describe, expect, it } from 'vitest';
import { DeckhandError, ErrorCode } from '../../src/protocol/errors';
import type { FlowReplayResult } from '../../src/protocol/flows';
import { ZERO_USAGE } from '../../src/protocol/schemas';
import { SCHEDULE_HISTORY_LIMIT, ScheduleMethods, type Schedule, type ScheduleRun } from '../../src/protocol/schedule';
import { alarmFor, alarmName, checkEvery, nextDailyRun, Scheduler, type AlarmTime, type ScheduleStorePort } from '../../src/engine/people/schedule';

const at = (y: number, mo: number, d: number, h: number, mi: number, s = 0) => new Date(y, mo - 1, d, h, mi, s);

describe('schedule math', () => {
  it('a daily time later today is today; one already past (or this very minute) is tomorrow, across midnight and month ends', () => {
    expect(nextDailyRun(at(2026, 3, 10, 6, 0), '07:30')).toBe(at(2026, 3, 10, 7, 30).getTime());
    expect(nextDailyRun(at(2026, 3, 10, 23, 59, 30), '00:00')).toBe(at(2026, 3, 11, 0, 0).getTime());
    expect(nextDailyRun(at(2026, 3, 10, 7, 30), '07:30')).toBe(at(2026, 3, 11, 7, 30).getTime());
    expect(nextDailyRun(at(2026, 1, 31, 22, 0), '21:15')).toBe(at(2026, 2, 1, 21, 15).getTime());
    expect(nextDailyRun(at(2026, 12, 31, 23, 0), '08:00')).toBe(at(2027, 1, 1, 8, 0).getTime());
  });

  it('every N minutes: a periodic alarm first after N minutes; daily: one alarm at the next HH:MM, no period', () => {
    const now = at(2026, 3, 10, 12, 0);
    expect(alarmFor({ minutes: 0.5 }, now)).toEqual({ when: now.getTime() + 30_000, periodInMinutes: 0.5 });
    expect(alarmFor({ dailyAt: '11:00' }, now)).toEqual({ when: at(2026, 3, 11, 11, 0).getTime() });
  });

  it('refuses a bad HH:MM, too few or too many minutes, and both at once, saying what is wrong', () => {
    const refused = (every: unknown) => {
      try {
        checkEvery(every);
      } catch (e) {
        expect(e).toBeInstanceOf(DeckhandError);
        expect((e as DeckhandError).code).toBe(ErrorCode.InvalidArgument);
        return (e as Error).message;
      }
      throw new Error(`${JSON.stringify(every)} was accepted`);
    };
    for (const t of ['7:30', '24:00', '12:60', '12:5', '12:30:00', ' 12:30', 'noon', '']) expect(refused({ dailyAt: t })).toContain('HH:MM');
    expect(refused({ minutes: 0.4 })).toContain('at least 0.5');
    expect(refused({ minutes: 0 })).toContain('at least 0.5');
    expect(refused({ minutes: 7 * 24 * 60 + 1 })).toContain('at most 10080');
    expect(refused({ minutes: 5, dailyAt: '10:00' })).toMatch(/schedule every/);
    expect(checkEvery({ minutes: 0.5 })).toEqual({ minutes: 0.5 });
    expect(checkEvery({ dailyAt: '00:00' })).toEqual({ dailyAt: '00:00' });
    expect(checkEvery({ dailyAt: '23:59' })).toEqual({ dailyAt: '23:59' });
    // The panel method's own parameters carry the same rules.
    expect(ScheduleMethods['schedule.set'].params.safeParse({ flow: 'f', every: { minutes: 0.2 } }).success).toBe(false);
  });
});

class MemoryScheduleStore implements ScheduleStorePort {
  readonly schedules = new Map<string, Schedule>();
  readonly runs = new Map<string, ScheduleRun[]>();
  async list() {
    return [...this.schedules.values()];
  }
  async get(flow: string) {
    return this.schedules.get(flow) ?? null;
  }
  async put(s: Schedule) {
    this.schedules.set(s.flow, s);
  }
  async delete(flow: string) {
    this.runs.delete(flow);
    return this.schedules.delete(flow);
  }
  async addRun(run: ScheduleRun, keep: number) {
    this.runs.set(run.flow, [run, ...(this.runs.get(run.flow) ?? [])].slice(0, keep));
  }
  async history(flow: string) {
    return this.runs.get(flow) ?? [];
  }
}

function setup(replay: (flow: string) => Promise<FlowReplayResult>) {
  let clock = at(2026, 3, 10, 12, 0);
  const store = new MemoryScheduleStore();
  const alarms = new Map<string, AlarmTime>();
  const notified: ScheduleRun[] = [];
  const changed: string[] = [];
  const scheduler = new Scheduler({
    store,
    alarms: {
      set: async (n, a) => void alarms.set(n, a),
      clear: async (n) => alarms.delete(n),
      next: async (n) => alarms.get(n)?.when ?? null,
    },
    notifyFailure: async (r) => void notified.push(r),
    replay,
    flowExists: async (f) => f === 'report' || f === 'extract',
    changed: (f) => void changed.push(f),
    now: () => clock,
  });
  return { scheduler, store, alarms, notified, changed, tick: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
}

const done = (name: string, data?: unknown): FlowReplayResult => ({
  name,
  steps: [{ id: 's1', kind: data === undefined ? 'act' : 'extract', description: 'step one', status: 'done', ...(data === undefined ? {} : { data }) }],
  url: 'http://127.0.0.1/x',
  usage: { ...ZERO_USAGE },
});

describe('the Scheduler', () => {
  it('refuses a flow that is not saved (NOT_FOUND) and sets no alarm', async () => {
    const { scheduler, alarms } = setup(async (f) => done(f));
    await expect(scheduler.set({ flow: 'nope', every: { minutes: 1 } })).rejects.toMatchObject({
      code: ErrorCode.NotFound,
      message: expect.stringContaining('"nope"'),
    });
    await expect(scheduler.set({ flow: 'report', every: { dailyAt: '25:00' } })).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
    expect(alarms.size).toBe(0);
  });

  it('records a successful run with its extracted data, a failed one with its step, code and a notification', async () => {
    const { scheduler, store, notified, changed } = setup(async (f) => {
      if (f === 'report') return done(f, { total: 3 });
      throw new DeckhandError(ErrorCode.NoModelConfigured, 'step 1 of flow "extract" ("read it"): no model', {
        step: { index: 1, id: 'x1', description: 'read it' },
      });
    });
    const info = await scheduler.set({ flow: 'report', every: { minutes: 0.5 } });
    expect(info).toMatchObject({ flow: 'report', enabled: true, every: { minutes: 0.5 }, nextRunAt: at(2026, 3, 10, 12, 0, 30).getTime() });
    await scheduler.set({ flow: 'extract', every: { minutes: 1 } });

    const ok = await scheduler.fired(alarmName('report'));
    expect(ok).toMatchObject({ flow: 'report', success: true, data: [{ total: 3 }], url: 'http://127.0.0.1/x' });
    const bad = await scheduler.fired(alarmName('extract'));
    expect(bad).toMatchObject({
      flow: 'extract',
      success: false,
      error: { code: 'NO_MODEL_CONFIGURED' },
      failedStep: { index: 1, id: 'x1', description: 'read it' },
    });
    expect(notified.map((r) => r.flow)).toEqual(['extract']);
    expect(await store.history('report')).toHaveLength(1);
    expect(changed).toEqual(['report', 'extract', 'report', 'extract']);
    // Not ours: left alone.
    expect(await scheduler.fired('deckhand-bridge')).toBeNull();
  });

  it('keeps the newest runs up to its limit', async () => {
    const { scheduler, store, tick } = setup(async (f) => done(f));
    await scheduler.set({ flow: 'report', every: { minutes: 1 } });
    for (let i = 0; i < SCHEDULE_HISTORY_LIMIT + 5; i++) {
      tick(60_000);
      await scheduler.fired(alarmName('report'));
    }
    const h = await store.history('report');
    expect(h).toHaveLength(SCHEDULE_HISTORY_LIMIT);
    expect(h[0].startedAt).toBeGreaterThan(h.at(-1)!.startedAt);
  });

  it('sets a daily alarm again when it fires; an alarm of a removed schedule is cleared and runs nothing', async () => {
    let runs = 0;
    const { scheduler, alarms, tick } = setup(async (f) => (runs++, done(f)));
    await scheduler.set({ flow: 'report', every: { dailyAt: '12:30' } });
    expect(alarms.get(alarmName('report'))).toEqual({ when: at(2026, 3, 10, 12, 30).getTime() });
    tick(30 * 60_000);
    await scheduler.fired(alarmName('report'));
    expect(alarms.get(alarmName('report'))).toEqual({ when: at(2026, 3, 11, 12, 30).getTime() });
    expect(await scheduler.remove('report')).toEqual({ removed: true });
    expect(alarms.has(alarmName('report'))).toBe(false);
    alarms.set(alarmName('report'), { when: 0 });
    expect(await scheduler.fired(alarmName('report'))).toBeNull();
    expect(alarms.has(alarmName('report'))).toBe(false);
    expect(runs).toBe(1);
  });

  it('skips a firing while a run of the same flow is still going, and runs flows one at a time', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { scheduler } = setup(async (f) => {
      order.push(`start ${f}`);
      if (f === 'report') await gate;
      order.push(`end ${f}`);
      return done(f);
    });
    await scheduler.set({ flow: 'report', every: { minutes: 1 } });
    await scheduler.set({ flow: 'extract', every: { minutes: 1 } });
    const first = scheduler.fired(alarmName('report'));
    const other = scheduler.fired(alarmName('extract'));
    await new Promise((r) => setTimeout(r, 10));
    expect(await scheduler.fired(alarmName('report'))).toBeNull();
    release();
    await Promise.all([first, other]);
    expect(order).toEqual(['start report', 'end report', 'start extract', 'end extract']);
  });
});
