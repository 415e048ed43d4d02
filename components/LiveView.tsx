/** Runs by other programs (Node, Python, Go, the HTTP service, MCP) on this browser, live: who drives, each step, the page. */
import { useEffect, useRef } from 'react';
import { describeCaller, type LiveRun, type LiveRuns } from '../src/panel/live';
import { ms } from './Timeline';
import type { PanelClient } from '../src/panel/client';
import type { TakeoverState } from '../src/protocol/panel';
import { PauseBar, SaveFix } from './TakeOver';

const STATUS: Record<LiveRun['status'], string> = { running: 'Running', done: 'Done', failed: 'Failed' };
const OUTCOME: Record<'success' | 'failure' | 'info', string> = { success: 'succeeded', failure: 'failed', info: '' };

export function LiveView({ live, runs, client, takeover }: { live: LiveRuns; runs: LiveRun[]; client: PanelClient; takeover: TakeoverState | null }) {
  const end = useRef<HTMLDivElement>(null);
  const last = runs.at(-1);
  useEffect(() => {
    void end.current?.scrollIntoView({ block: 'nearest' });
  }, [runs.length, last?.steps.length, last?.status]);
  if (!runs.length) {
    return (
      <div className="live">
        <div className="actions">
          <PauseBar client={client} state={takeover} />
        </div>
        <div className="empty" data-testid="live-empty">
          <p>No program is driving this browser.</p>
          <p className="muted">
            When a script or a service (Node, Python, Go, HTTP, MCP) runs act, observe, extract, an agent, a batch or a flow here, its steps show up as they
            happen.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="live">
      <div className="actions">
        <PauseBar client={client} state={takeover} />
        {runs.some((r) => r.status !== 'running') && (
          <button className="quiet" onClick={() => live.clear()}>
            Clear finished
          </button>
        )}
      </div>
      <ol className="timeline" data-testid="live-runs" aria-label="Runs by other programs">
        {runs.map((r) => (
          <RunItem key={`${r.caller.id}:${r.runId}`} run={r} client={client} takeover={takeover} />
        ))}
      </ol>
      <div ref={end} />
    </div>
  );
}

function RunItem({ run: r, client, takeover }: { run: LiveRun; client: PanelClient; takeover: TakeoverState | null }) {
  const who = describeCaller(r.caller);
  return (
    <li
      className={`entry ${r.status}`}
      data-testid="live-run"
      data-status={r.status}
      data-op={r.op}
      data-run-id={r.runId}
      data-caller-id={r.caller.id}
      aria-label={`${r.op} by ${who}: ${STATUS[r.status]}`}
    >
      <div className="entry-head">
        <span className={`dot ${r.status}`} aria-hidden="true" />
        <span className="kind">{r.op}</span>
        <span className="instr" title={r.description}>
          {r.description}
        </span>
      </div>
      <div className="entry-meta muted">
        <span data-testid="live-who">Driven by {who}</span>
        <span data-testid="live-status">{STATUS[r.status]}</span>
        {r.outcome && <span>{ms(r.outcome.durationMs)}</span>}
      </div>
      {r.thumbnail && <img className="live-thumb" data-testid="live-thumb" src={r.thumbnail} alt={`The page after the latest step of this ${r.op}`} />}
      {r.steps.length > 0 && (
        <ol className="events" role="log" aria-label="Steps" data-testid="live-steps">
          {r.steps.map((s) => (
            <li
              key={s.seq}
              className={s.type ? `step ${s.outcome}` : s.outcome}
              data-testid="live-step"
              data-type={s.type}
              data-outcome={s.outcome}
              data-seq={s.seq}
              data-at={s.at}
              data-shown-at={s.shownAt.toFixed(1)}
            >
              {s.type ? (
                <>
                  <b>{s.type}</b> {s.reasoning && <span className="muted">— {s.reasoning}</span>}
                  {OUTCOME[s.outcome] && <span className="visually-hidden"> ({OUTCOME[s.outcome]})</span>}
                  {s.result && <div className="step-result">{s.result}</div>}
                </>
              ) : (
                s.message
              )}
            </li>
          ))}
        </ol>
      )}
      {r.outcome?.message && r.status === 'done' && (
        <p className="message" data-testid="live-message">
          {r.outcome.message}
        </p>
      )}
      {r.outcome?.error && (
        <p className="error" role="alert" data-testid="live-error">
          <code>{r.outcome.error.code}</code> {r.outcome.error.message}
        </p>
      )}
      {r.outcome && !r.outcome.success && !r.outcome.error && r.outcome.message && (
        <p className="error" data-testid="live-error">
          {r.outcome.message}
        </p>
      )}
      {/* A program's act that failed: the person may do the step by hand and store it as this step. */}
      {r.op === 'act' && r.byInstruction && r.status === 'failed' && (takeover?.paused || !!takeover?.recorded.length) && (
        <SaveFix client={client} runId={r.runId} callerId={r.caller.id} recorded={takeover?.recorded.length ?? 0} />
      )}
    </li>
  );
}
