/**
 * The Chromium switches the launchers pass (Node, Python and Go), declared once here and
 * generated into the other two through schema/deckhand.schema.json (`x-deckhand.chromiumFlags`
 * and `x-deckhand.sharedChromiumFlags`). Per-launch switches (the pipe, the profile, the
 * extension, the window size, headless) are added by each launcher around these.
 */

/** The switches every launcher passes: to a Chromium it starts itself, and to a Selenium Grid node's. */
export const SHARED_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--silent-debugger-extension-api',
  // The omnibox popups are WebUI pages new headless opens in every window (a renderer each,
  // about 39 MB a browser) though nothing ever shows them.
  '--disable-features=Translate,MediaRouter,OptimizationHints,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
  // Element.computedRole: the role a custom element gives itself through ElementInternals, which
  // the snapshot cannot read from any attribute (snapshot/walker.ts, internalsRole).
  '--enable-blink-features=ComputedAccessibilityInfo',
  // document.modelContext (WebMCP): the page's own tools, which the snapshot lists and act calls (snapshot/page-tools.ts).
  '--enable-features=WebMCPTesting',
  // Startup: no field-trial setup, no keyring probe (both cost tens of milliseconds on Linux).
  '--disable-field-trial-config',
  '--password-store=basic',
  '--use-mock-keychain',
] as const;

/**
 * The switches only for a Chromium the launcher starts itself, left out when a Grid node starts
 * it: no startup window, so the first tab is opened while the extension's worker starts instead
 * of before it (chromedriver, which starts a Grid node's Chromium, needs a window to attach to).
 */
export const LOCAL_CHROMIUM_FLAGS = ['--no-startup-window'] as const;

/** All the switches a launcher passes to a Chromium it starts itself. */
export const CHROMIUM_FLAGS = [...SHARED_CHROMIUM_FLAGS, ...LOCAL_CHROMIUM_FLAGS] as const;

/**
 * The launchers' defaults, in milliseconds unless named otherwise: the same in Node, Python and
 * Go, which read them from `x-deckhand.defaults`.
 */
export const LAUNCH_DEFAULTS = {
  /** Starting Chromium and reaching the extension's worker. */
  launchTimeoutMs: 15_000,
  /** Reaching a running browser (its /json/version and the WebSocket handshake). */
  connectTimeoutMs: 10_000,
  /** Connecting: the most the wait for the extension's worker takes, within the connect timeout. */
  connectWorkerWaitMs: 3_000,
  /** A person pairing their own Chrome over the bridge. */
  attachTimeoutMs: 120_000,
  /** A paired worker that went away (Chrome stopped it) coming back before a call fails. */
  attachReconnectTimeoutMs: 45_000,
  /** A Grid giving a new session, its queue included. */
  gridTimeoutMs: 60_000,
  /** Attaching to a Grid session another process started. */
  gridAttachTimeoutMs: 30_000,
  /** How often a handle tells the Grid its session is in use, and the least that may be asked. */
  gridKeepAliveMs: 60_000,
  gridKeepAliveMinMs: 1_000,
  /** The window's size, in CSS pixels. */
  viewportWidth: 1280,
  viewportHeight: 800,
} as const;

/** The window's size when a launcher is given none. */
export const DEFAULT_VIEWPORT = { width: LAUNCH_DEFAULTS.viewportWidth, height: LAUNCH_DEFAULTS.viewportHeight } as const;
