/**
 * Watch: a Node program's runs shown live in the side panel. The panel page is opened as a tab
 * pinned to a fixture tab; this test process drives the same browser as a program would (act
 * with a variable, an agent run with the built-in model) and reads the panel's DOM: who drives,
 * each step in order with its outcome, a thumbnail, and never the variable's value. With no
 * panel open, the worker takes no thumbnail at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { PANEL_SHOTS, PanelPage } from '../fixtures/panel-page';
import { workerEval } from './harness';

/** The value no part of the panel may ever show. */
const SECRET = 'zebra-7731-quartz';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;
let panel: PanelPage;
const errors: string[] = [];

const stats = () => workerEval(browser, 'globalThis.__deckhand.watchStats()') as Promise<{ thumbnails: number; dropped: number; panels: number }>;

beforeAll(async () => {
  servers = await startFixtureServers();
  browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  dh = await Deckhand.create({ browser });
  page = await browser.context.activePage();
  await page.goto(servers.origin + '/app/login.html');
});

afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
});

/** The live runs as the panel shows them. */
const liveRuns = () =>
  panel.eval<
    {
      op: string;
      status: string;
      who: string;
      description: string;
      steps: { seq: number; outcome: string; text: string }[];
      thumb: string | null;
      text: string;
    }[]
  >(`
    [...document.querySelectorAll('[data-testid=live-run]')].map((r) => ({
      op: r.dataset.op,
      status: r.dataset.status,
      who: r.querySelector('[data-testid=live-who]')?.textContent ?? '',
      description: r.querySelector('.instr')?.textContent ?? '',
      steps: [...r.querySelectorAll('[data-testid=live-step]')].map((s) => ({ seq: Number(s.dataset.seq), outcome: s.dataset.outcome, text: s.textContent })),
      thumb: r.querySelector('img[data-testid=live-thumb]')?.getAttribute('src') ?? null,
      text: r.textContent,
    }))`);

describe('watching a program from the side panel', () => {
  it('takes no thumbnail and does no watch work while no panel is open', async () => {
    const r = await dh.act('type %who% into the Username field', { variables: { who: SECRET } });
    expect(r.data.success).toBe(true);
    expect(await page.evaluate(() => (document.querySelector('#user') as HTMLInputElement).value)).toBe(SECRET);
    const s = await stats();
    expect(s.panels).toBe(0);
    expect(s.thumbnails).toBe(0);
  });

  it('shows who drives, the act as it runs and its outcome, with the variable by name only', async () => {
    panel = await PanelPage.open(browser, page.id, { shots: PANEL_SHOTS, onError: (t) => errors.push(t) });
    // The panel's tab opened last: make the fixture the page a program works on again.
    await page.bringToFront();
    await panel.click('[data-testid=tab-live]');
    expect(await panel.text('[data-testid=live-empty]')).toContain('No program is driving');
    await panel.waitFor('true', 'the panel');
    expect((await stats()).panels).toBe(1);

    const r = await dh.act('type %who% into the Username field', { variables: { who: SECRET } });
    expect(r.data.success).toBe(true);
    await panel.waitFor(`document.querySelector('[data-testid=live-run][data-op=act][data-status=done]')`, 'the act to show as done');
    await panel.waitFor(`document.querySelector('[data-testid=live-run][data-op=act] img[data-testid=live-thumb]')`, "the act's thumbnail");
    await panel.screenshot('11-live');
    const [act] = await liveRuns();
    expect(act.who).toBe('Driven by Node client');
    expect(act.description).toBe('type %who% into the Username field');
    expect(act.status).toBe('done');
    expect(act.steps.map((s) => s.text).join('\n')).toMatch(/act on page \d+ with deckhand\/local/);
    expect(act.thumb).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/]{200,}/);
    // A thumbnail is small: 320 px wide.
    expect(await panel.eval(`document.querySelector('img[data-testid=live-thumb]').naturalWidth`)).toBe(320);
    expect(await panel.eval(`document.documentElement.outerHTML.includes(${JSON.stringify(SECRET)})`)).toBe(false);
    expect((await stats()).thumbnails).toBeGreaterThan(0);
    // In the picture, the field holding the value is painted over (dark grey where the page is white).
    const box = await page.evaluate(() => {
      const r = document.querySelector('#user')!.getBoundingClientRect();
      return { x: r.left, y: r.top + r.height / 2, width: r.width, w: innerWidth };
    });
    // Every pixel across the field: unpainted, the white between the letters would show.
    const brightest = await panel.eval<number>(`(() => {
      const img = document.querySelector('[data-testid=live-run][data-op=act] img');
      const c = document.createElement('canvas');
      c.width = img.naturalWidth; c.height = img.naturalHeight;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const k = img.naturalWidth / ${box.w};
      const row = g.getImageData(Math.round(${box.x} * k) + 2, Math.round(${box.y} * k), Math.round(${box.width} * k) - 4, 1).data;
      return Math.max(...row.filter((_, i) => i % 4 !== 3));
    })()`);
    expect(brightest).toBeLessThan(110);
  });

  it('shows an agent run step by step, in order, with each outcome and the latest page', { timeout: 60_000 }, async () => {
    const steps: string[] = [];
    // The agent's steps as the Node program sees them, to compare with the panel.
    const result = await dh.agent().execute({ instruction: 'Enter the username "kanesha" and the password "3w" into the text fields and press Log in.' });
    for (const s of result.actions) steps.push(s.type);
    expect(result.success).toBe(true);
    await panel.waitFor(`document.querySelector('[data-testid=live-run][data-op=agent][data-status=done]')`, 'the agent run to show as done');
    await panel.waitFor(`document.querySelector('[data-testid=live-run][data-op=agent] img[data-testid=live-thumb]')`, "the agent run's thumbnail");
    const agent = (await liveRuns()).find((r) => r.op === 'agent')!;
    expect(agent.who).toBe('Driven by Node client');
    expect(agent.description).toContain('kanesha');
    // Every agent step the program got, in the same order, each with its outcome.
    const stepRows = await panel.eval<{ type: string; outcome: string; seq: number }[]>(
      `[...document.querySelectorAll('[data-testid=live-run][data-op=agent] [data-testid=live-step]')].filter((s) => s.querySelector('b'))` +
        `.map((s) => ({ type: s.querySelector('b').textContent, outcome: s.dataset.outcome, seq: Number(s.dataset.seq) }))`,
    );
    expect(stepRows.map((s) => s.type)).toEqual(steps);
    expect(stepRows.every((s) => s.outcome === 'success' || s.outcome === 'failure')).toBe(true);
    for (let i = 1; i < stepRows.length; i++) expect(stepRows[i].seq).toBeGreaterThan(stepRows[i - 1].seq);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    // Accessible: the steps are a log region, the thumbnail says what it shows.
    expect(await panel.eval(`document.querySelector('[data-testid=live-run][data-op=agent] [data-testid=live-steps]').getAttribute('role')`)).toBe('log');
    expect(await panel.eval(`document.querySelector('[data-testid=live-run][data-op=agent] img').alt`)).toMatch(/page after the latest step/);
    expect(await panel.eval(`document.documentElement.outerHTML.includes(${JSON.stringify(SECRET)})`)).toBe(false);
    expect(errors).toEqual([]);
  });

  it("shows a failure with its error code, and not the panel's own runs", async () => {
    // The local model refuses what the page does not have: a result that says so, or an error.
    const r = await dh.act('click the purple unicorn').catch((e: Error) => e);
    expect(r instanceof Error || !r.data.success).toBe(true);
    await panel.waitFor(
      `[...document.querySelectorAll('[data-testid=live-run][data-op=act]')].length === 2 && ` +
        `document.querySelectorAll('[data-testid=live-run][data-op=act]')[1].dataset.status !== 'running'`,
      'the failed act',
    );
    const failed = (await liveRuns()).filter((x) => x.op === 'act')[1];
    expect(failed.status).toBe('failed');
    expect(failed.description).toBe('click the purple unicorn');
    // Said as the program got it: an error code, or the model's refusal.
    expect(failed.text).toMatch(r instanceof Error ? new RegExp((r as { code?: string }).code ?? 'ERROR') : /\w+/);

    // The panel's own instruction shows in its Run view, never as another program's run.
    const before = (await liveRuns()).length;
    // (Whatever its outcome on the page the agent left: only where it shows matters here.)
    expect(['done', 'failed']).toContain((await panel.runInstruction('act', 'click the Log in button')).status);
    await panel.click('[data-testid=tab-live]');
    expect((await liveRuns()).length).toBe(before);
  });
});
