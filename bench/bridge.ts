/**
 * The WebSocket bridge against the CDP link, in the same run, on the same page of the
 * same browser: the round trip of page.title() and of a deterministic act click, one by
 * one from Node. Playwright's page.title() and locator.click() on the same fixture page
 * (its own launch of the same Chromium binary) are the outside peer. `npm run bench`.
 */
import { chromium } from 'playwright-core';
import { Deckhand, EXTENSION_ID, localBrowser, type BrowserHandle, type PairingInfo } from '../src/index';
import { findChromium } from '../src/client/paths';
import { startFixtureServers } from '../test/fixtures/server';

const N = Number(process.env.BENCH_CALLS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median over RUNS of the mean time of one call, in ms. */
async function perCall(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await fn(); // warm
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) await fn();
    runs.push((performance.now() - t) / N);
  }
  return median(runs);
}

/** Play the person at the side panel: enter port and token, through the worker's panel methods. */
async function pairFromPanel(browser: BrowserHandle, pairing: PairingInfo): Promise<void> {
  const cdp = browser.cdp;
  const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
  const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${EXTENSION_ID}/`));
  if (!worker) throw new Error("the extension's service worker is not running");
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
  const expression = `globalThis.__deckhand.panel('bridge.connect', ${JSON.stringify({ port: pairing.port, token: pairing.token })})`;
  const r = await cdp.send<{ result: { value: { state: string; message?: string } } }>(
    'Runtime.evaluate',
    { expression, awaitPromise: true, returnByValue: true },
    sessionId,
  );
  await cdp.send('Target.detachFromTarget', { sessionId });
  if (r.result.value.state !== 'attached') throw new Error(`pairing failed: ${r.result.value.message}`);
}

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const url = `${servers.origin}/form.html`;

  const launched = await localBrowser.launch();
  let offered!: (p: PairingInfo) => void;
  const pairing = new Promise<PairingInfo>((r) => (offered = r));
  const attaching = localBrowser.attach({ onPairing: offered, name: 'bridge bench' });
  await pairFromPanel(launched, await pairing);
  const attached = await attaching;

  const page = await launched.context.activePage();
  await page.goto(url);
  const overBridge = attached.context.page(page.id);
  const click = { selector: '#multi', description: 'the counter button', method: 'click' as const };

  const titleCdp = await perCall(() => page.title());
  const titleBridge = await perCall(() => overBridge.title());
  // One Deckhand per handle at a time. Each click series starts on a fresh load: the page
  // keeps a log of its events, and a longer one would slow whichever series ran second.
  const clicks = async (browser: BrowserHandle) => {
    await page.goto(url);
    const dh = await Deckhand.create({ browser });
    try {
      return await perCall(() => dh.act(click, { page: page.id }));
    } finally {
      await dh.close();
    }
  };
  const clickCdp = await clicks(launched);
  const clickBridge = await clicks(attached);
  await attached.close();
  await launched.close();

  const pw = await chromium.launch({ executablePath: findChromium()!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const pwPage = await pw.newPage();
  await pwPage.goto(url);
  const titlePw = await perCall(() => pwPage.title());
  const clickPw = await perCall(() => pwPage.locator('#multi').click());
  await pw.close();
  await servers.close();

  const rows = [
    {
      call: 'page.title()',
      'bridge ms': +titleBridge.toFixed(2),
      'CDP link ms': +titleCdp.toFixed(2),
      'Playwright ms': +titlePw.toFixed(2),
      'bridge / CDP': +(titleBridge / titleCdp).toFixed(2),
      'bridge / Playwright': +(titleBridge / titlePw).toFixed(2),
    },
    {
      call: 'act click (deterministic)',
      'bridge ms': +clickBridge.toFixed(2),
      'CDP link ms': +clickCdp.toFixed(2),
      'Playwright ms': +clickPw.toFixed(2),
      'bridge / CDP': +(clickBridge / clickCdp).toFixed(2),
      'bridge / Playwright': +(clickBridge / clickPw).toFixed(2),
    },
  ];
  console.log(`WebSocket bridge vs CDP link vs Playwright, mean per call over ${N} calls, median of ${RUNS} runs`);
  console.table(rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
