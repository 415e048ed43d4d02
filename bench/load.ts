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
import { markdownTable, publish } from './publish';
import { lineChart } from './svg-chart';

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
  const rows: LoadRow[] = [];
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
          const r = await call(`/v1/sessions/${id}/act`, {
            input: { selector: i % 2 ? '#multi' : '#name', description: 'load', method: i % 2 ? 'click' : 'fill', arguments: i % 2 ? [] : [`n${i}`] },
          });
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
      p50Ms: +pct(latencies, 50).toFixed(1),
      p95Ms: +p95.toFixed(1),
      reqPerS: +((latencies.length / wall) * 1000).toFixed(1),
      browserPssMb: browserMb,
      browserProcesses: procsAfter.size,
      browserCpuMsPerRequest: +((cpuS / latencies.length) * 1000).toFixed(1),
      serviceCpuMsPerRequest: +((serviceCpuS / latencies.length) * 1000).toFixed(1),
      serviceRssMbBefore: serviceBefore,
      serviceRssMbAtLoad: serviceMb,
    });
    await new Promise((r) => setTimeout(r, 1000)); // let the ended browsers go before the next level
  }
  await svc.close();
  await servers.close();
  const table = rows.map(display);
  console.table(table);
  const most = `most concurrent sessions with p95 under ${P95_GOAL_MS} ms and no failure: ${best || 'none of those tried'}`;
  console.log(most);
  const written = publish('load', {
    about:
      `HTTP service on loopback: each of N concurrent sessions sends ${PER_SESSION} deterministic acts ` +
      '(fill/click alternating on the form page) back to back',
    parameters: { curve: CURVE, requestsPerSession: PER_SESSION, p95GoalMs: P95_GOAL_MS, mostSessionsUnderGoal: best },
    rows,
    svg: lineChart({
      title: 'HTTP service: act latency by concurrent sessions',
      xLabel: 'concurrent sessions, each sending acts back to back',
      yLabel: 'latency per act (ms)',
      series: [
        { name: 'p50', points: rows.map((r) => [r.sessions, r.p50Ms]) },
        { name: 'p95', points: rows.map((r) => [r.sessions, r.p95Ms]) },
      ],
      rule: { y: P95_GOAL_MS, label: `${P95_GOAL_MS} ms goal` },
      format: (v) => `${v} ms`,
    }),
    markdown: `${markdownTable(table)}\n${most[0].toUpperCase()}${most.slice(1)}.\n`,
  });
  if (written) console.log(`wrote ${written} and its chart`);
}

interface LoadRow {
  sessions: number;
  requests: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  reqPerS: number;
  /** PSS of all the session browsers' processes. */
  browserPssMb: number;
  browserProcesses: number;
  browserCpuMsPerRequest: number;
  /** This process: the service, the fixture server and the bench's HTTP client. */
  serviceCpuMsPerRequest: number;
  serviceRssMbBefore: number;
  serviceRssMbAtLoad: number;
}

/** A row as the console and the docs table show it. */
const display = (r: LoadRow): Record<string, string | number> => ({
  sessions: r.sessions,
  requests: r.requests,
  failures: r.failures,
  'p50 ms': r.p50Ms,
  'p95 ms': r.p95Ms,
  'req/s': r.reqPerS,
  'browser PSS MB (per session)': `${r.browserPssMb} (${Math.round(r.browserPssMb / r.sessions)})`,
  'browser processes': r.browserProcesses,
  'CPU ms per request: browsers / service process': `${r.browserCpuMsPerRequest} / ${r.serviceCpuMsPerRequest}`,
  'service RSS MB before/at load': `${r.serviceRssMbBefore}/${r.serviceRssMbAtLoad}`,
});

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
