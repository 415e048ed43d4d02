/** Where the built extension and a Chromium binary live on this machine. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest folder up from this module with Deckhand's package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if (JSON.parse(readFileSync(pj, 'utf8')).name === 'deckhand') return dir;
      } catch {
        /* keep looking */
      }
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the deckhand package root');
}

export function extensionDir(): string {
  return process.env.DECKHAND_EXTENSION_DIR ?? join(packageRoot(), '.output', 'chrome-mv3');
}

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export function findChromium(): string | null {
  const env = process.env.DECKHAND_CHROMIUM ?? process.env.CHROME_PATH;
  if (env) return env;
  return CANDIDATES.find((c) => existsSync(c)) ?? null;
}
