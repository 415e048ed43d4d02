/**
 * experimentalBatch against one-by-one calls from Node, in the same run on the
 * same page: 50 deterministic clicks and 50 page.evaluate calls. `npm run bench`.
 */
import { Deckhand, localBrowser } from '../src/index';
import { startFixtureServers } from '../test/fixtures/server';

const N = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn: () => Promise<unknown>): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const browser = await localBrowser.launch();
  const dh = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  await page.goto(`${servers.origin}/form.html`);
  const button = page.locator('#multi');
  await button.click();
  const clicksNode = await time(async () => {
    for (let i = 0; i < N; i++) await button.click();
  });
  const clicksBatch = await time(() =>
    dh.experimentalBatch(async (b, n: number) => {
      const btn = b.page.locator('#multi');
      for (let i = 0; i < n; i++) await btn.click();
    }, N),
  );
  const evalNode = await time(async () => {
    for (let i = 0; i < N; i++) await page.evaluate(() => document.title);
  });
  const evalBatch = await time(() =>
    dh.experimentalBatch(async (b, n: number) => {
      for (let i = 0; i < n; i++) await b.page.evaluate(() => document.title);
    }, N),
  );
  await dh.close();
  await browser.close();
  await servers.close();
  console.table([
    {
      work: `${N} clicks`,
      'one by one ms': +clicksNode.toFixed(1),
      'in a batch ms': +clicksBatch.toFixed(1),
      'speed-up': +(clicksNode / clicksBatch).toFixed(2),
    },
    {
      work: `${N} page.evaluate`,
      'one by one ms': +evalNode.toFixed(1),
      'in a batch ms': +evalBatch.toFixed(1),
      'speed-up': +(evalNode / evalBatch).toFixed(2),
    },
  ]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
