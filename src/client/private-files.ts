/**
 * The data folder holds API keys, the result cache and browser profiles: readable by
 * its owner only (0700 folders, 0600 files), whatever the process umask.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/** Create `dir` (and its parents) and make it private to this user. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Make `path` a private file, creating it empty when missing. */
export function ensurePrivateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}
