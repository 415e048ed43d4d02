/**
 * The built-in local model on a held-out-style corpus: single-step tasks on pages built like
 * real web apps (test/fixtures/pages/wild/, cases and judging in wild-cases.ts). Reports
 * correct / refused / wrong per category and overall; the bar is no wrong action at all and at
 * least 95% correct.
 */
import { describe, expect, it } from 'vitest';
import { tally, useLocalModel } from './corpus';
import { judgeWild, WILD_CASES, WILD_CATEGORIES, type WildCase, type WildVerdict } from './wild-cases';

const h = useLocalModel();

describe('the local model on pages built like real web apps', () => {
  it('covers at least 150 cases in at least 15 categories', () => {
    expect(WILD_CASES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(WILD_CASES.map((c) => c.cat)).size).toBeGreaterThanOrEqual(15);
  });

  it(`acts correctly on at least 95% of ${WILD_CASES.length} cases and never acts wrongly`, { timeout: 900_000 }, async () => {
    const results: (WildCase & WildVerdict)[] = [];
    for (const c of WILD_CASES) results.push({ ...c, ...(await judgeWild(h.dh, h.page, h.origin, c)) });

    const { lines, count } = tally('wild pages, per category: correct / refused / wrong (of n)', 'wild pages overall', WILD_CATEGORIES, (r) => r.cat, results);
    const total = results.length;
    for (const r of results.filter((x) => x.outcome === 'wrong')) lines.push(`  WRONG   [${r.cat}] ${r.page}: ${r.say} → ${r.detail}`);
    for (const r of results.filter((x) => x.outcome === 'refused')) lines.push(`  refused [${r.cat}] ${r.page}: ${r.say}`);
    console.log(lines.join('\n'));

    expect(results.filter((r) => r.outcome === 'wrong').map((r) => `${r.page}: ${r.say} → ${r.detail}`)).toEqual([]);
    expect(count('correct') / total).toBeGreaterThanOrEqual(0.95);
  });
});
