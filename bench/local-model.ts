/**
 * The built-in local model's decision time (its own compute, as reported in
 * usage.inferenceTimeMs) on the 5000-row table page, next to the whole act's round
 * trip and a Playwright click on the same button for scale; and the same for each step
 * of a two-step agent run planned by the built-in model (planning and grounding included).
 * `npm run bench`.
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
  // The agent: two steps per run, each planned, grounded and run through act.
  const stepDecide: number[] = [];
  const stepWhole: number[] = [];
  let agentOk = true;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = await dh.agent().execute('Click the Edit button in the row for User 4321, then click the Edit button in the row for User 17');
    agentOk &&= r.success;
    const acts = r.actions.filter((a) => a.type === 'act').length || 1;
    stepWhole.push((performance.now() - t) / acts);
    stepDecide.push((r.usage?.inference_time_ms ?? 0) / acts);
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
    {
      page: 'table 5000 rows, agent step',
      'local decision ms (median)': +median(stepDecide).toFixed(1),
      'local act round trip ms': +median(stepWhole).toFixed(1),
      'pw locator.click ms': +median(pwClick).toFixed(1),
      'decision / pw click': +(median(stepDecide) / median(pwClick)).toFixed(3),
      chose: agentOk ? 'both steps done' : 'a run failed',
    },
  ]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
