/**
 * The result cache on living pages (test/fixtures/living.ts): every kind of unrelated change
 * landing between two identical calls still hits and does the right thing; every change to
 * the call's own target (renamed, moved, gone, duplicated, another user's data) never gets a
 * wrong action or stale data from a hit. bench/cache-living.ts runs the whole matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { CHANGES, MARKUPS, MEANING, runLiving, runMeaning, startLivingServer, type LivingOutcome } from '../fixtures/living';

let ms: ModelServer;
let living: Awaited<ReturnType<typeof startLivingServer>>;
let browser: BrowserHandle;
let page: Page;

beforeAll(async () => {
  ms = await startModelServer();
  living = await startLivingServer();
  browser = await localBrowser.launch();
  page = await browser.context.activePage();
});
afterAll(async () => {
  await browser?.close();
  await living?.close();
  await ms?.close();
});

async function fresh<T>(fn: (dh: Deckhand) => Promise<T>): Promise<T> {
  const dh = await Deckhand.create({ browser, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test', baseURL: ms.url }, cache: { store: 'memory' } });
  try {
    return await fn(dh);
  } finally {
    await dh.close();
  }
}

const markup = (name: string) => MARKUPS.find((m) => m.name === name)!;

describe('unrelated change between two identical calls', () => {
  // Each kind, on the markups where the target is hardest to tell apart.
  const plan: [string, 'act' | 'observe' | 'extract'][] = [
    ['table', 'act'],
    ['divs', 'act'],
    ['alike', 'act'],
    ['cards', 'observe'],
    ['form', 'extract'],
  ];
  for (const [name, op] of plan) {
    it(`${op} on the ${name} page hits, and does the right thing, after each of ${CHANGES.length} kinds of change`, async () => {
      const out: LivingOutcome[] = [];
      for (const change of CHANGES) out.push(await fresh((dh) => runLiving(dh, page, ms, living.origin, markup(name), change, op)));
      expect(out.filter((o) => !(o.status === 'HIT' && o.correct))).toEqual([]);
    }, 120_000);
  }
});

describe("a change to the call's own target", () => {
  it(`never gets a wrong action or stale data from a hit (${MEANING.length} cases)`, async () => {
    const out = [];
    for (const c of MEANING) out.push(await fresh((dh) => runMeaning(dh, page, ms, living.origin, c)));
    expect(out.filter((o) => o.wrong)).toEqual([]);
    // Where the target moved (rows reordered), the hit followed it; elsewhere the call was computed.
    expect(
      out
        .filter((o) => o.status === 'HIT')
        .map((o) => o.name)
        .sort(),
    ).toEqual(['rows reordered', 'rows reordered, same place other person']);
    expect(new Set(out.filter((o) => o.status === 'MISS').map((o) => o.missReason))).toEqual(new Set(['target_changed', 'content_changed']));
  }, 180_000);
});
