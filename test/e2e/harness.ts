/** Shared e2e setup: fixture servers and a launched browser with the extension. */
import { afterAll, beforeAll } from 'vitest';
import { Deckhand, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';

export interface Harness {
  origin: string;
  crossOrigin: string;
  browser: BrowserHandle;
  dh: Deckhand;
  /** A fresh page at a fixture path. */
  open(path: string): Promise<Page>;
}

export function useBrowser(): Harness {
  const h = {} as Harness;
  let servers: Awaited<ReturnType<typeof startFixtureServers>>;
  beforeAll(async () => {
    servers = await startFixtureServers();
    h.origin = servers.origin;
    h.crossOrigin = servers.crossOrigin;
    h.browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
    h.dh = await Deckhand.create({ browser: h.browser });
    h.open = async (path: string) => {
      const page = await h.browser.context.activePage();
      await page.goto(h.origin + path);
      return page;
    };
  });
  afterAll(async () => {
    await h.dh?.close();
    await h.browser?.close();
    await servers?.close();
  });
  return h;
}

/** Stop the extension's service worker as Chromium does when it idles it out. */
export async function stopWorker(browser: BrowserHandle): Promise<void> {
  const cdp = browser.cdp;
  const { targetInfos } = await cdp.send('Target.getTargets');
  const page = targetInfos.find((t: { type: string }) => t.type === 'page');
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true });
  await cdp.send('ServiceWorker.enable', {}, sessionId);
  await cdp.send('ServiceWorker.stopAllWorkers', {}, sessionId);
  await cdp.send('Target.detachFromTarget', { sessionId });
}
