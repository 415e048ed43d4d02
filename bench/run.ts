/**
 * Benchmarks, reported as ratios against Playwright measured in the same run on
 * the same pages and the same Chromium binary:
 *  - snapshot capture time (median) and size in o200k tokens vs locator('body').ariaSnapshot();
 *  - the round trip of a deterministic act click from Node vs locator.click().
 * Numbers, not pass/fail: `npm run bench`.
 */
import { chromium } from 'playwright-core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Deckhand, localBrowser } from '../src/index';
import { findChromium } from '../src/client/paths';
import { startFixtureServers } from '../test/fixtures/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 30);

interface PageCase {
  name: string;
  path: string;
  /** A button to click, by CSS. */
  button: string;
}

const CASES: PageCase[] = [
  { name: 'frames (2 iframes)', path: '/frames.html', button: '#top-btn' },
  { name: 'shadow roots', path: '/shadow.html', button: '#open-host' },
  { name: 'form (30 fields)', path: '/bench-form', button: '#multi' },
  { name: 'table 100 rows', path: '/table?rows=100', button: 'tbody tr:first-child button' },
  { name: 'table 1000 rows', path: '/table?rows=1000', button: 'tbody tr:first-child button' },
  { name: 'table 5000 rows', path: '/table?rows=5000', button: 'tbody tr:first-child button' },
  { name: 'docs (80 sections)', path: '/docs?sections=80', button: 'aside nav li:nth-child(2) a' },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timeIt(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Time `fn` n times, running `before` (untimed) ahead of each. */
async function timeChanged(n: number, before: () => Promise<unknown>, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await before();
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Change the page (a data attribute on body) so that no snapshot is answered from a cache. */
const touch = (p: { evaluate: (fn: () => void) => Promise<unknown> }) => p.evaluate(() => void document.body.setAttribute('data-bench', String(Math.random())));

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const url = (p: string) => servers.origin + p;
  const rows: Record<string, string | number>[] = [];

  // Deckhand.
  const browser = await localBrowser.launch({ viewport: { width: 1280, height: 800 } });
  const dh = await Deckhand.create({ browser });
  const page = await browser.context.activePage();
  const ours: Record<string, { snapMs: number; sameMs: number; tokens: number; estTokens: number; folded: boolean; clickMs: number }> = {};
  for (const c of CASES) {
    await page.goto(url(c.path));
    for (let i = 0; i < 3; i++) await page.snapshot(); // warm: first style and layout pass, JIT
    let snap = await page.snapshot();
    // A changed page each time (an attribute set between runs, not timed): the full capture.
    const snapMs = median(await timeChanged(RUNS, () => touch(page), async () => (snap = await page.snapshot())));
    // The same page again, unchanged: answered from what the frame's content script kept.
    const sameMs = median(await timeIt(RUNS, () => page.snapshot()));
    await dh.act({ selector: c.button, description: 'warm', method: 'click' });
    const clickMs = median(await timeIt(CLICKS, () => dh.act({ selector: c.button, description: 'bench click', method: 'click' })));
    ours[c.name] = { snapMs, sameMs, tokens: countTokens(snap.text), estTokens: snap.tokens, folded: snap.folded, clickMs };
  }
  await dh.close();
  await browser.close();

  // Playwright on the same pages, same binary.
  const pw = await chromium.launch({ executablePath: findChromium()!, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const ctx = await pw.newContext({ viewport: { width: 1280, height: 800 } });
  const ppage = await ctx.newPage();
  for (const c of CASES) {
    await ppage.goto(url(c.path));
    const body = ppage.locator('body');
    for (let i = 0; i < 3; i++) await body.ariaSnapshot();
    let aria = '';
    const snapMs = median(await timeChanged(RUNS, () => touch(ppage), async () => (aria = await body.ariaSnapshot())));
    const btn = ppage.locator(c.button).first();
    await btn.click();
    const clickMs = median(await timeIt(CLICKS, () => btn.click()));
    const o = ours[c.name];
    rows.push({
      page: c.name,
      'ours snap ms': +o.snapMs.toFixed(1),
      'pw snap ms': +snapMs.toFixed(1),
      'snap time ratio': +(o.snapMs / snapMs).toFixed(3),
      'ours unchanged ms': +o.sameMs.toFixed(1),
      'ours tokens': o.tokens,
      'ours est.': o.estTokens,
      folded: o.folded ? 'yes' : 'no',
      'pw tokens': countTokens(aria),
      'token ratio': +(o.tokens / countTokens(aria)).toFixed(3),
      'ours click ms': +o.clickMs.toFixed(1),
      'pw click ms': +clickMs.toFixed(1),
      'click ratio': +(o.clickMs / clickMs).toFixed(3),
    });
  }
  await pw.close();
  await servers.close();
  console.table(rows);
  console.log(JSON.stringify({ runs: RUNS, clicks: CLICKS, rows }, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
