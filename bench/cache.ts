/**
 * Cache hit latency against the same act computed live, with the built-in local
 * model and with a scripted OpenAI-format server on loopback (no network latency,
 * so the ratio understates what a hit saves against a real provider). `npm run bench`.
 */
import { Deckhand, localBrowser } from '../src/index';
import { startFixtureServers } from '../test/fixtures/server';
import { idFor, startModelServer } from '../test/fixtures/model-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeActs(dh: Deckhand, opts: Parameters<Deckhand['act']>[1]): Promise<{ ms: number; statuses: Set<string> }> {
  const out: number[] = [];
  const statuses = new Set<string>();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = await dh.act('click the Multi button', opts);
    out.push(performance.now() - t);
    statuses.add(r.metadata.cache.status);
  }
  return { ms: median(out), statuses };
}

async function main(): Promise<void> {
  const servers = await startFixtureServers();
  const ms = await startModelServer();
  ms.script((_r, prompt) => ({ object: { found: true, elementId: idFor(prompt, /button "Multi"/), method: 'click', arguments: [], description: 'Multi button', twoStep: false, reason: '' } }));
  const browser = await localBrowser.launch();
  const page = await browser.context.activePage();
  await page.goto(`${servers.origin}/form.html`);
  const rows: Record<string, string | number>[] = [];
  for (const [name, model] of [
    ['local model', 'deckhand/local'],
    ['scripted server', { modelName: 'openai/gpt-4.1-mini', apiKey: 'k', baseURL: ms.url }],
  ] as const) {
    const dh = await Deckhand.create({ browser, model: model as never, cache: { store: 'memory' } });
    const live = await timeActs(dh, { cache: false });
    await dh.act('click the Multi button'); // MISS: fills the entry
    const hit = await timeActs(dh, undefined);
    rows.push({ model: name, 'computed ms': +live.ms.toFixed(1), 'hit ms': +hit.ms.toFixed(1), 'hit / computed': +(hit.ms / live.ms).toFixed(3), 'hit statuses': [...hit.statuses].join(',') });
    await dh.close();
  }
  await browser.close();
  await servers.close();
  await ms.close();
  console.table(rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
