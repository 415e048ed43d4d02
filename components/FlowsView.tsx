/** The flows saved in this browser (the extension's): replay, rename, delete and export each. */
import { useEffect, useState, type FormEvent } from 'react';
import type { Flow, FlowSummary } from '../src/protocol/flows';
import type { ScheduleInfo } from '../src/protocol/schedule';
import type { PanelClient } from '../src/panel/client';
import type { PanelSession, PanelState } from '../src/panel/session';
import { ScheduleBox } from './ScheduleBox';
import { recordingFileName, toDeckhandScript, toFlowJson, toPlaywrightTest } from '../src/panel/export';
import { copyText, downloadText } from './save-text';

type Format = 'flow' | 'playwright' | 'deckhand';
const FORMATS: { id: Format; label: string }[] = [
  { id: 'flow', label: 'Flow JSON' },
  { id: 'playwright', label: 'Playwright test' },
  { id: 'deckhand', label: 'Deckhand script' },
];

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function FlowsView({ session, client, state, onReplay }: { session: PanelSession; client: PanelClient; state: PanelState; onReplay: () => void }) {
  useEffect(() => {
    void session.refreshFlows();
  }, [session]);
  // Schedules by flow, and how often each flow's schedule or history changed (its row reads its history again).
  const [schedules, setSchedules] = useState<Map<string, ScheduleInfo>>(new Map());
  const [changes, setChanges] = useState<Record<string, number>>({});
  useEffect(() => {
    let live = true;
    const load = () =>
      void client.panel('schedule.list', {}).then(
        (l) => live && setSchedules(new Map(l.map((s) => [s.flow, s]))),
        () => undefined,
      );
    load();
    const off = client.onSchedule((flow) => {
      load();
      setChanges((c) => ({ ...c, [flow]: (c[flow] ?? 0) + 1 }));
    });
    return () => {
      live = false;
      off();
    };
  }, [client]);
  const flows = state.flows;
  if (flows === null) return <p className="muted">Reading the saved flows…</p>;
  if (!flows.length) {
    return (
      <div className="empty" data-testid="flows-empty">
        <p>No saved flows yet.</p>
        <p className="muted">
          Run steps, then choose Save as flow in Recording. A saved flow replays by name with no model, here and from Node, Python, Go, the HTTP service and
          MCP.
        </p>
      </div>
    );
  }
  return (
    <ul className="flows" data-testid="flows">
      {flows.map((f) => (
        <FlowRow
          key={f.name}
          flow={f}
          session={session}
          client={client}
          schedule={schedules.get(f.name) ?? null}
          changes={changes[f.name] ?? 0}
          busy={!!state.running}
          onReplay={onReplay}
        />
      ))}
    </ul>
  );
}

function FlowRow({
  flow,
  session,
  client,
  schedule,
  changes,
  busy,
  onReplay,
}: {
  flow: FlowSummary;
  session: PanelSession;
  client: PanelClient;
  schedule: ScheduleInfo | null;
  changes: number;
  busy: boolean;
  onReplay: () => void;
}) {
  const [mode, setMode] = useState<null | 'rename' | 'delete' | 'export' | 'schedule'>(null);
  const [newName, setNewName] = useState(flow.name);
  const [error, setError] = useState<string | null>(null);
  const [full, setFull] = useState<Flow | null>(null);
  const [format, setFormat] = useState<Format>('flow');
  const [notice, setNotice] = useState<string | null>(null);
  const saved = new Date(flow.savedAt);

  const open = (m: typeof mode) => {
    setError(null);
    setNotice(null);
    setMode(mode === m ? null : m);
  };
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await session.renameFlow(flow.name, newName);
      setMode(null);
    } catch (err) {
      setError(message(err));
    }
  };
  const remove = async () => {
    try {
      await session.deleteFlow(flow.name);
    } catch (err) {
      setError(message(err));
    }
  };
  const showExport = async () => {
    if (mode === 'export') return setMode(null);
    open('export');
    try {
      setFull(await session.getFlow(flow.name));
    } catch (err) {
      setError(message(err));
    }
  };

  const code = full
    ? format === 'flow'
      ? toFlowJson(full)
      : format === 'playwright'
        ? toPlaywrightTest(full.recording)
        : toDeckhandScript(full.recording)
    : '';
  const fileName = full ? recordingFileName({ ...full.recording, title: full.name }, format) : '';

  return (
    <li className="flow-row" data-testid="flow" data-name={flow.name}>
      <div className="flow-head">
        <span className="flow-title" data-testid="flow-title">
          {flow.name}
        </span>
        <span className="muted small" data-testid="flow-meta">
          {flow.steps} step{flow.steps === 1 ? '' : 's'} · saved{' '}
          <time dateTime={flow.savedAt}>{Number.isNaN(saved.getTime()) ? flow.savedAt : saved.toLocaleString()}</time>
        </span>
      </div>
      <div className="muted small flow-url" title={flow.startUrl}>
        {flow.startUrl}
      </div>
      <div className="actions">
        <button
          className="primary small"
          disabled={busy}
          onClick={() => {
            onReplay();
            void session.replayFlow(flow.name);
          }}
          data-testid="flow-replay"
        >
          Replay
        </button>
        <button
          className="small"
          aria-expanded={mode === 'rename'}
          onClick={() => {
            setNewName(flow.name);
            open('rename');
          }}
          data-testid="flow-rename"
        >
          Rename
        </button>
        <button className="small" aria-expanded={mode === 'export'} onClick={() => void showExport()} data-testid="flow-export">
          Export
        </button>
        <button className="small" aria-expanded={mode === 'schedule'} onClick={() => open('schedule')} data-testid="flow-schedule-open">
          Schedule
        </button>
        <button className="small" aria-expanded={mode === 'delete'} onClick={() => open('delete')} data-testid="flow-delete">
          Delete
        </button>
      </div>
      <ScheduleBox
        flow={flow.name}
        client={client}
        schedule={schedule}
        changes={changes}
        editing={mode === 'schedule'}
        onDone={() => setMode(null)}
        onError={setError}
      />
      {mode === 'rename' && (
        <form className="inline-form" onSubmit={(e) => void rename(e)}>
          <input
            value={newName}
            maxLength={120}
            onChange={(e) => setNewName(e.target.value)}
            aria-label={`New name for ${flow.name}`}
            data-testid="flow-rename-input"
            autoFocus
          />
          <button className="primary small" type="submit" data-testid="flow-rename-save">
            Rename
          </button>
          <button className="quiet small" type="button" onClick={() => setMode(null)}>
            Cancel
          </button>
        </form>
      )}
      {mode === 'delete' && (
        <div className="inline-form" role="alert">
          <span>Delete "{flow.name}"? Clients replaying it by name will no longer find it here.</span>
          <button className="danger small" onClick={() => void remove()} data-testid="flow-delete-confirm">
            Delete
          </button>
          <button className="quiet small" onClick={() => setMode(null)}>
            Keep
          </button>
        </div>
      )}
      {mode === 'export' && full && (
        <section className="export">
          <div className="segmented" role="radiogroup" aria-label="Export format">
            {FORMATS.map((f) => (
              <button key={f.id} role="radio" aria-checked={format === f.id} onClick={() => setFormat(f.id)} data-testid={`flow-format-${f.id}`}>
                {f.label}
              </button>
            ))}
          </div>
          <div className="actions">
            <button onClick={() => void copyText(code).then(() => setNotice(`Copied ${fileName}`))} data-testid="flow-copy">
              Copy
            </button>
            <button
              onClick={() => {
                downloadText(code, fileName, format === 'flow' ? 'application/json' : 'text/plain');
                setNotice(`Saved ${fileName}`);
              }}
              data-testid="flow-download"
            >
              Download {fileName}
            </button>
            {notice && (
              <span className="muted small" role="status">
                {notice}
              </span>
            )}
          </div>
          <pre className="code" data-testid="flow-export-code">
            {code}
          </pre>
        </section>
      )}
      {error && (
        <p className="error small" role="alert" data-testid="flow-error">
          {error}
        </p>
      )}
    </li>
  );
}
