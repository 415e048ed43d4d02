/**
 * Another language's client against the Node client: the same deterministic act (a click by
 * selector, no model) on the same page, measured in one run, alternating Node and the other
 * client's rounds so both see the same machine. Each side launches its own Chromium (the same
 * binary) with the extension. Reports the medians and the ratio other / Node (the bound: 1.5).
 * bench/python-act.ts and bench/go-act.ts name the client and how to run one round of it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Deckhand, localBrowser } from '../src/index';
import { startFixtureServers } from '../test/fixtures/server';

export const CLICKS = Number(process.env.BENCH_CLICKS ?? 100);
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

/**
 * One round of the other client in its own process (asynchronously: this process serves the
 * fixture pages): the command prints `{ "times": [...] }` as its last line.
 */
export async function processRound(command: string, args: string[]): Promise<number[]> {
  const { stdout: out } = await promisify(execFile)(command, args, { encoding: 'utf8' });
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { times: number[] }).times;
}

export async function compareWithNode(client: string, round: (url: string, selector: string) => Promise<number[]>): Promise<void> {
  const servers = await startFixtureServers();
  const rows: Record<string, string | number>[] = [];
  try {
    for (const c of CASES) {
      const node: number[] = [];
      const other: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        node.push(...(await nodeRound(servers.origin + c.path, c.selector)));
        other.push(...(await round(servers.origin + c.path, c.selector)));
      }
      rows.push({
        page: c.name,
        'Node median ms': +median(node).toFixed(2),
        [`${client} median ms`]: +median(other).toFixed(2),
        'Node p90 ms': +pct(node, 90).toFixed(2),
        [`${client} p90 ms`]: +pct(other, 90).toFixed(2),
        'ratio (median)': +(median(other) / median(node)).toFixed(2),
      });
    }
  } finally {
    await servers.close();
  }
  console.log(`\nDeterministic act click, ${client} client vs Node client (${ROUNDS} alternating rounds of ${CLICKS} clicks each)`);
  console.table(rows);
}
