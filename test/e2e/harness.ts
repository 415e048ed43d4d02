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
