/**
 * What the corpus suites share: one browser with the built-in model for a describe block, and
 * the per-group table of correct / refused / wrong they print.
 */
import { afterAll, beforeAll } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';

export interface LocalModelHarness {
  readonly origin: string;
  readonly dh: Deckhand;
  readonly page: Page;
}

/** A browser, the fixture servers and a Deckhand on the built-in model (no settle wait), for the file's tests. */
export function useLocalModel(): LocalModelHarness {
  let servers: Awaited<ReturnType<typeof startFixtureServers>> | undefined;
  let browser: BrowserHandle | undefined;
  let dh: Deckhand | undefined;
  let page: Page | undefined;
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
  return {
    get origin() {
      return servers!.origin;
    },
    get dh() {
      return dh!;
    },
    get page() {
      return page!;
    },
  };
}

export type Outcome = 'correct' | 'refused' | 'wrong';

/** The report lines: the heading, one per group (correct / refused / wrong of n), then the overall line. */
export function tally<R extends { outcome: Outcome }>(
  heading: string,
  overall: string,
  groups: readonly string[],
  groupOf: (r: R) => string,
  results: R[],
  width = 30,
): { lines: string[]; count: (o: Outcome) => number } {
  const lines = [heading];
  for (const g of groups) {
    const rs = results.filter((r) => groupOf(r) === g);
    const n = (o: Outcome) => rs.filter((r) => r.outcome === o).length;
    lines.push(
      `  ${g.padEnd(width)} ${String(n('correct')).padStart(3)} / ${String(n('refused')).padStart(3)} / ${String(n('wrong')).padStart(3)}  (of ${rs.length})`,
    );
  }
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const total = results.length;
  lines.push(
    `${overall}: ${count('correct')}/${total} correct (${((100 * count('correct')) / total).toFixed(1)}%), ` +
      `${count('refused')} refused, ${count('wrong')} wrong`,
  );
  return { lines, count };
}

/** A run's steps, one line each: the tool, its instruction or arguments, and what it returned. */
export function stepLines(actions: unknown): string[] {
  if (!Array.isArray(actions)) return [];
  return actions.map((a: { type?: string; instruction?: string; action?: Record<string, unknown>; result?: string; reasoning?: string }) => {
    const args = a.action && typeof a.action === 'object' ? (a.action.instruction ?? a.action.url ?? a.action.answer ?? '') : '';
    const what = String(args || a.instruction || '').slice(0, 140);
    const out = String(a.result ?? a.reasoning ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 200);
    return `${a.type ?? '?'}${what ? ` "${what}"` : ''}${out ? ` → ${out}` : ''}`;
  });
}

/** The agent on one instruction: whether it reported success, its message and its steps (an error is a failure with the error as message). */
export async function runAgent(dh: Deckhand, say: string): Promise<{ success: boolean; message: string; steps: string[] }> {
  try {
    const r = await dh.agent({}).execute(say);
    return { success: r.success === true, message: r.message, steps: stepLines(r.actions) };
  } catch (e) {
    return { success: false, message: `error: ${(e as Error).message}`, steps: [] };
  }
}
