/**
 * Temporary profiles of localBrowser.launch() leave nothing behind, however the browser or
 * this process ends; failed launches say why in Chromium's own words.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DeckhandError, localBrowser, type BrowserHandle } from '../../src/index';
import { chromiumReason } from '../../src/client/chromium-output';
import { sweepStaleProfiles, tempProfileState } from '../../src/client/temp-profiles';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('../fixtures/launch-and-wait.ts', import.meta.url));

const profilesOf = (pid: number) =>
  readdirSync(tmpdir())
    .filter((n) => n.startsWith(`deckhand-profile-${pid}-`))
    .map((n) => join(tmpdir(), n));
const chromiumOf = (b: BrowserHandle) => (b as unknown as { proc: ChildProcess }).proc;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Poll until `check` holds; fail naming `what` after `ms`. */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A pid that surely belongs to no running process: one that has just exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

/** Launch the child program; resolves with its first JSON line and the child. */
async function launchChild(
  mode: 'plain' | 'own-handler',
): Promise<{ child: ChildProcess; info: { pid: number; chromium: number }; lines: string[]; exited: Promise<{ code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const info = await new Promise<{ pid: number; chromium: number }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`the child did not launch within 20 s; stderr: ${stderr.slice(-500)}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        const j = JSON.parse(line);
        if (j.ready) {
          clearTimeout(t);
          resolve(j);
        }
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`the child exited early (${code ?? signal}): ${stderr.slice(-500)}`)));
  });
  return { child, info, lines, exited };
}

describe('a temporary profile is removed', () => {
  it('when the browser is closed', async () => {
    const before = new Set(profilesOf(process.pid));
    const browser = await localBrowser.launch();
    const mine = profilesOf(process.pid).filter((p) => !before.has(p));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(new RegExp(`deckhand-profile-${process.pid}-[A-Za-z0-9]{6}$`));
    // Hooks exist only while a temporary profile does (signal handlers only where no one else listens).
    expect(tempProfileState()).toMatchObject({ live: 1, exitHook: true });
    await browser.close();
    expect(existsSync(mine[0]!)).toBe(false);
    expect(tempProfileState()).toEqual({ live: 0, signals: [], exitHook: false });
    expect(alive(chromiumOf(browser).pid!)).toBe(false);
  });

  it('when Chromium is killed (SIGKILL) and exits on its own', async () => {
    const before = new Set(profilesOf(process.pid));
    const browser = await localBrowser.launch();
    const [profile] = profilesOf(process.pid).filter((p) => !before.has(p));
    process.kill(chromiumOf(browser).pid!, 'SIGKILL');
    await until(() => !existsSync(profile!), 'the profile of a killed Chromium to be removed');
    expect(browser.isConnected).toBe(false);
    await browser.close(); // still safe afterwards
  });

  it('when the Node process gets SIGTERM or SIGINT, which then ends it as the signal would', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { child, info, exited } = await launchChild('plain');
      const [profile] = profilesOf(info.pid);
      expect(profile).toBeDefined();
      child.kill(signal);
      // Killed by the signal itself (the shell would report 128 + its number), not a chosen exit code.
      expect(await exited).toEqual({ code: null, signal });
      expect(existsSync(profile!)).toBe(false);
      await until(() => !alive(info.chromium), `Chromium of a child ended by ${signal} to exit`);
    }
  });

  it("leaves a host's own signal handling alone and still cleans up when the host exits", async () => {
    const { child, info, lines, exited } = await launchChild('own-handler');
    const [profile] = profilesOf(info.pid);
    child.kill('SIGTERM');
    // The host's handler decided: it logged and exited with its own code.
    expect(await exited).toEqual({ code: 7, signal: null });
    expect(lines.map((l) => JSON.parse(l))).toContainEqual({ handled: 'SIGTERM' });
    expect(existsSync(profile!)).toBe(false);
    await until(() => !alive(info.chromium), 'Chromium of the host to exit');
  });

  it('when launch fails: Chromium exits at once, and its reason is in the error', async () => {
    const before = new Set(profilesOf(process.pid));
    // A headed Chromium with no display exits at start; what it prints is the reason.
    const display = process.env.DISPLAY;
    delete process.env.DISPLAY;
    try {
      const e = await localBrowser.launch({ headless: false, args: ['--ozone-platform=x11'] }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(DeckhandError);
      expect((e as DeckhandError).code).toBe('BROWSER_CLOSED');
      expect((e as DeckhandError).message).toMatch(/^Chromium exited during launch \(code \d+\); Chromium said: .*Missing X server or \$DISPLAY/);
      // The Debian wrapper's harmless line is not passed on.
      expect((e as DeckhandError).message).not.toMatch(/unexpected operator/);
    } finally {
      if (display !== undefined) process.env.DISPLAY = display;
    }
    expect(profilesOf(process.pid).filter((p) => !before.has(p))).toEqual([]);
  });

  it('when launch fails: a bogus executable', async () => {
    const before = new Set(profilesOf(process.pid));
    const dir = join(tmpdir(), `bogus-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const exe = join(dir, 'chromium');
    writeFileSync(exe, '#!/bin/sh\necho "bogus-chromium: this is not a browser ($1)" >&2\nexit 3\n');
    chmodSync(exe, 0o755);
    const e = (await localBrowser.launch({ executablePath: exe }).catch((err: unknown) => err)) as DeckhandError;
    expect(e.code).toBe('BROWSER_CLOSED');
    expect(e.message).toMatch(/^Chromium exited during launch \(code 3\); Chromium said: bogus-chromium: this is not a browser \(--remote-debugging-pipe\)/);
    // Not executable at all: the spawn error, at once.
    const text = join(dir, 'not-executable');
    writeFileSync(text, 'nothing');
    const t = Date.now();
    await expect(localBrowser.launch({ executablePath: text })).rejects.toMatchObject({
      code: 'BROWSER_CLOSED',
      message: expect.stringMatching(/could not start Chromium at .*not-executable: .*EACCES/),
    });
    expect(Date.now() - t).toBeLessThan(3000);
    expect(profilesOf(process.pid).filter((p) => !before.has(p))).toEqual([]);
  });

  it("when launch fails: the extension's worker never appears before the deadline", async () => {
    const before = new Set(profilesOf(process.pid));
    // Some other extension (no key, so another id) in place of Deckhand's: Deckhand's worker never appears.
    const ext = join(tmpdir(), `not-deckhand-${process.pid}`);
    mkdirSync(ext, { recursive: true });
    writeFileSync(join(ext, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'not deckhand', version: '1.0' }));
    const saved = process.env.DECKHAND_EXTENSION_DIR;
    process.env.DECKHAND_EXTENSION_DIR = ext;
    const t = Date.now();
    let result: unknown;
    try {
      result = await localBrowser.launch({ timeout: 2000 }).catch((err: unknown) => err);
    } finally {
      if (saved === undefined) delete process.env.DECKHAND_EXTENSION_DIR;
      else process.env.DECKHAND_EXTENSION_DIR = saved;
    }
    if (!(result instanceof DeckhandError)) await (result as BrowserHandle).close?.();
    expect(result).toBeInstanceOf(DeckhandError);
    expect((result as DeckhandError).code).toBe('EXTENSION_MISSING');
    expect(Date.now() - t).toBeLessThan(6000);
    expect(profilesOf(process.pid).filter((p) => !before.has(p))).toEqual([]);
  });
});

describe('stale profiles', () => {
  it('are swept when their owning process is gone; live, foreign and odd entries stay', async () => {
    const dead = deadPid();
    const stale = join(tmpdir(), `deckhand-profile-${dead}-Stale1`);
    mkdirSync(join(stale, 'Default'), { recursive: true });
    writeFileSync(join(stale, 'Default', 'Preferences'), '{}');
    const live = join(tmpdir(), `deckhand-profile-${process.ppid}-Live01`);
    mkdirSync(live, { recursive: true });
    const unrelated = join(tmpdir(), 'deckhand-profile-notapid');
    mkdirSync(unrelated, { recursive: true });
    // A symlink with the pattern is never followed (or removed: it is not a folder).
    const target = join(tmpdir(), `keep-me-${process.pid}`);
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'precious'), 'x');
    const link = join(tmpdir(), `deckhand-profile-${dead}-Link01`);
    symlinkSync(target, link);

    const removed = await sweepStaleProfiles();
    expect(removed).toContain(stale);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
    expect(existsSync(join(target, 'precious'))).toBe(true);
    for (const p of [live, unrelated, target, link]) rmSync(p, { recursive: true, force: true });
  });

  it('are swept by the first launch of a process', async () => {
    const stale = join(tmpdir(), `deckhand-profile-${deadPid()}-Stale2`);
    mkdirSync(stale, { recursive: true });
    const { child, info, exited } = await launchChild('plain');
    expect(existsSync(stale)).toBe(false);
    child.kill('SIGTERM');
    await exited;
    expect(profilesOf(info.pid)).toEqual([]);
  });
});

describe("Chromium's reason", () => {
  it('keeps the meaningful last lines of stderr and drops known noise', () => {
    const stderr = [
      '/usr/bin/chromium: 9: [: 25276063744: unexpected operator',
      '[10236:10266:1123/092856.917307:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Could not parse server address',
      '[10488:10488:1123/092900.258395:ERROR:ui/ozone/platform/x11/ozone_platform_x11.cc:257] Missing X server or $DISPLAY',
      '[10488:10488:1123/092900.258463:ERROR:ui/aura/env.cc:253] The platform failed to initialize.  Exiting.',
      '#7 0x55f28909cd9c <unknown>',
      '',
    ].join('\n');
    expect(chromiumReason(stderr)).toBe('Missing X server or $DISPLAY | The platform failed to initialize.  Exiting.');
    expect(chromiumReason('some wrapper: exec: chromium-bin: not found\n')).toBe('some wrapper: exec: chromium-bin: not found');
    expect(chromiumReason('/usr/bin/chromium: 9: [: 1: unexpected operator\n')).toBe('');
  });
});
