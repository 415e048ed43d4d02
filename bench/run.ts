/**
 * Benchmarks, reported as ratios against Playwright measured in the same run on
 * the same pages and the same Chromium binary:
 *  - launch until the first call (launch, then the page's title), as each page's run starts;
 *  - snapshot capture time (median) on a changed page (a text node is rewritten before each
 *    capture on both sides, so no cache answers) and its size in o200k tokens, vs
 *    locator('body').ariaSnapshot();
 *  - the round trip of a deterministic act click from Node vs locator.click();
 *  - act(instruction) with the built-in model on the same target, on a changed page, vs
 *    locator.click() on a changed page.
 * Pages: the fixture pages, and Python's own documentation (bench/pydoc.ts).
 * Numbers, not pass/fail: `npm run bench`.
 */
import { chromium, type Page as PwPage } from 'playwright-core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Deckhand, localBrowser } from '../src/index';
import { findChromium } from '../src/client/paths';
import { startFixtureServers } from '../test/fixtures/server';
import { PYDOC_PAGES, pythonDocs } from './pydoc';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 30);
const ACTS = Number(process.env.BENCH_ACTS ?? 9);
const ONLY = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES) : null;

interface PageCase {
  name: string;
  path: string;
  /** The target, by CSS (Playwright's CSS pierces open shadow roots; so does this bench's check). */
  target: string;
  /** The same target in plain words, for act(instruction) with the built-in model. */
  instruction: string;
}

const CASES: PageCase[] = [
  { name: 'frames (2 iframes)', path: '/frames.html', target: '#top-btn', instruction: 'click the Top button' },
  { name: 'shadow roots', path: '/shadow.html', target: '#open-btn', instruction: 'click the Open shadow button' },
  { name: 'form (30 fields)', path: '/bench-form', target: '#multi', instruction: 'click the Multi button' },
  { name: 'table 100 rows', path: '/table?rows=100', target: 'tbody tr:nth-child(42) button', instruction: 'click the Edit button in the row for User 42' },
  { name: 'table 1000 rows', path: '/table?rows=1000', target: 'tbody tr:nth-child(42) button', instruction: 'click the Edit button in the row for User 42' },
  { name: 'table 5000 rows', path: '/table?rows=5000', target: 'tbody tr:nth-child(42) button', instruction: 'click the Edit button in the row for User 42' },
  { name: 'docs (80 sections)', path: '/docs?sections=80', target: 'aside nav li:nth-child(2) a', instruction: 'click the Section 2: Pending writes link' },
  ...PYDOC_PAGES.map((p) => ({ ...p, target: 'div.related input[name=q]', instruction: 'click the Quick search box at the top' })),
].filter((c) => !ONLY || ONLY.test(c.name));

/** Python's documentation, or null (its pages are then left out, and the run says why). */
function docsFolder(): string | null {
  try {
    return pythonDocs();
  } catch (e) {
    console.error(`leaving out Python's documentation pages: ${(e as Error).message}`);
    return null;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Time `fn` n times, running `before` (untimed) ahead of each. */
async function timeEach(n: number, before: () => Promise<unknown>, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await before();
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}
const nothing = async () => undefined;

// Page scripts are plain source, so the bundler's helpers (tsx names functions) never reach the page.
type Evaluates = { evaluate: (source: string) => Promise<unknown> };
const run = (p: Evaluates, source: string, arg: unknown) => p.evaluate(`(${source})(${JSON.stringify(arg)})`);

/** Rewrite the first visible text node of the page, so no snapshot is answered from a cache. */
const touch = (p: Evaluates) =>
  run(
    p,
    `(n) => {
      const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
        acceptNode: (t) => (/\\S/.test(t.data) && t.parentElement.closest('h1,h2,p,td,label,a,li') ? 1 : 3)
      });
      const t = w.nextNode();
      if (t) t.data = t.data.replace(/ ·\\d+$/, '') + ' ·' + n;
    }`,
    Math.floor(Math.random() * 1e6),
  );

/** Record the element each click lands on (composed path, so shadow roots count), for the check below. */
const recordClicks = (p: Evaluates) =>
  run(
    p,
    '() => { if (window.__benchHooked) return; window.__benchHooked = true; ' +
      "document.addEventListener('click', (e) => (window.__benchLast = e.composedPath()[0]), true); }",
    null,
  );

/** Whether the last click landed on `css` (searched through open shadow roots). */
const clickedOn = (p: Evaluates, css: string) =>
  run(
    p,
    `(sel) => {
      const find = (root) => {
        const hit = root.querySelector(sel);
        if (hit) return hit;
        for (const el of root.querySelectorAll('*')) {
          const found = el.shadowRoot && find(el.shadowRoot);
          if (found) return found;
        }
        return null;
      };
      return !!window.__benchLast && window.__benchLast === find(document);
    }`,
    css,
  ) as Promise<boolean>;

async function main(): Promise<void> {
  const docs = docsFolder();
  const servers = await startFixtureServers({ mounts: docs ? { '/pydoc/': docs } : {} });
  const url = (p: string) => servers.origin + p;
  const exe = findChromium()!;
  const rows: Record<string, string | number>[] = [];
  const launches: Record<string, string | number>[] = [];

  interface Ours {
    launchMs: number;
    snapMs: number;
    sameMs: number;
    tokens: number;
    estTokens: number;
    folded: boolean;
    clickMs: number;
    actMs: number;
    actRight: string;
  }
  const ours: Record<string, Ours> = {};
  const theirs: Record<string, { launchMs: number; snapMs: number; tokens: number; clickMs: number; changedClickMs: number }> = {};

  // One browser per page on each side, launched and timed as a program would, alternating
  // sides page by page so both meet the same machine load.
  for (const c of CASES.filter((k) => docs || !k.path.startsWith('/pydoc/'))) {
    {
      const t = performance.now();
      const browser = await localBrowser.launch({ viewport: { width: 1280, height: 800 } });
      const dh = await Deckhand.create({ browser, model: 'deckhand/local' });
      const page = await browser.context.activePage();
      await page.title();
      const launchMs = performance.now() - t;
      await page.goto(url(c.path));
      for (let i = 0; i < 3; i++) await page.snapshot(); // warm: first style and layout pass, JIT
      let snap = await page.snapshot();
      const snapMs = median(
        await timeEach(
          RUNS,
          () => touch(page),
          async () => (snap = await page.snapshot()),
        ),
      );
      const sameMs = median(await timeEach(RUNS, nothing, () => page.snapshot()));
      await dh.act({ selector: c.target, description: 'warm', method: 'click' });
      const clickMs = median(await timeEach(CLICKS, nothing, () => dh.act({ selector: c.target, description: 'bench click', method: 'click' })));
      await recordClicks(page);
      let right = 0;
      const actMs = median(
        await timeEach(
          ACTS,
          () => touch(page),
          async () => {
            const r = await dh.act(c.instruction);
            if (r.data.success && (await clickedOn(page, c.target))) right++;
          },
        ),
      );
      ours[c.name] = {
        launchMs,
        snapMs,
        sameMs,
        tokens: countTokens(snap.text),
        estTokens: snap.tokens,
        folded: snap.folded,
        clickMs,
        actMs,
        actRight: `${right}/${ACTS}`,
      };
      await dh.close();
      await browser.close();
    }
    {
      const t = performance.now();
      const pw = await chromium.launch({ executablePath: exe, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
      const ctx = await pw.newContext({ viewport: { width: 1280, height: 800 } });
      const ppage: PwPage = await ctx.newPage();
      await ppage.title();
      const launchMs = performance.now() - t;
      await ppage.goto(url(c.path));
      const body = ppage.locator('body');
      for (let i = 0; i < 3; i++) await body.ariaSnapshot();
      let aria = '';
      const snapMs = median(
        await timeEach(
          RUNS,
          () => touch(ppage),
          async () => (aria = await body.ariaSnapshot()),
        ),
      );
      const btn = ppage.locator(c.target).first();
      await btn.click();
      const clickMs = median(await timeEach(CLICKS, nothing, () => btn.click()));
      const changedClickMs = median(
        await timeEach(
          ACTS,
          () => touch(ppage),
          () => btn.click(),
        ),
      );
      theirs[c.name] = { launchMs, snapMs, tokens: countTokens(aria), clickMs, changedClickMs };
      await pw.close();
    }
    const o = ours[c.name]!;
    const p = theirs[c.name]!;
    rows.push({
      page: c.name,
      'ours snap ms': +o.snapMs.toFixed(1),
      'pw snap ms': +p.snapMs.toFixed(1),
      'snap ratio': +(o.snapMs / p.snapMs).toFixed(2),
      'ours unchanged ms': +o.sameMs.toFixed(1),
      'ours tokens': o.tokens,
      folded: o.folded ? 'yes' : 'no',
      'pw tokens': p.tokens,
      'ours click ms': +o.clickMs.toFixed(1),
      'pw click ms': +p.clickMs.toFixed(1),
      'click ratio': +(o.clickMs / p.clickMs).toFixed(2),
      'act(instr.) ms': +o.actMs.toFixed(1),
      'pw click, changed ms': +p.changedClickMs.toFixed(1),
      'act ratio': +(o.actMs / p.changedClickMs).toFixed(2),
      'act right': o.actRight,
    });
    console.error(JSON.stringify(rows.at(-1)));
    launches.push({
      page: c.name,
      'ours launch ms': +o.launchMs.toFixed(0),
      'pw launch ms': +p.launchMs.toFixed(0),
      'difference ms': +(o.launchMs - p.launchMs).toFixed(0),
    });
  }
  await servers.close();
  console.table(rows);
  console.table(launches);
  console.log(JSON.stringify({ runs: RUNS, clicks: CLICKS, acts: ACTS, rows, launches }, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
