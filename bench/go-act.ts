/**
 * The Go client's overhead: the same deterministic act (a click by selector, no model) on
 * the same page, from Node and from Go, measured in one run, alternating Node and Go
 * rounds so both see the same machine. Each side launches its own Chromium (the same binary)
 * with the extension. Reports the medians and the ratio Go / Node (the bound: 1.5).
 *
 *   node --import tsx bench/go-act.ts      (BENCH_CLICKS=100 BENCH_ROUNDS=3 by default)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { Deckhand, localBrowser } from '../src/index';
import { startFixtureServers } from '../test/fixtures/server';

const CLICKS = Number(process.env.BENCH_CLICKS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CASES = [
  { name: 'form page (/form.html, #multi)', path: '/form.html', selector: '#multi' },
  { name: '30-field form (/bench-form, #multi)', path: '/bench-form', selector: '#multi' },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function nodeRound(url: string, selector: string): Promise<number[]> {
  const browser = await localBrowser.launch({ viewport: { width: 1280, height: 800 } });
  const dh = await Deckhand.create({ browser });
  try {
    const page = await browser.context.activePage();
    await page.goto(url);
    for (let i = 0; i < 5; i++) await dh.act({ selector, description: 'warm', method: 'click' });
    const times: number[] = [];
    for (let i = 0; i < CLICKS; i++) {
      const t = performance.now();
      await dh.act({ selector, description: 'bench click', method: 'click' });
      times.push(performance.now() - t);
    }
    return times;
  } finally {
    await dh.close();
    await browser.close();
  }
}

/** The Go client in its own process, built once (asynchronously: this process serves the fixture pages). */
const GO_BIN = '.tmp/go-bench-act';
async function goRound(url: string, selector: string): Promise<number[]> {
  const { stdout: out } = await promisify(execFile)(GO_BIN, [url, selector, String(CLICKS)], { encoding: 'utf8' });
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { times: number[] }).times;
}

async function main(): Promise<void> {
  await promisify(execFile)('go', ['build', '-o', '../' + GO_BIN, './examples/bench-act'], { cwd: 'go' });
  if (!existsSync(GO_BIN)) throw new Error(`go build did not make ${GO_BIN}`);
  const servers = await startFixtureServers();
  const rows: Record<string, string | number>[] = [];
  try {
    for (const c of CASES) {
      const node: number[] = [];
      const go: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        node.push(...(await nodeRound(servers.origin + c.path, c.selector)));
        go.push(...(await goRound(servers.origin + c.path, c.selector)));
      }
      rows.push({
        page: c.name,
        'Node median ms': +median(node).toFixed(2),
        'Go median ms': +median(go).toFixed(2),
        'Node p90 ms': +pct(node, 90).toFixed(2),
        'Go p90 ms': +pct(go, 90).toFixed(2),
        'ratio (median)': +(median(go) / median(node)).toFixed(2),
      });
    }
  } finally {
    await servers.close();
  }
  console.log(`\nDeterministic act click, Go client vs Node client (${ROUNDS} alternating rounds of ${CLICKS} clicks each)`);
  console.table(rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
