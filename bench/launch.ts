/**
 * Launch until the first call can run: localBrowser.launch() + Deckhand.create() + one
 * page.title(), against Playwright's chromium.launch() + newPage() + title() on the same
 * Chromium binary, alternating, in one run. `npm run bench`.
 */
import { chromium } from 'playwright-core';
import { Deckhand, localBrowser } from '../src/index';
import { findChromium } from '../src/client/paths';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function ours(): Promise<number> {
  const t = performance.now();
  const browser = await localBrowser.launch();
  const dh = await Deckhand.create({ browser });
  await (await browser.context.activePage()).title();
  const ms = performance.now() - t;
  await dh.close();
  await browser.close();
  return ms;
}

async function playwright(): Promise<number> {
  const t = performance.now();
  const b = await chromium.launch({ executablePath: findChromium()!, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await b.newPage();
  await page.title();
  const ms = performance.now() - t;
  await b.close();
  return ms;
}

async function main(): Promise<void> {
  await ours(); // warm the disk cache for both
  await playwright();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await ours());
    b.push(await playwright());
  }
  const o = median(a);
  const p = median(b);
  console.table([{ 'deckhand ms': +o.toFixed(0), 'playwright ms': +p.toFixed(0), 'difference ms': +(o - p).toFixed(0), ratio: +(o / p).toFixed(2) }]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
