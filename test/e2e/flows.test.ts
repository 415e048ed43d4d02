/**
 * Named flows, recorded once in the side panel and replayed with no model from everywhere:
 * the panel records two steps on a checkout page with the built-in model and saves them as
 * "checkout" (then lists, renames, exports and deletes a flow); the Node library replays it
 * by name with variables and no model call (a scripted provider counts the calls), and stops
 * with a typed error naming the step when the page's Place order button is gone;
 * test/fixtures/record-flow.ts records into a profile a later browser replays from; the HTTP
 * service keeps the exported flow in one key's store, replays it by name in that key's fresh
 * session browsers and not in another key's; the MCP replay tool replays it too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, FlowSchema, localBrowser, type BrowserHandle, type Flow, type Page } from '../../src/index';
import { startService, type RunningService } from '../../src/server/service';
import { tenantDigest } from '../../src/keys/api-keys';
import { startFixtureServers, type FixtureServers } from '../fixtures/server';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { PanelPage } from '../fixtures/panel-page';
import { readEvents } from './sse';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY_A = 'flows-key-a';
const KEY_B = 'flows-key-b';
const STEPS = ['type "%email%" into the email field', 'click the Place order button'];

let servers: FixtureServers;
let ms: ModelServer;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;
let panel: PanelPage;
/** The flow as the panel's Export gave it. */
let exported: Flow;

const orders = (p: Page) => p.evaluate(() => (window as unknown as { __orders: { email: string; qty: string }[] }).__orders);

beforeAll(async () => {
  servers = await startFixtureServers();
  ms = await startModelServer();
  browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  // A provider model on a scripted server: any model call this client makes is counted there.
  dh = await Deckhand.create({ browser, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test', baseURL: ms.url }, cache: { store: 'memory' } });
  page = await browser.context.activePage();
  await page.goto(`${servers.origin}/flows/checkout.html`);
  panel = await PanelPage.open(browser, page.id);
});

afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await ms?.close();
  await servers?.close();
});

describe('flows in the side panel', () => {
  it('records two steps with the built-in model, saves them as "checkout", and lists, renames, exports and deletes a flow', async () => {
    for (const s of STEPS) expect((await panel.runInstruction('act', s)).status).toBe('done');
    expect(await orders(page)).toEqual([{ email: '%email%', qty: '1' }]);

    await panel.click('[data-testid=tab-flows]');
    expect(await panel.text('[data-testid=flows-empty]')).toContain('No saved flows yet');
    await panel.saveFlow('checkout');
    expect(await panel.text('[data-testid=flow-saved]')).toContain('Saved flow "checkout"');
    // The same name again: the panel asks before replacing it.
    await panel.click('[data-testid=save-flow]');
    await panel.type('[data-testid=save-flow-name]', 'checkout');
    await panel.click('[data-testid=save-flow-confirm]');
    expect(
      await panel.waitFor<string>(`document.querySelector('[data-testid=save-flow-exists]')?.textContent`, 'the warning that the name is taken'),
    ).toContain('already saved');
    expect(await panel.text('[data-testid=save-flow-confirm]')).toBe('Replace it');
    await panel.click('[data-testid=save-flow-form] button.quiet');

    await panel.click('[data-testid=tab-flows]');
    await panel.waitFor(`document.querySelector('[data-testid=flow][data-name="checkout"]')`, 'the saved flow in the list');
    expect(await panel.text('[data-testid=tab-flows]')).toBe('Flows1');
    expect(await panel.text('[data-testid=flow-meta]')).toMatch(/^2 steps · saved /);
    expect(await dh.flows.list()).toEqual([
      expect.objectContaining({ name: 'checkout', source: 'panel', steps: 2, startUrl: `${servers.origin}/flows/checkout.html` }),
    ]);

    // Rename: the list and the extension follow.
    await panel.click('[data-testid=flow-rename]');
    await panel.type('[data-testid=flow-rename-input]', 'checkout renamed');
    await panel.click('[data-testid=flow-rename-save]');
    await panel.waitFor(`document.querySelector('[data-testid=flow][data-name="checkout renamed"]')`, 'the renamed flow in the list');
    expect(await panel.count('[data-testid=flow]')).toBe(1);
    expect((await dh.flows.list()).map((f) => f.name)).toEqual(['checkout renamed']);

    // Export: the Flow JSON, then the recording's other formats.
    await panel.click('[data-testid=flow-export]');
    const json = await panel.waitFor<string>(`document.querySelector('[data-testid=flow-export-code]')?.textContent`, 'the exported JSON');
    const flow = FlowSchema.parse(JSON.parse(json));
    expect(flow).toMatchObject({ version: 1, name: 'checkout renamed', source: 'panel', recording: { startUrl: `${servers.origin}/flows/checkout.html` } });
    expect(flow.recording.steps.map((s) => s.description)).toEqual(STEPS);
    expect(await panel.text('[data-testid=flow-download]')).toContain('checkout-renamed.flow.json');
    await panel.click('[data-testid=flow-format-playwright]');
    expect(await panel.text('[data-testid=flow-export-code]')).toContain("from '@playwright/test'");
    exported = { ...flow, name: 'checkout' };

    // Delete (after a confirmation).
    await panel.click('[data-testid=flow-delete]');
    await panel.click('[data-testid=flow-delete-confirm]');
    await panel.waitFor(`document.querySelector('[data-testid=flows-empty]')`, 'the list to be empty');
    expect(await dh.flows.list()).toEqual([]);

    // Saved again for the replays below.
    await panel.saveFlow('checkout');
    expect((await dh.flows.list()).map((f) => f.name)).toEqual(['checkout']);
  }, 60_000);

  it('Replay in the Flows view runs the saved flow on the tab through the engine, its steps showing as they run', async () => {
    await page.goto(`${servers.origin}/links.html`);
    await panel.click('[data-testid=tab-flows]');
    await panel.click('[data-testid=flow-replay]');
    const status = await panel.waitFor<string>(
      "(() => { const e = [...document.querySelectorAll('[data-testid=entry]')].at(-1); " +
        "return e?.dataset.kind === 'replay' && e.dataset.status !== 'running' ? e.dataset.status : ''; })()",
      'the replay to finish',
      30_000,
    );
    expect(status, await panel.text('[data-testid=timeline]')).toBe('done');
    const events = await panel.eval<string[]>(
      `[...[...document.querySelectorAll('[data-testid=entry]')].at(-1).querySelectorAll('[data-testid=events] li')].map((li) => li.textContent)`,
    );
    expect(events).toEqual(
      expect.arrayContaining([expect.stringMatching(/step 1\/2 done: type "%email%"/), expect.stringMatching(/step 2\/2 done: click the Place order button/)]),
    );
    expect(await page.url()).toBe(`${servers.origin}/flows/checkout.html`);
    expect(await orders(page)).toEqual([{ email: '%email%', qty: '1' }]);
  }, 45_000);
});

describe('replay from Node', () => {
  it('replays the panel\'s "checkout" by name with variables on a fresh load, calling no model', async () => {
    const before = await dh.metrics();
    await page.goto('about:blank');
    // On the checkout's tab: the panel's own tab, in its window, is the last one made active.
    const r = await dh.replay('checkout', { page, variables: { email: 'ada@example.com' } });
    expect(r).toMatchObject({ name: 'checkout', url: `${servers.origin}/flows/checkout.html` });
    expect(r.steps.map((s) => [s.description, s.status])).toEqual(STEPS.map((d) => [d, 'done']));
    expect(r.usage).toEqual({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0 });
    // No model call: the scripted provider saw nothing, and the metrics did not move.
    expect(ms.requests).toHaveLength(0);
    expect(await dh.metrics()).toEqual(before);
    expect(await orders(page)).toEqual([{ email: 'ada@example.com', qty: '1' }]);
    expect(await page.evaluate(() => document.getElementById('status')!.textContent)).toBe('Order placed for ada@example.com (quantity 1)');
  });

  it('stops with ACTION_FAILED naming the step when the Place order button is gone, and orders nothing', async () => {
    const flow = await dh.flows.get('checkout');
    const closed: Flow = { ...flow, recording: { ...flow.recording, startUrl: `${flow.recording.startUrl}?closed` } };
    const failure = await dh.replay(closed, { page, variables: { email: 'bo@example.com' }, stepTimeout: 1000 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: 'ACTION_FAILED',
      data: { step: { index: 2, id: flow.recording.steps[1].id, description: 'click the Place order button' } },
    });
    expect((failure as Error).message).toMatch(/step 2 of flow "checkout" \("click the Place order button"\) no longer applies/);
    expect(await page.url()).toBe(`${servers.origin}/flows/checkout.html?closed`);
    // Step 1 ran; nothing was ordered; still no model call.
    expect(await page.evaluate(() => (document.getElementById('email') as HTMLInputElement).value)).toBe('bo@example.com');
    expect(await orders(page)).toEqual([]);
    expect(ms.requests).toHaveLength(0);
  });

  it('a step whose button moved is found again by what it was, with no model; one whose button was renamed only with a model', async () => {
    const flow = await dh.flows.get('checkout');
    const at = (q: string): Flow => ({ ...flow, recording: { ...flow.recording, startUrl: `${flow.recording.startUrl}?${q}` } });
    const moved = await dh.replay(at('moved'), { page, variables: { email: 'fay@example.com' }, stepTimeout: 1000 });
    expect(moved.steps.map((s) => s.status)).toEqual(['done', 'healed']);
    expect(moved.usage.inputTokens).toBe(0);
    expect(await orders(page)).toEqual([{ email: 'fay@example.com', qty: '1' }]);
    await expect(dh.replay(at('renamed'), { page, variables: { email: 'gus@example.com' }, stepTimeout: 1000 })).rejects.toMatchObject({
      code: 'ACTION_FAILED',
      message: expect.stringContaining('pass a model to replay'),
    });
    expect(await orders(page)).toEqual([]);
    const r = await dh.replay(at('renamed'), { page, variables: { email: 'gus@example.com' }, stepTimeout: 1000, model: 'deckhand/local' });
    expect(r.steps.map((s) => s.status)).toEqual(['done', 'healed']);
    expect(await orders(page)).toEqual([{ email: 'gus@example.com', qty: '1' }]);
    // The model given was the built-in one: the scripted provider still saw nothing.
    expect(ms.requests).toHaveLength(0);
  });

  it("an agent run saved with saveAs replays by name with no model, from this client's store", async () => {
    const own = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
    const agentDh = await Deckhand.create({ browser: own, cache: { store: 'memory' } }); // the built-in model
    const page = await own.context.activePage();
    try {
      await page.goto(`${servers.origin}/flows/checkout.html`);
      const run = await agentDh.agentExecute(
        { agentConfig: {}, executeOptions: { instruction: 'type "ann@example.com" into the email field, then click the Place order button', maxSteps: 8 } },
        { page, saveAs: 'agent checkout' },
      );
      expect(run.result.success).toBe(true);
      expect(run.flow).toMatchObject({ name: 'agent checkout', source: 'agent', savedIn: 'store' });
      expect(await orders(page)).toEqual([{ email: 'ann@example.com', qty: '1' }]);
      const before = await agentDh.metrics();
      const r = await agentDh.replay('agent checkout', { page });
      expect(r.steps.length).toBeGreaterThanOrEqual(2);
      expect(r.usage.inputTokens).toBe(0);
      expect((await agentDh.metrics()).totalPromptTokens).toBe(before.totalPromptTokens);
      expect(await orders(page)).toEqual([{ email: 'ann@example.com', qty: '1' }]);
      // In this client's store, not the browser's.
      expect((await agentDh.flows.list()).map((f) => f.name)).not.toContain('agent checkout');
    } finally {
      await agentDh.close();
      await own.close();
    }
  });

  it("finds a flow in this client's own store before the extension's, and a name in neither is NOT_FOUND", async () => {
    const flow = await dh.flows.get('checkout');
    // Same name, another start page: the store's copy wins.
    const mine: Flow = { ...flow, source: 'client', recording: { ...flow.recording, startUrl: `${flow.recording.startUrl}?from=store` } };
    expect(await dh.flows.save(mine, { to: 'store' })).toMatchObject({ name: 'checkout', source: 'client', steps: 2 });
    expect((await dh.flows.get('checkout', { from: 'store' })).recording.startUrl).toMatch(/\?from=store$/);
    expect((await dh.flows.list()).map((f) => f.source)).toEqual(['panel']);
    expect((await dh.replay('checkout', { page, variables: { email: 'cy@example.com' } })).url).toBe(`${servers.origin}/flows/checkout.html?from=store`);
    expect(await orders(page)).toEqual([{ email: 'cy@example.com', qty: '1' }]);
    expect(await dh.flows.delete('checkout', { from: 'store' })).toBe(true);
    expect(await dh.flows.delete('checkout', { from: 'store' })).toBe(false);
    expect((await dh.replay('checkout', { page, variables: { email: 'cy@example.com' } })).url).toBe(`${servers.origin}/flows/checkout.html`);
    await expect(dh.replay('no such flow')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no flow named "no such flow"') });
    await expect(dh.flows.get('no such flow', { from: 'store' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(dh.flows.save({ ...mine, version: 2 } as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it("the worker keeps this client's store flows: fills in what a flow leaves out, gets, renames and deletes them there", async () => {
    const recorded = await dh.flows.get('checkout', { from: 'extension' });
    // No version, source or savedAt: the worker fills them in, and trims the name.
    const bare = { name: '  mine  ', recording: { ...recorded.recording, startUrl: `${recorded.recording.startUrl}?mine` } };
    const before = Date.now();
    expect(await dh.flows.save(bare, { to: 'store' })).toMatchObject({ name: 'mine', source: 'client', steps: 2 });
    // By default a get looks where a replay by name does: this client's store first.
    const got = await dh.flows.get(' mine');
    expect(got).toMatchObject({ version: 1, name: 'mine', source: 'client' });
    expect(Date.parse(got.savedAt)).toBeGreaterThanOrEqual(before - 1000);
    await expect(dh.flows.get('mine', { from: 'extension' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Renamed in the store (the extension has no such flow to rename).
    await expect(dh.flows.rename('mine', 'mine 2')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await dh.flows.rename('mine', ' mine 2 ', { where: 'store' })).toMatchObject({ name: 'mine 2', source: 'client', steps: 2 });
    await expect(dh.flows.get('mine', { from: 'store' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `no flow named "mine" is saved in this client's store`,
      data: { flow: 'mine' },
    });
    await expect(dh.flows.rename('mine', 'mine 3', { where: 'store' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await dh.replay('mine 2', { page, variables: { email: 'dee@example.com' } })).url).toBe(`${servers.origin}/flows/checkout.html?mine`);
    expect(await dh.flows.delete('mine 2', { from: 'store' })).toBe(true);
    expect(await dh.flows.delete('mine 2', { from: 'store' })).toBe(false);
    await expect(dh.flows.save(bare, { to: 'elsewhere' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await dh.flows.list()).map((f) => f.name)).toEqual(['checkout']);

    // A client with no store of its own is told so by the worker; its gets find the extension's flows.
    const own = await localBrowser.launch();
    const plain = await Deckhand.create({ browser: own });
    try {
      const noStore = { code: 'INVALID_ARGUMENT', message: expect.stringContaining('this client has no cache store to keep flows in') };
      await expect(plain.flows.save(bare, { to: 'store' })).rejects.toMatchObject(noStore);
      await expect(plain.flows.get('mine', { from: 'store' })).rejects.toMatchObject(noStore);
      await expect(plain.flows.delete('mine', { from: 'store' })).rejects.toMatchObject(noStore);
      expect(await plain.flows.save(bare)).toMatchObject({ name: 'mine', source: 'client' });
      expect((await plain.flows.get('mine')).recording.startUrl).toMatch(/\?mine$/);
    } finally {
      await plain.close();
      await own.close();
    }
  });

  it("an experimentalBatch callback replays it too, on the batch's page, with no model call", async () => {
    const steps = await dh.experimentalBatch(
      async (b, email: string) => {
        const r = await b.replay('checkout', { variables: { email } });
        return r.steps.map((s) => s.status);
      },
      'fay@example.com',
      { page },
    );
    expect(steps).toEqual(['done', 'done']);
    expect(await orders(page)).toEqual([{ email: 'fay@example.com', qty: '1' }]);
    expect(ms.requests).toHaveLength(0);
  });

  it('a replay is cancelled by its signal, in the worker, at once', async () => {
    const waiting: Flow = {
      version: 1,
      name: 'wait a while',
      source: 'client',
      savedAt: new Date().toISOString(),
      recording: {
        version: 1,
        title: 'wait',
        startUrl: `${servers.origin}/flows/checkout.html`,
        steps: [{ kind: 'wait', id: 'w1', description: 'Wait 20 s', ms: 20_000 }],
      },
    };
    const ctl = new AbortController();
    const replaying = dh.replay(waiting, { page, signal: ctl.signal });
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    ctl.abort();
    await expect(replaying).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - t0).toBeLessThan(1000);
    // The worker stopped it: the next call runs at once.
    expect((await dh.replay('checkout', { page: page.id, variables: { email: 'dee@example.com' } })).steps).toHaveLength(2);
  });

  it('test/fixtures/record-flow.ts records in a profile that a later browser replays from by name', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'dh-flow-profile-'));
    const out = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/fixtures/record-flow.ts',
        '--profile',
        profile,
        '--name',
        'profile checkout',
        '--url',
        `${servers.origin}/flows/checkout.html`,
        ...STEPS.flatMap((s) => ['--instruction', s]),
      ],
      { cwd: ROOT, timeout: 90_000 },
    );
    expect(JSON.parse(out.stdout.trim().split('\n').at(-1)!)).toEqual({
      name: 'profile checkout',
      steps: 2,
      startUrl: `${servers.origin}/flows/checkout.html`,
      profile,
    });
    // Bad arguments say so and exit 2.
    const bad = await run(process.execPath, ['--import', 'tsx', 'test/fixtures/record-flow.ts', '--name', 'x'], { cwd: ROOT, timeout: 30_000 }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('missing --profile, --url, --instruction') });

    const again = await localBrowser.launch({ userDataDir: profile });
    try {
      const other = await Deckhand.create({ browser: again });
      expect((await other.flows.list()).map((f) => f.name)).toEqual(['profile checkout']);
      const r = await other.replay('profile checkout', { variables: { email: 'eve@example.com' } });
      expect(r.steps.map((s) => s.status)).toEqual(['done', 'done']);
      expect(await orders(await again.context.activePage())).toEqual([{ email: 'eve@example.com', qty: '1' }]);
    } finally {
      await again.close();
    }
  }, 120_000);
});

describe('replay over HTTP', () => {
  let svc: RunningService;
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(svc.url + path, {
      method,
      headers: { 'x-dh-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as { data?: any; error?: { code: string; message: string } } };
  };
  const sessionPage = async (key: string, id: string) => (await svc.sessions.get(id, tenantDigest(key))).dh.context.activePage();

  beforeAll(async () => {
    process.env.DECKHAND_API_KEYS = `${KEY_A},${KEY_B}`;
    svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-svc-flows-')), port: 0, maxSessions: 1 });
  });
  afterAll(async () => {
    await svc?.close();
    delete process.env.DECKHAND_API_KEYS;
  });

  it("keeps an exported flow in key A's store: A's fresh session replays it by name, B's gets NOT_FOUND", async () => {
    const put = await call(KEY_A, 'PUT', '/v1/flows/checkout', exported);
    expect(put).toMatchObject({ status: 200, body: { data: { name: 'checkout', source: 'panel', steps: 2 } } });
    expect((await call(KEY_A, 'GET', '/v1/flows/checkout')).body.data).toEqual(FlowSchema.parse(exported));
    expect(await call(KEY_B, 'GET', '/v1/flows/checkout')).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    // Stored under the path's name, whatever the body's.
    expect((await call(KEY_A, 'PUT', `/v1/flows/${encodeURIComponent('checkout copy')}`, exported)).body.data.name).toBe('checkout copy');
    expect(await call(KEY_A, 'PUT', '/v1/flows/x', { ...exported, version: 2 })).toMatchObject({ status: 400, body: { error: { code: 'INVALID_ARGUMENT' } } });

    const a = (await call(KEY_A, 'POST', '/v1/sessions/start', {})).body.data.sessionId as string;
    // A fresh session browser: its side panel has saved nothing.
    expect((await call(KEY_A, 'GET', `/v1/sessions/${a}/flows`)).body.data).toEqual([]);
    const r = await call(KEY_A, 'POST', `/v1/sessions/${a}/replay`, { name: 'checkout', variables: { email: 'grace@example.com' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.steps.map((s: { status: string }) => s.status)).toEqual(['done', 'done']);
    expect(r.body.data.usage.inputTokens + r.body.data.usage.outputTokens).toBe(0);
    expect(await orders(await sessionPage(KEY_A, a))).toEqual([{ email: 'grace@example.com', qty: '1' }]);

    // Streamed: the step lines as they happen, then the same result.
    const res = await fetch(`${svc.url}/v1/sessions/${a}/replay`, {
      method: 'POST',
      headers: { 'x-dh-api-key': KEY_A, 'content-type': 'application/json', 'x-stream-response': 'true' },
      body: JSON.stringify({ flow: exported, variables: { email: 'hal@example.com' } }),
    });
    const events = await readEvents(res);
    expect(events.filter((e) => e.status === 'running').map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/step 2\/2 done: click the Place order button/)]),
    );
    expect(events.at(-1)).toMatchObject({ status: 'finished', data: { name: 'checkout', steps: [{ status: 'done' }, { status: 'done' }] } });

    // The button gone: a typed error naming the step.
    const closed = { ...exported, recording: { ...exported.recording, startUrl: `${exported.recording.startUrl}?closed` } };
    const failed = await call(KEY_A, 'POST', `/v1/sessions/${a}/replay`, { flow: closed, variables: { email: 'ivy@example.com' }, stepTimeout: 1000 });
    expect(failed).toMatchObject({
      status: 422,
      body: {
        error: { code: 'ACTION_FAILED', message: expect.stringContaining('step 2 of flow "checkout" ("click the Place order button") no longer applies') },
      },
    });
    // Renamed: the session's model (the built-in one here) finds it again only with selfHeal.
    const moved = { ...exported, recording: { ...exported.recording, startUrl: `${exported.recording.startUrl}?renamed` } };
    expect((await call(KEY_A, 'POST', `/v1/sessions/${a}/replay`, { flow: moved, variables: { email: 'jo@example.com' }, stepTimeout: 1000 })).status).toBe(
      422,
    );
    const healed = await call(KEY_A, 'POST', `/v1/sessions/${a}/replay`, {
      flow: moved,
      variables: { email: 'jo@example.com' },
      stepTimeout: 1000,
      selfHeal: true,
    });
    expect(
      healed.body.data?.steps.map((s: { status: string }) => s.status),
      JSON.stringify(healed.body),
    ).toEqual(['done', 'healed']);
    expect(await orders(await sessionPage(KEY_A, a))).toEqual([{ email: 'jo@example.com', qty: '1' }]);
    expect(await call(KEY_A, 'POST', `/v1/sessions/${a}/replay`, { variables: {} })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('exactly one of name and flow') } },
    });
    expect(await call(KEY_B, 'POST', `/v1/sessions/${a}/replay`, { name: 'checkout' })).toMatchObject({
      status: 404,
      body: { error: { code: 'SESSION_NOT_FOUND' } },
    });
    // An agent run kept as a flow (the session's built-in model), then replayed by name with no model.
    await call(KEY_A, 'POST', `/v1/sessions/${a}/navigate`, { url: `${servers.origin}/flows/checkout.html` });
    const agent = await call(KEY_A, 'POST', `/v1/sessions/${a}/agentExecute`, {
      executeOptions: { instruction: 'type "kim@example.com" into the email field, then click the Place order button', maxSteps: 8, saveAs: 'agent order' },
    });
    expect(agent.body.data, JSON.stringify(agent.body)).toMatchObject({ result: { success: true }, flow: { name: 'agent order', source: 'agent' } });
    const again = await call(KEY_A, 'POST', `/v1/sessions/${a}/replay`, { name: 'agent order' });
    expect(again.body.data?.usage.inputTokens, JSON.stringify(again.body)).toBe(0);
    expect(await orders(await sessionPage(KEY_A, a))).toEqual([{ email: 'kim@example.com', qty: '1' }]);
    await call(KEY_A, 'POST', `/v1/sessions/${a}/end`, {});

    const b = (await call(KEY_B, 'POST', '/v1/sessions/start', {})).body.data.sessionId as string;
    const notB = await call(KEY_B, 'POST', `/v1/sessions/${b}/replay`, { name: 'checkout', variables: { email: 'mallory@example.com' } });
    expect(notB).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND', message: expect.stringContaining('no flow named "checkout"') } } });
    // Nothing was opened or performed.
    expect(await (await sessionPage(KEY_B, b)).url()).not.toContain('checkout');
    await call(KEY_B, 'POST', `/v1/sessions/${b}/end`, {});

    expect(await call(KEY_B, 'DELETE', '/v1/flows/checkout')).toMatchObject({ status: 200, body: { data: { deleted: false } } });
    expect(await call(KEY_A, 'DELETE', '/v1/flows/checkout%20copy')).toMatchObject({ status: 200, body: { data: { deleted: true } } });
    expect(await call(KEY_A, 'GET', '/v1/flows/checkout%20copy')).toMatchObject({ status: 404 });
    expect(await call(KEY_A, 'PATCH', '/v1/flows/checkout')).toMatchObject({ status: 405, body: { error: { code: 'METHOD_NOT_ALLOWED' } } });
  }, 90_000);

  it("the MCP replay tool replays the flow key A stored, by name, and lists the browser's saved flows", async () => {
    const client = new Client({ name: 'flows-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY_A}` } } }));
    type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
    const tool = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'replay')).toMatchObject({ inputSchema: { required: ['name'] }, annotations: { destructiveHint: true } });
      const r = await tool('replay', { name: 'checkout', variables: { email: 'mcp@example.com' } });
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(r.structuredContent).toMatchObject({
        name: 'checkout',
        url: `${servers.origin}/flows/checkout.html`,
        steps: [{ status: 'done' }, { status: 'done' }],
        usage: { inputTokens: 0, outputTokens: 0 },
      });
      expect(r.content[0].text).toMatch(/Replayed flow "checkout" \(2 steps\)/);
      const id = (await tool('start')).structuredContent.sessionId as string;
      expect(await orders(await sessionPage(KEY_A, id))).toEqual([{ email: 'mcp@example.com', qty: '1' }]);
      expect((await tool('flows')).structuredContent).toEqual({ flows: [] });
      const missing = await tool('replay', { name: 'nothing saved' });
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toMatch(/^NOT_FOUND: no flow named "nothing saved"/);
    } finally {
      await (client.transport as StreamableHTTPClientTransport).terminateSession().catch(() => undefined);
      await client.close();
    }
  }, 60_000);
});
