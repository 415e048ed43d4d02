/**
 * Take over: a Node program's act fails on a button the model cannot know (an icon with no
 * name); the person presses Pause in the side panel, the program's next operation waits, the
 * person clicks the right button themselves (trusted input through CDP, as a mouse would), saves
 * it as that step, and presses Resume. The program's same act then replays the person's fix from
 * its own SQLite cache with no model call. Also: a paused operation fails with PAUSED after its
 * own timeout, the panel's own calls are never held, and closing the panel resumes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { DeckhandError } from '../../src/protocol/errors';
import { startFixtureServers } from '../fixtures/server';
import { PANEL_SHOTS, PanelPage } from '../fixtures/panel-page';
import { workerEval } from './harness';

const INSTRUCTION = 'archive this message';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;
let panel: PanelPage;
let dir: string;
/** The page's tab, attached apart from the program: the person's hand, and eyes that are not held while paused. */
let tab: string;
const errors: string[] = [];
/** The program's log lines (model calls are `model-call` spans). */
const lines: { message: string; data?: Record<string, unknown> }[] = [];
const modelCalls = () => lines.filter((l) => l.data?.span === 'model-call').length;

/** Read the page without going through the program (whose calls wait while paused). */
async function inPage<T>(expression: string): Promise<T> {
  const r = await browser.cdp.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression, returnByValue: true }, tab);
  if (r.exceptionDetails) throw new Error(`page evaluate of ${expression} failed: ${r.exceptionDetails.text}`);
  return r.result.value;
}
const pageLog = () => inPage<string[]>('window.__log');

/** The person clicks at the element's centre with the mouse: trusted input, as a hand gives. */
async function personClicks(css: string): Promise<void> {
  const p = await inPage<{ x: number; y: number } | null>(
    `(() => { const r = document.querySelector(${JSON.stringify(css)})?.getBoundingClientRect(); ` +
      `return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null; })()`,
  );
  if (!p) throw new Error(`no ${css} on the page`);
  for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'] as const) {
    await browser.cdp.send('Input.dispatchMouseEvent', { type, x: p.x, y: p.y, button: type === 'mouseMoved' ? 'none' : 'left', clickCount: 1 }, tab);
  }
}

async function waitUntil(f: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const bannerShown = () => panel.eval<boolean>(`!!document.querySelector('[data-testid=paused-banner]')`);

beforeAll(async () => {
  servers = await startFixtureServers();
  dir = mkdtempSync(join(tmpdir(), 'dh-takeover-'));
  browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  // The built-in local model and the program's own SQLite cache.
  dh = await Deckhand.create({ browser, cache: { store: { path: join(dir, 'cache.db') } }, logging: { level: 'debug', callback: (l) => lines.push(l) } });
  page = await browser.context.activePage();
  await page.goto(servers.origin + '/takeover.html');
  const { targetInfos } = await browser.cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/takeover.html'));
  if (!target) throw new Error('the fixture tab is not among the targets');
  ({ sessionId: tab } = await browser.cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: target.targetId, flatten: true }));
  panel = await PanelPage.open(browser, page.id, { shots: PANEL_SHOTS, onError: (t) => errors.push(t) });
  await page.bringToFront();
  await panel.click('[data-testid=tab-live]');
}, 60_000);

afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('take over from the side panel', () => {
  it('Pause, a manual fix, Resume, then a replay that follows the fix with no model', { timeout: 90_000 }, async () => {
    // The model cannot tell which button archives: the act says so (no element fits), and clicks nothing.
    const first = await dh.act(INSTRUCTION);
    expect(first.data.success).toBe(false);
    expect(first.data.actions).toEqual([]);
    expect(first.data.message).toMatch(/no element on the page fits/);
    expect(await pageLog()).toEqual([]);
    const callsBefore = modelCalls();
    expect(callsBefore).toBeGreaterThan(0); // the model was asked, so a count that stays put later means something

    await panel.waitFor(`document.querySelector('[data-testid=live-run][data-op=act][data-status=failed]')`, 'the failed act in the Live tab');
    // Nothing to save before the person has done anything.
    expect(await panel.count('[data-testid=save-fix]')).toBe(0);

    await panel.click('[data-testid=live-pause]');
    await panel.waitFor(
      `document.querySelector('[data-testid=paused-banner]')?.textContent.includes('Paused — the program waits; act on the page, then Resume')`,
      'the paused banner',
    );

    // The program's next operation waits.
    let settled = false;
    const next = dh.act({ selector: '#forward', method: 'click', description: 'Forward button' }, { timeout: 60_000 });
    void next.then(
      () => (settled = true),
      () => (settled = true),
    );
    await panel.waitFor(
      `document.querySelector('[data-testid=paused-banner]')?.textContent.includes('1 operation waiting')`,
      'the panel to show one operation waiting',
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect(settled).toBe(false);
    expect(await pageLog()).toEqual([]);
    expect(lines.some((l) => /waits: the run is paused in Deckhand's side panel/.test(l.message))).toBe(true);

    // The person does the step: a real click on the icon-only button.
    await personClicks('button.tb-icon');
    expect(await pageLog()).toEqual(['archive']);
    await panel.waitFor(`document.querySelector('[data-testid=paused-banner]')?.textContent.includes('1 step of yours recorded')`, 'the click to be recorded');

    // "Save my fix as this step" shows what it will store, then stores it.
    await panel.click('[data-testid=live-run][data-status=failed] [data-testid=save-fix]');
    await panel.waitFor(`document.querySelector('[data-testid=fix-preview]')`, 'the preview of the fix');
    await panel.screenshot('12-take-over');
    const shown = await panel.eval<string[]>(`[...document.querySelectorAll('[data-testid=fix-action]')].map((e) => e.textContent)`);
    expect(shown).toEqual(['click on button with no name (class tb-icon)']);
    expect(await panel.text('[data-testid=fix-preview]')).toContain(INSTRUCTION);
    await panel.click('[data-testid=save-fix-confirm]');
    await panel.waitFor(`document.querySelector('[data-testid=fix-saved]')`, 'the fix to be stored');
    expect(await panel.text('[data-testid=fix-saved]')).toMatch(/replays your 1 step with no model/);

    // Resume: the waiting operation goes on.
    await panel.click('[data-testid=live-resume]');
    const r = await next;
    expect(r.data.success).toBe(true);
    expect(await pageLog()).toEqual(['archive', 'forward']);
    expect(await bannerShown()).toBe(false);
    expect(lines.some((l) => /goes on after \d+ ms paused: the person pressed Resume/.test(l.message))).toBe(true);

    // The same act again: served from the program's cache, following the person's fix, with no model.
    const metrics = await dh.metrics();
    const replay = await dh.act(INSTRUCTION);
    expect(replay.data.success).toBe(true);
    expect(replay.metadata.cache.status).toBe('HIT');
    expect(replay.metadata.usage.inputTokens + replay.metadata.usage.outputTokens).toBe(0);
    expect(modelCalls()).toBe(callsBefore);
    expect((await dh.metrics()).actInferenceTimeMs).toBe(metrics.actInferenceTimeMs);
    expect(await pageLog()).toEqual(['archive', 'forward', 'archive']);
    expect(await inPage<string>(`document.getElementById('status').textContent`)).toBe('Archived (2)');
    expect(errors).toEqual([]);
  });

  it(
    'a paused operation fails with PAUSED after its own timeout; the panel is never held; saving needs a failed run and a step',
    { timeout: 60_000 },
    async () => {
      // Another act the model cannot carry out, with nothing recorded for it yet.
      const other = await dh.act('click the purple unicorn').then(
        (r) => r.data.success,
        () => false,
      );
      expect(other).toBe(false);
      const failedRun =
        `[...document.querySelectorAll('[data-testid=live-run][data-op=act][data-status=failed]')].find((r) => ` +
        `r.querySelector('.instr').textContent === 'click the purple unicorn')`;
      await panel.waitFor(failedRun, 'the second failed act');
      await panel.click('[data-testid=live-pause]');
      await panel.waitFor(`document.querySelector('[data-testid=paused-banner]')`, 'the paused banner');
      const t0 = Date.now();
      const e = await dh.act({ selector: '#reply', method: 'click', description: 'Reply button' }, { timeout: 1500 }).then(
        () => null,
        (x: unknown) => x as DeckhandError,
      );
      const took = Date.now() - t0;
      expect(e).toBeInstanceOf(DeckhandError);
      expect(e!.code).toBe('PAUSED');
      expect(e!.message).toMatch(/paused the run in Deckhand's side panel/);
      expect(took).toBeGreaterThanOrEqual(1400);
      expect(took).toBeLessThan(5000);
      expect(await pageLog()).not.toContain('reply');

      // Typed refusals, asked as the panel asks: no such failed run; nothing recorded since this Pause.
      const ask = (name: string, params: unknown) =>
        workerEval(
          browser,
          `globalThis.__deckhand.panel(${JSON.stringify(name)}, ${JSON.stringify(params)}).then(() => null, (e) => ({ code: e.code, message: e.message }))`,
        ) as Promise<{ code: string; message: string } | null>;
      expect(await ask('takeover.preview', { runId: 'no-such-run', callerId: 'nobody' })).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringMatching(/no failed act run 'no-such-run'/),
      });
      const failed = await panel.eval<{ runId: string; callerId: string }>(
        `(() => { const r = ${failedRun}; return { runId: r.dataset.runId, callerId: r.dataset.callerId }; })()`,
      );
      expect(await ask('takeover.preview', failed)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/nothing was recorded/) });
      expect(await ask('takeover.save', failed)).toMatchObject({ code: 'INVALID_ARGUMENT' });
      // Offered on the failed act, but not until the person has done something.
      expect(await panel.eval(`${failedRun}.querySelector('[data-testid=save-fix]').disabled`)).toBe(true);
      // Never offered on an act given an Action (it has no instruction whose result a fix could be).
      expect(
        await panel.eval(
          `[...document.querySelectorAll('[data-testid=live-run][data-op=act][data-status=failed]')].some((r) => ` +
            `r.querySelector('.instr').textContent.includes('Reply button') && r.querySelector('[data-testid=save-fix]'))`,
        ),
      ).toBe(false);

      // The panel's own instruction runs while programs are paused.
      const own = await panel.runInstruction('act', 'click the Reply button');
      expect(own.status).toBe('done');
      expect(await pageLog()).toContain('reply');
      // Its click was the panel's, not the person's: nothing recorded.
      await new Promise((r) => setTimeout(r, 500));
      expect(await ask('takeover.preview', failed)).toMatchObject({ code: 'INVALID_ARGUMENT' });

      await panel.click('[data-testid=tab-live]');
      await panel.waitFor(`document.querySelector('[data-testid=live-resume]')`, 'the Resume button in the Live tab');
      await panel.click('[data-testid=live-resume]');
      await panel.waitFor(`!document.querySelector('[data-testid=paused-banner]')`, 'the banner to go');
    },
  );

  it('closing every side panel resumes the waiting program: nobody is left to press Resume', { timeout: 60_000 }, async () => {
    await panel.click('[data-testid=live-pause]');
    await panel.waitFor(`document.querySelector('[data-testid=paused-banner]')`, 'the paused banner');
    let settled = false;
    const next = dh.act({ selector: '#forward', method: 'click', description: 'Forward button' }, { timeout: 30_000 });
    void next.then(
      () => (settled = true),
      () => (settled = true),
    );
    await panel.waitFor(`document.querySelector('[data-testid=paused-banner]')?.textContent.includes('1 operation waiting')`, 'the operation to wait');
    const before = (await pageLog()).filter((l) => l === 'forward').length;
    await panel.close();
    const r = await next;
    expect(settled).toBe(true);
    expect(r.data.success).toBe(true);
    expect((await pageLog()).filter((l) => l === 'forward').length).toBe(before + 1);
    expect(lines.some((l) => /goes on after \d+ ms paused: every side panel was closed, so nobody was left to press Resume/.test(l.message))).toBe(true);
  });
});
