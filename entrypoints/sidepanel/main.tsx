/**
 * The side panel: a person runs instructions on the current tab, watches the steps,
 * records them for manual QA and exports them. It talks to the worker over a
 * chrome.runtime port with the same RPC Node clients use.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../../components/App';
import { PanelClient } from '../../src/panel/client';
import { PanelSession } from '../../src/panel/session';
import { LiveRuns } from '../../src/panel/live';
import { Approvals } from '../../src/panel/approvals';
import { resolvePanelModel } from '../../src/panel/settings';
import './style.css';

const client = new PanelClient();

/**
 * The tab the panel works on: `?tab=<id>` when the panel page is opened for a given tab,
 * else the active tab of this window (never the panel's own tab when it is opened as one).
 */
async function targetTab(): Promise<number> {
  const pinned = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(pinned) && pinned > 0) return pinned;
  const own = await chrome.tabs.getCurrent();
  const [active] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (active?.id !== undefined && active.id !== own?.id) return active.id;
  throw new Error('no tab to work on: open a web page in this window');
}

/**
 * The recording outlives the panel in session storage: closing and reopening the panel
 * keeps it; it goes when the browser closes, so text typed into pages is not kept on disk.
 */
const RECORDING_KEY = 'deckhand.recording';
const recordingStore = {
  load: async () => (await chrome.storage.session.get(RECORDING_KEY))[RECORDING_KEY],
  save: (recording: unknown) => (recording ? chrome.storage.session.set({ [RECORDING_KEY]: recording }) : chrome.storage.session.remove(RECORDING_KEY)),
};

const session = new PanelSession({ client, onLog: (f) => client.onLog(f), resolveModel: resolvePanelModel, targetTab, recordingStore });
void session.restoreRecording();
// Other programs' runs: the worker sends them to a connected panel, so connect as the panel opens.
const live = new LiveRuns();
client.onWatch((e) => live.add(e));
// Steps of any caller that wait for the person's approval.
const approvals = new Approvals();
client.approvals = approvals;
client.connect();
const refresh = () => void session.refreshTarget();
chrome.tabs.onActivated.addListener(refresh);
chrome.tabs.onUpdated.addListener((_id, change) => {
  if (change.status === 'complete' || change.title) refresh();
});
refresh();
void session.refreshMetrics();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App session={session} client={client} live={live} approvals={approvals} />
  </StrictMode>,
);
