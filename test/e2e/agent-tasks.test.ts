/**
 * The agent with the built-in local model ("deckhand/local") on small web tasks: values
 * described rather than given, clicks that wait for a condition, targets in collapsed sections
 * and hover menus, drags, shapes told apart by size and colour, whole tasks of several steps,
 * focus, duplicate names, hidden page text, a mail client and a feed, widgets, text
 * transforms, arithmetic, waits, multi-field searches and positions (pages in
 * test/fixtures/pages/tasks/, cases and judging in task-cases.ts). Reports correct / refused /
 * wrong / false-done per family and overall. The bar: the agent never does a task wrongly,
 * never reports as done a task it did not carry out, and does at least 65% correctly (72% when
 * this floor was set; a fall below it is a regression to look at, not noise).
 */
import { describe, expect, it } from 'vitest';
import { TASK_CASES, TASK_FAMILIES, TASK_OUTCOMES, describeCheck, judgeTask, type TaskCase, type TaskOutcome, type TaskVerdict } from './task-cases';
import { useLocalModel } from './corpus';

const h = useLocalModel();

type Result = TaskCase & TaskVerdict;

/** The per-family table (correct / refused / wrong / false-done of n) and the overall line. */
function table(results: Result[]): string[] {
  const n = (rs: Result[], o: TaskOutcome) => rs.filter((r) => r.outcome === o).length;
  const lines = ['small web tasks, per family: correct / refused / wrong / false-done (of n)'];
  for (const f of TASK_FAMILIES) {
    const rs = results.filter((r) => r.family === f);
    lines.push(`  ${f.padEnd(24)} ${TASK_OUTCOMES.map((o) => String(n(rs, o)).padStart(3)).join(' / ')}  (of ${rs.length})`);
  }
  const total = results.length;
  lines.push(
    `small web tasks overall: ${n(results, 'correct')}/${total} correct (${((100 * n(results, 'correct')) / total).toFixed(1)}%), ` +
      `${n(results, 'refused')} refused, ${n(results, 'wrong')} wrong, ${n(results, 'false-done')} false-done`,
  );
  return lines;
}

describe('the agent with the local model on small web tasks', () => {
  it('covers at least 100 cases in 21 families, each family on at least 2 pages', () => {
    expect(TASK_CASES.length).toBeGreaterThanOrEqual(100);
    expect(TASK_FAMILIES.length).toBe(21);
    for (const f of TASK_FAMILIES) expect(new Set(TASK_CASES.filter((c) => c.family === f).map((c) => c.page)).size, f).toBeGreaterThanOrEqual(2);
  });

  it(`never does one of ${TASK_CASES.length} tasks wrongly, nor reports one done that is not`, { timeout: TASK_CASES.length * 30_000 }, async () => {
    const results: Result[] = [];
    for (const c of TASK_CASES) results.push({ ...c, ...(await judgeTask(h.dh, h.page, h.origin, c)) });

    const lines = table(results);
    const report = (label: string, r: Result) => {
      lines.push(`  ${label} [${r.family}] ${r.page}: ${r.say}`);
      lines.push(`      expected: ${describeCheck(r.expect)}`);
      lines.push(`      → ${r.detail}`);
      lines.push(`      message: ${r.message}`);
      for (const s of r.steps) lines.push(`      step: ${s}`);
      for (const l of r.log) lines.push(`      page: ${l}`);
    };
    for (const r of results.filter((x) => x.outcome === 'wrong')) report('WRONG     ', r);
    for (const r of results.filter((x) => x.outcome === 'false-done')) report('FALSE-DONE', r);
    for (const r of results.filter((x) => x.outcome === 'refused')) report('refused   ', r);
    console.log(lines.join('\n'));

    const offending = (o: TaskOutcome) => results.filter((r) => r.outcome === o).map((r) => `${r.page}: ${r.say} → ${r.detail}`);
    expect({ wrong: offending('wrong'), falseDone: offending('false-done') }).toEqual({ wrong: [], falseDone: [] });
    expect(results.filter((r) => r.outcome === 'correct').length / results.length).toBeGreaterThanOrEqual(0.65);
  });

  it('goes from a blank tab to the page a task names, and reports the secret it shows there', { timeout: 120_000 }, async () => {
    await h.page.goto('about:blank');
    const at = `${h.origin}/tasks/secret.html`;
    const r = await h.dh
      .agent()
      .execute(`Your task is: Scroll down to find the password. You must go to ${at} and obtain the password for the game.`);
    expect(r.success, r.message).toBe(true);
    expect(r.message).toContain(`opened ${at}`);
    expect(r.message).toContain('the page shows the password: DEEP_SCROLL_41');
    expect(await h.page.url()).toBe(at);
    expect(await h.page.evaluate(() => (window as unknown as { __state: { revealed: boolean } }).__state.revealed)).toBe(true);
  });
});
