/**
 * Temporary Chromium profiles for `localBrowser.launch()` without a userDataDir.
 *
 * A profile is a folder `deckhand-profile-<pid>-XXXXXX` in os.tmpdir(), removed on every
 * way out: browser.close(), Chromium exiting on its own, a failed launch, this process
 * exiting, or this process being ended by SIGINT, SIGTERM or SIGHUP. Folders of earlier
 * processes that died without cleaning up (SIGKILL, power loss) are swept on the first
 * launch: the pid in the name says whether the owner is still alive.
 *
 * Library etiquette: the signal handlers exist only while temporary profiles exist, and act
 * only when no one else listens for that signal. Then they kill Chromium, remove the
 * profiles, drop themselves and send the signal again, so the process ends exactly as it
 * would have without Deckhand (killed by the signal, exit status 128 + its number). When
 * the host handles the signal itself it decides when to exit, and the exit hook cleans up.
 */
import type { ChildProcess } from 'node:child_process';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROFILE_PREFIX = 'deckhand-profile-';
const STALE_NAME = /^deckhand-profile-(\d+)-/;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Signal = (typeof SIGNALS)[number];

const live = new Set<TempProfile>();
let swept: Promise<unknown> | null = null;
const installed = new Map<Signal, () => void>();
let exitHookInstalled = false;

/** One temporary profile and the Chromium that uses it. */
export class TempProfile {
  private proc: ChildProcess | null = null;
  private removing: Promise<void> | null = null;

  constructor(readonly dir: string) {}

  /** The Chromium using this profile: its process group is killed before the folder goes. */
  use(proc: ChildProcess): void {
    this.proc = proc;
  }

  /** Kill what is left of Chromium and remove the folder. Safe to call more than once. */
  remove(): Promise<void> {
    this.removing ??= (async () => {
      await killGroup(this.proc);
      // Helpers may hold files a moment longer; retry briefly rather than leave the folder.
      await rm(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
      forget(this);
    })();
    return this.removing;
  }

  /** The same, synchronously: for the exit hook and signal handlers, which cannot wait. */
  removeSync(): void {
    signalGroup(this.proc, 'SIGKILL');
    try {
      // Killed helpers may take a moment to let go of the folder: a few short retries.
      rmSync(this.dir, { recursive: true, force: true, maxRetries: 8, retryDelay: 25 });
    } catch {
      /* nothing more can be done while exiting */
    }
    forget(this);
  }
}

/** Make a temporary profile (sweeping stale ones first, once per process). */
export async function createTempProfile(): Promise<TempProfile> {
  swept ??= sweepStaleProfiles().catch(() => undefined);
  await swept;
  const profile = new TempProfile(await mkdtemp(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`)));
  live.add(profile);
  install();
  return profile;
}

/**
 * Remove profile folders in `dir` whose owning process is gone. Only directories of this
 * user with Deckhand's name pattern are touched; a folder whose pid is alive (or not ours to
 * signal) is left. Returns the folders removed.
 */
export async function sweepStaleProfiles(dir = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = STALE_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const path = join(dir, name);
    try {
      const st = await lstat(path);
      // lstat: a symlink planted in a shared /tmp is never followed.
      if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) continue;
      await rm(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
      removed.push(path);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the pid exists but belongs to someone else, so it is alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Chromium runs in its own process group (spawned detached), so helpers die with it. */
function signalGroup(proc: ChildProcess | null, signal: NodeJS.Signals): void {
  if (!proc?.pid) return;
  try {
    if (process.platform === 'win32') proc.kill(signal);
    else process.kill(-proc.pid, signal);
  } catch {
    /* already gone */
  }
}

async function killGroup(proc: ChildProcess | null): Promise<void> {
  if (!proc?.pid) return; // never started (spawn failed): nothing to wait for
  const running = proc.exitCode === null && proc.signalCode === null;
  const exited = running ? new Promise<void>((resolve) => proc.once('exit', () => resolve())) : Promise.resolve();
  // The browser process may be gone while helpers of its group linger: signal the group anyway.
  signalGroup(proc, 'SIGKILL');
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
  clearTimeout(timer);
}

function forget(profile: TempProfile): void {
  live.delete(profile);
  if (live.size === 0) uninstall();
}

const onExit = (): void => {
  for (const p of [...live]) p.removeSync();
};

function install(): void {
  if (!exitHookInstalled) {
    process.on('exit', onExit);
    exitHookInstalled = true;
  }
  for (const signal of SIGNALS) {
    // Someone else already decides what this signal does: leave it to them.
    if (installed.has(signal) || process.listenerCount(signal) > 0) continue;
    const handler = (): void => {
      // A listener added after ours takes over the signal, and the exit hook cleans up.
      if (process.listenerCount(signal) > 1) return;
      onExit();
      uninstall();
      process.kill(process.pid, signal);
    };
    installed.set(signal, handler);
    process.on(signal, handler);
  }
}

function uninstall(): void {
  for (const [signal, handler] of installed) process.removeListener(signal, handler);
  installed.clear();
  if (exitHookInstalled) {
    process.removeListener('exit', onExit);
    exitHookInstalled = false;
  }
}

/** @internal For tests: how many temporary profiles this process holds, and whether its handlers are installed. */
export function tempProfileState(): { live: number; signals: string[]; exitHook: boolean } {
  return { live: live.size, signals: [...installed.keys()], exitHook: exitHookInstalled };
}
