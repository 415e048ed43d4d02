/**
 * The chrome.* side of scheduled flows (engine/people/schedule.ts): alarms, a system notification for
 * a failed run, and the schedules and their histories in IndexedDB.
 *
 * IndexedDB rather than chrome.storage.local: a history holds what extract steps pulled out,
 * which may be large, and a run adds to one flow's record in one transaction without reading
 * and rewriting every other flow's; it is also where the flows themselves are kept
 * (idb-flows.ts), in the extension's origin, with the browser profile.
 */
import type { AlarmPort, AlarmTime, ScheduleStorePort } from '../engine/people/schedule';
import { ScheduleRunSchema, ScheduleSchema, type Schedule, type ScheduleRun } from '../protocol/schedule';

const SCHEDULES = 'schedules';
const HISTORY = 'history';

const settle = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

export class IdbScheduleStore implements ScheduleStorePort {
  private db: Promise<IDBDatabase> | null = null;

  constructor(private readonly name = 'deckhand-schedules') {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(this.name, 1);
      r.onupgradeneeded = () => {
        r.result.createObjectStore(SCHEDULES, { keyPath: 'flow' });
        // One record per flow: { flow, runs } with the newest run first.
        r.result.createObjectStore(HISTORY, { keyPath: 'flow' });
      };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    return this.db;
  }

  private async tx<T>(stores: string[], mode: IDBTransactionMode, fn: (t: IDBTransaction) => Promise<T>): Promise<T> {
    const t = (await this.open()).transaction(stores, mode);
    const done = new Promise<void>((resolve, reject) => {
      t.oncomplete = () => resolve();
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error ?? new Error('the schedule transaction was aborted'));
    });
    const v = await fn(t);
    await done;
    return v;
  }

  async list(): Promise<Schedule[]> {
    const rows = await this.tx([SCHEDULES], 'readonly', (t) => settle(t.objectStore(SCHEDULES).getAll()));
    return rows.flatMap((r) => {
      const s = ScheduleSchema.safeParse(r);
      return s.success ? [s.data] : [];
    });
  }

  async get(flow: string): Promise<Schedule | null> {
    const row = await this.tx([SCHEDULES], 'readonly', (t) => settle(t.objectStore(SCHEDULES).get(flow)));
    const s = ScheduleSchema.safeParse(row);
    return s.success ? s.data : null;
  }

  async put(schedule: Schedule): Promise<void> {
    await this.tx([SCHEDULES], 'readwrite', (t) => settle(t.objectStore(SCHEDULES).put(schedule)));
  }

  async delete(flow: string): Promise<boolean> {
    return this.tx([SCHEDULES, HISTORY], 'readwrite', async (t) => {
      const had = (await settle(t.objectStore(SCHEDULES).getKey(flow))) !== undefined;
      t.objectStore(SCHEDULES).delete(flow);
      t.objectStore(HISTORY).delete(flow);
      return had;
    });
  }

  async addRun(run: ScheduleRun, keep: number): Promise<void> {
    await this.tx([HISTORY], 'readwrite', async (t) => {
      const s = t.objectStore(HISTORY);
      const row = (await settle(s.get(run.flow))) as { runs?: unknown[] } | undefined;
      const runs = [run, ...(row?.runs ?? [])].slice(0, keep);
      await settle(s.put({ flow: run.flow, runs }));
    });
  }

  async history(flow: string): Promise<ScheduleRun[]> {
    const row = (await this.tx([HISTORY], 'readonly', (t) => settle(t.objectStore(HISTORY).get(flow)))) as { runs?: unknown[] } | undefined;
    return (row?.runs ?? []).flatMap((r) => {
      const p = ScheduleRunSchema.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }
}

export const chromeAlarms: AlarmPort = {
  async set(name: string, at: AlarmTime) {
    await chrome.alarms.create(name, { when: at.when, ...(at.periodInMinutes ? { periodInMinutes: at.periodInMinutes } : {}) });
  },
  clear: (name: string) => chrome.alarms.clear(name),
  async next(name: string) {
    return (await chrome.alarms.get(name))?.scheduledTime ?? null;
  },
};

/**
 * A system notification for a failed scheduled run: which flow, which step, why. One per flow,
 * replaced by its next failure (a flow failing every minute shows one notification, not
 * dozens), and kept until the person dismisses it: a failure nobody saw is not told.
 */
export async function notifyFailure(run: ScheduleRun): Promise<void> {
  const where = run.failedStep ? `step ${run.failedStep.index} ("${run.failedStep.description}")` : 'the run';
  await chrome.notifications.create(`${FAILURE_NOTIFICATION_PREFIX}${run.flow}`, {
    type: 'basic',
    iconUrl: chrome.runtime.getURL('/icon/128.png'),
    title: `Scheduled flow "${run.flow}" failed`,
    message: `${where} failed: ${run.error?.code ?? 'ERROR'}`.slice(0, 250),
    contextMessage: run.error?.message.slice(0, 250),
    requireInteraction: true,
  });
}

export const FAILURE_NOTIFICATION_PREFIX = 'deckhand-schedule-failed:';
