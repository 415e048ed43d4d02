/**
 * The agent with the built-in local model ("deckhand/local") on compound form tasks: several
 * steps in one instruction (fill then submit, log in, tick boxes, expand or switch tab then
 * click, dates, times, buttons in order, suggestions, long forms, wizards, search results) on
 * pages built like real forms (test/fixtures/pages/forms/, cases and judging in
 * agent-cases.ts). Reports correct / refused / wrong per family and overall; the bar is no wrong
 * outcome at all and at least 90% correct.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { AGENT_CASES, AGENT_FAMILIES, judgeAgent, type AgentCase, type AgentVerdict } from './agent-cases';

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

describe('the agent with the local model on compound form tasks', () => {
  it('covers at least 110 cases in at least 13 families', () => {
    expect(AGENT_CASES.length).toBeGreaterThanOrEqual(110);
    expect(new Set(AGENT_CASES.map((c) => c.family)).size).toBeGreaterThanOrEqual(13);
  });

  it(`does at least 90% of ${AGENT_CASES.length} tasks correctly and never does one wrongly`, { timeout: AGENT_CASES.length * 10_000 }, async () => {
    const results: (AgentCase & AgentVerdict)[] = [];
    for (const c of AGENT_CASES) results.push({ ...c, ...(await judgeAgent(dh, page, servers.origin, c)) });

    const lines = ['compound form tasks, per family: correct / refused / wrong (of n)'];
    for (const family of AGENT_FAMILIES) {
      const rs = results.filter((r) => r.family === family);
      const n = (o: string) => rs.filter((r) => r.outcome === o).length;
      lines.push(`  ${family.padEnd(24)} ${String(n('correct')).padStart(3)} / ${String(n('refused')).padStart(3)} / ${String(n('wrong')).padStart(3)}  (of ${rs.length})`);
    }
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const total = results.length;
    lines.push(`compound form tasks overall: ${count('correct')}/${total} correct (${pct(count('correct'), total)}), ${count('refused')} refused, ${count('wrong')} wrong`);
    const report = (label: string, r: AgentCase & AgentVerdict) => {
      lines.push(`  ${label} [${r.family}] ${r.page}: ${r.say}`);
      lines.push(`      → ${r.detail}`);
      lines.push(`      message: ${r.message}`);
      for (const s of r.steps) lines.push(`      step: ${s}`);
    };
    for (const r of results.filter((x) => x.outcome === 'wrong')) report('WRONG  ', r);
    for (const r of results.filter((x) => x.outcome === 'refused')) report('refused', r);
    console.log(lines.join('\n'));

    expect(results.filter((r) => r.outcome === 'wrong').map((r) => `${r.page}: ${r.say} → ${r.detail}`)).toEqual([]);
    expect(count('correct') / total).toBeGreaterThanOrEqual(0.9);
  });
});
