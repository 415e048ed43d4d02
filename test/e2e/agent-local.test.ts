/**
 * The agent with the built-in local model ("deckhand/local") on compound form tasks: several
 * steps in one instruction (fill then submit, log in, tick boxes, expand or switch tab then
 * click, dates, times, buttons in order, suggestions, long forms, wizards, search results) on
 * pages built like real forms (test/fixtures/pages/forms/, cases and judging in
 * agent-cases.ts). Reports correct / refused / wrong per family and overall; the bar is no wrong
 * outcome at all and at least 90% correct.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_CASES, AGENT_FAMILIES, judgeAgent, type AgentCase, type AgentVerdict } from './agent-cases';
import { tally, useLocalModel } from './corpus';

const h = useLocalModel();

describe('the agent with the local model on compound form tasks', () => {
  it('covers at least 110 cases in at least 13 families', () => {
    expect(AGENT_CASES.length).toBeGreaterThanOrEqual(110);
    expect(new Set(AGENT_CASES.map((c) => c.family)).size).toBeGreaterThanOrEqual(13);
  });

  it(`does at least 90% of ${AGENT_CASES.length} tasks correctly and never does one wrongly`, { timeout: AGENT_CASES.length * 10_000 }, async () => {
    const results: (AgentCase & AgentVerdict)[] = [];
    for (const c of AGENT_CASES) results.push({ ...c, ...(await judgeAgent(h.dh, h.page, h.origin, c)) });

    const { lines, count } = tally(
      'compound form tasks, per family: correct / refused / wrong (of n)',
      'compound form tasks overall',
      AGENT_FAMILIES,
      (r) => r.family,
      results,
      24,
    );
    const total = results.length;
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
