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
