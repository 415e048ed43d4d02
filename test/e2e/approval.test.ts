/**
 * Approval of risky steps: a Node program's agent run (built-in model) and act on a real form
 * that POSTs to the fixture server. With `approval: { when: ['submit'] }` the submit waits: the
 * side panel shows it (what, which element, why) and Approve lets it go; Stop and a timeout
 * refuse it with NOT_APPROVED; the caller's own handler can decide too. The server's record of
 * POSTs is the proof of what was (and was not) submitted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, DeckhandError, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import { PANEL_SHOTS, PanelPage } from '../fixtures/panel-page';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;
let panel: PanelPage;
const errors: string[] = [];

const FILL = 'Fill the contact form: name Ada Lovelace, email ada@example.com, message "Please call back", and then click Send';
const contactPosts = () => servers.posts.filter((p) => p.path === '/contact');
const until = async (ok: () => boolean, what: string, ms = 10_000) => {
  for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
};

beforeAll(async () => {
  servers = await startFixtureServers();
  browser = await localBrowser.launch({ viewport: { width: 1000, height: 700 } });
  dh = await Deckhand.create({ browser });
  page = await browser.context.activePage();
  await page.goto(`${servers.origin}/examples/contact.html`);
  panel = await PanelPage.open(browser, page.id, { shots: PANEL_SHOTS, onError: (t) => errors.push(t) });
  await page.bringToFront();
});

afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
});

const fresh = async () => {
  await page.goto(`${servers.origin}/examples/contact.html`);
  servers.posts.length = 0;
};

/** The prompt as the panel shows it, once one is there. */
const prompt = () =>
  panel.waitFor<{ id: string; summary: string; element: string; kinds: string }>(
    "(() => { const a = document.querySelector('[data-testid=approval]'); return a && { id: a.dataset.approvalId, " +
      "summary: a.querySelector('[data-testid=approval-summary]').textContent, " +
      "element: a.querySelector('[data-testid=approval-element]').textContent, " +
      "kinds: a.querySelector('[data-testid=approval-kinds]').textContent }; })()",
    'the approval prompt in the side panel',
    60_000,
  );

describe('approval of risky steps', () => {
  it('an agent run stops before the submit, and goes on when the person approves in the panel', async () => {
    await fresh();
    const run = dh.agentExecute({ agentConfig: {}, executeOptions: { instruction: FILL, approval: { when: ['submit'] } } });
    const shown = await prompt();
    expect(shown.summary).toMatch(/click on .*Send/);
    expect(shown.element).toMatch(/Send/);
    expect(shown.kinds).toContain('submits a form');
    await panel.screenshot('10-approval');
    // The form is filled, and nothing was submitted while the step waits.
    expect(await page.evaluate(() => (document.querySelector('#name') as HTMLInputElement).value)).toBe('Ada Lovelace');
    await new Promise((r) => setTimeout(r, 500));
    expect(contactPosts()).toEqual([]);
    await panel.click('[data-testid=approval-approve]');
    const r = await run;
    expect(r.result.success).toBe(true);
    await until(() => contactPosts().length === 1, 'the form POST');
    expect(contactPosts()[0].fields).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    await panel.waitFor(`document.querySelector('[data-testid=approval-ended][data-decision=approve]')`, 'the prompt to say it was approved');
    expect(await panel.eval('document.querySelector("[data-testid=approval]")')).toBeNull();
  });

  it('Stop in the panel refuses the step with NOT_APPROVED, and nothing is submitted', async () => {
    await fresh();
    const run = dh.agentExecute({ agentConfig: {}, executeOptions: { instruction: FILL, approval: { when: ['submit'] } } }).then(
      () => null,
      (e: unknown) => e,
    );
    await prompt();
    await panel.click('[data-testid=approval-stop]');
    const e = await run;
    expect(e).toBeInstanceOf(DeckhandError);
    expect((e as DeckhandError).code).toBe('NOT_APPROVED');
    expect((e as DeckhandError).data).toMatchObject({ decision: 'stop', kinds: ['submit'] });
    expect((e as DeckhandError).message).toMatch(/chose Stop/);
    await new Promise((r) => setTimeout(r, 500));
    expect(contactPosts()).toEqual([]);
  });

  it('no answer by the deadline is a refusal, never a go-ahead; the wait does not count against the act timeout', async () => {
    await fresh();
    const started = Date.now();
    // A 1 s action timeout, a 2.5 s approval deadline: the refusal, not a TIMEOUT, ends it.
    const e = await dh
      .act({ selector: '#send', method: 'click', description: 'the Send button' }, { approval: { when: ['submit'], timeout: 2500 }, timeout: 1000 })
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect((e as DeckhandError).code).toBe('NOT_APPROVED');
    expect((e as DeckhandError).data).toMatchObject({ decision: 'timeout' });
    expect((e as DeckhandError).message).toMatch(/nobody answered within 2500 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
    await new Promise((r) => setTimeout(r, 500));
    expect(contactPosts()).toEqual([]);
    await panel.waitFor(`document.querySelector('[data-testid=approval-ended][data-decision=timeout]')`, 'the prompt to say nobody answered');
  });

  it("the caller's own handler decides, with what will be done; steps that match nothing go ahead unasked", async () => {
    await fresh();
    const seen: string[] = [];
    const r = await dh.act('type Ada into the Name field', {
      approval: { when: ['submit', 'delete', 'pay'] },
      onApproval: (req) => (seen.push(req.summary), 'stop'),
    });
    expect(r.data.success).toBe(true);
    expect(seen).toEqual([]); // typing a name submits nothing
    const ok = await dh.act(
      { selector: '#send', method: 'click', description: 'Send' },
      {
        approval: { when: ['submit'] },
        onApproval: (req) => {
          seen.push(`${req.kinds.join(',')} ${req.method} ${req.element}`);
          return 'approve';
        },
      },
    );
    expect(ok.data.success).toBe(true);
    expect(seen).toEqual([expect.stringMatching(/^submit click .*Send/)]);
    await until(() => contactPosts().length === 1, 'the form POST');
    expect(contactPosts()).toHaveLength(1);
  });

  it('an element that changed while its step waited is not acted on, even when approved', async () => {
    await page.goto(`${servers.origin}/approval-kinds.html`);
    const e = await dh
      .act(
        { selector: '#buy', method: 'click', description: 'Buy now' },
        {
          approval: { when: ['pay'] },
          onApproval: async () => {
            // The page moves on while the person looks: the same selector now names another offer.
            await page.evaluate(() => void (document.querySelector('#buy')!.textContent = 'Buy the annual plan'));
            return 'approve' as const;
          },
        },
      )
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect((e as DeckhandError).code).toBe('ACTION_FAILED');
    expect((e as DeckhandError).message).toMatch(
      /was <div#buy.btn> "Buy now" when the click was approved and is <div#buy.btn> "Buy the annual plan" now; the click was not performed/,
    );
    expect(await page.evaluate(() => document.querySelector('#log')!.textContent)).toBe('');
  });

  it("the built-in agent's click at a point of a drawing names no element to read first: it waits under any policy", async () => {
    await page.goto(`${servers.origin}/tasks/midpoint.html`);
    const asked: string[] = [];
    const run = await dh
      .agent()
      .execute({
        instruction: 'Click the midpoint between the two points',
        approval: { when: ['submit'] },
        onApproval: (req) => (asked.push(req.element), 'stop'),
      })
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect((run as DeckhandError).code).toBe('NOT_APPROVED');
    expect(asked).toEqual([expect.stringMatching(/^the point \(\d+, \d+\) inside <svg#plot>/)]);
    expect(await page.evaluate(() => document.getElementById('marker'))).toBeNull();
  });

  it("the earlier agent interface takes a run's approval and handler too", async () => {
    await fresh();
    const kinds: string[][] = [];
    const e = await dh
      .agent()
      .execute({ instruction: FILL, approval: { when: ['submit'] }, onApproval: (req) => (kinds.push(req.kinds), 'stop') })
      .then(
        () => null,
        (x: unknown) => x,
      );
    expect((e as DeckhandError).code).toBe('NOT_APPROVED');
    expect(kinds).toEqual([['submit']]);
    await new Promise((r) => setTimeout(r, 300));
    expect(contactPosts()).toEqual([]);
  });

  it('Skip refuses an act with NOT_APPROVED (decision skip); a bad policy is a typed error naming it', async () => {
    await fresh();
    const e = await dh.act({ selector: '#send', method: 'click', description: 'Send' }, { approval: { when: ['submit'] }, onApproval: () => 'skip' }).then(
      () => null,
      (x: unknown) => x,
    );
    expect((e as DeckhandError).code).toBe('NOT_APPROVED');
    expect((e as DeckhandError).data).toMatchObject({ decision: 'skip' });
    const bad = await dh.act({ selector: '#send', method: 'click', description: 'Send' }, { approval: { when: ['explode' as 'submit'] } }).then(
      () => null,
      (x: unknown) => x,
    );
    expect((bad as DeckhandError).code).toBe('INVALID_ARGUMENT');
    expect((bad as DeckhandError).message).toMatch(/approval/);
    const empty = await dh.act({ selector: '#send', method: 'click', description: 'Send' }, { approval: {} }).then(
      () => null,
      (x: unknown) => x,
    );
    expect((empty as DeckhandError).code).toBe('INVALID_ARGUMENT');
    expect(contactPosts()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reads what a step would do on real-world markup: span and icon buttons, links off the site, file choosers, Enter in a search field', async () => {
    await page.goto(`${servers.origin}/approval-kinds.html`);
    const asked: Record<string, string[]> = {};
    const attempt = async (
      key: string,
      action: { selector: string; method?: string; arguments?: string[] },
      when: ('submit' | 'delete' | 'pay' | 'leave-site' | 'upload')[],
      words?: string[],
    ) => {
      const r = await dh
        .act({ description: key, ...action }, { approval: { when, ...(words ? { words } : {}) }, onApproval: (req) => ((asked[key] = [...req.kinds]), 'skip') })
        .then(
          () => 'done',
          (e: DeckhandError) => e.code,
        );
      return r;
    };
    const all = ['submit', 'delete', 'pay', 'leave-site', 'upload'] as const;
    expect(await attempt('span', { selector: '#del-span', method: 'click' }, [...all])).toBe('NOT_APPROVED');
    expect(asked.span).toEqual(['delete']);
    expect(await attempt('icon', { selector: '#remove-icon', method: 'click' }, [...all])).toBe('NOT_APPROVED');
    expect(asked.icon).toEqual(['delete']);
    expect(await attempt('buy', { selector: '#buy', method: 'click' }, [...all])).toBe('NOT_APPROVED');
    expect(asked.buy).toEqual(['pay']);
    expect(await attempt('away', { selector: '#away', method: 'click' }, [...all])).toBe('NOT_APPROVED');
    expect(asked.away).toEqual(['leave-site']);
    expect(await attempt('upload', { selector: '#pick', method: 'click' }, [...all])).toBe('NOT_APPROVED');
    expect(asked.upload).toEqual(['upload']);
    expect(await attempt('enter', { selector: '#q', method: 'press', arguments: ['Enter'] }, [...all])).toBe('NOT_APPROVED');
    expect(asked.enter).toEqual(['submit']);
    expect(await attempt('words', { selector: '#plain', method: 'click' }, ['submit'], ['show more'])).toBe('NOT_APPROVED');
    expect(asked.words).toEqual(['words']);
    // Nothing of the above happened in the page.
    expect(await page.evaluate(() => document.querySelector('#log')!.textContent)).toBe('');
    // Steps that match no kind asked for go ahead unasked: a link on the site, a plain button,
    // typing, Enter in a textarea, a delete when only payments wait.
    expect(await attempt('plain', { selector: '#plain', method: 'click' }, [...all])).toBe('done');
    expect(await attempt('type', { selector: '#q', method: 'fill', arguments: ['hose'] }, [...all])).toBe('done');
    expect(await attempt('note', { selector: '#note', method: 'press', arguments: ['Enter'] }, [...all])).toBe('done');
    expect(await attempt('only-pay', { selector: '#del-span', method: 'click' }, ['pay'])).toBe('done');
    expect(await attempt('here', { selector: '#here', method: 'click' }, ['leave-site', 'delete', 'pay', 'upload'])).toBe('done');
    expect(Object.keys(asked).sort()).toEqual(['away', 'buy', 'enter', 'icon', 'span', 'upload', 'words']);
  });
});
