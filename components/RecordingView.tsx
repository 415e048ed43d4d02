/** The manual QA recording: the steps performed, replay, and export. */
import { useState } from 'react';
import type { QaStep } from '../src/protocol/panel';
import type { PanelSession, PanelState } from '../src/panel/session';
import { recordingFileName, toDeckhandScript, toPlaywrightTest } from '../src/panel/export';

type Format = 'playwright' | 'deckhand';

export function RecordingView({ session, state }: { session: PanelSession; state: PanelState }) {
  const rec = state.recording;
  const [format, setFormat] = useState<Format>('playwright');
  const [notice, setNotice] = useState<string | null>(null);
  if (!rec || rec.steps.length === 0) {
    return (
      <div className="empty" data-testid="recording-empty">
        <p>No steps recorded yet.</p>
        <p className="muted">Everything you run in this panel is recorded here: replay it with no model, or export it as a Playwright test or a Deckhand script.</p>
      </div>
    );
  }
  const busy = !!state.running;
  const code = format === 'playwright' ? toPlaywrightTest(rec) : toDeckhandScript(rec);
  const fileName = recordingFileName(rec, format);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      // The clipboard API needs focus; a selected textarea and execCommand work without it.
      const ta = document.createElement('textarea');
      ta.value = code;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setNotice(`Copied ${fileName}`);
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([code], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setNotice(`Saved ${fileName}`);
  };

  return (
    <div className="recording">
      <input className="title" value={rec.title} onChange={(e) => session.setTitle(e.target.value)} aria-label="Recording title" data-testid="recording-title" />
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
        <button className="quiet" disabled={busy} onClick={() => session.clearRecording()}>
          Clear
        </button>
      </div>
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
          {notice && <span className="muted small" role="status">{notice}</span>}
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
        <button className="small" disabled={busy} title="Run this step again and keep what it does now" onClick={() => void session.rerunStep(step.id)} data-testid="step-rerun">
          Re-run
        </button>
        <button className="small icon" disabled={busy} aria-label={`Delete step ${index + 1}`} title="Delete" onClick={() => session.deleteStep(step.id)} data-testid="step-delete">
          ✕
        </button>
      </div>
    </li>
  );
}
