/** What ran, newest last: status, timing, usage, live steps, and each kind's result. */
import { useEffect, useRef } from 'react';
import type { Entry, PanelSession } from '../src/panel/session';

const STATUS: Record<Entry['status'], string> = { running: 'Running', done: 'Done', failed: 'Failed', stopped: 'Stopped' };

export const ms = (n?: number) => (n === undefined ? '' : n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`);

export function Timeline({ session, entries }: { session: PanelSession; entries: Entry[] }) {
  const end = useRef<HTMLDivElement>(null);
  const last = entries.at(-1);
  useEffect(() => {
    // A block body: scrollIntoView returns a promise in newer Chromium, and an effect may only return a cleanup.
    void end.current?.scrollIntoView({ block: 'nearest' });
  }, [entries.length, last?.events.length, last?.status]);
  return (
    <>
      <ol className="timeline" data-testid="timeline">
        {entries.map((e) => (
          <EntryView key={e.id} entry={e} session={session} />
        ))}
      </ol>
      <div ref={end} />
    </>
  );
}

function EntryView({ entry: e, session }: { entry: Entry; session: PanelSession }) {
  const tokens = e.usage ? e.usage.inputTokens + e.usage.outputTokens : 0;
  return (
    <li className={`entry ${e.status}`} data-testid="entry" data-status={e.status} data-kind={e.kind} data-cache={e.cache?.status}>
      <div className="entry-head">
        <span className={`dot ${e.status}`} aria-hidden="true" />
        <span className="kind">{e.kind}</span>
        <span className="instr" title={e.instruction}>
          {e.instruction || <span className="muted">(whole page)</span>}
        </span>
      </div>
      <div className="entry-meta muted">
        <span data-testid="entry-status">{STATUS[e.status]}</span>
        {e.durationMs !== undefined && <span>{ms(e.durationMs)}</span>}
        {e.usage && <span>{tokens ? `${tokens} tokens` : '0 tokens'}</span>}
        {e.model && <span>{e.model}</span>}
        {e.cache?.status === 'HIT' && (
          <span data-testid="entry-cache" title={`replayed from the extension's cache (seen ${e.cache.count} times)`}>
            from cache
          </span>
        )}
      </div>
      {e.events.length > 0 && (
        <ul className="events" data-testid="events">
          {e.events.map((ev, i) => (
            <li key={i} className={ev.step ? 'step' : undefined}>
              {ev.step ? (
                <>
                  <b>{ev.step.type}</b> {ev.step.reasoning && <span className="muted">— {ev.step.reasoning}</span>}
                  {ev.step.result && <div className="step-result">{ev.step.result}</div>}
                </>
              ) : (
                ev.message
              )}
            </li>
          ))}
        </ul>
      )}
      {e.message && e.status !== 'failed' && e.kind !== 'observe' && (
        <p className="message" data-testid="entry-message">
          {e.message}
        </p>
      )}
      {e.error && (
        <p className="error" role="alert" data-testid="entry-error">
          <code>{e.error.code}</code> {e.error.message}
        </p>
      )}
      {e.observed && <ObservedList actions={e.observed} session={session} />}
      {e.kind === 'extract' && e.status === 'done' && (
        <pre className="json" data-testid="extract-json">
          {JSON.stringify(e.data, null, 2)}
        </pre>
      )}
    </li>
  );
}

function ObservedList({ actions, session }: { actions: NonNullable<Entry['observed']>; session: PanelSession }) {
  if (!actions.length) return <p className="muted">No matching elements.</p>;
  return (
    <ul className="observed" data-testid="observed">
      {actions.map((a, i) => (
        <li
          key={i}
          data-testid="observed-row"
          onMouseEnter={() => void session.highlight(a.selector)}
          onMouseLeave={() => void session.highlight(null)}
          onFocus={() => void session.highlight(a.selector)}
          onBlur={() => void session.highlight(null)}
          tabIndex={0}
        >
          <div className="obs-desc">{a.description}</div>
          <div className="obs-meta muted">
            {a.method ?? 'click'}
            {a.arguments?.length ? ` "${a.arguments.join('", "')}"` : ''} · <code title={a.selector}>{a.selector}</code>
          </div>
          <button className="small" onClick={() => void session.runObserved(a)} data-testid="observed-run">
            Run
          </button>
        </li>
      ))}
    </ul>
  );
}
