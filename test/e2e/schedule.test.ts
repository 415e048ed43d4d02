/**
 * Scheduled flows: a flow saved in the extension is scheduled from the side panel every 0.5
 * minutes, then the Deckhand client goes away (the browser stays: it was started by hand with a
 * debugging port and the client only connected to it) and the extension replays the flow on its
 * own from chrome.alarms. This test then only reads the panel page's DOM over a plain CDP
 * connection, with nothing attached to the extension's worker, until the panel's history shows
 * two successful runs; the page's form posts to this test's server, which counts the posts.
 * A second flow with an extract step (no model to run it) is scheduled alongside: its runs are
 * recorded as failed, with the step and the typed error, and a notification says so.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, localBrowser, type Flow } from '../../src/index';
import { CdpConnection, WebSocketTransport } from '../../src/client/cdp';
import { PANEL_SHOTS, PanelPage } from '../fixtures/panel-page';
import { chromiumWithPort, until, type PortedChromium } from './harness';

const PAGE = readFileSync(new URL('../fixtures/pages/schedule/report.html', import.meta.url), 'utf8');

let server: Server;
let origin: string;
/** The notes the page posted, in order. */
const posts: string[] = [];
let chromium: PortedChromium;
let cdp: CdpConnection | null = null;

const flowOf = (name: string, steps: Flow['recording']['steps']): Flow => ({
  version: 1,
  name,
  source: 'client',
  savedAt: new Date().toISOString(),
  recording: { version: 1, title: name, startUrl: `${origin}/report.html`, steps },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/report') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        posts.push(body);
        res.end('ok');
      });
      return;
    }
    if (req.url === '/report.html') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  chromium = await chromiumWithPort({ extension: true });
});

afterAll(async () => {
  cdp?.close();
  await chromium?.kill();
  await new Promise((r) => server?.close(r));
});

/** The runs the panel lists in a flow's row. */
const runsIn = (panel: PanelPage, flow: string) =>
  panel.eval<{ success: string; code: string; text: string }[]>(
    `[...document.querySelectorAll('[data-testid=flow][data-name=${JSON.stringify(flow)}] [data-testid=schedule-run]')]` +
      `.map((r) => ({ success: r.dataset.success, code: r.dataset.code, text: r.textContent }))`,
  );

describe('a scheduled flow', () => {
  it(
    "runs twice on its own from the panel's schedule, with no client attached, and its history shows both; " + 'a failing one is recorded and notified',
    async () => {
      // --- With a client: save two flows, open the panel on a page and schedule both from it. ---
      const browser = await localBrowser.connect({ cdpUrl: chromium.devtoolsUrl });
      const dh = await Deckhand.create({ browser });
      await dh.flows.save(
        flowOf('send report', [
          {
            kind: 'act',
            id: 's1',
            description: 'type the note',
            actions: [{ selector: '#note', description: 'the Note field', method: 'fill', arguments: ['scheduled'] }],
            urlAfter: `${origin}/report.html`,
          },
          {
            kind: 'act',
            id: 's2',
            description: 'click Send report',
            actions: [{ selector: '#send', description: 'the Send report button', method: 'click', arguments: [] }],
            urlAfter: `${origin}/report.html`,
          },
          { kind: 'wait', id: 's3', description: 'let the post go out', ms: 500 },
        ]),
      );
      await dh.flows.save(
        flowOf('read report', [
          { kind: 'extract', id: 'x1', description: 'the report heading', data: { heading: 'Daily report' }, urlAfter: `${origin}/report.html` },
        ]),
      );
      const page = await browser.context.activePage();
      await page.goto(`${origin}/report.html`);
      const errors: string[] = [];
      const panel = await PanelPage.open(browser, page.id, { shots: PANEL_SHOTS, onError: (t) => errors.push(t) });
      await panel.click('[data-testid=tab-flows]');
      await panel.waitFor(`document.querySelectorAll('[data-testid=flow]').length === 2`, 'both saved flows in the Flows view');

      const row = (flow: string) => `[data-testid=flow][data-name=${JSON.stringify(flow)}]`;
      // Too often for Chromium's alarms: the worker's typed error is shown in the row, nothing is scheduled.
      await panel.click(`${row('send report')} [data-testid=flow-schedule-open]`);
      await panel.type(`${row('send report')} [data-testid=schedule-minutes]`, '0.1');
      await panel.click(`${row('send report')} [data-testid=schedule-save]`);
      expect(
        await panel.waitFor<string>(`document.querySelector('${row('send report')} [data-testid=flow-error]')?.textContent`, 'the error for 0.1 minutes'),
      ).toContain('at least 0.5');
      expect(await panel.count(`${row('send report')} [data-testid=flow-schedule]`)).toBe(0);

      for (const flow of ['send report', 'read report']) {
        if (!(await panel.count(`${row(flow)} [data-testid=schedule-form]`))) await panel.click(`${row(flow)} [data-testid=flow-schedule-open]`);
        await panel.type(`${row(flow)} [data-testid=schedule-minutes]`, '0.5');
        await panel.click(`${row(flow)} [data-testid=schedule-save]`);
        const line = await panel.waitFor<string>(
          `document.querySelector('${row(flow)} [data-testid=flow-schedule]')?.textContent`,
          `the schedule line of "${flow}"`,
        );
        expect(line).toMatch(/^Runs every 0\.5 minutes · next /);
      }
      await panel.screenshot('13-schedule');
      // The scheduled flow's row still exports it as a Playwright test.
      await panel.click(`${row('send report')} [data-testid=flow-export]`);
      await panel.waitFor(`document.querySelector('${row('send report')} [data-testid=flow-format-playwright]')`, 'the export formats');
      await panel.click(`${row('send report')} [data-testid=flow-format-playwright]`);
      expect(
        await panel.waitFor<string>(`document.querySelector('${row('send report')} [data-testid=flow-export-code]')?.textContent`, 'the exported test'),
      ).toContain("from '@playwright/test'");
      const panelTarget = ((await browser.cdp.send('Target.getTargets')).targetInfos as { targetId: string; url: string }[]).find((t) =>
        t.url.includes('/sidepanel.html'),
      )!.targetId;
      expect(posts).toEqual([]);

      // --- No client: the Deckhand instance and its connection go; the browser stays. ---
      await dh.close();
      await browser.close();
      cdp = new CdpConnection(await WebSocketTransport.connect(chromium.devtoolsUrl));
      // And the worker is stopped, as Chromium stops an idle one: the schedules live in its IndexedDB and in chrome.alarms, not in its memory.
      const { sessionId: pageSession } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: panelTarget, flatten: true });
      await cdp.send('ServiceWorker.enable', {}, pageSession);
      await cdp.send('ServiceWorker.stopAllWorkers', {}, pageSession);
      await cdp.send('Target.detachFromTarget', { sessionId: pageSession });
      const watched = await PanelPage.attach(cdp, panelTarget);
      const workerAttached = async () =>
        ((await cdp!.send('Target.getTargets')).targetInfos as { type: string; url: string; attached: boolean }[]).some(
          (t) => t.type === 'service_worker' && t.url.includes('chrome-extension://') && t.attached,
        );
      expect(await workerAttached()).toBe(false);

      const deadline = Date.now() + 100_000;
      for (;;) {
        const ok = (await runsIn(watched, 'send report')).filter((r) => r.success === 'true').length;
        const failed = (await runsIn(watched, 'read report')).filter((r) => r.success === 'false').length;
        if (ok >= 2 && failed >= 1) break;
        // Nothing but the extension may drive it: no debugger client on the worker at any point.
        expect(await workerAttached()).toBe(false);
        if (Date.now() > deadline)
          throw new Error(
            `timed out after 100 s waiting for two successful runs of "send report" (${ok}) and a failed run of "read report" (${failed}) ` +
              `in the panel's history; ` +
              `panel errors: ${errors.join('; ')}`,
          );
        await new Promise((r) => setTimeout(r, 500));
      }

      // The schedules keep firing every half minute and a run may be under way now: wait for a
      // moment between runs, when each run's tab has been closed (only the page and the panel are
      // left) and the history lists every run that posted the form.
      const pages = async () => ((await cdp!.send('Target.getTargets')).targetInfos as { type: string; url: string }[]).filter((t) => t.type === 'page');
      const successes = async () => (await runsIn(watched, 'send report')).filter((r) => r.success === 'true').length;
      await until(
        async () => (await pages()).length === 2 && (await successes()) === posts.length,
        "a moment between runs: every run's tab closed, every post in the history",
        60_000,
      );
      expect((await pages()).filter((t) => t.url === `${origin}/report.html`).length).toBe(1);
      expect((await pages()).filter((t) => t.url.includes('/sidepanel.html')).length).toBe(1);

      const ok = await runsIn(watched, 'send report');
      expect(ok.length).toBeGreaterThanOrEqual(2);
      expect(ok.every((r) => r.success === 'true' && r.text.startsWith('✓'))).toBe(true);
      expect(posts.length).toBe(ok.length);
      expect(posts.every((p) => p === 'scheduled')).toBe(true);
      expect(await watched.text(`${row('send report')} [data-testid=schedule-history] summary`)).toMatch(/History \(\d+ runs, last succeeded\)/);

      const bad = await runsIn(watched, 'read report');
      expect(bad[0]).toMatchObject({ success: 'false', code: 'NO_MODEL_CONFIGURED' });
      expect(bad[0].text).toMatch(
        /^✗ .*step 1: NO_MODEL_CONFIGURED: step 1 of flow "read report" \("the report heading"\): an extract step reads the page with a model/,
      );

      // The failure was told to the person: the extension's notifications, read from its own page
      // (one per flow, replaced by its next failure, kept until dismissed; a run's notification
      // follows its record by a moment).
      const notified = () => watched.eval<string[]>('chrome.notifications.getAll().then((n) => Object.keys(n))');
      await until(async () => (await notified()).includes('deckhand-schedule-failed:read report'), 'the notification of the failed runs of "read report"');
      expect(await notified()).toEqual(['deckhand-schedule-failed:read report']);

      // Removing the schedules from the panel clears their alarms.
      for (const flow of ['send report', 'read report']) {
        await watched.click(`${row(flow)} [data-testid=flow-schedule-open]`);
        await watched.click(`${row(flow)} [data-testid=schedule-remove]`);
        await watched.waitFor(`!document.querySelector('${row(flow)} [data-testid=flow-schedule]')`, `the schedule of "${flow}" to go`);
      }
      expect(
        await watched.eval<string[]>('chrome.alarms.getAll().then((a) => a.map((x) => x.name).filter((n) => n.startsWith("deckhand-schedule:")))'),
      ).toEqual([]);
      expect(errors).toEqual([]);
    },
    180_000,
  );
});
