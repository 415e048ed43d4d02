/** The panel's frame: header (target tab, attached client), four views, global keys. */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { PanelClient } from '../src/panel/client';
import type { PanelSession } from '../src/panel/session';
import type { LiveRuns } from '../src/panel/live';
import type { Approvals } from '../src/panel/approvals';
import { ApprovalPrompts } from './ApprovalPrompts';
import { LiveView } from './LiveView';
import { useTakeover } from './TakeOver';
import { BridgeChip } from './BridgeChip';
import { FlowsView } from './FlowsView';
import { RecordingView } from './RecordingView';
import { RunView } from './RunView';
import { SettingsView } from './SettingsView';

type View = 'run' | 'live' | 'recording' | 'flows' | 'settings';

export function App({ session, client, live, approvals }: { session: PanelSession; client: PanelClient; live: LiveRuns; approvals: Approvals }) {
  const state = useSyncExternalStore(session.subscribe, session.get);
  const runs = useSyncExternalStore(live.subscribe, live.get);
  const driving = runs.filter((r) => r.status === 'running').length;
  const [view, setView] = useState<View>('run');
  // Kept here, not in the Live view: the Live tab shows Paused even while another view is open.
  const takeover = useTakeover(client);
  const steps = state.recording?.steps.length ?? 0;
  const flows = state.flows?.length ?? 0;

  // The saved flows, for the tab's count (the Flows view reads them again when it opens).
  useEffect(() => {
    void session.refreshFlows();
  }, [session]);

  // Escape stops whatever runs, wherever the focus is.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && session.get().running) {
        e.preventDefault();
        void session.stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session]);

  return (
    <div className="app">
      <header className="top">
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ⚓
          </span>
          <span>Deckhand</span>
        </div>
        <BridgeChip client={client} onOpenSettings={() => setView('settings')} />
      </header>
      <div className="target" data-testid="target" title={state.target?.url}>
        {state.target ? (
          <>
            <span className="target-title">{state.target.title || 'Untitled page'}</span>
            <span className="target-url">{state.target.url}</span>
          </>
        ) : (
          <span className="muted">No page to work on: open a web page in this window.</span>
        )}
      </div>
      <ApprovalPrompts approvals={approvals} />
      <nav className="tabs" role="tablist">
        <button role="tab" aria-selected={view === 'run'} onClick={() => setView('run')} data-testid="tab-run">
          Run
        </button>
        <button
          role="tab"
          aria-selected={view === 'live'}
          onClick={() => setView('live')}
          data-testid="tab-live"
          title="Runs by other programs on this browser"
        >
          Live
          {takeover?.paused ? (
            <span className="count warn" data-testid="tab-live-paused">
              Paused
            </span>
          ) : null}
          {driving ? (
            <span className="count" aria-label={`${driving} running`}>
              {driving}
            </span>
          ) : null}
        </button>
        <button role="tab" aria-selected={view === 'recording'} onClick={() => setView('recording')} data-testid="tab-recording">
          Recording{steps ? <span className="count">{steps}</span> : null}
        </button>
        <button role="tab" aria-selected={view === 'flows'} onClick={() => setView('flows')} data-testid="tab-flows">
          Flows{flows ? <span className="count">{flows}</span> : null}
        </button>
        <button role="tab" aria-selected={view === 'settings'} onClick={() => setView('settings')} data-testid="tab-settings">
          Settings
        </button>
      </nav>
      <main className="view">
        {view === 'run' && <RunView session={session} state={state} />}
        {view === 'live' && <LiveView live={live} runs={runs} client={client} takeover={takeover} />}
        {view === 'recording' && <RecordingView session={session} state={state} />}
        {view === 'flows' && <FlowsView session={session} client={client} state={state} onReplay={() => setView('run')} />}
        {view === 'settings' && <SettingsView client={client} />}
      </main>
    </div>
  );
}
