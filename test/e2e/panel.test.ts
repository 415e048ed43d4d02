/**
 * The side panel end to end: the panel page (opened in its own narrow window, pinned
 * to a fixture tab) runs instructions with the built-in model, shows the steps, the
 * observe list with hover outlines and extract JSON, records what was performed,
 * replays it, and exports a Playwright test and a Deckhand script that both pass
 * when run against the fixture. Screenshots of the main states go to test-output/panel/
 * (ignored) for review; `npm run shots:panel` writes them to docs/public/panel/, the
 * pictures kept in the repository, so an ordinary test run never rewrites tracked files.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, beforeAll } from 'vitest';
import { Deckhand, localBrowser } from '../../src/index';
import { findChromium } from '../../src/client/paths';
import { startModelServer } from '../fixtures/model-server';
import { PANEL_SHOTS, PanelPage } from '../fixtures/panel-page';
import { useBrowser } from './harness';

/** One scripted agent turn (the agent's answer object: every tool field present, unused ones null). */
const agentStep = (tool: string, args: Record<string, unknown>) => ({
  object: {
    reasoning: `next: ${tool}`,
    tool,
    instruction: null,
    url: null,
    direction: null,
    ms: null,
    keys: null,
    x: null,
    y: null,
    text: null,
    toX: null,
    toY: null,
    query: null,
    answer: null,
    success: null,
    taskCompleted: false,
    ...args,
  },
});

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const shots = PANEL_SHOTS;
const h = useBrowser();

let panel: PanelPage;
let fixtureTab: number;
const fixtureValue = (css: string, prop = 'value') =>
  h.browser.context.page(fixtureTab).evaluate(([s, p]) => (document.querySelector(s) as unknown as Record<string, unknown> | null)?.[p] ?? null, [css, prop]);

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  const page = await h.open('/app/login.html');
  fixtureTab = page.id;
  // The panel in its own window at a side panel's width, so the fixture tab stays visible in its window.
  panel = await PanelPage.open(h.browser, fixtureTab, { shots });
  await panel.waitFor(`document.querySelector('[data-testid=target]')?.textContent.includes('Log in')`, 'the panel to show the fixture tab');
});

describe('side panel', () => {
  it('shows the target tab and a clear empty state', async () => {
    expect(await panel.text('[data-testid=target]')).toContain('/app/login.html');
    expect(await panel.text('[data-testid=empty]')).toContain('Nothing run yet');
    await panel.click('[data-testid=tab-recording]');
    expect(await panel.text('[data-testid=recording-empty]')).toContain('No steps recorded yet');
    await panel.click('[data-testid=tab-run]');
    await panel.screenshot('01-empty');
  });

  it('runs act with Enter on the built-in model and the page changes', async () => {
    const r = await panel.runInstruction('act', 'type "ada" into the username field');
    expect(r.status).toBe('done');
    expect(r.text).toContain('deckhand/local');
    expect(await fixtureValue('#user')).toBe('ada');
    // A live step line from the worker's log stream, and usage (the local model reports 0 tokens).
    expect(await panel.text('[data-testid=entry]:last-child [data-testid=events]')).toMatch(/act on page \d+ with deckhand\/local/);
    expect(r.text).toContain('0 tokens');

    expect((await panel.runInstruction('act', 'fill the password with hunter2')).status).toBe('done');
    expect(await fixtureValue('#pass')).toBe('hunter2');
    // A refusal is a failed entry that says why, and records nothing.
    const refused = await panel.runInstruction('act', 'click the purple unicorn');
    expect(refused.status).toBe('failed');
    expect(await panel.text('[data-testid=entry]:last-child [data-testid=entry-error]')).toMatch(/\w+/);
    await panel.screenshot('02-act');
  });

  it('lists observe results, outlines the hovered one on the page, and runs it', async () => {
    const r = await panel.runInstruction('observe', 'the Log in button');
    expect(r.status).toBe('done');
    expect(await panel.count('[data-testid=observed-row]')).toBeGreaterThan(0);
    expect(await panel.text('[data-testid=observed-row]')).toContain('Log in');
    await panel.hover('[data-testid=observed-row]');
    const outlined = async () =>
      h.browser.context.page(fixtureTab).evaluate(() => {
        const box = document.querySelector('deckhand-highlight') as HTMLElement | null;
        const btn = document.getElementById('login')!.getBoundingClientRect();
        if (!box) return null;
        const b = box.getBoundingClientRect();
        return { over: Math.abs(b.x + 2 - btn.x) < 1 && Math.abs(b.y + 2 - btn.y) < 1, events: getComputedStyle(box).pointerEvents };
      });
    await expect.poll(outlined, { timeout: 5000 }).toEqual({ over: true, events: 'none' });
    await panel.screenshot('03-observe');
    await panel.hover('[data-testid=instruction]');
    await expect.poll(outlined, { timeout: 5000 }).toBeNull();
    // Run the observed action: the login form submits and the fixture tab moves on.
    const entries = await panel.count('[data-testid=entry]');
    await panel.click('[data-testid=observed-run]');
    await panel.waitFor(
      `[...document.querySelectorAll('[data-testid=entry]')].at(-1)?.dataset.status === 'done' && ` +
        `document.querySelectorAll('[data-testid=entry]').length > ${entries}`,
      'the observed action to run',
    );
    await expect
      .poll(async () => await h.browser.context.page(fixtureTab).url(), { timeout: 10_000, message: await panel.text('[data-testid=timeline]') })
      .toContain('/app/settings.html?user=ada');
  });

  it('extracts with a JSON Schema and shows formatted JSON', async () => {
    await panel.waitFor(`document.querySelector('[data-testid=target]')?.textContent.includes('settings.html')`, 'the panel to follow the navigation');
    const r = await panel.runInstruction('extract', 'the page heading', '{"type":"object","properties":{"heading":{"type":"string"}},"required":["heading"]}');
    expect(r.status).toBe('done');
    const json = JSON.parse(await panel.text('[data-testid=entry]:last-child [data-testid=extract-json]'));
    expect(json).toEqual({ heading: 'Settings for ada' });
    expect((await panel.runInstruction('act', 'check Email notifications')).status).toBe('done');
    expect((await panel.runInstruction('act', 'click Save')).status).toBe('done');
    expect(await fixtureValue('#status', 'textContent')).toBe('Saved: notifications on');
    await panel.screenshot('04-extract');
  });

  it('shows the session metrics', async () => {
    await panel.click('[data-testid=metrics] summary');
    expect(await panel.count('[data-testid=metrics] td[data-metric]')).toBe(20);
    // The local model counts its compute time, and total is the sum of the operations.
    const m = await panel.eval<Record<string, number>>(
      `Object.fromEntries([...document.querySelectorAll('[data-testid=metrics] td[data-metric]')]` +
        `.map((td) => [td.dataset.metric, Number(td.title.split(': ')[1])]))`,
    );
    expect(m.actInferenceTimeMs).toBeGreaterThan(0);
    expect(m.totalInferenceTimeMs).toBeCloseTo(m.actInferenceTimeMs + m.observeInferenceTimeMs + m.extractInferenceTimeMs, 9);
  });

  it('records the steps; one can be deleted and one re-run', async () => {
    await panel.click('[data-testid=tab-recording]');
    const descriptions = () => panel.eval<string[]>(`[...document.querySelectorAll('[data-testid=step] .step-desc')].map((e) => e.textContent)`);
    expect(await descriptions()).toEqual([
      'type "ada" into the username field',
      'fill the password with hunter2',
      expect.stringContaining('Log in'),
      'the page heading',
      'check Email notifications',
      'click Save',
    ]);
    // Delete the extract step (Playwright has no equivalent; the script would need a model for it).
    await panel.click('[data-testid=step]:nth-child(4) [data-testid=step-delete]');
    expect(await descriptions()).toHaveLength(5);
    expect(await descriptions()).not.toContain('the page heading');
    // Re-run "click Save" on the page as it is now: a new live act, the step keeps its place.
    await panel.click('[data-testid=tab-run]');
    const entries = await panel.count('[data-testid=entry]');
    await panel.click('[data-testid=tab-recording]');
    await panel.click('[data-testid=step]:nth-child(5) [data-testid=step-rerun]');
    await panel.waitFor(`!document.querySelector('[data-testid=step-rerun]:disabled')`, 'the re-run to finish');
    expect(await descriptions()).toEqual(expect.arrayContaining(['click Save']));
    await panel.click('[data-testid=tab-run]');
    expect(await panel.count('[data-testid=entry]')).toBe(entries + 1);
    expect(await panel.eval(`[...document.querySelectorAll('[data-testid=entry]')].at(-1).dataset.status`)).toBe('done');
    await panel.click('[data-testid=tab-recording]');
    await panel.screenshot('05-recording');
  });

  it('replays the recording with no model', async () => {
    const page = h.browser.context.page(fixtureTab);
    await page.goto(h.origin + '/links.html');
    await panel.click('[data-testid=replay]');
    await panel.click('[data-testid=tab-run]');
    const status = await panel.waitFor<string>(
      `(() => { const e = [...document.querySelectorAll('[data-testid=entry]')].at(-1); return e?.dataset.kind === 'replay' && ` +
        `e.dataset.status !== 'running' ? e.dataset.status : ''; })()`,
      'the replay to finish',
      30_000,
    );
    expect(status).toBe('done');
    // The engine's replay (flow.replay) reported each step as it went, in the entry's timeline.
    const events = await panel.eval<string[]>(
      `[...[...document.querySelectorAll('[data-testid=entry]')].at(-1).querySelectorAll('[data-testid=events] li')].map((li) => li.textContent)`,
    );
    expect(events.filter((e) => /step \d\/5 done/.test(e))).toHaveLength(5);
    expect(events.at(-1)).toMatch(/step 5\/5 done: click Save/);
    expect(await page.url()).toContain('/app/settings.html?user=ada');
    expect(await fixtureValue('#status', 'textContent')).toBe('Saved: notifications on');
    expect(await fixtureValue('#notify', 'checked')).toBe(true);
  });

  it('exports a Playwright test that passes against the fixture', async () => {
    await panel.click('[data-testid=tab-recording]');
    await panel.click('[data-testid=format-playwright]');
    const code = await panel.text('[data-testid=export-code]');
    expect(code).toContain("from '@playwright/test'");
    expect(code).toContain('/app/login.html');
    await panel.screenshot('06-export');
    const dir = join(root, '.tmp/exported-playwright');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'recorded.spec.ts'), code);
    writeFileSync(
      join(dir, 'playwright.config.mjs'),
      `export default { testDir: '.', timeout: 30000, reporter: 'line', ` +
        `use: { headless: true, launchOptions: { executablePath: ${JSON.stringify(findChromium())}, args: ['--no-sandbox', '--disable-gpu'] } } };\n`,
    );
    const out = await run(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '--config', join(dir, 'playwright.config.mjs')], {
      cwd: dir,
      timeout: 90_000,
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the exported Playwright test failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}\n--- test ---\n${code}`);
    });
    expect(out.stdout).toMatch(/1 passed/);
  }, 120_000);

  it('exports a Deckhand script that passes against the fixture', async () => {
    await panel.click('[data-testid=format-deckhand]');
    const code = await panel.text('[data-testid=export-code]');
    expect(code).toContain("from 'deckhand'");
    // Inside the package directory, 'deckhand' resolves to this package's own build (dist/).
    const file = join(root, '.tmp/recorded.deckhand.mjs');
    writeFileSync(file, code);
    const out = await run(process.execPath, [file], { cwd: root, timeout: 90_000, env: { ...process.env, HEADLESS: '1' } }).catch(
      (e: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`the exported Deckhand script failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}\n--- script ---\n${code}`);
      },
    );
    expect(out.stdout + out.stderr).toMatch(/click Save/);
  }, 120_000);

  it('keeps the recording when the panel is closed and opened again', async () => {
    const steps = () => panel.eval<string[]>(`[...document.querySelectorAll('[data-testid=step] .step-desc')].map((e) => e.textContent)`);
    await panel.click('[data-testid=tab-recording]');
    const before = await steps();
    expect(before).toHaveLength(5);
    await panel.reload();
    await panel.click('[data-testid=tab-recording]');
    await panel.waitFor(`document.querySelectorAll('[data-testid=step]').length === 5`, 'the recording to come back after the panel reopened');
    expect(await steps()).toEqual(before);
    // The run timeline is the panel's own view and starts empty again.
    await panel.click('[data-testid=tab-run]');
    expect(await panel.text('[data-testid=empty]')).toContain('Nothing run yet');
  });

  it("runs the same instruction twice: the second is served from the extension's IndexedDB cache and still acts", async () => {
    const page = h.browser.context.page(fixtureTab);
    await page.goto(h.origin + '/form.html');
    await panel.waitFor(`document.querySelector('[data-testid=target]')?.textContent.includes('form.html')`, 'the panel to follow the navigation');
    const cacheOfLast = () => panel.eval<string | undefined>(`[...document.querySelectorAll('[data-testid=entry]')].at(-1).dataset.cache`);
    expect((await panel.runInstruction('act', 'click the Multi button')).status).toBe('done');
    expect(await cacheOfLast()).toBe('MISS');
    const second = await panel.runInstruction('act', 'click the Multi button');
    expect(second.status).toBe('done');
    expect(await cacheOfLast()).toBe('HIT');
    expect(second.text).toContain('from cache');
    expect(second.text).toMatch(/replayed 1 cached action/);
    expect(await page.evaluate(() => (window as unknown as { __log: string[] }).__log.filter((l) => l === 'click:multi').length)).toBe(2);
    // The entry is in the extension's own IndexedDB (the panel shares the worker's origin).
    const stored = await panel.eval<number>(
      `new Promise((resolve, reject) => { const r = indexedDB.open('deckhand-cache'); r.onerror = () => reject(r.error); ` +
        `r.onsuccess = () => { const q = r.result.transaction('entries').objectStore('entries').count(); ` +
        `q.onsuccess = () => { resolve(q.result); r.result.close(); }; }; })`,
    );
    expect(stored).toBeGreaterThanOrEqual(1);
  });

  it('keeps a provider key out of the panel once saved, and Escape stops a running agent', async () => {
    const ms = await startModelServer();
    try {
      await panel.click('[data-testid=tab-settings]');
      await panel.eval(
        `(() => { const s = document.querySelector('[data-testid=provider]'); ` +
          `Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, 'openai'); ` +
          `` +
          `s.dispatchEvent(new Event('change', { bubbles: true })); })()`,
      );
      await panel.type('[data-testid=model-name]', 'gpt-4.1-mini');
      await panel.type('[data-testid=api-key]', 'sk-panel-secret-9876');
      await panel.type('[data-testid=base-url]', ms.url);
      await panel.click('[data-testid=save-settings]');
      expect(await panel.waitFor<string>(`document.querySelector('[data-testid=settings-message]')?.textContent`, 'the save message')).toContain('OpenAI');
      // Saved in local storage (never sync), and never put back into the page.
      const stored = await panel.eval<{ local: string; sync: string }>(
        `(async () => ({ local: JSON.stringify(await chrome.storage.local.get(null)), sync: JSON.stringify(await chrome.storage.sync.get(null)) }))()`,
      );
      expect(stored.local).toContain('sk-panel-secret-9876');
      expect(stored.sync).not.toContain('sk-panel');
      expect(await panel.eval(`document.querySelector('[data-testid=api-key]').value`)).toBe('');
      expect(await panel.eval(`document.querySelector('[data-testid=api-key]').placeholder`)).toContain('…9876');
      expect(await panel.eval(`document.documentElement.outerHTML.includes('sk-panel-secret')`)).toBe(false);
      await panel.screenshot('07-settings');

      // The agent: one quick step, then a model that takes 20 s; Escape stops it while it waits.
      ms.script(agentStep('wait', { ms: 50 }), { ...agentStep('wait', { ms: 50 }), delayMs: 20_000 });
      await panel.click('[data-testid=tab-run]');
      await panel.click('[data-testid=kind-agent]');
      await panel.type('[data-testid=instruction]', 'wait for the page');
      await panel.key('Enter');
      await panel.waitFor(
        `[...document.querySelectorAll('[data-testid=entry]')].at(-1)?.querySelector('.events li.step')`,
        'the first agent step to show live',
      );
      await panel.waitFor(`document.querySelector('[data-testid=stop]')`, 'the Stop button');
      await panel.screenshot('08-agent-running');
      const t0 = Date.now();
      await panel.key('Escape');
      const status = await panel.waitFor<string>(
        `(() => { const s = [...document.querySelectorAll('[data-testid=entry]')].at(-1)?.dataset.status; return s !== 'running' ? s : ''; })()`,
        'the agent to stop',
      );
      expect(status).toBe('stopped');
      expect(Date.now() - t0).toBeLessThan(5000);
      // The key went to the model server with the call, and nowhere in the panel's page.
      expect(ms.requests[0].headers.authorization).toBe('Bearer sk-panel-secret-9876');
      expect(await panel.eval(`document.documentElement.outerHTML.includes('sk-panel-secret')`)).toBe(false);
    } finally {
      await ms.close();
    }
  }, 60_000);

  it('pairs a local Node client from "Connect to a local client", shows it attached, and disconnects it', async () => {
    let pairing: { port: number; token: string } | null = null;
    const attaching = localBrowser.attach({ onPairing: (p) => (pairing = p), timeout: 20_000 });
    await expect.poll(() => pairing, { timeout: 5000 }).not.toBeNull();
    await panel.click('[data-testid=tab-settings]');
    // A wrong token is refused and says so; the client keeps waiting for the right one.
    await panel.type('[data-testid=bridge-port]', String(pairing!.port));
    await panel.type('[data-testid=bridge-token]', 'not-the-token');
    await panel.click('[data-testid=bridge-connect]');
    expect(await panel.waitFor<string>(`document.querySelector('[data-testid=bridge-error]')?.textContent`, 'the refusal')).toMatch(/refused|token/i);
    await panel.type('[data-testid=bridge-token]', pairing!.token);
    await panel.click('[data-testid=bridge-connect]');
    const attached = await attaching;
    try {
      await panel.waitFor(`document.querySelector('[data-testid=bridge-chip]')?.textContent.includes('Client attached')`, 'the attached chip');
      expect(await panel.eval(`document.querySelector('[data-testid=bridge-status]').dataset.state`)).toBe('attached');
      await panel.screenshot('09-client-attached');
      // The attached client drives the browser like any other.
      const dh = await Deckhand.create({ browser: attached });
      const page = dh.context.page(fixtureTab);
      await page.goto(h.origin + '/app/login.html');
      const r = await dh.act('type "grace" into the username field', { page: fixtureTab });
      expect(r.data.success).toBe(true);
      expect(await fixtureValue('#user')).toBe('grace');
      // The person cuts it off from the chip; the client's next call says why.
      await panel.click('[data-testid=bridge-chip-disconnect]');
      await panel.waitFor(`!document.querySelector('[data-testid=bridge-chip]')`, 'the chip to go');
      await expect.poll(() => attached.isConnected, { timeout: 5000 }).toBe(false);
      await expect(page.url()).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
      await dh.close();
    } finally {
      await attached.close();
    }
  }, 60_000);

  it('the Agent tab on the built-in model carries out a compound instruction, step by step', async () => {
    // Back to the built-in model (an earlier test saved a provider).
    await panel.click('[data-testid=tab-settings]');
    await panel.eval(
      `(() => { const s = document.querySelector('[data-testid=provider]'); ` +
        `Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, 'local'); ` +
        `s.dispatchEvent(new Event('change', { bubbles: true })); })()`,
    );
    await panel.click('[data-testid=save-settings]');
    await panel.waitFor(`document.querySelector('[data-testid=settings-message]')?.textContent`, 'the save message');
    await panel.click('[data-testid=tab-run]');
    await h.browser.context.page(fixtureTab).goto(h.origin + '/app/login.html');
    const r = await panel.runInstruction('agent', 'Enter the username "grace" and the password "cobol" into the text fields and press Log in');
    expect(r.status).toBe('done');
    expect(r.text).toContain('deckhand/local');
    expect(r.text).toContain('0 tokens');
    // Each planned step showed as it ran.
    expect(await panel.count('[data-testid=entry]:last-child .events li.step')).toBeGreaterThanOrEqual(3);
    expect(await h.browser.context.page(fixtureTab).url()).toBe(`${h.origin}/app/settings.html?user=grace`);
  }, 60_000);
});
