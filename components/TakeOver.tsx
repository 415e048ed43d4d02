/**
 * Take over, in the Live tab: Pause / Resume for programs' runs, the banner while paused, and
 * "Save my fix as this step" on a program's failed act, showing what would be stored first.
 */
import { useEffect, useState } from 'react';
import type { PanelClient } from '../src/panel/client';
import type { FixPreview, TakeoverState } from '../src/protocol/panel';
import type { Action } from '../src/protocol/schemas';

const errorText = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return `${code ? `${code}: ` : ''}${e instanceof Error ? e.message : String(e)}`;
};

/** The worker's take-over state, kept current. */
export function useTakeover(client: PanelClient): TakeoverState | null {
  const [state, setState] = useState<TakeoverState | null>(null);
  useEffect(() => {
    const off = client.onControl(setState);
    client.panel('control.status', {}).then(setState, () => undefined);
    return off;
  }, [client]);
  return state;
}

export function describeAction(a: Action): string {
  const args = a.arguments?.length ? ` ${a.arguments.map((x) => JSON.stringify(x)).join(', ')}` : '';
  return `${a.method ?? 'click'}${args} on ${a.description}`;
}

export function PauseBar({ client, state }: { client: PanelClient; state: TakeoverState | null }) {
  const [error, setError] = useState('');
  const paused = !!state?.paused;
  const toggle = () => {
    setError('');
    client.panel(paused ? 'control.resume' : 'control.pause', {}).catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <>
      <button
        className={paused ? 'primary' : ''}
        onClick={toggle}
        data-testid={paused ? 'live-resume' : 'live-pause'}
        title={paused ? 'Hand control back to the programs' : "Programs' next operations wait until you press Resume"}
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
      {paused && (
        <div className="card" role="status" data-testid="paused-banner">
          <p>
            <b>Paused</b> — the program waits; act on the page, then Resume.
          </p>
          <p className="muted small">
            {state!.waiting ? `${state!.waiting} operation${state!.waiting === 1 ? '' : 's'} waiting. ` : ''}
            {state!.recorded.length
              ? `${state!.recorded.length} step${state!.recorded.length === 1 ? '' : 's'} of yours recorded.`
              : 'Your clicks, typing and choices on the page are recorded.'}
          </p>
        </div>
      )}
      {!paused && state?.resumedBecause && (
        <p className="muted small" data-testid="resumed-because">
          Resumed: {state.resumedBecause}.
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** On a program's failed act: store what the person did as that act's cached result, after showing it. */
export function SaveFix({ client, runId, callerId, recorded }: { client: PanelClient; runId: string; callerId: string; recorded: number }) {
  const [preview, setPreview] = useState<FixPreview | null>(null);
  const [saved, setSaved] = useState<(FixPreview & { key: string }) | null>(null);
  const [error, setError] = useState('');
  // What is shown is what is stored: a step recorded meanwhile shows before the person confirms.
  useEffect(() => {
    if (preview) client.panel('takeover.preview', { runId, callerId }).then(setPreview, () => undefined);
  }, [recorded]);
  if (saved) {
    return (
      <p className="ok" data-testid="fix-saved" role="status">
        Stored: the program's next “{saved.instruction}” here replays your {saved.actions.length} step{saved.actions.length === 1 ? '' : 's'} with no model.
      </p>
    );
  }
  const open = () => {
    setError('');
    client.panel('takeover.preview', { runId, callerId }).then(setPreview, (e: unknown) => setError(errorText(e)));
  };
  const confirm = () => {
    setError('');
    client.panel('takeover.save', { runId, callerId }).then(setSaved, (e: unknown) => setError(errorText(e)));
  };
  return (
    <div className="fix">
      {!preview ? (
        <button
          onClick={open}
          disabled={!recorded}
          data-testid="save-fix"
          title={recorded ? 'Store what you did on the page as this step' : 'Press Pause and do the step yourself on the page first'}
        >
          Save my fix as this step
        </button>
      ) : (
        <div className="card" data-testid="fix-preview">
          <p>
            Store as “{preview.instruction}” on {preview.url} ({preview.store === 'extension' ? "the extension's cache" : "the program's own cache"}):
          </p>
          <ol>
            {preview.actions.map((a, i) => (
              <li key={i} data-testid="fix-action">
                {describeAction(a)}
              </li>
            ))}
          </ol>
          <div className="actions">
            <button className="primary" onClick={confirm} data-testid="save-fix-confirm">
              Store {preview.actions.length} step{preview.actions.length === 1 ? '' : 's'}
            </button>
            <button className="quiet" onClick={() => setPreview(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {error && (
        <p className="error" role="alert" data-testid="fix-error">
          {error}
        </p>
      )}
    </div>
  );
}
