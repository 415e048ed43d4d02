import { defineConfig } from 'wxt';
import { EXTENSION_KEY } from './src/extension-key';

export default defineConfig({
  // DECKHAND_DEBUG_BUILD=1 keeps names readable in CPU profiles.
  vite: () => ({ build: { minify: !process.env.DECKHAND_DEBUG_BUILD } }),
  manifestVersion: 3,
  browser: 'chrome',
  manifest: {
    name: 'Deckhand',
    description: 'Drive this browser with AI: act, observe and extract from plain-language instructions.',
    key: EXTENSION_KEY,
    // debugger: trusted input, screenshots, evaluation. scripting: inject the content script into
    // tabs that predate the extension. webNavigation: the frame tree for nested snapshots.
    // storage: metrics survive a stopped worker (session storage), panel settings (local, never sync).
    // sidePanel: the panel a person runs instructions from. alarms: wake a stopped worker so a
    // paired bridge client is reconnected, and run scheduled flows. notifications: tell the person
    // a scheduled flow failed.
    permissions: ['debugger', 'scripting', 'webNavigation', 'storage', 'sidePanel', 'alarms', 'offscreen', 'notifications'],
    action: { default_title: 'Open Deckhand' },
    host_permissions: ['<all_urls>'],
    // No web page and no other extension may message the worker.
    externally_connectable: { ids: [] },
    minimum_chrome_version: '116',
    // Where a browser allows it in isolated (off-the-record) contexts, each context gets a worker
    // and engine of its own: a service's sessions sharing one browser never share a page or state.
    incognito: 'split',
  },
});
