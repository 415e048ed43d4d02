/**
 * The built-in local model on a held-out-style corpus: single-step tasks on pages built like
 * real web apps (test/fixtures/pages/wild/, cases and judging in wild-cases.ts). Reports
 * correct / refused / wrong per category and overall; the bar is no wrong action at all and at
 * least 95% correct.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { judgeWild, WILD_CASES, WILD_CATEGORIES, type WildCase, type WildVerdict } from './wild-cases';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;

beforeAll(async () => {
  servers = await startFixtureServers();
  browser = await localBrowser.launch();
  dh = await Deckhand.create({ browser, model: 'deckhand/local', domSettleTimeoutMs: 0 });
  page = await browser.context.activePage();
});
afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
});

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

describe('the local model on pages built like real web apps', () => {
  it('covers at least 150 cases in at least 15 categories', () => {
    expect(WILD_CASES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(WILD_CASES.map((c) => c.cat)).size).toBeGreaterThanOrEqual(15);
  });

  it(`acts correctly on at least 95% of ${WILD_CASES.length} cases and never acts wrongly`, { timeout: 900_000 }, async () => {
    const results: (WildCase & WildVerdict)[] = [];
    for (const c of WILD_CASES) results.push({ ...c, ...(await judgeWild(dh, page, servers.origin, c)) });

    const lines = ['wild pages, per category: correct / refused / wrong (of n)'];
    for (const cat of WILD_CATEGORIES) {
      const rs = results.filter((r) => r.cat === cat);
      const n = (o: string) => rs.filter((r) => r.outcome === o).length;
      lines.push(`  ${cat.padEnd(30)} ${String(n('correct')).padStart(3)} / ${String(n('refused')).padStart(3)} / ${String(n('wrong')).padStart(3)}  (of ${rs.length})`);
    }
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const total = results.length;
    lines.push(`wild pages overall: ${count('correct')}/${total} correct (${pct(count('correct'), total)}), ${count('refused')} refused, ${count('wrong')} wrong`);
    for (const r of results.filter((x) => x.outcome === 'wrong')) lines.push(`  WRONG   [${r.cat}] ${r.page}: ${r.say} → ${r.detail}`);
    for (const r of results.filter((x) => x.outcome === 'refused')) lines.push(`  refused [${r.cat}] ${r.page}: ${r.say}`);
    console.log(lines.join('\n'));

    expect(results.filter((r) => r.outcome === 'wrong').map((r) => `${r.page}: ${r.say} → ${r.detail}`)).toEqual([]);
    expect(count('correct') / total).toBeGreaterThanOrEqual(0.95);
  });
});
