/**
 * Builds the extension (the e2e tests load it) and the library (exported scripts import
 * 'deckhand', which resolves to dist/) once per run, and resets the temp folder.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tmp = `${root}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  if (!process.env.DECKHAND_SKIP_BUILD) {
    // Built as it ships: vitest sets NODE_ENV=test, which would give a different bundle than
    // `npm run build` (and than the copy the Go module embeds).
    const { NODE_ENV: _test, ...env } = process.env;
    execSync('npx wxt build && node scripts/pack-extension.mjs', { cwd: root, stdio: 'pipe', env });
    execSync('npx tsup', { cwd: root, stdio: 'pipe', env });
  }
  return () => rmSync(tmp, { recursive: true, force: true });
}
