/** Shared e2e setup: fixture servers and a launched browser with the extension. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { extensionDir, findChromium } from '../../src/client/paths';
import { Deckhand, DeckhandError, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { startService, type RunningService } from '../../src/server/service';

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

/** That the call fails with a DeckhandError of `code` (and, given, a message matching `message`); the error, for more checks. */
export async function expectError(p: Promise<unknown>, code: string, message?: RegExp): Promise<DeckhandError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, 'expected the call to fail').toBeInstanceOf(DeckhandError);
  expect((e as DeckhandError).code).toBe(code);
  if (message) expect((e as DeckhandError).message).toMatch(message);
  return e as DeckhandError;
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

export interface PortedChromium {
  devtoolsUrl: string;
  /** Kill it and remove its profile. */
  kill(): Promise<void>;
}

/**
 * A Chromium started by hand with a remote debugging port (as a person or a remote machine
 * would run it), optionally with the extension loaded.
 */
export async function chromiumWithPort(opts: { extension: boolean; args?: string[] }): Promise<PortedChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'dh-ported-'));
  const ext = extensionDir();
  const args = [
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...(opts.args ?? []),
  ];
  if (opts.extension) args.push(`--disable-extensions-except=${ext}`, `--load-extension=${ext}`);
  // Its own process group, so kill() ends Chromium's helper processes too (they write to the profile).
  const child = spawn(findChromium()!, [...args, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
    // A straggler may still hold the folder; the run's temp folder is removed at the end anyway.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      // Left for the global teardown.
    }
  };
  try {
    const devtoolsUrl = await new Promise<string>((resolve, reject) => {
      let buf = '';
      const t = setTimeout(() => reject(new Error(`Chromium printed no DevTools address within 10000 ms: ${buf}`)), 10_000);
      child.stderr!.on('data', (d) => {
        buf += d;
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(buf);
        if (m) {
          clearTimeout(t);
          resolve(m[1]);
        }
      });
    });
    return { devtoolsUrl, kill };
  } catch (e) {
    await kill();
    throw e;
  }
}

export interface ServiceHarness {
  svc: RunningService;
  /** POST a JSON body with the harness's key; the status and the parsed answer. */
  post(path: string, body: unknown): Promise<{ status: number; body: { data?: any; error?: { code: string; message: string } } }>;
}

/** An HTTP service with one API key and one session slot, for the tests of a describe block. */
export function useService(key: string): ServiceHarness {
  const h = {
    svc: undefined as unknown as RunningService,
    async post(path: string, body: unknown) {
      const r = await fetch(h.svc.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dh-api-key': key },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as { data?: any; error?: { code: string; message: string } } };
    },
  };
  beforeAll(async () => {
    process.env.DECKHAND_API_KEYS = key;
    h.svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-svc-')), port: 0, maxSessions: 1 });
  });
  afterAll(async () => {
    await h.svc?.close();
    delete process.env.DECKHAND_API_KEYS;
  });
  return h;
}

/** Evaluate in the extension's worker (starting it if it is stopped), as a debugger client of it. */
export async function workerEval(browser: BrowserHandle, expression: string): Promise<unknown> {
  const cdp = browser.cdp;
  const workerTarget = async () =>
    ((await cdp.send('Target.getTargets')).targetInfos as { targetId: string; type: string; url: string }[]).find(
      (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`),
    );
  let worker = await workerTarget();
  if (!worker) {
    // A stopped worker: any call through the handle's link starts it again.
    await browser.context.pages();
    worker = await workerTarget();
  }
  if (!worker) throw new Error('no extension worker to evaluate in');
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
  try {
    const r = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
    if (r.exceptionDetails) throw new Error(`${expression} threw: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  } finally {
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}

/** The extension worker's console from now on (what it logs, as its DevTools console shows it). */
export async function workerLog(browser: BrowserHandle): Promise<{ lines: () => Promise<string[]>; close: () => Promise<void> }> {
  const cdp = browser.cdp;
  const targets = (await cdp.send('Target.getTargets')).targetInfos as { targetId: string; type: string; url: string }[];
  const worker = targets.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`));
  if (!worker) throw new Error('no extension worker to watch');
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
  const seen: string[] = [];
  const onEvent = (e: { method: string; params: { args?: { value?: unknown; description?: string }[] }; sessionId?: string }) => {
    if (e.sessionId === sessionId && e.method === 'Runtime.consoleAPICalled')
      seen.push((e.params.args ?? []).map((a) => String(a.value ?? a.description ?? '')).join(' '));
  };
  cdp.on('event', onEvent);
  await cdp.send('Runtime.enable', {}, sessionId);
  return {
    lines: async () => [...seen],
    close: async () => {
      cdp.off('event', onEvent);
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    },
  };
}

/** Poll `check` until it holds; fail naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
