/**
 * Load on loopback, as a curve: for each number of concurrent sessions (LOAD_CURVE, default
 * 1,2,4,8,12), every session sends deterministic act requests over HTTP back to back (a
 * fill or a click on the form page), and the run reports failures, p50/p95 latency, requests
 * per second, the memory of the service and of its Chromium processes (PSS: shared pages
 * counted once), and the CPU they and this process (the service, with the fixture server and
 * the HTTP client of the bench) used per request. The last line names the most sessions kept under 100 ms p95.
 * `npm run bench`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../src/server/service';
import { startFixtureServers } from '../test/fixtures/server';
import { browserProcs, pct, sum } from './procs';

const CURVE = (process.env.LOAD_CURVE ?? '1,2,4,8,12').split(',').map(Number);
const PER_SESSION = Number(process.env.LOAD_REQUESTS_PER_SESSION ?? 40);
const KEY = 'load-key';
const P95_GOAL_MS = 100;
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);

async function main(): Promise<void> {
  process.env.DECKHAND_API_KEYS = KEY;
  const servers = await startFixtureServers();
  const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-load-')), port: 0, maxSessions: Math.max(...CURVE) });
  const call = async (path: string, body: unknown) => {
    const r = await fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) });
    const j = (await r.json()) as { success: boolean; data?: any };
    return { ok: r.ok && j.success, data: j.data };
  };
  const rows: Record<string, string | number>[] = [];
  let best = 0;
  for (const sessions of CURVE) {
    const serviceBefore = rssMb();
    const ids: string[] = [];
    for (let i = 0; i < sessions; i++) ids.push((await call('/v1/sessions/start', {})).data.sessionId);
    await Promise.all(ids.map((id) => call(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/form.html` })));
    const procsBefore = browserProcs();
    const serviceCpu = process.cpuUsage();
    const latencies: number[] = [];
    let failures = 0;
    const t0 = performance.now();
    await Promise.all(
      ids.map(async (id) => {
        for (let i = 0; i < PER_SESSION; i++) {
          const t = performance.now();
          const r = await call(`/v1/sessions/${id}/act`, { input: { selector: i % 2 ? '#multi' : '#name', description: 'load', method: i % 2 ? 'click' : 'fill', arguments: i % 2 ? [] : [`n${i}`] } });
          latencies.push(performance.now() - t);
          if (!r.ok) failures++;
        }
      }),
    );
    const wall = performance.now() - t0;
    const serviceCpuS = (() => {
      const u = process.cpuUsage(serviceCpu);
      return (u.user + u.system) / 1e6;
    })();
    const procsAfter = browserProcs();
    // CPU the browsers spent during the requests (processes alive at both ends).
    let cpuS = 0;
    for (const [pid, p] of procsAfter) cpuS += p.cpuS - (procsBefore.get(pid)?.cpuS ?? p.cpuS);
    const browserMb = Math.round(sum(procsAfter, 'rssKb') / 1024);
    const serviceMb = rssMb();
    for (const id of ids) await call(`/v1/sessions/${id}/end`, {});
    (globalThis as { gc?: () => void }).gc?.();
    const p95 = pct(latencies, 95);
    if (failures === 0 && p95 < P95_GOAL_MS) best = sessions;
    rows.push({
      sessions,
      requests: latencies.length,
      failures,
      'p50 ms': +pct(latencies, 50).toFixed(1),
      'p95 ms': +p95.toFixed(1),
      'req/s': +((latencies.length / wall) * 1000).toFixed(1),
      'browser PSS MB (per session)': `${browserMb} (${Math.round(browserMb / sessions)})`,
      'browser processes': procsAfter.size,
      'CPU ms per request: browsers / service process': `${((cpuS / latencies.length) * 1000).toFixed(1)} / ${((serviceCpuS / latencies.length) * 1000).toFixed(1)}`,
      'service RSS MB before/at load': `${serviceBefore}/${serviceMb}`,
    });
    await new Promise((r) => setTimeout(r, 1000)); // let the ended browsers go before the next level
  }
  await svc.close();
  await servers.close();
  console.table(rows);
  console.log(`most concurrent sessions with p95 under ${P95_GOAL_MS} ms and no failure: ${best || 'none of those tried'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
