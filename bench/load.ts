/**
 * Load on loopback, as a curve: for each number of concurrent sessions (LOAD_CURVE, default
 * 1,2,4,8,12), every session sends deterministic act requests over HTTP back to back (a
 * fill or a click on the form page), and the run reports failures, p50/p95 latency, requests
 * per second, the memory of the service and of its Chromium processes (PSS: shared pages
 * counted once), and the CPU they and this process (the service, with the fixture server and
 * the HTTP client of the bench) used per request. The last line names the most sessions kept under 100 ms p95.
 * `npm run bench`.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../src/server/service';
import { startFixtureServers } from '../test/fixtures/server';

const CURVE = (process.env.LOAD_CURVE ?? '1,2,4,8,12').split(',').map(Number);
const PER_SESSION = Number(process.env.LOAD_REQUESTS_PER_SESSION ?? 40);
const KEY = 'load-key';
const P95_GOAL_MS = 100;
/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

interface Proc {
  rssKb: number;
  cpuS: number;
}

/**
 * The processes this one started, and theirs (the sessions' Chromium browsers and helpers):
 * resident memory and CPU seconds used so far, from /proc (Linux).
 */
function browserProcs(): Map<number, Proc> {
  const all = new Map<number, { ppid: number } & Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15) ... rss(24).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(name), { ppid: Number(f[1]), cpuS: (Number(f[11]) + Number(f[12])) / TICKS, rssKb: Number(f[21]) * 4 });
    } catch {
      /* the process ended while being read */
    }
  }
  const out = new Map<number, Proc>();
  const inTree = (pid: number): boolean => {
    for (let p = all.get(pid)?.ppid, depth = 0; p && depth < 16; p = all.get(p)?.ppid, depth++) if (p === process.pid) return true;
    return false;
  };
  for (const [pid, p] of all) {
    if (!inTree(pid)) continue;
    // Proportional set size: shared pages counted once across the processes that share them.
    let pssKb = p.rssKb;
    try {
      pssKb = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? p.rssKb);
    } catch {
      /* ended meanwhile: its RSS stands in */
    }
    out.set(pid, { rssKb: pssKb, cpuS: p.cpuS });
  }
  return out;
}
const sum = (m: Map<number, Proc>, k: keyof Proc) => [...m.values()].reduce((a, p) => a + p[k], 0);
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

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
