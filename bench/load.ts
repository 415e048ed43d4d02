/**
 * Load on loopback: several sessions at once, a few hundred deterministic act
 * requests over HTTP, failures counted, p50/p95 latency, and the service's
 * memory (and browser processes) before the sessions and after they end.
 * `npm run bench`.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../src/server/service';
import { startFixtureServers } from '../test/fixtures/server';

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 4);
const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 300);
const KEY = 'load-key';

const browsers = () => Number(execSync("pgrep -c -f 'chromium.*deckhand-profile' || true").toString().trim() || 0);
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  process.env.DECKHAND_API_KEYS = KEY;
  const servers = await startFixtureServers();
  const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-load-')), port: 0, maxSessions: SESSIONS });
  const call = async (path: string, body: unknown) => {
    const r = await fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) });
    const j = (await r.json()) as { success: boolean; data?: any };
    return { ok: r.ok && j.success, data: j.data };
  };
  const memBefore = rssMb();
  const procsBefore = browsers();
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) ids.push((await call('/v1/sessions/start', {})).data.sessionId);
  await Promise.all(ids.map((id) => call(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })));
  const latencies: number[] = [];
  let failures = 0;
  const perSession = Math.ceil(REQUESTS / SESSIONS);
  const t0 = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      for (let i = 0; i < perSession; i++) {
        const t = performance.now();
        const r = await call(`/v1/sessions/${id}/act`, { input: { selector: i % 2 ? '#multi' : '#name', description: 'load', method: i % 2 ? 'click' : 'fill', arguments: i % 2 ? [] : [`n${i}`] } });
        latencies.push(performance.now() - t);
        if (!r.ok) failures++;
      }
    }),
  );
  const wall = performance.now() - t0;
  const memPeak = rssMb();
  const procsPeak = browsers();
  for (const id of ids) await call(`/v1/sessions/${id}/end`, {});
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const memAfter = rssMb();
  const procsAfter = browsers();
  await svc.close();
  await servers.close();
  console.table([
    {
      sessions: SESSIONS,
      requests: latencies.length,
      failures,
      'p50 ms': +pct(latencies, 50).toFixed(1),
      'p95 ms': +pct(latencies, 95).toFixed(1),
      'req/s': +((latencies.length / wall) * 1000).toFixed(1),
      'service RSS MB before/peak/after': `${memBefore}/${memPeak}/${memAfter}`,
      'browser processes before/peak/after': `${procsBefore}/${procsPeak}/${procsAfter}`,
    },
  ]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
