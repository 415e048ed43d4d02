/**
 * Watch, from callers other than a Node program: one Chromium (with the extension, reachable on
 * a DevTools port) is driven by an HTTP service session and by a Python program at once, and the
 * side panel opened in it names each driver and shows its act as it runs and how it ended.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBrowser, type BrowserHandle } from '../../src/index';
import { startService, type RunningService } from '../../src/server/service';
import { startFixtureServers } from '../fixtures/server';
import { PanelPage } from '../fixtures/panel-page';
import { chromiumWithPort, type PortedChromium } from './harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'watch-callers-key';
let remote: PortedChromium;
let svc: RunningService;
let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let handle: BrowserHandle;
let panel: PanelPage;

beforeAll(async () => {
  process.env.DECKHAND_API_KEYS = KEY;
  servers = await startFixtureServers();
  remote = await chromiumWithPort({ extension: true });
  svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-watch-')), port: 0, allowCdpHosts: [`127.0.0.1:${new URL(remote.devtoolsUrl).port}`] });
  // This test's own view of the browser: only to open the side panel in it.
  handle = await localBrowser.connect({ cdpUrl: remote.devtoolsUrl });
});
afterAll(async () => {
  await handle?.close();
  await svc?.close();
  await remote?.kill();
  await servers?.close();
  delete process.env.DECKHAND_API_KEYS;
});

const call = (path: string, body: unknown) =>
  fetch(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY }, body: JSON.stringify(body) }).then(
    async (r) => (await r.json()) as any,
  );

const runs = () =>
  panel.eval<{ op: string; status: string; who: string; description: string }[]>(`
    [...document.querySelectorAll('[data-testid=live-run]')].map((r) => ({
      op: r.dataset.op, status: r.dataset.status,
      who: r.querySelector('[data-testid=live-who]')?.textContent ?? '',
      description: r.querySelector('.instr')?.textContent ?? '',
    }))`);

describe('the side panel watches every kind of caller', () => {
  it('names an HTTP service session and a Python program, and shows their acts as they end', async () => {
    const started = await call('/v1/sessions/start', { cdpUrl: remote.devtoolsUrl });
    const id = started.data.sessionId as string;
    expect(id).toBeTruthy();
    await call(`/v1/sessions/${id}/navigate`, { url: `${servers.origin}/app/login.html` });
    let page: Awaited<ReturnType<typeof handle.context.pages>>[number] | undefined;
    for (const p of await handle.context.pages()) if ((await p.url()).includes('/app/login.html')) page = p;
    expect(page).toBeTruthy();
    panel = await PanelPage.open(handle, page!.id);
    // The panel's tab opened last: make the fixture the page the callers work on again.
    await page!.bringToFront();
    await panel.click('[data-testid=tab-live]');

    const acted = await call(`/v1/sessions/${id}/act`, { input: 'type ada into the Username field' });
    expect(acted, JSON.stringify(acted)).toMatchObject({ success: true, data: { data: { success: true } } });
    await panel.waitFor(
      `[...document.querySelectorAll('[data-testid=live-run][data-status=done] [data-testid=live-who]')].some((w) => w.textContent.includes('HTTP service'))`,
      "the HTTP session's act, done",
    );
    const http = (await runs()).find((r) => r.who.includes('HTTP service'))!;
    expect(http).toMatchObject({ op: 'act', status: 'done', description: 'type ada into the Username field' });
    expect(http.who).toBe(`Driven by HTTP service · session ${id}`);

    // A Python program on the same browser, as a user runs one.
    const script = [
      'import asyncio, sys',
      'from deckhand import Deckhand, local_browser',
      'async def main():',
      '    browser = await local_browser.connect(cdp_url=sys.argv[1])',
      '    dh = await Deckhand.create(browser=browser)',
      '    r = await dh.act("type grace into the Password field")',
      '    print(r.data.success)',
      '    await dh.close()',
      'asyncio.run(main())',
    ].join('\n');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(`${ROOT}.venv/bin/python`, ['-c', script, remote.devtoolsUrl], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(out.trim()).toBe('True');
    await panel.waitFor(
      `[...document.querySelectorAll('[data-testid=live-run] [data-testid=live-who]')].some((w) => w.textContent.includes('Python client'))`,
      "the Python program's act",
    );
    const py = (await runs()).find((r) => r.who.includes('Python client'))!;
    expect(py).toMatchObject({ op: 'act', description: 'type grace into the Password field' });
    await panel.waitFor(`document.querySelectorAll('[data-testid=live-run][data-status=done]').length === 2`, 'both acts done');
    await call(`/v1/sessions/${id}/end`, {});
  });
});
