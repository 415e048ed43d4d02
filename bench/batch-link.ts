/**
 * What experimentalBatch saves when the browser is elsewhere: 50 deterministic clicks in one
 * batch against 50 separate locator.click() calls from Node, with the client's CDP WebSocket
 * going straight to Chromium (local) and through a proxy that adds 10 ms each way (link).
 * Chromium runs on this machine, launched through the library with a debugging port beside
 * its pipe; two Deckhand instances connect to it with localBrowser.connect, one directly and
 * one through the proxy, on the same tab, and take turns run by run. Every run checks on the
 * page that the button took exactly 50 clicks. `node --import tsx bench/batch-link.ts`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Deckhand, localBrowser, type BrowserHandle } from '../src/index';
import { startDelayProxy, type DelayProxy } from './delay-proxy';

export interface BatchFigures {
  /** Median ms of one experimentalBatch doing the clicks. */
  batchMs: number;
  /** Median ms of the same clicks as separate locator.click() calls. */
  callsMs: number;
  /** callsMs / batchMs. */
  ratio: number;
  /** Median ms of one engine call that does no page work (metrics): the per-call floor. */
  emptyCallMs: number;
}

export interface BatchLinkFigures {
  clicks: number;
  oneWayMs: number;
  local: BatchFigures;
  /** rttMs: median CDP round trip (Browser.getVersion) through the proxy. */
  link: BatchFigures & { rttMs: number };
}

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

const PAGE = `<!doctype html><title>clicks</title>
<button id="b" onclick="window.clicks++">Click</button>
<script>window.clicks = 0</script>`;

function startPageServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
    else res.writeHead(404).end();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }));
  });
}

/** Chromium writes its debugging port and the browser target's path to DevToolsActivePort in the profile. */
async function devtoolsAddress(userDataDir: string, timeoutMs = 10_000): Promise<{ port: number; path: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const [port, path] = (await readFile(join(userDataDir, 'DevToolsActivePort'), 'utf8')).split('\n');
      if (Number(port) > 0 && path?.startsWith('/devtools/browser/')) return { port: Number(port), path };
    } catch {
      /* not written yet */
    }
    if (Date.now() > deadline) throw new Error(`Chromium wrote no DevToolsActivePort in ${userDataDir} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function timeMedian(fn: () => Promise<unknown>, runs: number): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

interface Client {
  cdpUrl: string;
  browser: BrowserHandle;
  dh: Deckhand;
  /** One run of the clicks as separate calls, and as one batch; each checked on the page. */
  calls(): Promise<number>;
  batch(): Promise<number>;
  close(): Promise<void>;
}

/** A Deckhand instance connected at cdpUrl, on the page at pageUrl (the browser's active tab). */
async function connectClient(cdpUrl: string, pageUrl: string, clicks: number): Promise<Client> {
  const browser = await localBrowser.connect({ cdpUrl });
  const dh = await Deckhand.create({ browser });
  const close = async () => {
    await dh.close();
    await browser.close();
  };
  try {
    const page = await browser.context.activePage();
    if ((await page.evaluate<string>('location.href')) !== pageUrl) await page.goto(pageUrl);
    const button = page.locator('#b');
    // Every run starts from 0 and must end at exactly `clicks`.
    const checked = async (what: string, fn: () => Promise<unknown>) => {
      await page.evaluate('window.clicks = 0');
      const t = performance.now();
      await fn();
      const ms = performance.now() - t;
      const got = await page.evaluate<number>('window.clicks');
      if (got !== clicks) throw new Error(`${what} at ${cdpUrl}: the page counted ${got} clicks, expected ${clicks}`);
      return ms;
    };
    return {
      cdpUrl,
      browser,
      dh,
      close,
      calls: () =>
        checked('calls', async () => {
          for (let i = 0; i < clicks; i++) await button.click();
        }),
      batch: () =>
        checked('batch', () =>
          dh.experimentalBatch(async (b, n: number) => {
            const btn = b.page.locator('#b');
            for (let i = 0; i < n; i++) await btn.click();
          }, clicks),
        ),
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Time both ways on each client, alternating clients and ways run by run, so drift on a shared machine falls on all alike. */
async function measure(clients: Client[], runs: number): Promise<(BatchFigures & { rttMs: number })[]> {
  // Warm-up: the batch compiles its callback, the page takes its first input.
  for (const c of clients) {
    await c.calls();
    await c.batch();
  }
  const calls = clients.map(() => [] as number[]);
  const batch = clients.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, c] of clients.entries()) {
      calls[k].push(await c.calls());
      batch[k].push(await c.batch());
    }
  }
  const out: (BatchFigures & { rttMs: number })[] = [];
  for (const [k, c] of clients.entries()) {
    const rttMs = await timeMedian(() => c.browser.cdp.send('Browser.getVersion'), 20);
    const emptyCallMs = await timeMedian(() => c.dh.metrics(), 20);
    const cm = median(calls[k]);
    const bm = median(batch[k]);
    out.push({ batchMs: round(bm), callsMs: round(cm), ratio: Math.round((cm / bm) * 100) / 100, emptyCallMs: round(emptyCallMs), rttMs: round(rttMs) });
  }
  return out;
}

export async function measureBatchOverLink(opts: { oneWayMs?: number; clicks?: number; runs?: number } = {}): Promise<BatchLinkFigures> {
  const oneWayMs = opts.oneWayMs ?? 10;
  const clicks = opts.clicks ?? 50;
  const runs = opts.runs ?? RUNS;
  const { url, server } = await startPageServer();
  const userDataDir = await mkdtemp(join(tmpdir(), 'dh-batch-link-'));
  let launched: BrowserHandle | null = null;
  let proxy: DelayProxy | null = null;
  const clients: Client[] = [];
  try {
    // The pipe stays the launcher's; the port beside it is what a client elsewhere would use.
    launched = await localBrowser.launch({ userDataDir, args: ['--remote-debugging-port=0'] });
    const devtools = await devtoolsAddress(userDataDir);
    proxy = await startDelayProxy({ target: { host: '127.0.0.1', port: devtools.port }, oneWayMs });
    clients.push(await connectClient(`ws://127.0.0.1:${devtools.port}${devtools.path}`, url, clicks));
    clients.push(await connectClient(`ws://127.0.0.1:${proxy.port}${devtools.path}`, url, clicks));
    const [{ rttMs: _, ...local }, link] = await measure(clients, runs);
    return { clicks, oneWayMs, local, link };
  } finally {
    for (const c of clients) await c.close();
    await proxy?.close();
    await launched?.close();
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

async function main(): Promise<void> {
  const f = await measureBatchOverLink();
  const row = (where: string, x: BatchFigures) => `| ${where} | ${x.callsMs} | ${x.batchMs} | ${x.ratio} | ${x.emptyCallMs} |`;
  console.log(
    [
      `${f.clicks} clicks, one by one vs in one experimentalBatch (median of ${RUNS}); ` +
        `link: +${f.oneWayMs} ms each way, measured CDP round trip ${f.link.rttMs} ms`,
      '',
      '| browser | one by one ms | in a batch ms | speed-up | empty engine call ms |',
      '| --- | ---: | ---: | ---: | ---: |',
      row('local (CDP WebSocket)', f.local),
      row(`behind a ${2 * f.oneWayMs} ms round trip`, f.link),
    ].join('\n'),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // No process.exit on success: the process ending by itself shows that everything was closed.
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
