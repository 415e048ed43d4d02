/**
 * The built-in local model's decision time (its own compute, as reported in
 * usage.inferenceTimeMs) on the 5000-row table page, next to the whole act's round
 * trip and a Playwright click on the same button for scale. `npm run bench`.
 */
import { chromium } from 'playwright-core';
import { Deckhand, localBrowser } from '../src/index';
import { findChromium } from '../src/client/paths';
import { startFixtureServers } from '../test/fixtures/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const url = `${servers.origin}/table?rows=5000`;
  const browser = await localBrowser.launch();
  const dh = await Deckhand.create({ browser, model: 'deckhand/local' });
  const page = await browser.context.activePage();
  await page.goto(url);
  const decide: number[] = [];
  const whole: number[] = [];
  let chosen = '';
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = await dh.act('click the Edit button in the row for User 4321');
    whole.push(performance.now() - t);
    decide.push(r.metadata.usage.inferenceTimeMs);
    chosen = r.data.actions[0]?.selector ?? 'nothing';
  }
  await dh.close();
  await browser.close();

  const pw = await chromium.launch({ executablePath: findChromium()!, args: ['--no-sandbox', '--disable-gpu'] });
  const ppage = await pw.newPage();
  await ppage.goto(url);
  const btn = ppage.locator('tbody tr').nth(4320).locator('button');
  await btn.click();
  const pwClick: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await btn.click();
    pwClick.push(performance.now() - t);
  }
  await pw.close();
  await servers.close();
  console.table([
    {
      page: 'table 5000 rows',
      'local decision ms (median)': +median(decide).toFixed(1),
      'local act round trip ms': +median(whole).toFixed(1),
      'pw locator.click ms': +median(pwClick).toFixed(1),
      'decision / pw click': +(median(decide) / median(pwClick)).toFixed(3),
      chose: chosen,
    },
  ]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
