/**
 * The one-command trial fleet (`npm run fleet`): it starts a Grid, PostgreSQL, a replica and the
 * round-robin, says how to reach them, serves a session through the round-robin, and Ctrl-C
 * stops all of it. Bad flags are refused before anything starts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCounterPages } from '../fixtures/counter-pages';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FLEET = ['--import', 'tsx', 'fleet/fleet.ts'];

describe('npm run fleet', () => {
  it('refuses a bad flag, naming it, before starting anything', () => {
    const r = spawnSync(process.execPath, [...FLEET, '--replicas', '9'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--replicas must be a whole number from 1 to 8, got '9'/);
  });

  it('starts a fleet that serves a session through its round-robin, and Ctrl-C stops it all', async () => {
    const pages = await startCounterPages();
    const proc = spawn(process.execPath, [...FLEET, '--replicas', '1', '--slots', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 120_000;
      while (!/Ctrl-C stops the fleet/.test(out) && proc.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const url = /Deckhand fleet at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const key = /API key\s+(\S+)/.exec(out)?.[1];
      const grid = /Grid\s+(http:\/\/\S+)/.exec(out)?.[1];
      expect(url && key && grid, out).toBeTruthy();
      const post = async (path: string, body: unknown) =>
        (await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': key! }, body: JSON.stringify(body) })).json();
      const started = await post('/v1/sessions/start', {});
      expect(started.success, JSON.stringify(started)).toBe(true);
      const id = started.data.sessionId as string;
      const nav = await post(`/v1/sessions/${id}/navigate`, { url: `${pages.origin}/?s=7` });
      expect(nav.data?.title, JSON.stringify(nav)).toBe('Counter 7');
      expect((await post(`/v1/sessions/${id}/act`, { input: { selector: 'button', description: 'Add one', method: 'click' } })).success).toBe(true);
      expect(await pages.hitsBecome(7, 1)).toBe(1);
      proc.kill('SIGINT');
      expect(await exited).toBe(0);
      // Nothing it started still answers.
      await expect(fetch(`${grid}/status`, { signal: AbortSignal.timeout(3000) })).rejects.toThrow();
      await expect(fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(3000) })).rejects.toThrow();
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await pages.close();
    }
  }, 240_000);
});
