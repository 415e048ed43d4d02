/** The manual QA recording: the steps performed, replay, save as a flow, and export. */
import { useState, type FormEvent } from 'react';
import type { QaStep } from '../src/protocol/panel';
import type { PanelSession, PanelState } from '../src/panel/session';
import { recordingFileName, toDeckhandScript, toPlaywrightTest } from '../src/panel/export';
import { copyText, downloadText } from './save-text';

/** The title a new recording gets: not worth offering as a flow's name. */
const DEFAULT_TITLE = 'Recorded in Deckhand';

type Format = 'playwright' | 'deckhand';

export function RecordingView({ session, state }: { session: PanelSession; state: PanelState }) {
  const rec = state.recording;
  const [format, setFormat] = useState<Format>('playwright');
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState<{ name: string; exists?: boolean; error?: string } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  if (!rec || rec.steps.length === 0) {
    return (
      <div className="empty" data-testid="recording-empty">
        <p>No steps recorded yet.</p>
        <p className="muted">
          Everything you run in this panel is recorded here: replay it with no model, or export it as a Playwright test or a Deckhand script.
        </p>
      </div>
    );
  }
  const busy = !!state.running;
  const code = format === 'playwright' ? toPlaywrightTest(rec) : toDeckhandScript(rec);
  const fileName = recordingFileName(rec, format);

  const copy = async () => {
    await copyText(code);
    setNotice(`Copied ${fileName}`);
  };
  const download = () => {
    downloadText(code, fileName);
    setNotice(`Saved ${fileName}`);
  };
  const saveFlow = async (e: FormEvent) => {
    e.preventDefault();
    if (!saving) return;
    try {
      const r = await session.saveFlow(saving.name, !!saving.exists);
      if (r === 'exists') return setSaving({ ...saving, exists: true, error: undefined });
      setSaving(null);
      setSaved(`Saved flow "${saving.name.trim()}": find it in Flows`);
    } catch (err) {
      setSaving({ ...saving, error: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <div className="recording">
      <input
        className="title"
        value={rec.title}
        onChange={(e) => session.setTitle(e.target.value)}
        aria-label="Recording title"
        data-testid="recording-title"
      />
      <p className="muted small">Starts at {rec.startUrl}</p>
      <ol className="steps" data-testid="steps">
        {rec.steps.map((s, i) => (
          <StepRow key={s.id} step={s} index={i} busy={busy} active={state.busyStep === s.id} session={session} />
        ))}
      </ol>
      <div className="actions">
        <button className="primary" disabled={busy} onClick={() => void session.replay()} data-testid="replay">
          Replay (no model)
        </button>
        <button
          disabled={busy}
          onClick={() => {
            setSaved(null);
            setSaving({ name: rec.title.trim() === DEFAULT_TITLE ? '' : rec.title.trim() });
          }}
          data-testid="save-flow"
        >
          Save as flow
        </button>
        <button className="quiet" disabled={busy} onClick={() => session.clearRecording()} data-testid="clear-recording">
          Clear
        </button>
        {saved && (
          <span className="muted small" role="status" data-testid="flow-saved">
            {saved}
          </span>
        )}
      </div>
      {saving && (
        <form className="card" onSubmit={(e) => void saveFlow(e)} data-testid="save-flow-form">
          <label>
            Flow name
            <input
              value={saving.name}
              maxLength={120}
              placeholder="e.g. checkout"
              onChange={(e) => setSaving({ name: e.target.value })}
              aria-label="Flow name"
              data-testid="save-flow-name"
              autoFocus
            />
          </label>
          <p className="muted small">Saved flows replay by name, with no model, from the Flows tab and from Node, Python, Go, the HTTP service and MCP.</p>
          {saving.exists && (
            <p className="warn small" role="alert" data-testid="save-flow-exists">
              A flow named "{saving.name.trim()}" is already saved. Replace it, or choose another name.
            </p>
          )}
          {saving.error && (
            <p className="error small" role="alert" data-testid="save-flow-error">
              {saving.error}
            </p>
          )}
          <div className="actions">
            <button className="primary" type="submit" disabled={busy} data-testid="save-flow-confirm">
              {saving.exists ? 'Replace it' : 'Save'}
            </button>
            <button className="quiet" type="button" onClick={() => setSaving(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <section className="export">
        <div className="segmented" role="radiogroup" aria-label="Export format">
          <button role="radio" aria-checked={format === 'playwright'} onClick={() => setFormat('playwright')} data-testid="format-playwright">
            Playwright test
          </button>
          <button role="radio" aria-checked={format === 'deckhand'} onClick={() => setFormat('deckhand')} data-testid="format-deckhand">
            Deckhand script
          </button>
        </div>
        <div className="actions">
          <button onClick={() => void copy()} data-testid="copy">
            Copy
          </button>
          <button onClick={download} data-testid="download">
            Download {fileName}
          </button>
          {notice && (
            <span className="muted small" role="status">
              {notice}
            </span>
          )}
        </div>
        <pre className="code" data-testid="export-code">
          {code}
        </pre>
      </section>
    </div>
  );
}

function StepRow({ step, index, busy, active, session }: { step: QaStep; index: number; busy: boolean; active: boolean; session: PanelSession }) {
  return (
    <li className={`step-row${active ? ' active' : ''}`} data-testid="step" data-kind={step.kind}>
      <span className="num">{index + 1}</span>
      <div className="step-body">
        <div className="step-desc">{step.description}</div>
        {step.kind === 'act' && (
          <ul className="step-actions muted">
            {step.actions.map((a, i) => (
              <li key={i}>
                {a.method ?? 'click'}
                {a.arguments?.length ? ` "${a.arguments.join('", "')}"` : ''} · <code>{a.selector}</code>
              </li>
            ))}
          </ul>
        )}
        {step.kind === 'goto' && <div className="muted small">{step.url}</div>}
        {step.kind === 'press' && <div className="muted small">keys {step.keys}</div>}
      </div>
      <div className="step-buttons">
        <button
          className="small"
          disabled={busy}
          title="Run this step again and keep what it does now"
          onClick={() => void session.rerunStep(step.id)}
          data-testid="step-rerun"
        >
          Re-run
        </button>
        <button
          className="small icon"
          disabled={busy}
          aria-label={`Delete step ${index + 1}`}
          title="Delete"
          onClick={() => session.deleteStep(step.id)}
          data-testid="step-delete"
        >
          ✕
        </button>
      </div>
    </li>
  );
}
