/**
 * Watch latency: how long after the worker logs a step the side panel shows it, against the
 * same step's log line reaching the Node program that runs it (the peer, measured on the same
 * steps in the same run). A Node program runs acts and agent runs (built-in model) on a fixture
 * page while the panel page, opened as a tab, records with a MutationObserver when each step's
 * row enters its DOM. Times are wall-clock ms on one machine: the worker's (the event's `at`),
 * Node's and the panel's. Goal: the panel shows a step within 100 ms. `npm run bench`.
 */
import { Deckhand, localBrowser } from '../src/index';
import { startFixtureServers } from '../test/fixtures/server';
import { PanelPage } from '../test/fixtures/panel-page';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  // What the Node program receives: each step's log line, with when it arrived.
  const nodeSeen: { message: string; at: number }[] = [];
  const dh = await Deckhand.create({ browser, logging: { level: 'info', callback: (l) => nodeSeen.push({ message: l.message, at: now() }) } });
  const page = await browser.context.activePage();
  await page.goto(servers.origin + '/app/login.html');
  const panel = await PanelPage.open(browser, page.id);
  await page.bringToFront();
  await panel.bringToFront();
  await page.bringToFront();
  await panel.click('[data-testid=tab-live]');
  // When each step row enters the panel's DOM, by run and sequence number.
  await panel.eval(`(() => {
    window.__shown = [];
    new MutationObserver((records) => {
      const t = performance.timeOrigin + performance.now();
      for (const r of records) for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        const rows = n.matches('[data-testid=live-step]') ? [n] : [...n.querySelectorAll('[data-testid=live-step]')];
        for (const s of rows)
          window.__shown.push({ seq: Number(s.dataset.seq), at: Number(s.dataset.at), step: !!s.dataset.type, text: s.textContent, shown: t });
      }
    }).observe(document.body, { childList: true, subtree: true });
  })()`);

  const pairs: { panel: number; node: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    await page.goto(servers.origin + '/app/login.html');
    nodeSeen.length = 0;
    await panel.eval('window.__shown.length = 0');
    await dh.act('type "ada" into the Username field', { page });
    await dh.agent().execute({ instruction: 'Enter the username "kanesha" and the password "3w" into the text fields and press Log in.' });
    await new Promise((r) => setTimeout(r, 300)); // the last rows reach the panel
    const shown = await panel.eval<{ seq: number; at: number; step: boolean; text: string; shown: number }[]>('window.__shown');
    // The same steps on both sides, in order: act's first line, then each agent step.
    const rows = shown.filter((s) => s.step || /^act on page/.test(s.text));
    const lines = nodeSeen.filter((l) => /^act on page|^step \d+:/.test(l.message));
    if (rows.length !== lines.length) throw new Error(`the panel showed ${rows.length} steps, the program got ${lines.length}`);
    rows.forEach((s, k) => pairs.push({ panel: s.shown - s.at, node: lines[k].at - s.at }));
  }
  const p = pairs.map((x) => x.panel);
  const n = pairs.map((x) => x.node);
  const med = (xs: number[]) => pct(xs, 0.5);
  console.log(`watch latency over ${pairs.length} steps (${RUNS} acts and ${RUNS} agent runs): step logged in the worker → shown`);
  console.table([
    {
      'panel median ms': +med(p).toFixed(1),
      'panel p95 ms': +pct(p, 0.95).toFixed(1),
      'panel max ms': +Math.max(...p).toFixed(1),
      'node client median ms': +med(n).toFixed(1),
      'node client p95 ms': +pct(n, 0.95).toFixed(1),
      'ratio (panel / node, medians)': +(med(p) / Math.max(0.1, med(n))).toFixed(2),
      'goal ms': 100,
    },
  ]);
  await dh.close();
  await browser.close();
  await servers.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
