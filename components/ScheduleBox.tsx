/** A saved flow's schedule in its row of the Flows view: set it, see when it runs next, and read its runs. */
import { useEffect, useState, type FormEvent } from 'react';
import type { PanelClient } from '../src/panel/client';
import type { ScheduleInfo, ScheduleRun } from '../src/protocol/schedule';
import { describeEvery } from '../src/engine/people/schedule';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const timeOf = (ms: number) => new Date(ms).toLocaleString();

export function ScheduleBox({
  flow,
  client,
  schedule,
  changes,
  editing,
  onDone,
  onError,
}: {
  flow: string;
  client: PanelClient;
  schedule: ScheduleInfo | null;
  /** Bumped each time the worker says this flow's schedule or history changed. */
  changes: number;
  editing: boolean;
  onDone: () => void;
  onError: (message: string | null) => void;
}) {
  const [kind, setKind] = useState<'minutes' | 'daily'>(schedule && 'dailyAt' in schedule.every ? 'daily' : 'minutes');
  const [minutes, setMinutes] = useState(schedule && 'minutes' in schedule.every ? String(schedule.every.minutes) : '60');
  const [dailyAt, setDailyAt] = useState(schedule && 'dailyAt' in schedule.every ? schedule.every.dailyAt : '09:00');
  const [runs, setRuns] = useState<ScheduleRun[]>([]);

  useEffect(() => {
    let live = true;
    void client.panel('schedule.history', { flow }).then(
      (r) => live && setRuns(r),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, flow, changes]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    onError(null);
    try {
      // The worker checks the numbers and the time and says what is wrong.
      await client.panel('schedule.set', { flow, every: kind === 'daily' ? { dailyAt: dailyAt.trim() } : { minutes: Number(minutes.trim()) } });
      onDone();
    } catch (err) {
      onError(message(err));
    }
  };
  const remove = async () => {
    onError(null);
    try {
      await client.panel('schedule.remove', { flow });
      onDone();
    } catch (err) {
      onError(message(err));
    }
  };

  return (
    <>
      {schedule && (
        <div className="muted small" data-testid="flow-schedule" data-enabled={String(schedule.enabled)}>
          Runs {describeEvery(schedule.every)}
          {schedule.nextRunAt !== undefined && (
            <>
              {' '}
              · next <time dateTime={new Date(schedule.nextRunAt).toISOString()}>{timeOf(schedule.nextRunAt)}</time>
            </>
          )}
        </div>
      )}
      {editing && (
        <form className="inline-form" onSubmit={(e) => void save(e)} data-testid="schedule-form">
          <div className="segmented" role="radiogroup" aria-label="How often">
            <button type="button" role="radio" aria-checked={kind === 'minutes'} onClick={() => setKind('minutes')} data-testid="schedule-kind-minutes">
              Every N minutes
            </button>
            <button type="button" role="radio" aria-checked={kind === 'daily'} onClick={() => setKind('daily')} data-testid="schedule-kind-daily">
              Daily at
            </button>
          </div>
          {kind === 'minutes' ? (
            <input
              type="text"
              inputMode="decimal"
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
              aria-label="Minutes between runs (0.5 or more)"
              data-testid="schedule-minutes"
            />
          ) : (
            <input type="time" value={dailyAt} onChange={(e) => setDailyAt(e.target.value)} aria-label="Time of day" data-testid="schedule-daily" />
          )}
          <button className="primary small" type="submit" data-testid="schedule-save">
            Save
          </button>
          {schedule && (
            <button className="danger small" type="button" onClick={() => void remove()} data-testid="schedule-remove">
              Remove
            </button>
          )}
          <button className="quiet small" type="button" onClick={onDone}>
            Cancel
          </button>
        </form>
      )}
      {runs.length > 0 && (
        <details className="schedule-history" data-testid="schedule-history">
          <summary className="small">
            History ({runs.length} run{runs.length === 1 ? '' : 's'}, last {runs[0].success ? 'succeeded' : 'failed'})
          </summary>
          <ul>
            {runs.map((r) => (
              <li key={r.startedAt} className="small" data-testid="schedule-run" data-success={String(r.success)} data-code={r.error?.code ?? ''}>
                <span aria-label={r.success ? 'succeeded' : 'failed'}>{r.success ? '✓' : '✗'}</span>{' '}
                <time dateTime={new Date(r.startedAt).toISOString()}>{timeOf(r.startedAt)}</time>{' '}
                <span className="muted">
                  {r.success
                    ? `${r.steps?.length ?? 0} steps in ${((r.endedAt - r.startedAt) / 1000).toFixed(1)} s`
                    : `${r.failedStep ? `step ${r.failedStep.index}: ` : ''}${r.error?.code}: ${r.error?.message}`}
                </span>
                {r.data && (
                  <details>
                    <summary>Extracted data</summary>
                    <pre className="code">{JSON.stringify(r.data, null, 2)}</pre>
                  </details>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
