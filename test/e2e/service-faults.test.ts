/**
 * The HTTP service under real faults: a browser killed under its session, a caller that
 * hangs up in the middle of a deterministic operation or a navigation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServers } from '../fixtures/server';
import { useService } from './harness';

const KEY = 'service-faults-key';
const h = useService(KEY);
let servers: Awaited<ReturnType<typeof startFixtureServers>>;
beforeAll(async () => {
  servers = await startFixtureServers();
});
afterAll(async () => {
  await servers?.close();
});
// The service runs one session at a time here: a test that fails part-way must not leave its
// session to fail the next test's start as well.
afterEach(async () => {
  const live = (h.svc.sessions as unknown as { sessions: Map<string, unknown> }).sessions;
  for (const id of [...live.keys()]) await h.post(`/v1/sessions/${id}/end`, {}).catch(() => undefined);
});

/** The session's Chromium process (the manager keeps sessions private). */
const procOf = (id: string) =>
  (h.svc.sessions as unknown as { sessions: Map<string, { browser: { proc: { kill(sig: string): void } } }> }).sessions.get(id)!.browser.proc;

async function until(what: string, check: () => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - t0;
}

describe('the HTTP service under faults', () => {
  it('a deterministic act on a page whose main thread hangs answers 504 by its own deadline; navigate then leaves the page', async () => {
    const { body } = await h.post('/v1/sessions/start', {});
    const id = body.data.sessionId;
    // The page stops answering by itself a moment after it loads.
    expect((await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/hang.html?ms=60000&after=300` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    const t = Date.now();
    const hung = await h.post(`/v1/sessions/${id}/act`, { input: { selector: '#other', description: 'Other', method: 'click' }, timeout: 3000 });
    // By its own deadline (3 s), plus the engine's 150 ms margin and room for a loaded two-core
    // machine running other suites beside this one (a hung call would take the page's 60 s).
    expect(Date.now() - t).toBeLessThan(3500);
    expect(hung.status).toBe(504);
    const away = await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html`, options: { timeout: 10_000 } });
    expect(away.status).toBe(200);
    expect((await h.post(`/v1/sessions/${id}/act`, { input: { selector: '#name', description: 'Name', method: 'fill', arguments: ['x'] } })).status).toBe(200);
    await h.post(`/v1/sessions/${id}/end`, {});
  });

  it('a browser killed under its session ends the session within 2 s and frees its slot (the limit is 1)', async () => {
    const { body } = await h.post('/v1/sessions/start', {});
    const id = body.data.sessionId as string;
    expect((await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })).status).toBe(200);
    procOf(id).kill('SIGKILL');
    expect(await until("the dead browser's session to end", () => h.svc.sessions.size === 0, 2000)).toBeLessThan(2000);
    const gone = await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` });
    expect(gone.status).toBe(404);
    expect(gone.body.error?.code).toBe('SESSION_NOT_FOUND');
    // Its slot is free: a new session starts instead of 429.
    const again = await h.post('/v1/sessions/start', {});
    expect(again.status).toBe(200);
    await h.post(`/v1/sessions/${again.body.data.sessionId}/end`, {});
  });

  for (const [what, body] of [
    [
      'a deterministic act waiting for its element',
      (origin: string) => ['act', { input: { selector: '#never-there', method: 'click', description: 'a missing button' }, timeout: 20_000 }] as const,
    ],
    [
      'a navigation the server holds',
      (origin: string) => ['navigate', { url: `${origin}/slow?ms=20000&to=/form.html`, options: { timeout: 25_000 } }] as const,
    ],
  ] as const) {
    it(`a caller that hangs up during ${what} frees the session at once for the next call`, async () => {
      const started = await h.post('/v1/sessions/start', {});
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const id = started.body.data.sessionId as string;
      try {
        expect((await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })).status).toBe(200);
        const [route, payload] = body(servers.origin);
        const ctl = new AbortController();
        const pending = fetch(`${h.svc.url}/v1/sessions/${id}/${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY },
          body: JSON.stringify(payload),
          signal: ctl.signal,
        });
        await new Promise((r) => setTimeout(r, 400));
        ctl.abort();
        await expect(pending).rejects.toThrow(/abort/i);
        const t0 = Date.now();
        let next = await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/store.html` });
        // The worker stops the abandoned operation at its next step; until then the session says busy.
        while (next.status === 409 && Date.now() - t0 < 10_000) {
          await new Promise((r) => setTimeout(r, 50));
          next = await h.post(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/store.html` });
        }
        expect(next.status, JSON.stringify(next.body)).toBe(200);
        expect(next.body.data.title).toBe('Acme Store');
        expect(Date.now() - t0).toBeLessThan(1500);
      } finally {
        await h.post(`/v1/sessions/${id}/end`, {});
      }
    });
  }
});
