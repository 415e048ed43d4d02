/**
 * Cache hit latency against the same act computed live, with the built-in local
 * model and with a scripted OpenAI-format server on loopback (no network latency,
 * so the ratio understates what a hit saves against a real provider); and the SQLite
 * store's cost per new record at 1,000 and at 10,000 entries, which should not grow
 * with the table. `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/client/cache/store';
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

const BLOCKS = 30;
const BLOCK = 100;

/** A file store for the write measurement, under the default bound (10,000 per tenant) unless told. */
async function writeStore(maxEntriesPerTenant?: number): Promise<{ record(i: number): Promise<unknown>; drop(i: number): Promise<void>; close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'dh-bench-cache-'));
  const store = await SqliteStore.open(join(dir, 'cache.db'), { maxEntriesPerTenant });
  const usage = { inputTokens: 900, outputTokens: 40, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 700 };
  const key = (i: number) => `${i}`.padStart(64, 'k');
  return {
    record: (i) =>
      store.record(
        {
          key: key(i),
          baseKey: `${i % 50}`.padStart(64, 'b'),
          op: 'act',
          result: [{ selector: `xpath=/html/body/div[${i}]/button`, method: 'click', arguments: [], description: 'a button' }],
          usage,
        },
        'bench',
      ),
    drop: (i) => store.invalidate(key(i), 'bench'),
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Milliseconds per record of a new key with 1,000 and with 10,000 entries in the tenant. At
 * 10,000, the default bound, the writes also evict; `unbounded` is 10,000 under a bound of
 * 20,000, the table's size alone. The two smaller-than-bound stores drop each block's keys
 * again, untimed, so they keep their size. Blocks alternate between the stores and each one's
 * median is taken, so another process's burst on the machine falls on all alike.
 */
async function writeCosts(): Promise<{ small: number; large: number; unbounded: number }> {
  const stores = { small: await writeStore(), large: await writeStore(), unbounded: await writeStore(20_000) };
  const sizes = { small: 1_000, large: 10_000, unbounded: 10_000 };
  const times = { small: [] as number[], large: [] as number[], unbounded: [] as number[] };
  try {
    for (const name of ['small', 'large', 'unbounded'] as const) for (let i = 0; i < sizes[name]; i++) await stores[name].record(i);
    for (let b = 0; b < BLOCKS; b++) {
      const first = 1_000_000 + b * BLOCK;
      for (const name of ['small', 'large', 'unbounded'] as const) {
        const s = stores[name];
        const t = performance.now();
        for (let j = 0; j < BLOCK; j++) await s.record(first + j);
        times[name].push((performance.now() - t) / BLOCK);
        if (name !== 'large') for (let j = 0; j < BLOCK; j++) await s.drop(first + j);
      }
    }
    return { small: median(times.small), large: median(times.large), unbounded: median(times.unbounded) };
  } finally {
    for (const s of Object.values(stores)) s.close();
  }
}

async function main(): Promise<void> {
  const { small, large, unbounded } = await writeCosts();
  console.table([
    { entries: 1_000, 'ms per record': +small.toFixed(4) },
    { entries: '10,000 (the bound: evicting)', 'ms per record': +large.toFixed(4) },
    { entries: '10,000 (bound 20,000)', 'ms per record': +unbounded.toFixed(4) },
  ]);
  console.log(
    `cache write cost at 10,000 entries / at 1,000: ${(large / small).toFixed(2)} (goal: at most 1.5); without eviction ${(unbounded / small).toFixed(2)}`,
  );

  const servers = await startFixtureServers();
  const ms = await startModelServer();
  ms.script((_r, prompt) => ({
    object: {
      found: true,
      elementId: idFor(prompt, /button "Multi"/),
      method: 'click',
      arguments: [],
      description: 'Multi button',
      twoStep: false,
      reason: '',
    },
  }));
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
    rows.push({
      model: name,
      'computed ms': +live.ms.toFixed(1),
      'hit ms': +hit.ms.toFixed(1),
      'hit / computed': +(hit.ms / live.ms).toFixed(3),
      'hit statuses': [...hit.statuses].join(','),
    });
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
