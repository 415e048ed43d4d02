/**
 * Past one machine, measured: the same short flow on SCALE_SESSIONS sessions (default 20), first
 * on the embedded default (one process, local Chromium, SQLite: the peer), then on a Selenium
 * Grid with two `deckhand serve` replicas sharing PostgreSQL behind a round-robin. Reports p50 and
 * p95 of each operation on both and their ratio, sessions and requests per replica; then kills one
 * replica with SIGKILL mid-round and reports what failed in flight, how long until every session
 * answered again, sessions lost and what was left in the Grid. Last, experimentalBatch against
 * separate calls with the browser behind a 20 ms round trip (bench/batch-link.ts), with the local
 * figure beside it. `node --import tsx bench/scale.ts` (needs `npm run build` and `npm run setup`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../src/server/service';
import { startCluster } from '../fleet/cluster';
import { startCounterPages, type CounterPages } from '../test/fixtures/counter-pages';
import { gridSessions } from '../fleet/grid';
import { measureBatchOverLink } from './batch-link';
import { pct } from './procs';

const SESSIONS = Number(process.env.SCALE_SESSIONS ?? 20);
/** Acts per session in the measured part of the flow. */
const ACTS = Number(process.env.SCALE_ACTS ?? 5);
const KEY = 'scale-key';
const ACT = { input: 'click the Add one button', model: 'deckhand/local' };
const RETRYABLE = new Set(['UNAVAILABLE', 'SESSION_BUSY']);
/** A model's think time between a session's operations. */
const THINK_MS = Number(process.env.SCALE_THINK_MS ?? 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Call = (path: string, body: unknown) => Promise<{ status: number; body: any }>;

interface FlowFigures {
  startS: number;
  navigate: number[];
  act: number[];
  failures: number;
}

/** Start the sessions, then on each: navigate, and ACTS acts with the think time before each; every act checked against the page's own count. */
async function flow(call: Call, pages: CounterPages, offset: number): Promise<{ ids: string[]; figures: FlowFigures }> {
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const r = await call('/v1/sessions/start', {});
      if (!r.body?.success) throw new Error(`session start failed: ${JSON.stringify(r.body)}`);
      return r.body.data.sessionId as string;
    }),
  );
  const figures: FlowFigures = { startS: (performance.now() - t0) / 1000, navigate: [], act: [], failures: 0 };
  await sleep(3000); // let the browsers' start-up work end: the flow is measured on a quiet machine
  await Promise.all(
    ids.map(async (id, i) => {
      const n = offset + i;
      // Spread over the think time, as independent agents would be.
      await sleep((THINK_MS * i) / ids.length);
      let t = performance.now();
      const nav = await call(`/v1/sessions/${id}/navigate`, { url: `${pages.origin}/?s=${n}` });
      figures.navigate.push(performance.now() - t);
      if (nav.body?.data?.title !== `Counter ${n}`) figures.failures++;
      for (let k = 1; k <= ACTS; k++) {
        await sleep(THINK_MS);
        t = performance.now();
        const r = await call(`/v1/sessions/${id}/act`, ACT);
        figures.act.push(performance.now() - t);
        if (!r.body?.data?.data?.success || (await pages.hitsBecome(n, k)) !== k) figures.failures++;
      }
    }),
  );
  return { ids, figures };
}

const ms = (x: number) => Math.round(x);

async function main(): Promise<void> {
  const pages = await startCounterPages();

  // The peer: the embedded default on this machine, the same flow and number of sessions.
  process.env.DECKHAND_API_KEYS = KEY;
  const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-scale-')), port: 0, maxSessions: SESSIONS, idleTimeoutMs: 3_600_000, mcp: false });
  const local: Call = async (path, body) => {
    const r = await fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  };
  const peer = await flow(local, pages, 0);
  await Promise.all(peer.ids.map((id) => local(`/v1/sessions/${id}/end`, {})));
  await svc.close();
  delete process.env.DECKHAND_API_KEYS;

  const cluster = await startCluster({ replicas: 2, gridSlots: SESSIONS });
  try {
    const grid = await flow(cluster.call, pages, 1000);
    const ratio = (a: number[], b: number[], p: number) => (pct(a, p) / pct(b, p)).toFixed(2);
    console.log(
      `\n${SESSIONS} sessions, each: start, navigate, then ${ACTS} times: think ${THINK_MS} ms, ` +
        "act by instruction with the built-in model (checked against the page's own count)\n",
    );
    console.log('| setup | start all s | navigate p50 ms | navigate p95 ms | act p50 ms | act p95 ms | failures |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, f] of [
      ['embedded (one process, local Chromium, SQLite)', peer.figures],
      ['Grid + 2 replicas + PostgreSQL + round-robin', grid.figures],
    ] as const) {
      console.log(
        `| ${name} | ${f.startS.toFixed(1)} | ${ms(pct(f.navigate, 50))} | ${ms(pct(f.navigate, 95))} | ` +
          `${ms(pct(f.act, 50))} | ${ms(pct(f.act, 95))} | ${f.failures} |`,
      );
    }
    console.log(
      `| ratio (Grid / embedded) | ${(grid.figures.startS / peer.figures.startS).toFixed(2)} | ` +
        `${ratio(grid.figures.navigate, peer.figures.navigate, 50)} | ${ratio(grid.figures.navigate, peer.figures.navigate, 95)} | ` +
        `${ratio(grid.figures.act, peer.figures.act, 50)} | ${ratio(grid.figures.act, peer.figures.act, 95)} | |`,
    );
    const started = new Map<string, number>();
    for (const id of grid.ids) started.set(cluster.rr.startedOn.get(id) ?? '?', (started.get(cluster.rr.startedOn.get(id) ?? '?') ?? 0) + 1);
    console.log('\n| replica | sessions started | requests answered |\n|---|---:|---:|');
    for (const r of cluster.replicas) console.log(`| ${r.name} | ${started.get(r.url) ?? 0} | ${cluster.rr.served.get(r.url) ?? 0} |`);

    // One replica dies mid-round; every session must go on through the other.
    const victim = cluster.replicas[0];
    const t0 = performance.now();
    let killedAt = 0;
    const round = grid.ids.map(async (id, i) => {
      const n = 1000 + i;
      const want = ACTS + 1;
      for (let attempts = 1; ; attempts++) {
        const r = await cluster.call(`/v1/sessions/${id}/act`, ACT);
        if (r.body?.data?.data?.success) return { attempts, doneAt: performance.now(), clicks: await pages.hitsBecome(n, want), want };
        if (!RETRYABLE.has(r.body?.error?.code) || performance.now() - t0 > 60_000)
          return { attempts, doneAt: performance.now(), clicks: -1, want, error: r.body?.error };
        await new Promise((res) => setTimeout(res, 250));
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    victim.proc.kill('SIGKILL');
    killedAt = performance.now();
    const outcomes = await Promise.all(round);
    const retried = outcomes.filter((o) => o.attempts > 1);
    const lost = outcomes.filter((o) => o.clicks < 0);
    const recoveredS = (Math.max(...outcomes.map((o) => o.doneAt)) - killedAt) / 1000;
    const ended = await Promise.all(grid.ids.map((id) => cluster.call(`/v1/sessions/${id}/end`, {})));
    const deadline = Date.now() + 15_000;
    let left = await gridSessions(cluster.grid.url);
    while (left > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      left = await gridSessions(cluster.grid.url);
    }
    console.log('\nSIGKILL of one replica mid-round (acts retried on UNAVAILABLE and SESSION_BUSY)\n');
    console.log(
      '| sessions | in flight that failed, then retried | sessions lost | every session answered again after s | ' +
        'ended through the survivor | Grid sessions left |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${SESSIONS} | ${retried.length} | ${lost.length} | ${recoveredS.toFixed(1)} | ` +
        `${ended.filter((e) => e.body?.data?.ended).length}/${SESSIONS} | ${left} |`,
    );
    if (lost.length) console.log(`lost: ${JSON.stringify(lost.map((l) => l.error))}`);
  } finally {
    await cluster.stop();
  }

  const b = await measureBatchOverLink({ oneWayMs: 10, clicks: 50 });
  console.log(`\nexperimentalBatch: ${b.clicks} clicks in one batch against ${b.clicks} client calls\n`);
  console.log('| where the browser is | calls ms | batch ms | batch faster by |\n|---|---:|---:|---:|');
  console.log(`| this machine | ${b.local.callsMs} | ${b.local.batchMs} | ${b.local.ratio.toFixed(1)}x |`);
  console.log(`| behind a ${b.link.rttMs} ms round trip | ${b.link.callsMs} | ${b.link.batchMs} | ${b.link.ratio.toFixed(1)}x |`);
  await pages.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
