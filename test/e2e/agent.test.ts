/**
 * The autonomous agent, driven by a scripted model that plays the planner in each
 * mode (dom, hybrid, cua) on a small fixture app, with the built-in local model
 * carrying out act calls. Then the HTTP endpoint: streaming, disconnects, cached
 * replay with the model server gone, and bad input.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentMode } from '../../src/protocol/agent';
import { startService, type RunningService } from '../../src/server/service';
import { startModelServer, type ModelServer } from '../fixtures/model-server';
import { useBrowser } from './harness';
import { readEvents } from './sse';

const h = useBrowser();
let ms: ModelServer;
beforeAll(async () => {
  ms = await startModelServer();
});
afterAll(async () => {
  await ms?.close();
});
beforeEach(() => {
  ms.requests.length = 0;
});

const step = (tool: string, args: Record<string, unknown> = {}) => ({
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
    taskCompleted: tool === 'done',
    ...args,
  },
  usage: { input: 50, output: 10 },
});

/** Center of an element on the active page, for the coordinate tools. */
async function center(sel: string): Promise<{ x: number; y: number }> {
  const page = await h.browser.context.activePage();
  return page.evaluate((s: string) => {
    const r = document.querySelector(s)!.getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
  }, sel);
}
const state = async <T>(fn: () => T): Promise<T> => (await h.browser.context.activePage()).evaluate(fn);

/** The planner's moves, expressed per mode: act in dom, coordinates for clicks in hybrid, coordinates for everything in cua. */
async function type(mode: AgentMode, sel: string, text: string, what: string) {
  if (mode === 'cua') return step('type_at', { ...(await center(sel)), text });
  return step('act', { instruction: `type ${text} into the ${what} field` });
}
async function click(mode: AgentMode, sel: string, what: string) {
  if (mode === 'dom') return step('act', { instruction: `click the ${what}` });
  return step('click_at', await center(sel));
}

const plannerFor = (task: 'login' | 'people' | 'apply', mode: AgentMode) => async () => {
  const url = await state(() => location.pathname);
  const val = (sel: string) => state(new Function(`return document.querySelector(${JSON.stringify(sel)})?.value ?? ''`) as () => string);
  if (task === 'login') {
    if (url.endsWith('login.html')) {
      if (!(await val('#user'))) return type(mode, '#user', '%user%', 'username');
      if (!(await val('#pass'))) return type(mode, '#pass', '%pass%', 'password');
      return click(mode, '#login', 'Log in button');
    }
    if (!(await state(() => (document.getElementById('notify') as HTMLInputElement).checked)))
      return mode === 'dom' ? step('act', { instruction: 'check email notifications' }) : step('click_at', await center('#notify'));
    if (!(await state(() => document.getElementById('status')!.textContent))) return click(mode, '#save', 'Save button');
    return step('done', { answer: 'notifications are on', success: true });
  }
  if (task === 'people') {
    if (url.endsWith('people.html')) {
      if (!(await val('#q'))) return type(mode, '#q', 'Grace', 'search people');
      return mode === 'dom' ? step('act', { instruction: 'click the Open link in the row for Grace Hopper' }) : step('click_at', await center('tbody a'));
    }
    return step('done', { answer: await state(() => document.getElementById('h')!.textContent), success: true });
  }
  if (url.endsWith('apply-1.html')) {
    if (!(await val('#name'))) return type(mode, '#name', '%name%', 'full name');
    if (!(await val('#email'))) return type(mode, '#email', '%email%', 'email');
    return click(mode, '#next', 'Next button');
  }
  if (!(await val('#addr'))) return type(mode, '#addr', '%addr%', 'address');
  if (!(await state(() => document.getElementById('result')!.textContent))) return click(mode, '#submit', 'Submit button');
  return step('done', { answer: 'submitted', success: true });
};

const model = () => ({ modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-agent', baseURL: ms.url });
const SECRETS = { user: 'ada-secret-user', pass: 'hunter2-secret', name: 'Secret Applicant', email: 'secret@example.test', addr: '12 Secret Street' };

describe('multi-step tasks in each mode', () => {
  for (const mode of ['dom', 'hybrid', 'cua'] as const) {
    it(`${mode}: log in then change a setting; search a table and open a row; fill a two-page form with variables`, { timeout: 120_000 }, async () => {
      const page = await h.open('/app/login.html');
      ms.script(plannerFor('login', mode));
      const login = await h.dh.agentExecute({
        agentConfig: { model: model(), executionModel: 'deckhand/local', mode },
        executeOptions: {
          instruction: 'log in as %user% and turn on email notifications',
          variables: { user: SECRETS.user, pass: { value: SECRETS.pass, description: 'the password' } },
          highlightCursor: mode !== 'dom',
        },
      });
      expect(login.result).toMatchObject({ success: true, completed: true, message: 'notifications are on' });
      expect(await page.url()).toBe(`${h.origin}/app/settings.html?user=${SECRETS.user}`);
      expect(await page.evaluate(() => document.getElementById('status')!.textContent)).toBe('Saved: notifications on');
      expect(login.result.actions.map((a) => a.type)).toEqual(
        mode === 'dom'
          ? ['act', 'act', 'act', 'act', 'act', 'done']
          : mode === 'hybrid'
            ? ['act', 'act', 'click_at', 'click_at', 'click_at', 'done']
            : ['type_at', 'type_at', 'click_at', 'click_at', 'click_at', 'done'],
      );
      expect(login.result.usage).toMatchObject({ input_tokens: 6 * 50, output_tokens: 6 * 10 });
      if (mode !== 'dom') expect(await page.evaluate(() => !!document.getElementById('__deckhand_cursor'))).toBe(true);
      if (mode === 'cua') expect(ms.requests[0].raw).not.toContain('Page outline'); // screenshots only
      if (mode !== 'dom') expect(ms.requests[0].raw).toMatch(/image|base64/);

      await page.goto(`${h.origin}/app/people.html`);
      ms.script(plannerFor('people', mode));
      const people = await h.dh.agentExecute({
        agentConfig: { model: model(), executionModel: 'deckhand/local', mode },
        executeOptions: { instruction: 'open Grace Hopper' },
      });
      expect(people.result.message).toBe('Person: Grace Hopper');
      expect(await page.evaluate(() => document.getElementById('h')!.textContent)).toBe('Person: Grace Hopper');

      await page.goto(`${h.origin}/app/apply-1.html`);
      ms.script(plannerFor('apply', mode));
      const apply = await h.dh.agentExecute({
        agentConfig: { model: model(), executionModel: 'deckhand/local', mode },
        executeOptions: { instruction: 'apply with %name%, %email% and %addr%', variables: { name: SECRETS.name, email: SECRETS.email, addr: SECRETS.addr } },
      });
      expect(apply.result.completed).toBe(true);
      expect(await page.evaluate(() => document.getElementById('result')!.textContent)).toBe(
        `Application received for ${SECRETS.name} (${SECRETS.email}) at ${SECRETS.addr}`,
      );
      // Variable values reached the page, but no request body and no reported step.
      for (const r of ms.requests) for (const v of Object.values(SECRETS)) expect(r.raw).not.toContain(v);
      for (const v of Object.values(SECRETS)) expect(JSON.stringify([login.result, apply.result])).not.toContain(v);
    });
  }
});

describe('approval with a provider model', () => {
  it('a click at a point waits (no element to read first) and Stop refuses it; a skipped act is an error the model hears, and the run goes on', async () => {
    const page = await h.open('/examples/contact.html');
    const at = await center('#send');
    ms.script(step('click_at', at));
    const asked: string[][] = [];
    const stopped = await h.dh
      .agentExecute(
        { agentConfig: { model: model(), mode: 'cua' }, executeOptions: { instruction: 'send the form', approval: { when: ['submit'] } } },
        { onApproval: (req) => (asked.push([req.method, ...req.kinds]), 'stop') },
      )
      .then(
        () => null,
        (e: { code?: string; data?: unknown }) => e,
      );
    expect(stopped).toMatchObject({ code: 'NOT_APPROVED', data: { decision: 'stop' } });
    expect(asked).toEqual([['click', 'submit']]);
    expect(await page.title()).toBe('Contact us · Harbor Supply');

    let turn = 0;
    ms.script((_r, prompt) => {
      turn++;
      if (turn === 1) return step('act', { instruction: 'click the Send button' });
      expect(prompt).toMatch(/1\. act .* error: not approved: click on .*Send.* it submits a form; the caller chose Skip/);
      return step('done', { answer: 'the person did not want it sent', success: false });
    });
    const skipped = await h.dh.agentExecute(
      { agentConfig: { model: model(), executionModel: 'deckhand/local' }, executeOptions: { instruction: 'send the form', approval: { when: ['submit'] } } },
      { onApproval: () => 'skip' },
    );
    expect(skipped.result).toMatchObject({ success: false, completed: true, message: 'the person did not want it sent' });
    expect(await page.title()).toBe('Contact us · Harbor Supply');
  });
});

describe('the agent loop', () => {
  it('a failing or slow tool is an error the model sees; maxSteps ends the run incomplete', async () => {
    await h.open('/app/login.html');
    let turn = 0;
    ms.script((_r, prompt) => {
      turn++;
      if (turn === 1) return step('act', { instruction: 'click the launch rocket button' });
      if (turn === 2) {
        expect(prompt).toMatch(/1\. act .* error: /);
        return step('wait', { ms: 5000 });
      }
      if (turn === 3) {
        expect(prompt).toMatch(/2\. wait .* error: tool wait timed out after 400 ms/);
        return step('done', { answer: 'gave up', success: false });
      }
      return step('done', { answer: 'x', success: true });
    });
    const r = await h.dh.agentExecute({
      agentConfig: { model: model(), executionModel: 'deckhand/local' },
      executeOptions: { instruction: 'launch the rocket', toolTimeout: 400 },
    });
    expect(r.result).toMatchObject({ success: false, completed: true, message: 'gave up' });
    expect(r.result.actions.map((a) => a.result?.startsWith('error:'))).toEqual([true, true, false]);

    ms.script(step('scroll', { direction: 'down' }));
    const capped = await h.dh.agentExecute({ agentConfig: { model: model() }, executeOptions: { instruction: 'scroll forever', maxSteps: 3 } });
    expect(capped.result).toMatchObject({ success: false, completed: false });
    expect(capped.result.message).toMatch(/stopped after 3 steps.*maxSteps 3/);
    expect(capped.result.actions).toHaveLength(3);
  });

  it('a reply that does not parse is asked again once with what was wrong; a second ends the run with the steps done and the reply shown', async () => {
    await h.open('/app/login.html');
    const secretish = 'sk-live-abcdefghijklmnopqrstuvwxyz0123456789';
    let turn = 0;
    ms.script((_r, prompt) => {
      turn++;
      if (turn === 1) return step('scroll', { direction: 'down' });
      if (turn === 2) return { rawText: 'I think I should scroll again.' };
      if (turn === 3) {
        expect(prompt).toMatch(/Your previous answer could not be used: .*holds no JSON object/);
        return { rawText: `{"tool": 42, "note": "key ${secretish} ${'x'.repeat(900)}"}` };
      }
      return step('done', { answer: 'x', success: true });
    });
    const r = await h.dh.agentExecute({ agentConfig: { model: model() }, executeOptions: { instruction: 'scroll twice', maxSteps: 5 } });
    expect(turn).toBe(3);
    expect(r.result).toMatchObject({ success: false, completed: false, metadata: { error: { code: 'MODEL_OUTPUT_INVALID' } } });
    expect(r.result.actions.map((a) => a.type)).toEqual(['scroll']);
    expect(r.result.message).toMatch(/^stopped at step 2: .*does not fit the schema \(tool: .*\); its reply began "\{\\"tool\\": 42/);
    // The first 500 characters, with anything shaped like a credential masked.
    expect(r.result.message).not.toContain(secretish);
    expect(r.result.message).toContain('[redacted]');
    expect(r.result.message.length).toBeLessThan(1200);
  });

  it('search works with a configured provider; the built-in model refuses what it cannot ground, with nothing done', async () => {
    const search = createServer((req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ results: [{ title: 'Deckhand docs', url: 'https://docs.example/deckhand', content: 'browser automation' }] })),
    );
    await new Promise<void>((r) => search.listen(0, '127.0.0.1', r));
    await h.open('/app/login.html');
    ms.script(
      (_r, prompt) =>
        prompt.includes('search(query)') ? step('search', { query: 'deckhand docs' }) : step('done', { answer: 'no search tool', success: false }),
      (_r, prompt) => step('done', { answer: /docs\.example\/deckhand/.test(prompt) ? 'found https://docs.example/deckhand' : 'nothing', success: true }),
    );
    const r = await h.dh.agentExecute(
      { agentConfig: { model: model() }, executeOptions: { instruction: 'find the docs', useSearch: true } },
      { searchUrl: `http://127.0.0.1:${(search.address() as AddressInfo).port}/search` },
    );
    expect(r.result.message).toBe('found https://docs.example/deckhand');
    search.close();
    const local = await h.dh.agentExecute({ agentConfig: { model: 'deckhand/local' }, executeOptions: { instruction: 'anything' } });
    expect(local.result).toMatchObject({ success: false, completed: false, usage: { input_tokens: 0, output_tokens: 0 } });
    expect(local.result.message).toMatch(/step 1 of 1: "anything" is beyond the built-in model.*nothing was done/);
    expect(local.result.actions.map((a) => a.type)).toEqual(['done']);
  });
});

describe('agentExecute over HTTP', () => {
  const KEY = 'agent-key';
  let svc: RunningService;
  beforeAll(async () => {
    process.env.DECKHAND_API_KEYS = KEY;
    svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-agent-')), port: 0 });
  });
  afterAll(async () => {
    await svc?.close();
    delete process.env.DECKHAND_API_KEYS;
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(svc.url + path, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', 'x-dh-api-key': KEY, ...headers },
      body: JSON.stringify(body),
    });
  const sse = readEvents;

  it('streams each step, then finished; cached replay runs with the model server gone', async () => {
    const { data } = (await (await post('/v1/sessions/start', {})).json()) as any;
    const id = data.sessionId;
    // The session's own browser: the planner reads state from it through the test's evaluate helper, so point it there.
    const session = await svc.sessions.get(id, (await svc.keys.tenantOf(KEY))!);
    const spage = await session.dh.context.activePage();
    await post(`/v1/sessions/${id}/navigate`, { url: `${h.origin}/app/login.html` });
    const sstate = <T>(fn: () => T) => spage.evaluate(fn);
    ms.script(async () => {
      if ((await sstate(() => location.pathname)).endsWith('login.html')) {
        if (!(await sstate(() => (document.getElementById('user') as HTMLInputElement).value)))
          return step('act', { instruction: 'type %user% into the username field' });
        if (!(await sstate(() => (document.getElementById('pass') as HTMLInputElement).value)))
          return step('act', { instruction: 'type %pass% into the password field' });
        return step('act', { instruction: 'click the Log in button' });
      }
      return step('done', { answer: 'logged in', success: true });
    });
    const body = {
      agentConfig: { model: model(), executionModel: 'deckhand/local', mode: 'dom', cua: true },
      executeOptions: { instruction: 'log in', variables: { user: SECRETS.user, pass: SECRETS.pass } },
      shouldCache: true,
    };
    const events = await sse(await post(`/v1/sessions/${id}/agentExecute`, body, { 'x-stream-response': 'true' }));
    const steps = events.filter((e) => e.status === 'running' && e.data?.step);
    expect(steps.map((e) => e.data.step.type)).toEqual(['act', 'act', 'act', 'done']);
    const fin = events.at(-1);
    expect(fin.status).toBe('finished');
    expect(fin.data.result).toMatchObject({ success: true, completed: true, message: 'logged in' });
    expect(fin.data.cacheEntry.cacheKey).toMatch(/^[0-9a-f]{64}$/);
    expect(fin.data.cacheEntry.entry.steps[0].actions[0].arguments).toEqual(['%user%']);
    // mode wins over the deprecated cua flag: the planner was offered DOM tools.
    expect(ms.requests[0].raw).toContain('act(instruction)');
    for (const v of [SECRETS.user, SECRETS.pass]) {
      expect(JSON.stringify(events)).not.toContain(v);
      for (const r of ms.requests) expect(r.raw).not.toContain(v);
    }
    // Replay: same key, model server answering nothing but errors.
    await post(`/v1/sessions/${id}/navigate`, { url: `${h.origin}/app/login.html` });
    ms.script({ status: 500, body: { error: { message: 'the model is down' } } });
    const before = ms.requests.length;
    const replayed = (await (await post(`/v1/sessions/${id}/agentExecute`, body)).json()) as any;
    expect(replayed.success).toBe(true);
    expect(replayed.data.result).toMatchObject({ success: true, completed: true, metadata: { replayed: true } });
    expect(ms.requests.length).toBe(before);
    expect(await spage.url()).toBe(`${h.origin}/app/settings.html?user=${SECRETS.user}`);
    await post(`/v1/sessions/${id}/end`, {});
  });

  it('with no model configured, the built-in model plans a compound instruction: steps streamed, the page logged in, usage zero', async () => {
    const { data } = (await (await post('/v1/sessions/start', {})).json()) as any;
    const id = data.sessionId;
    await post(`/v1/sessions/${id}/navigate`, { url: `${h.origin}/app/login.html` });
    const body = {
      executeOptions: {
        instruction: 'Enter the username %user% and the password %pass% into the text fields and press Log in',
        variables: { user: SECRETS.user, pass: SECRETS.pass },
      },
    };
    const events = await sse(await post(`/v1/sessions/${id}/agentExecute`, body, { 'x-stream-response': 'true' }));
    const steps = events.filter((e) => e.status === 'running' && e.data?.step).map((e) => e.data.step);
    expect(steps.map((s) => s.type)).toEqual(['act', 'act', 'act', 'done']);
    expect(steps[0].action.instruction).toBe('enter "%user%" into the username field');
    const fin = events.at(-1);
    expect(fin.status).toBe('finished');
    expect(fin.data.result).toMatchObject({ success: true, completed: true, usage: { input_tokens: 0, output_tokens: 0 } });
    expect(fin.data.result.usage.inference_time_ms).toBeGreaterThan(0);
    // The secrets went into the page, and never into the stream.
    for (const v of [SECRETS.user, SECRETS.pass]) expect(JSON.stringify(events)).not.toContain(v);
    const session = await svc.sessions.get(id, (await svc.keys.tenantOf(KEY))!);
    expect(await (await session.dh.context.activePage()).url()).toBe(`${h.origin}/app/settings.html?user=${SECRETS.user}`);
    await post(`/v1/sessions/${id}/end`, {});
  });

  it('a disconnect mid-run aborts it; bad input is a clear 400', async () => {
    const { data } = (await (await post('/v1/sessions/start', {})).json()) as any;
    const id = data.sessionId;
    await post(`/v1/sessions/${id}/navigate`, { url: `${h.origin}/app/login.html` });
    ms.script({ ...step('wait', { ms: 100 }), delayMs: 300 });
    const ac = new AbortController();
    const res = await post(
      `/v1/sessions/${id}/agentExecute`,
      { agentConfig: { model: model() }, executeOptions: { instruction: 'wait a lot', maxSteps: 100 }, streamResponse: true },
      {},
      ac.signal,
    );
    await sse(res, (e) => {
      if (e.data?.step) ac.abort();
    }).catch(() => undefined);
    const t = Date.now();
    let next = await post(`/v1/sessions/${id}/navigate`, { url: `${h.origin}/app/login.html` });
    while (next.status === 409 && Date.now() - t < 5000) {
      await new Promise((r) => setTimeout(r, 100));
      next = await post(`/v1/sessions/${id}/navigate`, { url: `${h.origin}/app/login.html` });
    }
    expect(next.status).toBe(200);
    const calls = ms.requests.length;
    await new Promise((r) => setTimeout(r, 800));
    expect(ms.requests.length - calls).toBeLessThanOrEqual(1); // the run stopped
    const bad: [unknown, RegExp][] = [
      [{ executeOptions: { instruction: '' } }, /instruction/],
      [{ executeOptions: { instruction: 'x', maxSteps: 0 } }, /maxSteps/],
      [{ executeOptions: { instruction: 'x' }, agentConfig: { mode: 'telepathy' } }, /mode/],
      [{ executeOptions: { instruction: 'x', colour: 1 } }, /unknown property 'colour'/],
      [{ executeOptions: { instruction: 'x', variables: { a: [5] } } }, /variables/],
      [
        { executeOptions: { instruction: 'x' }, agentConfig: { model: { provider: 'azure', modelName: 'd', auth: { type: 'azureEntraId', token: '' } } } },
        /at least 1 character/,
      ],
      [{ executeOptions: { instruction: 'x', useSearch: true } }, /DECKHAND_SEARCH_URL/],
    ];
    for (const [b, re] of bad) {
      const r = await post(`/v1/sessions/${id}/agentExecute`, b);
      const j = (await r.json()) as any;
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(j.error.message, JSON.stringify(b)).toMatch(re);
    }
    await post(`/v1/sessions/${id}/end`, {});
  });
});
