/**
 * How many sessions one machine holds, used the way agents use the service: each session
 * sends one deterministic act over HTTP, then waits (a model's think time), again and again.
 * For each number of sessions (CAPACITY_CURVE, default 1,4,16,32,64) and each think time
 * (CAPACITY_THINK_MS, default 1000,5000), for CAPACITY_SECONDS (default 20) of load, it
 * reports p50/p95 of the act, failures, the memory (PSS) of the browsers and the service
 * process, and the CPU they used (in cores); before the load, the memory of the open, idle
 * sessions. The last line names the most sessions with p95 under 250 ms and no failure at
 * 1 s think time. CAPACITY_CONTEXTS=n puts n sessions in one browser, each in an isolated
 * context. `node --import tsx bench/capacity.ts` (not part of `npm run bench`: a full curve
 * takes several minutes).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../src/server/service';
import { startFixtureServers } from '../test/fixtures/server';
import { browserProcs, cpuByKind, pct, sum } from './procs';

const CURVE = (process.env.CAPACITY_CURVE ?? '1,4,16,32,64').split(',').map(Number);
const THINK = (process.env.CAPACITY_THINK_MS ?? '1000,5000').split(',').map(Number);
const SECONDS = Number(process.env.CAPACITY_SECONDS ?? 20);
/** Sessions per browser, each in an isolated context (the service's contextsPerBrowser); 1 is a browser each. */
const CONTEXTS = Number(process.env.CAPACITY_CONTEXTS ?? 1);
/** Sessions started at once: launching many browsers together only queues them on the CPU. */
const START_BATCH = 4;
const KEY = 'capacity-key';
const P95_GOAL_MS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (kb: number) => Math.round(kb / 1024);

async function main(): Promise<void> {
  process.env.DECKHAND_API_KEYS = KEY;
  const servers = await startFixtureServers();
  const svc = await startService({
    home: mkdtempSync(join(tmpdir(), 'dh-capacity-')),
    port: 0,
    maxSessions: Math.max(...CURVE),
    idleTimeoutMs: 3_600_000,
    contextsPerBrowser: CONTEXTS,
  });
  console.log(`sessions per browser: ${CONTEXTS}${CONTEXTS > 1 ? ' (isolated contexts)' : ''}`);
  const call = async (path: string, body: unknown) => {
    const r = await fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) });
    const j = (await r.json()) as { success: boolean; data?: any; error?: { code: string; message: string } };
    return { ok: r.ok && j.success, data: j.data, error: j.error };
  };
  const rows: Record<string, string | number>[] = [];
  const idle: Record<string, string | number>[] = [];
  let best = 0;
  for (const sessions of CURVE) {
    const ids: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < sessions; i += START_BATCH) {
      const started = await Promise.all(
        Array.from({ length: Math.min(START_BATCH, sessions - i) }, async () => {
          const s = await call('/v1/sessions/start', {});
          if (!s.ok) throw new Error(`session start failed at ${ids.length} sessions: ${s.error?.code} ${s.error?.message}`);
          await call(`/v1/sessions/${s.data.sessionId}/navigate`, { url: `${servers.origin}/form.html` });
          return s.data.sessionId as string;
        }),
      );
      ids.push(...started);
    }
    const startS = (performance.now() - t0) / 1000;
    await sleep(3000); // let start-up work end before measuring what an idle session costs
    (globalThis as { gc?: () => void }).gc?.();
    const idleProcs = browserProcs();
    const idleKb = sum(idleProcs, 'rssKb');
    idle.push({
      sessions,
      'start s (all)': +startS.toFixed(1),
      'browser PSS MB': mb(idleKb),
      'per idle session MB': +(idleKb / 1024 / sessions).toFixed(1),
      'browser processes': idleProcs.size,
      'service RSS MB': Math.round(process.memoryUsage().rss / 1e6),
    });
    for (const think of THINK) {
      const latencies: number[] = [];
      let failures = 0;
      let firstFailure = '';
      const before = browserProcs();
      const cpu0 = process.cpuUsage();
      const w0 = performance.now();
      const end = w0 + SECONDS * 1000;
      await Promise.all(
        ids.map(async (id, n) => {
          // Spread the sessions over the think time, as independent agents would be.
          await sleep((think * n) / ids.length);
          for (let i = 0; performance.now() < end; i++) {
            const t = performance.now();
            const r = await call(`/v1/sessions/${id}/act`, {
              input: { selector: i % 2 ? '#multi' : '#name', description: 'capacity', method: i % 2 ? 'click' : 'fill', arguments: i % 2 ? [] : [`n${i}`] },
            }).catch((e: Error) => ({ ok: false, error: { code: 'FETCH', message: e.message } }));
            latencies.push(performance.now() - t);
            if (!r.ok) {
              failures++;
              firstFailure ||= `${r.error?.code}: ${r.error?.message}`;
            }
            await sleep(think);
          }
        }),
      );
      const wallS = (performance.now() - w0) / 1000;
      const after = browserProcs();
      const byKind = cpuByKind(before, after);
      const browserCpuS = byKind.browser + byKind.extension + byKind.page + byKind.helper;
      const u = process.cpuUsage(cpu0);
      const serviceCpuS = (u.user + u.system) / 1e6;
      // Where an act's CPU goes: Chromium's browser process, the extension's renderer (the engine), the page's renderer, helpers, the service.
      const perAct = (s: number) => Math.round((s * 1000) / Math.max(1, latencies.length));
      const profile = `${perAct(byKind.browser)} / ${perAct(byKind.extension)} / ${perAct(byKind.page)} / ${perAct(byKind.helper)} / ${perAct(serviceCpuS)}`;
      const p95 = pct(latencies, 95);
      if (think === 1000 && failures === 0 && p95 < P95_GOAL_MS) best = Math.max(best, sessions);
      rows.push({
        sessions,
        'think ms': think,
        acts: latencies.length,
        failures,
        'p50 ms': +pct(latencies, 50).toFixed(1),
        'p95 ms': +p95.toFixed(1),
        'browser PSS MB': mb(sum(after, 'rssKb')),
        'CPU cores: browsers / service': `${(browserCpuS / wallS).toFixed(2)} / ${(serviceCpuS / wallS).toFixed(2)}`,
        'CPU ms per act: browser / worker / page / helpers / service': profile,
        ...(firstFailure ? { 'first failure': firstFailure.slice(0, 120) } : {}),
      });
      console.error(JSON.stringify(rows.at(-1)));
    }
    for (const id of ids) await call(`/v1/sessions/${id}/end`, {});
    await sleep(2000); // let the ended browsers go before the next step
  }
  await svc.close();
  await servers.close();
  console.log('open, idle sessions (each on the form page):');
  console.table(idle);
  console.log(`one deterministic act per session, then the think time, for ${SECONDS} s:`);
  console.table(rows);
  console.log(`most concurrent sessions with p95 under ${P95_GOAL_MS} ms and no failure at 1 s think time: ${best || 'none of those tried'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
