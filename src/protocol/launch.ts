/**
 * The Chromium switches every launcher passes (Node, Python and Go), declared once here and
 * generated into the other two through schema/deckhand.schema.json (`x-deckhand.chromiumFlags`).
 * Per-launch switches (the pipe, the profile, the extension, the window size, headless) are
 * added by each launcher around these.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--silent-debugger-extension-api',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  // Startup: no field-trial setup, no keyring probe (both cost tens of milliseconds on Linux),
  // and no startup window: the first tab is opened while the extension's worker starts, instead
  // of before it.
  '--disable-field-trial-config',
  '--password-store=basic',
  '--use-mock-keychain',
  '--no-startup-window',
] as const;
