/** experimentalBatch: trusted callbacks in the worker, and every rule around them. */
import { describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError } from '../../src/index';
import { idFor, startModelServer } from '../fixtures/model-server';
import { useBrowser } from './harness';

const h = useBrowser();
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e: unknown) => e,
  )) as DeckhandError;

describe('experimentalBatch', () => {
  it('runs the callback in the worker with the shared facade, input and result as JSON', async () => {
    const page = await h.open('/form.html');
    const r = await h.dh.experimentalBatch(
      async ({ page: p }, input: { clicks: number }) => {
        for (let i = 0; i < input.clicks; i++) await p.locator('#multi').click();
        await p.locator('#name').fill('from a batch');
        return { title: await p.title(), url: await p.url(), n: await p.locator('input[type=radio]').count() };
      },
      { clicks: 3 },
    );
    expect(r).toEqual({ title: 'Sign up', url: `${h.origin}/form.html`, n: 2 });
    expect(await page.evaluate(() => (window as unknown as { __log: string[] }).__log)).toEqual(['click:multi', 'click:multi', 'click:multi']);
    expect(await page.evaluate(() => (document.getElementById('name') as HTMLInputElement).value)).toBe('from a batch');
  });

  it('input: omitted is undefined, null stays null; undefined results come back as undefined', async () => {
    await h.open('/form.html');
    expect(await h.dh.experimentalBatch((_b, input) => ({ kind: input === undefined ? 'undefined' : input === null ? 'null' : typeof input }))).toEqual({
      kind: 'undefined',
    });
    expect(await h.dh.experimentalBatch((_b, input) => ({ kind: input === null ? 'null' : typeof input }), null)).toEqual({ kind: 'null' });
    expect(await h.dh.experimentalBatch(() => undefined)).toBeUndefined();
    expect(await h.dh.experimentalBatch((_b, i: number[]) => i.map((x) => x * 2), [1, 2, 3])).toEqual([2, 4, 6]);
    // A source string is accepted too (what other languages' clients send).
    expect(await h.dh.experimentalBatch('async (batch, input) => (await batch.page.title()) + input', '!')).toBe('Sign up!');
  });

  it('rejects what JSON cannot carry, both ways', async () => {
    await h.open('/form.html');
    let e = await failure(h.dh.experimentalBatch(() => ({ when: new Date() })));
    expect(e.code).toBe('BATCH_FAILED');
    expect(e.message).toMatch(/not JSON-serialisable: result.when is a Date/);
    e = await failure(h.dh.experimentalBatch(() => () => 1));
    expect(e.message).toMatch(/not JSON-serialisable: result is a function/);
    e = await failure(h.dh.experimentalBatch(() => 1, { big: 10n } as never));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toMatch(/input must be JSON-serialisable: input.big is a bigint/);
  });

  it('errors thrown in the callback come back with their message and stack; captured variables are explained', async () => {
    await h.open('/form.html');
    let e = await failure(
      h.dh.experimentalBatch(async () => {
        throw new Error('exploded in the worker');
      }),
    );
    expect(e.code).toBe('BATCH_FAILED');
    expect(e.message).toBe('exploded in the worker');
    expect(e.stack).toMatch(/exploded in the worker[\s\S]*at /);
    const outside = 41;
    e = await failure(h.dh.experimentalBatch(() => outside + 1));
    expect(e.message).toMatch(/outside is not defined.*not captured/);
    e = await failure(h.dh.experimentalBatch('this is not javascript('));
    expect(e.code).toBe('BATCH_FAILED');
    expect(e.message).toMatch(/could not be started: SyntaxError/);
    e = await failure(h.dh.experimentalBatch('42'));
    expect(e.message).toMatch(/must evaluate to a function/);
  });

  it('batch.page is fixed; AI calls follow the page that is active when they are called', async () => {
    const first = await h.open('/form.html');
    const r = await h.dh.experimentalBatch(async (b) => {
      const second = await b.context.newPage(b.page ? (await b.page.url()).replace('form.html', 'store.html') : '');
      const batchPageTitle = await b.page.title();
      // The local model (no key configured) acts on the active page: now the store.
      const acted = await b.act('click the Billing tab');
      const events = await second.evaluate(() => (window as unknown as { __events: string[] }).__events);
      return {
        batchPageTitle,
        acted: acted.data.success,
        clickedOnStore: events.includes('click:tab-billing'),
        stillSame: (await b.page.title()) === batchPageTitle,
      };
    });
    expect(r).toEqual({ batchPageTitle: 'Sign up', acted: true, clickedOnStore: true, stillSame: true });
    // The `page` option picks batch.page explicitly.
    expect(await h.dh.experimentalBatch(async (b) => b.page.title(), undefined, { page: first })).toBe('Sign up');
  });

  it('times out: the batch fails at its deadline, a running operation may finish, no new one starts', async () => {
    const page = await h.open('/form.html');
    const t = Date.now();
    const e = await failure(
      h.dh.experimentalBatch(
        async (b) => {
          await b.page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
          await b.page.evaluate(() => ((window as unknown as { after: boolean }).after = true));
        },
        undefined,
        { timeout: 500 },
      ),
    );
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toMatch(/timed out after 500 ms.*not atomic/);
    expect(Date.now() - t).toBeLessThan(1400);
    await new Promise((r) => setTimeout(r, 1800));
    expect(await page.evaluate(() => (window as unknown as { after?: boolean }).after ?? false)).toBe(false);
  });

  it('what is not available inside a batch says so by name', async () => {
    await h.open('/form.html');
    const cases: [string, RegExp][] = [
      ['async (b) => b.context.close()', /context\.close\(\) is not available inside experimentalBatch/],
      ['async (b) => b.page.on("console", () => {})', /page event subscription \(page\.on\) is not available/],
      ['async (b) => b.experimentalBatch(() => 1)', /a nested experimentalBatch is not available/],
      ['async (b) => b.close()', /close\(\) \(instance lifecycle\) is not available/],
      ['async (b) => b.page.screenshot({ path: "/tmp/x.png" })', /only available from Node/],
      ['async () => require("fs")', /require is not defined.*Node APIs are not available/],
    ];
    for (const [src, re] of cases) {
      const e = await failure(h.dh.experimentalBatch(src));
      expect(e, src).toBeInstanceOf(DeckhandError);
      expect(e.message, src).toMatch(re);
    }
    // The screenshot bytes themselves are fine.
    expect(await h.dh.experimentalBatch(async (b) => (await b.page.screenshot()).length > 100)).toBe(true);
  });

  it('usage of AI calls made in a batch counts in metrics', async () => {
    const ms = await startModelServer();
    const browser = h.browser;
    await h.dh.close();
    const dh = await Deckhand.create({ browser, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'k', baseURL: ms.url } });
    try {
      await h.open('/form.html');
      ms.script((_r, prompt) => ({
        object: { found: true, elementId: idFor(prompt, /button "Multi"/), method: 'click', arguments: [], description: 'Multi', twoStep: false, reason: '' },
        usage: { input: 77, output: 7 },
      }));
      const before = await dh.metrics();
      const r = await dh.experimentalBatch(async (b) => (await b.act('click the Multi button')).metadata.usage.inputTokens);
      expect(r).toBe(77);
      expect((await dh.metrics()).actPromptTokens - before.actPromptTokens).toBe(77);
    } finally {
      await dh.close();
      await ms.close();
      h.dh = await Deckhand.create({ browser });
    }
  });

  it("a callback's act uses the client's cache: the second identical act is a HIT with no model call; cache: false skips it", async () => {
    const ms = await startModelServer();
    const browser = h.browser;
    await h.dh.close();
    const dh = await Deckhand.create({ browser, model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'k', baseURL: ms.url }, cache: { store: 'memory' } });
    try {
      await h.open('/form.html');
      ms.script((_r, prompt) => ({
        object: { found: true, elementId: idFor(prompt, /button "Multi"/), method: 'click', arguments: [], description: 'Multi', twoStep: false, reason: '' },
        usage: { input: 77, output: 7 },
      }));
      const r = await dh.experimentalBatch(async (b) => {
        const first = await b.act('click the Multi button');
        const second = await b.act('click the Multi button');
        const off = await b.act('click the Multi button', { cache: false });
        return [first, second, off].map((x) => ({ cache: x.metadata.cache, success: x.data.success }));
      });
      expect(r).toEqual([
        { cache: { status: 'MISS', count: 1, threshold: 1, missReason: 'not_found' }, success: true },
        // 77 × 0.40 + 7 × 1.60 per million: gpt-4.1-mini's list price.
        {
          cache: { status: 'HIT', count: 2, threshold: 1, tokensSaved: { inputTokens: 77, outputTokens: 7, totalTokens: 84 }, costSavedUsd: 0.000042 },
          success: true,
        },
        { cache: { status: 'DISABLED' }, success: true },
      ]);
      expect(ms.requests).toHaveLength(2); // the first act and the one with cache: false
      // The entry lives in the client's store: the client's own act outside the batch hits it too.
      expect((await dh.act('click the Multi button')).metadata.cache.status).toBe('HIT');
    } finally {
      await dh.close();
      await ms.close();
      h.dh = await Deckhand.create({ browser });
    }
  });
});
