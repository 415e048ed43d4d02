/**
 * Model-driven act, observe and extract through the real ai SDK providers against
 * a scripted model server on 127.0.0.1 (OpenAI Responses and Chat formats,
 * Anthropic Messages), plus a callback model.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Deckhand, DeckhandError, localBrowser, type BrowserHandle, type Page } from '../../src/index';
import { startFixtureServers } from '../fixtures/server';
import type { ModelRequest } from '../../src/protocol/model';
import { idFor, startModelServer, type ModelServer } from '../fixtures/model-server';
import { stopWorker, until } from './harness';
import { OPERATIONS } from '../../src/protocol/methods';

let servers: Awaited<ReturnType<typeof startFixtureServers>>;
let ms: ModelServer;
let browser: BrowserHandle;
let dh: Deckhand;
let page: Page;
const logs: string[] = [];

beforeAll(async () => {
  servers = await startFixtureServers();
  ms = await startModelServer();
  browser = await localBrowser.launch();
  dh = await Deckhand.create({
    browser,
    // The Responses API where asked (it is the default on OpenAI's own endpoint only).
    model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test-key', baseURL: ms.url, openaiEndpointFormat: 'responses' },
    systemPrompt: 'Always prefer buttons over links.',
    logging: { level: 'debug', callback: (l) => logs.push(`${l.level} ${l.message} ${JSON.stringify(l.data ?? {})}`) },
  });
  page = await browser.context.activePage();
});
afterAll(async () => {
  await dh?.close();
  await browser?.close();
  await servers?.close();
  await ms?.close();
});
beforeEach(() => {
  ms.requests.length = 0;
});

const answer = (prompt: string, pattern: RegExp, method = 'click', args: string[] = [], extra: Record<string, unknown> = {}) => ({
  object: {
    found: true,
    elementId: idFor(prompt, pattern),
    method,
    arguments: args,
    description: `target ${pattern.source}`,
    twoStep: false,
    reason: '',
    ...extra,
  },
});
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DeckhandError,
  );
const formValues = () =>
  page.evaluate(() => ({ name: (document.getElementById('name') as HTMLInputElement).value, log: (window as unknown as { __log: string[] }).__log }));

describe('act with a model', () => {
  it("sends the snapshot and the caller's system prompt, acts on the chosen element, and reports usage into metrics", async () => {
    await page.goto(`${servers.origin}/form.html`);
    const before = await dh.metrics();
    ms.script((_r, prompt) => ({ ...answer(prompt, /button "Multi"/), usage: { input: 321, output: 12, reasoning: 3, cached: 100 } }));
    const r = await dh.act('click the Multi button');
    expect(r.data.success).toBe(true);
    expect(r.data.actions[0]).toMatchObject({ selector: "//*[@id='multi']", method: 'click' });
    expect((await formValues()).log).toEqual(['click:multi']);
    expect(ms.requests).toHaveLength(1);
    expect(ms.requests[0].path).toBe('/v1/responses');
    expect(ms.requests[0].headers.authorization).toBe('Bearer sk-test-key');
    const sent = ms.requests[0].raw;
    expect(sent).toContain('Always prefer buttons over links.');
    expect(sent).toMatch(/\[e\d+\] textbox \\"Full name\\"/);
    expect(sent).toContain('click the Multi button');
    expect(r.metadata.usage).toMatchObject({ inputTokens: 321, outputTokens: 12, reasoningTokens: 3, cachedInputTokens: 100 });
    expect(r.metadata.usage.inferenceTimeMs).toBeGreaterThanOrEqual(0);
    const after = await dh.metrics();
    expect(after.actPromptTokens - before.actPromptTokens).toBe(321);
    expect(after.totalCompletionTokens - before.totalCompletionTokens).toBe(12);
    expect(after.actCachedInputTokens - before.actCachedInputTokens).toBe(100);
    expect(after.observePromptTokens).toBe(before.observePromptTokens);
    // Reading metrics does not reset them, and they survive the worker being stopped.
    expect(await dh.metrics()).toEqual(after);
    await stopWorker(browser);
    expect(await dh.metrics()).toEqual(after);
  });

  it('Chat Completions is the default on any other baseURL (streamed, with the budget), and variable values never reach the model', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script((_r, prompt) => answer(prompt, /textbox "Full name"/, 'fill', ['%name%']));
    const r = await dh.act('type %name% into the full name field', {
      model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test-key', baseURL: ms.url },
      variables: { name: { value: 'Secret Person 7731', description: 'the applicant name' } },
    });
    expect(r.data.success).toBe(true);
    expect((await formValues()).name).toBe('Secret Person 7731');
    expect(ms.requests[0].path).toBe('/v1/chat/completions');
    expect(ms.requests[0].body).toMatchObject({
      stream: true,
      max_tokens: OPERATIONS.act!.outputTokens,
      response_format: { type: 'json_schema', json_schema: { strict: true } },
    });
    expect(ms.requests[0].raw).toContain('%name%');
    expect(ms.requests[0].raw).toContain('the applicant name');
    // The value appeared in the page, but in no request, result or log line.
    for (const req of ms.requests) expect(req.raw).not.toContain('Secret Person 7731');
    expect(JSON.stringify(r)).not.toContain('Secret Person 7731');
    expect(logs.join('\n')).not.toContain('Secret Person 7731');
    // The next snapshot (as the model would see it) does show the filled field: that is page content.
  });

  it('reads an answer in prose or a code fence (text), or in a tool call (tool); a reply with none is shown in the typed error', async () => {
    await page.goto(`${servers.origin}/form.html`);
    const base = { modelName: 'local-llm', apiKey: 'k', baseURL: ms.url };
    ms.script((_r, prompt) => ({ rawText: `Sure!\n\`\`\`json\n${JSON.stringify(answer(prompt, /button "Multi"/).object)}\n\`\`\`\nDone.` }));
    expect((await dh.act('click the Multi button', { model: { ...base, structuredOutput: 'text' } })).data.success).toBe(true);
    expect(ms.requests.at(-1)!.body.response_format).toBeUndefined();
    ms.script((_r, prompt) => answer(prompt, /button "Multi"/));
    expect((await dh.act('click the Multi button', { model: { ...base, structuredOutput: 'tool' } })).data.success).toBe(true);
    expect(ms.requests.at(-1)!.body.tool_choice).toEqual({ type: 'function', function: { name: 'answer' } });
    expect((await formValues()).log).toEqual(['click:multi', 'click:multi']);
    ms.script({ rawText: 'I would click the Multi button.' });
    for (const structuredOutput of ['text', 'tool'] as const) {
      const e = await errorOf(dh.act('click the Multi button', { model: { ...base, structuredOutput } }));
      expect(e?.code, e?.message).toBe('MODEL_OUTPUT_INVALID');
      expect(e!.message).toContain('its reply began "I would click the Multi button."');
    }
  });

  it('says so when no element fits, and touches nothing', async () => {
    await page.goto(`${servers.origin}/form.html`);
    const before = await dh.metrics();
    ms.script({
      object: { found: false, elementId: '', method: 'click', arguments: [], description: '', twoStep: false, reason: 'there is no delete button' },
    });
    const r = await dh.act('click the delete account button');
    expect(r.data.success).toBe(false);
    expect(r.data.message).toMatch(/no element on the page fits.*there is no delete button/);
    expect(r.data.actions).toEqual([]);
    expect((await formValues()).log).toEqual([]);
    expect(await dh.metrics()).toEqual(before);
  });

  it('takes a second step on content the first action opened', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script(
      (_r, prompt) => answer(prompt, /checkbox "I accept the terms"/, 'check', [], { twoStep: true }),
      (_r, prompt) => {
        expect(prompt).toContain('Already done for this instruction');
        return answer(prompt, /checkbox "Newsletter"/, 'uncheck');
      },
    );
    const r = await dh.act('accept the terms and then turn off the newsletter');
    expect(r.data.actions.map((a) => a.method)).toEqual(['check', 'uncheck']);
    expect(
      await page.evaluate(() => [
        (document.getElementById('terms') as HTMLInputElement).checked,
        (document.getElementById('news') as HTMLInputElement).checked,
      ]),
    ).toEqual([true, false]);
    expect(r.metadata.usage.inputTokens).toBe(200);
  });

  it('an Action returned by observe runs with no model call', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script((_r, prompt) => ({
      object: {
        elements: [
          { elementId: idFor(prompt, /button "Create account"/), description: 'Create account button', method: 'click', arguments: [] },
          { elementId: idFor(prompt, /combobox "Country"/), description: 'Country select', method: 'selectOption', arguments: ['France'] },
          { elementId: 'e99999', description: 'made up', method: 'click', arguments: [] },
        ],
      },
    }));
    const r = await dh.observe('find the submit button and the country');
    expect(r.data).toEqual([
      {
        selector: "//*[@id='submit']",
        description: 'Create account button',
        method: 'click',
        arguments: [],
        target: expect.objectContaining({ role: 'button', name: 'Create account', count: 1 }),
      },
      {
        selector: "//*[@id='country']",
        description: 'Country select',
        method: 'selectOption',
        arguments: ['France'],
        target: expect.objectContaining({ role: 'combobox', name: 'Country', count: 1 }),
      },
    ]);
    expect(r.metadata.usage.inputTokens).toBe(100);
    const count = ms.requests.length;
    await dh.act(r.data[1]);
    expect(ms.requests.length).toBe(count);
    expect(await page.evaluate(() => (document.getElementById('country') as HTMLSelectElement).value)).toBe('fr');
  });
});

describe('extract', () => {
  it('returns data typed by a zod schema, with links as real URLs', async () => {
    await page.goto(`${servers.origin}/table?rows=3`);
    ms.script((_r, prompt) => ({
      object: {
        users: [
          { name: 'User 1', email: 'user1@example.com', role: 'Admin' },
          { name: 'User 2', email: 'user2@example.com', role: 'Editor' },
        ],
        signupUrl: '/form.html',
        docsLink: idFor(prompt, /link "Docs"/),
      },
    }));
    const schema = z.object({
      users: z.array(z.object({ name: z.string(), email: z.string(), role: z.enum(['Admin', 'Editor', 'Viewer']) })),
      signupUrl: z.string(),
      docsLink: z.string(),
    });
    const r = await dh.extract('the users in the table, the sign-up link and the docs link', schema);
    expect(r.data.users[1]).toEqual({ name: 'User 2', email: 'user2@example.com', role: 'Editor' });
    expect(r.data.signupUrl).toBe(`${servers.origin}/form.html`);
    expect(r.data.docsLink).toBe(`${servers.origin}/docs?sections=5`);
    const sent = ms.requests[0].body;
    expect(JSON.stringify(sent)).toContain('"users"'); // the JSON schema went to the provider
    expect(ms.requests[0].raw).toContain('2 | User 2 | user2@example.com | Editor');
  });

  it('without a schema answers { extraction }; a JSON Schema works as well; screenshot sends an image', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script({ object: { extraction: 'Sign up' } });
    expect((await dh.extract('the page heading')).data).toEqual({ extraction: 'Sign up' });
    ms.script({ object: { value: ['United States', 'France', 'Germany'] } });
    const r = await dh.extract('the countries', { type: 'array', items: { type: 'string' } }, { screenshot: true });
    expect(r.data).toEqual(['United States', 'France', 'Germany']);
    expect(ms.requests[1].raw).toMatch(/data:image\/jpeg;base64,|"image_url"|input_image/);
  });

  it('retries once when the answer does not fit the schema, then fails with a typed error', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script({ object: { wrong: true } }, { object: { count: 3 } });
    const ok = await dh.extract('how many fields', z.object({ count: z.number() }));
    expect(ok.data).toEqual({ count: 3 });
    expect(ms.requests).toHaveLength(2);
    expect(ms.requests[1].raw).toContain('did not fit the schema');
    ms.requests.length = 0;
    ms.script({ rawText: 'this is not json' });
    const e = await errorOf(dh.extract('how many fields', z.object({ count: z.number() })));
    expect(e?.code).toBe('MODEL_OUTPUT_INVALID');
    expect(e?.message).toContain('openai/gpt-4.1-mini');
    expect(ms.requests).toHaveLength(2);
  });
});

describe('provider failures give typed errors, leave the page alone and add nothing to metrics', () => {
  it('429, 500, a slow response and an unreachable server', async () => {
    await page.goto(`${servers.origin}/form.html`);
    const before = await dh.metrics();
    ms.script({ status: 429, body: { error: { message: 'Rate limit reached', type: 'rate_limit' } } });
    let e = await errorOf(dh.act('click the Multi button'));
    expect(e?.code).toBe('MODEL_RATE_LIMITED');
    expect(e?.message).toMatch(/openai\/gpt-4\.1-mini.*429/);
    ms.script({ status: 500, body: { error: { message: 'upstream exploded' } } });
    e = await errorOf(dh.act('click the Multi button'));
    expect(e?.code).toBe('MODEL_PROVIDER_ERROR');
    expect(e?.message).toMatch(/HTTP 500/);
    ms.script({ object: { found: true }, delayMs: 3000 });
    const t = Date.now();
    e = await errorOf(dh.act('click the Multi button', { timeout: 800 }));
    expect(e?.code).toBe('TIMEOUT');
    expect(e?.message).toMatch(/gpt-4\.1-mini.*did not answer/);
    expect(Date.now() - t).toBeLessThan(2500);
    e = await errorOf(dh.act('click the Multi button', { model: { modelName: 'openai/x', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' } }));
    expect(e?.code).toBe('MODEL_UNREACHABLE');
    expect((await formValues()).log).toEqual([]);
    expect(await dh.metrics()).toEqual(before);
  });
});

describe('provider requests run in the offscreen document', () => {
  it('cancelling a provider call aborts its HTTP request at once', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script({ object: { found: true }, delayMs: 5000 });
    const ac = new AbortController();
    const pending = errorOf(dh.act('click the Multi button', { signal: ac.signal }));
    await until(() => ms.requests.length === 1, 'the model request to start');
    const t = Date.now();
    ac.abort();
    expect((await pending)?.code).toBe('CANCELLED');
    expect(Date.now() - t).toBeLessThan(1000);
    await until(() => ms.requests[0].abandoned === true, 'the model request to be aborted');
    expect((await formValues()).log).toEqual([]);
  });

  it('still work after the worker was stopped (the document is opened again)', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script((_r, prompt) => answer(prompt, /button "Multi"/));
    expect((await dh.act('click the Multi button')).data.success).toBe(true);
    await stopWorker(browser);
    expect((await dh.act('click the Multi button')).data.success).toBe(true);
    expect((await formValues()).log).toEqual(['click:multi', 'click:multi']);
    expect(ms.requests).toHaveLength(2);
  });
});

describe('other providers and callback models', () => {
  it('an Anthropic-format model', async () => {
    await page.goto(`${servers.origin}/form.html`);
    ms.script((_r, prompt) => answer(prompt, /button "Multi"/));
    const r = await dh.act('click Multi', { model: { modelName: 'anthropic/claude-sonnet-4-5', apiKey: 'ant-key', baseURL: ms.url } });
    expect(r.data.success).toBe(true);
    expect(ms.requests[0].path).toBe('/v1/messages');
    expect(ms.requests[0].headers['x-api-key']).toBe('ant-key');
    expect((await formValues()).log).toEqual(['click:multi']);
  });

  it('a callback model gets the prompt, the schema, the instruction and the outline lines over the RPC', async () => {
    await page.goto(`${servers.origin}/form.html`);
    const seen: ModelRequest[] = [];
    const r = await dh.act('click Multi', {
      model: async (req) => {
        seen.push(req);
        return { object: answer(req.prompt, /button "Multi"/).object, usage: { inputTokens: 7, outputTokens: 3 } };
      },
    });
    expect(r.data.success).toBe(true);
    expect(seen[0].prompt).toContain('click Multi');
    expect(seen[0].schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['elementId', 'method']) });
    // The outline as data: one line per printed outline line, the button among them.
    expect(seen[0].instruction).toBe('click Multi');
    const printed = seen[0].prompt.split('Page outline:\n')[1].split('\n\n')[0].split('\n');
    expect(seen[0].outline).toHaveLength(printed.length);
    const multi = seen[0].outline!.find((l) => l.role === 'button' && l.name === 'Multi');
    expect(multi).toMatchObject({ kind: 'element', id: expect.stringMatching(/^e\d+$/) });
    expect(printed[seen[0].outline!.indexOf(multi!)].trim()).toMatch(new RegExp(`^\\[${multi!.id}\\] button "Multi"`));
    expect(r.metadata.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(ms.requests).toHaveLength(0);
  });
});

describe('model configuration errors', () => {
  it('are clear and name what is wrong', async () => {
    const bad = async (model: unknown) => (await errorOf(dh.act('click Multi', { model: model as never })))!;
    expect((await bad({ modelName: 'openai/gpt-4.1', apiKey: 'k', temperature: 2 })).message).toMatch(/unknown property 'temperature'/);
    expect((await bad({ modelName: 'martian/m1', apiKey: 'k' })).message).toMatch(/unknown model provider in 'martian\/m1'/);
    expect((await bad({ callback: async () => ({ object: {} }), apiKey: 'k' })).message).toMatch(/callback model cannot also take apiKey/);
    expect((await bad({ provider: 'azure', modelName: 'dep', auth: { type: 'azureEntraId', token: '' } })).message).toMatch(/at least 1 character/);
    expect((await bad({ modelName: 'openai/gpt-4.1', openaiEndpointFormat: 'soap' })).code).toBe('INVALID_ARGUMENT');
    expect(
      (await bad({ provider: 'vertex', modelName: 'gemini', auth: { clientEmail: 'a@b', privateKey: 'k' }, providerOptions: { vertex: { project: 'p' } } }))
        .message,
    ).toMatch(/location/);
    await expect(Deckhand.create({ browser, model: { modelName: 'openai/x', colour: 1 } as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const e = await errorOf(dh.act('click', { model: 'openai/gpt-4.1-mini' }));
    // No key anywhere: the error says where a key can come from (unless the environment has one).
    if (!process.env.OPENAI_API_KEY) expect(e?.message).toMatch(/OPENAI_API_KEY/);
  });
});

describe('telemetry', () => {
  it('records a span per operation and a child span per model call with its token counts', async () => {
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const traced = await localBrowser.launch();
    const jsonLines: string[] = [];
    const d = await Deckhand.create({
      browser: traced,
      model: { modelName: 'openai/gpt-4.1-mini', apiKey: 'sk-test-key', baseURL: ms.url },
      telemetry: { tracer: provider.getTracer('test') },
      logging: { level: 'info', format: 'json', callback: (l) => jsonLines.push(JSON.stringify(l)) },
    });
    try {
      const p = await traced.context.activePage();
      await p.goto(`${servers.origin}/form.html`);
      ms.script((_r, prompt) => ({ ...answer(prompt, /button "Multi"/), usage: { input: 55, output: 5 } }));
      await d.act('click Multi');
      await new Promise((r) => setTimeout(r, 100)); // the model-call log event arrives just before the result
      const spans = exporter.getFinishedSpans();
      const op = spans.find((s) => s.name === 'deckhand.act')!;
      const call = spans.find((s) => s.name === 'deckhand.model_call')!;
      expect(op).toBeDefined();
      expect(call).toBeDefined();
      expect(call.parentSpanContext?.spanId ?? (call as unknown as { parentSpanId?: string }).parentSpanId).toBe(op.spanContext().spanId);
      expect(call.attributes['gen_ai.usage.input_tokens']).toBe(55);
      expect(op.attributes['deckhand.model']).toBe('openai/gpt-4.1-mini');
      expect(jsonLines.some((l) => /answered in/.test(l))).toBe(true);
      expect(jsonLines.join('\n')).not.toContain('sk-test-key');
    } finally {
      await d.close();
      await traced.close();
    }
  });
});
