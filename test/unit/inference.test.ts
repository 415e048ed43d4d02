/**
 * Model-driven act, observe and extract against a fake browser and the ai SDK's mock model:
 * what the model is shown, how its answers become selectors and trusted input, retries on
 * bad answers, timeouts, and how extracted data is checked, unwrapped, merged and fixed up.
 */
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { inferAct, inferExtract, inferObserve, mergeExtracted, type InferenceDeps, type LogEvent, type OpContext } from '../../src/engine/core/inference';
import { substitute } from '../../src/protocol/variables';
import type { BrowserPort, CdpSession, FrameInfo } from '../../src/engine/ports';
import { TEXT_EXTRACTION_SCHEMA } from '../../src/engine/core/prompts';
import { DeckhandError } from '../../src/protocol/errors';
import { providerCaller } from '../../src/models/provider-call';
import type { ModelRequest, OutlineLine, ResolvedModel } from '../../src/protocol/model';
import type { PageInfo } from '../../src/protocol/schemas';

// ---------------------------------------------------------------------------------------------
// A fake browser (same approach as engine.test.ts): records every call, answers frame requests.

interface FrameCall {
  page: number;
  frameId: number;
  message: Record<string, unknown>;
  timeoutMs: number;
}
interface CdpCall {
  page: number;
  method: string;
  params?: Record<string, unknown>;
}

const SNAPSHOT_TEXT = '[e1] heading "Sign up" level=1\n[e2] textbox "Email" value=""\n[e3] button "Create account"\n[e4] link "Docs" href=/docs';
const SNAPSHOT = { text: SNAPSHOT_TEXT, tokens: 30, folded: false, iframes: 0, url: 'http://site.test/form' };

/**
 * A page that already shows the variables' values (a field filled earlier, a PIN echoed in
 * the text), so the masking tests check something that would reach the model without it.
 */
const SECRET_SNAPSHOT_TEXT =
  '[e1] heading "Sign up" level=1\n[e2] textbox "Email" value="ada@secret.test"\n' +
  '[e3] button "Create account"\n[e4] link "Docs" href=/docs\n[e5] paragraph "Your PIN is 98765"';
const showingSecrets: Answer = (call) => (call.message.type === 'dh:snapshot' ? { ...SNAPSHOT, text: SECRET_SNAPSHOT_TEXT } : defaultAnswer(call));

/** Ids the page's top frame knows (dh:describe answers null for any other). */
const KNOWN_IDS = new Set([1, 2, 3, 4]);

type Answer = (call: FrameCall) => unknown;

const defaultAnswer: Answer = (call) => {
  const m = call.message;
  switch (m.type) {
    case 'dh:settle':
      return { settled: true };
    case 'dh:snapshot':
      return SNAPSHOT;
    case 'dh:describe':
      return (m.ids as number[]).map((n) => (KNOWN_IDS.has(n) ? { id: n, selector: `//*[@id='x${n}']`, role: 'button', name: 'x' } : null));
    case 'dh:prepare':
      return { kind: 'ready', handle: 1, x: 5, y: 5, count: 1, description: '<button>' };
    case 'dh:op':
      return { ok: true, mode: 'insertText' };
    default:
      throw new Error(`unexpected frame request ${String(m.type)}`);
  }
};

class FakePort implements BrowserPort {
  frameCalls: FrameCall[] = [];
  cdpCalls: CdpCall[] = [];
  frameList: FrameInfo[] = [{ frameId: 0, parentFrameId: -1, url: 'http://site.test/form' }];

  constructor(public answer: Answer = defaultAnswer) {}

  async listPages(): Promise<PageInfo[]> {
    return [{ id: 1, url: 'http://site.test/form', title: 'Form' }];
  }
  async activePage(): Promise<PageInfo | null> {
    return { id: 1, url: 'http://site.test/form', title: 'Form' };
  }
  async createPage(): Promise<PageInfo> {
    return { id: 2, url: 'about:blank', title: '' };
  }
  async pageInfo(page: number): Promise<PageInfo> {
    return { id: page, url: 'http://site.test/form', title: 'Form' };
  }
  async closePage(): Promise<void> {}
  async resetPage(): Promise<void> {}
  async bringToFront(): Promise<void> {}
  async cdp(page: number): Promise<CdpSession> {
    return {
      send: async <T>(method: string, params?: Record<string, unknown>) => {
        this.cdpCalls.push({ page, method, params });
        if (method === 'Page.captureScreenshot') return { data: '/9j/4AAQSkZJRgABAQ==' } as T;
        return {} as T;
      },
      on: () => () => undefined,
    };
  }
  async frameRequest<T>(page: number, frameId: number, message: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const call = { page, frameId, message, timeoutMs };
    this.frameCalls.push(call);
    return (await this.answer(call)) as T;
  }
  async isLoading(): Promise<boolean> {
    return false;
  }
  async frames(): Promise<FrameInfo[]> {
    return this.frameList;
  }
  onPageClosed(): () => void {
    return () => undefined;
  }

  ofType(type: string): FrameCall[] {
    return this.frameCalls.filter((c) => c.message.type === type);
  }
  /** CDP Input.* commands: anything that would change the page. */
  get inputCalls(): CdpCall[] {
    return this.cdpCalls.filter((c) => c.method.startsWith('Input.'));
  }
}

// ---------------------------------------------------------------------------------------------
// The ai SDK's mock model.

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];

const usage = (input: number, output: number, more: { cacheRead?: number; reasoning?: number } = {}): GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input - (more.cacheRead ?? 0), cacheRead: more.cacheRead, cacheWrite: undefined },
  outputTokens: { total: output, text: output - (more.reasoning ?? 0), reasoning: more.reasoning },
});

/** A model answer: an object (sent as its JSON text) or raw text. */
const reply = (answer: unknown, u: GenerateResult['usage'] = usage(10, 5)): GenerateResult => ({
  content: [{ type: 'text', text: typeof answer === 'string' ? answer : JSON.stringify(answer) }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: u,
  warnings: [],
});

const MODEL: ResolvedModel = { kind: 'provider', name: 'openai/mock', provider: 'openai', modelId: 'mock', apiKey: 'k' };

function setup(answers: GenerateResult[] | ((o: CallOptions) => PromiseLike<GenerateResult>), portAnswer?: Answer) {
  const port = new FakePort(portAnswer);
  const model = new MockLanguageModelV3({ provider: 'openai', modelId: 'mock', doGenerate: answers });
  const logs: LogEvent[] = [];
  const factoryCalls: ResolvedModel[] = [];
  const deps: InferenceDeps = {
    port,
    invokeCallback: async () => {
      throw new Error('no callback model in these tests');
    },
    log: (e) => logs.push(e),
    providers: providerCaller((resolved) => {
      factoryCalls.push(resolved);
      return model;
    }),
  };
  return { port, model, deps, logs, factoryCalls };
}

const context = (over: Partial<OpContext> = {}): OpContext => {
  const timeoutMs = over.timeoutMs ?? 10_000;
  return { page: 1, model: MODEL, deadline: Date.now() + timeoutMs, timeoutMs, domSettleTimeoutMs: 1000, opId: 'op-1', ...over };
};

/** System and user text of one model call. */
function promptOf(model: MockLanguageModelV3, i = 0): { system: string; user: string; images: { mediaType: string; data: unknown }[] } {
  const p = model.doGenerateCalls[i].prompt;
  const system = p
    .filter((m) => m.role === 'system')
    .map((m) => m.content as string)
    .join('\n');
  const parts = p.filter((m) => m.role === 'user').flatMap((m) => m.content as { type: string; text?: string; mediaType?: string; data?: unknown }[]);
  return {
    system,
    user: parts
      .filter((c) => c.type === 'text')
      .map((c) => c.text!)
      .join('\n'),
    images: parts.filter((c) => c.type === 'file').map((c) => ({ mediaType: c.mediaType!, data: c.data })),
  };
}

const schemaSeenBy = (model: MockLanguageModelV3, i = 0) => {
  const rf = model.doGenerateCalls[i].responseFormat;
  return rf?.type === 'json' ? rf.schema : undefined;
};

async function failure(p: Promise<unknown>, code: string, message?: RegExp | string): Promise<DeckhandError> {
  const e = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DeckhandError);
  expect((e as DeckhandError).code).toBe(code);
  if (message !== undefined) expect((e as DeckhandError).message).toMatch(message);
  return e as DeckhandError;
}

const actAnswer = (over: Record<string, unknown> = {}) => ({
  found: true,
  elementId: 'e3',
  method: 'click',
  arguments: [],
  description: 'Create account button',
  twoStep: false,
  reason: '',
  ...over,
});

const mouse = (port: FakePort) => port.cdpCalls.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => c.params!);

// ---------------------------------------------------------------------------------------------

describe('inferAct', () => {
  it('shows the model the instruction, the snapshot and the caller system prompt, then clicks the chosen element', async () => {
    const { port, model, deps, factoryCalls } = setup([reply(actAnswer(), usage(120, 17, { cacheRead: 40, reasoning: 6 }))]);
    const r = await inferAct(deps, context({ systemPrompt: 'Always prefer buttons over links.' }), 'click create account');

    // The model: called once with the resolved model, system prompt with the caller's text.
    expect(factoryCalls).toEqual([MODEL]);
    expect(model.doGenerateCalls).toHaveLength(1);
    const { system, user } = promptOf(model);
    expect(system).toContain('You control a web browser');
    expect(system).toContain('Instructions from the user of this tool:\nAlways prefer buttons over links.');
    expect(user).toContain('Instruction: click create account');
    expect(user).toContain('Page: http://site.test/form');
    expect(user).toContain(SNAPSHOT_TEXT);
    expect(user).not.toContain('Always prefer buttons');
    // Structured output: the act answer schema is what the provider is asked for.
    expect(schemaSeenBy(model)).toMatchObject({ type: 'object', required: expect.arrayContaining(['found', 'elementId', 'method']) });

    // Usage from the model flows through (reasoning and cached tokens too).
    expect(r.usage).toMatchObject({ inputTokens: 120, outputTokens: 17, reasoningTokens: 6, cachedInputTokens: 40 });
    expect(r.usage.inferenceTimeMs).toBeGreaterThanOrEqual(0);

    // The page: settled, snapshotted, id described, selector prepared, its hit at the point asked, trusted click.
    expect(port.frameCalls.map((c) => c.message.type)).toEqual(['dh:settle', 'dh:snapshot', 'dh:describe', 'dh:prepare', 'dh:op']);
    // What is left of the settle time after the network wait (the fake page has no requests).
    const settleAsk = port.ofType('dh:settle')[0].message as { timeoutMs: number; quietMs: number };
    expect(settleAsk.quietMs).toBe(150);
    expect(settleAsk.timeoutMs).toBeGreaterThan(900);
    expect(settleAsk.timeoutMs).toBeLessThanOrEqual(1000);
    expect(port.ofType('dh:describe')[0]).toMatchObject({ page: 1, frameId: 0, message: { ids: [3] } });
    expect(port.ofType('dh:prepare')[0].message).toMatchObject({ selector: "//*[@id='x3']", method: 'click', pointer: true });
    expect(mouse(port).map((p) => [p.type, p.x, p.y])).toEqual([
      ['mouseMoved', 5, 5],
      ['mousePressed', 5, 5],
      ['mouseReleased', 5, 5],
    ]);

    expect(r.result.data).toEqual({
      success: true,
      message: 'performed: click on Create account button',
      actionDescription: 'click create account',
      // What the element was goes with the action, so a replay can tell it is still there.
      actions: [
        {
          selector: "//*[@id='x3']",
          description: 'Create account button',
          method: 'click',
          arguments: [],
          target: { role: 'button', name: 'Create account', context: '', count: 1, alike: 1 },
        },
      ],
    });
  });

  it('tells the model fill replaces and type adds at the caret; a date named by description comes with the page date', async () => {
    const { model, deps } = setup([reply(actAnswer()), reply(actAnswer())]);
    await inferAct(deps, context(), 'type "3" into the Quantity field');
    expect(promptOf(model).system).toMatch(/fill: \[text\] replaces the field's whole value.*exactly text/);
    expect(promptOf(model).system).toMatch(/type: \[text\] presses the keys at the caret, after the text the field already holds/);
    expect(promptOf(model).user).not.toContain("Today's date");
    const asked: Record<string, unknown>[] = [];
    const port = new FakePort((call) => {
      asked.push(call.message);
      return call.message.type === 'dh:today' ? { today: '2024-05-15' } : defaultAnswer(call);
    });
    await inferAct({ ...deps, port }, context(), "enter today's date into the Delivery date field");
    expect(asked[0]).toEqual({ type: 'dh:today' });
    expect(promptOf(model, 1).user).toContain("Today's date on the page: 2024-05-15 (Wednesday).");
  });

  it('skips settling when domSettleTimeoutMs is 0', async () => {
    const { port, deps } = setup([reply(actAnswer())]);
    await inferAct(deps, context({ domSettleTimeoutMs: 0 }), 'click create account');
    expect(port.ofType('dh:settle')).toEqual([]);
    expect(mouse(port)).toHaveLength(3);
  });

  it('found=false: fails with the model reason and touches nothing', async () => {
    const { port, deps } = setup([reply(actAnswer({ found: false, elementId: '', reason: 'there is no newsletter checkbox' }))]);
    const r = await inferAct(deps, context(), 'tick the newsletter box');
    expect(r.result.data.success).toBe(false);
    expect(r.result.data.message).toContain('tick the newsletter box');
    expect(r.result.data.message).toContain('there is no newsletter checkbox');
    expect(r.result.data.actions).toEqual([]);
    expect(r.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(port.inputCalls).toEqual([]);
    expect(port.ofType('dh:prepare')).toEqual([]);
    expect(port.ofType('dh:describe')).toEqual([]);
  });

  it.each(['button-3', '#submit', '3', 'e', 'x3e4', "//*[@id='x3']"])('an elementId like %j is not a snapshot id: nothing is done', async (id) => {
    const { port, deps } = setup([reply(actAnswer({ elementId: id }))]);
    const r = await inferAct(deps, context(), 'click create account');
    expect(r.result.data.success).toBe(false);
    expect(r.result.data.message).toContain(`'${id}'`);
    expect(r.result.data.message).toContain('nothing was done');
    expect(r.result.data.actions).toEqual([]);
    expect(port.ofType('dh:describe')).toEqual([]);
    expect(port.ofType('dh:prepare')).toEqual([]);
    expect(port.inputCalls).toEqual([]);
  });

  it('an id of the right form that the page does not know: nothing is done', async () => {
    const { port, deps } = setup([reply(actAnswer({ elementId: 'e99' }))]);
    const r = await inferAct(deps, context(), 'click create account');
    expect(r.result.data.success).toBe(false);
    expect(r.result.data.message).toMatch(/'e99', which is not an element of the page snapshot/);
    expect(port.ofType('dh:describe')[0].message.ids).toEqual([99]);
    expect(port.ofType('dh:prepare')).toEqual([]);
    expect(port.inputCalls).toEqual([]);
  });

  it('variables: the model sees %name% and the description, never the value; the fill inserts the value', async () => {
    const { port, model, deps } = setup(
      [reply(actAnswer({ elementId: 'e2', method: 'fill', arguments: ['%email%'], description: 'Email field' }))],
      showingSecrets,
    );
    const r = await inferAct(
      deps,
      context({ variables: { email: { value: 'ada@secret.test', description: 'the account email address' }, pin: '98765' } }),
      'type %email% into the email field',
    );
    const { system, user } = promptOf(model);
    expect(user).toContain('Instruction: type %email% into the email field');
    expect(user).toContain('- %email%: the account email address');
    expect(user).toContain('- %pin%');
    // The page shows both values; the model reads their names in their place.
    expect(user).toContain('textbox "Email" value="%email%"');
    expect(user).toContain('Your PIN is %pin%');
    const everythingSent = JSON.stringify(model.doGenerateCalls);
    expect(everythingSent).not.toContain('ada@secret.test');
    expect(everythingSent).not.toContain('98765');
    expect(system + user).not.toContain('ada@secret.test');

    // The page gets the value; the reported action keeps the placeholder.
    expect(port.ofType('dh:prepare')[0].message).toMatchObject({ selector: "//*[@id='x2']", method: 'fill' });
    expect(port.ofType('dh:op')[0].message).toMatchObject({ op: 'focusSelect', args: ['ada@secret.test'] });
    expect(port.cdpCalls.filter((c) => c.method === 'Input.insertText').map((c) => c.params)).toEqual([{ text: 'ada@secret.test' }]);
    expect(r.result.data.success).toBe(true);
    expect(r.result.data.actions).toEqual([
      {
        selector: "//*[@id='x2']",
        description: 'Email field',
        method: 'fill',
        arguments: ['%email%'],
        target: { role: 'textbox', name: 'Email', context: '', count: 1, alike: 1 },
      },
    ]);
    expect(JSON.stringify(r.result)).not.toContain('ada@secret.test');
  });

  it('twoStep: a second snapshot and model call finish the instruction; usage is summed', async () => {
    const { port, model, deps } = setup([
      reply(actAnswer({ twoStep: true, description: 'Country dropdown' }), usage(100, 10)),
      reply(actAnswer({ elementId: 'e4', description: 'France option' }), usage(50, 7)),
    ]);
    const r = await inferAct(deps, context(), 'choose France');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(port.ofType('dh:snapshot')).toHaveLength(2);
    expect(promptOf(model, 0).user).not.toContain('Already done');
    expect(promptOf(model, 1).user).toContain('Already done for this instruction: click on Country dropdown');
    expect(r.usage).toMatchObject({ inputTokens: 150, outputTokens: 17 });
    expect(r.result.data.success).toBe(true);
    expect(r.result.data.actions.map((a) => a.selector)).toEqual(["//*[@id='x3']", "//*[@id='x4']"]);
    expect(r.result.data.message).toBe('performed: click on Country dropdown, then click on France option');
    expect(mouse(port).filter((p) => p.type === 'mousePressed')).toHaveLength(2);
  });

  it('an answer missing fields gets one retry that names the problem; usage counts both calls', async () => {
    const { port, model, deps } = setup([reply({ found: true }, usage(100, 3)), reply(actAnswer(), usage(110, 20))]);
    const r = await inferAct(deps, context(), 'click create account');
    expect(model.doGenerateCalls).toHaveLength(2);
    const first = promptOf(model, 0).user;
    const second = promptOf(model, 1).user;
    expect(first).not.toContain('previous answer');
    expect(second.startsWith(first)).toBe(true);
    expect(second).toContain('Your previous answer did not fit the schema');
    expect(second).toContain('elementId');
    expect(r.usage).toMatchObject({ inputTokens: 210, outputTokens: 23 });
    expect(r.result.data.success).toBe(true);
    expect(mouse(port)).toHaveLength(3);
  });

  it('an unknown method is a schema problem too, retried once', async () => {
    const { model, deps } = setup([reply(actAnswer({ method: 'smash' })), reply(actAnswer())]);
    const r = await inferAct(deps, context(), 'click create account');
    expect(promptOf(model, 1).user).toMatch(/did not fit the schema: method: /);
    expect(r.result.data.success).toBe(true);
  });

  it('two invalid answers: MODEL_OUTPUT_INVALID naming the model, nothing done', async () => {
    const { port, model, deps } = setup([reply({ found: true }), reply({ found: 'yes' })]);
    const e = await failure(inferAct(deps, context(), 'click create account'), 'MODEL_OUTPUT_INVALID', /model 'openai\/mock'/);
    expect(e.message).toContain('twice');
    expect(e.data).toMatchObject({ model: 'openai/mock' });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(port.ofType('dh:prepare')).toEqual([]);
    expect(port.inputCalls).toEqual([]);
  });

  it('text that is not JSON gets one retry saying the answer was not valid', async () => {
    const { model, deps } = setup([reply('Sure! I would click the button.'), reply(actAnswer())]);
    const r = await inferAct(deps, context(), 'click create account');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptOf(model, 1).user).toContain('Your previous answer was not valid');
    expect(r.result.data.success).toBe(true);
  });

  it('text that is not JSON twice: MODEL_OUTPUT_INVALID naming the model', async () => {
    const { port, model, deps } = setup([reply('no'), reply('still no')]);
    const e = await failure(inferAct(deps, context(), 'click create account'), 'MODEL_OUTPUT_INVALID', /model 'openai\/mock'/);
    expect(e.data).toMatchObject({ model: 'openai/mock' });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(port.inputCalls).toEqual([]);
  });

  it('a model that does not answer before the deadline: TIMEOUT naming the model, the request aborted', async () => {
    let aborted = false;
    const { port, deps } = setup(
      (o) =>
        new Promise<GenerateResult>((_, reject) => {
          o.abortSignal?.addEventListener('abort', () => {
            aborted = true;
            reject(o.abortSignal!.reason);
          });
        }),
    );
    const t0 = Date.now();
    const e = await failure(inferAct(deps, context({ timeoutMs: 50, domSettleTimeoutMs: 0 }), 'click create account'), 'TIMEOUT', /model 'openai\/mock'/);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(aborted).toBe(true);
    expect(e.message).toMatch(/did not answer within \d+ ms/);
    expect(e.data).toMatchObject({ model: 'openai/mock' });
    expect(port.inputCalls).toEqual([]);
  });

  it('a deadline already passed: TIMEOUT before any model call', async () => {
    const { model, port, deps } = setup([reply(actAnswer())]);
    const e = await failure(inferAct(deps, context({ timeoutMs: 50, deadline: Date.now() - 1 }), 'click create account'), 'TIMEOUT', /50 ms/);
    expect(e.data).toMatchObject({ timeoutMs: 50 });
    expect(model.doGenerateCalls).toEqual([]);
    expect(port.frameCalls).toEqual([]);
  });

  it('provider errors carry their code: HTTP 401 becomes MODEL_AUTH_FAILED', async () => {
    const { APICallError } = await import('ai');
    const { deps } = setup(async () => {
      throw new APICallError({ message: 'Incorrect API key provided', url: 'https://api.test/v1', requestBodyValues: {}, statusCode: 401 });
    });
    const said = /model 'openai\/mock' rejected the credentials \(HTTP 401 at POST [^)]+\)/;
    await failure(inferAct(deps, context(), 'click create account'), 'MODEL_AUTH_FAILED', said);
  });
});

describe('inferObserve', () => {
  it('maps ids to selectors and drops ids that are unknown or malformed', async () => {
    const { port, model, deps, logs } = setup(
      [
        reply({
          elements: [
            { elementId: 'e3', description: 'Create account button', method: 'click', arguments: [] },
            { elementId: ' e2 ', description: 'Email field', method: 'fill', arguments: ['%email%'] },
            { elementId: 'e99', description: 'ghost', method: 'click', arguments: [] },
            { elementId: 'submit-button', description: 'made up', method: 'click', arguments: [] },
          ],
        }),
      ],
      showingSecrets,
    );
    const r = await inferObserve(deps, context({ variables: { email: 'ada@secret.test' } }), 'find the form controls');

    expect(promptOf(model).system).toContain('You inspect a web page');
    expect(promptOf(model).user).toContain('Instruction: find the form controls');
    // The page shows the email's value; the model reads its name instead.
    expect(promptOf(model).user).toContain(SECRET_SNAPSHOT_TEXT.replace('ada@secret.test', '%email%'));
    expect(JSON.stringify(model.doGenerateCalls)).not.toContain('ada@secret.test');

    // Only ids of the snapshot's form are described.
    expect(port.ofType('dh:describe').map((c) => c.message.ids)).toEqual([[3, 2, 99]]);
    expect(r.data).toEqual([
      {
        selector: "//*[@id='x3']",
        description: 'Create account button',
        method: 'click',
        arguments: [],
        target: { role: 'button', name: 'Create account', context: '', count: 1, alike: 1 },
      },
      {
        selector: "//*[@id='x2']",
        description: 'Email field',
        method: 'fill',
        arguments: ['%email%'],
        target: { role: 'textbox', name: 'Email', context: '', count: 1, alike: 1 },
      },
    ]);
    const warnings = logs.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toContain("'e99'");
    expect(warnings.join('\n')).toContain("'submit-button'");
    expect(r.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    // Observe never acts.
    expect(port.inputCalls).toEqual([]);
    expect(port.ofType('dh:prepare')).toEqual([]);
  });

  it('without an instruction the prompt has no Instruction line', async () => {
    const { model, deps } = setup([reply({ elements: [] })]);
    const r = await inferObserve(deps, context());
    expect(promptOf(model).user).not.toContain('Instruction:');
    expect(promptOf(model).user).toContain(SNAPSHOT_TEXT);
    expect(r.data).toEqual([]);
  });

  it('ids in a child frame get the iframe path in front of their selector', async () => {
    const base = defaultAnswer;
    const { port, deps } = setup([reply({ elements: [{ elementId: 'f3e7', description: 'Pay button', method: 'click', arguments: [] }] })], (call) => {
      if (call.message.type === 'dh:frameSelector') return { selector: "//iframe[@id='pay']" };
      if (call.message.type === 'dh:describe' && call.frameId === 3)
        return (call.message.ids as number[]).map((n) => ({ id: n, selector: `//button[${n}]`, role: 'button', name: 'Pay' }));
      return base(call);
    });
    port.frameList = [
      { frameId: 0, parentFrameId: -1, url: 'http://site.test/form' },
      { frameId: 3, parentFrameId: 0, url: 'http://pay.test/checkout' },
    ];
    const r = await inferObserve(deps, context(), 'find the pay button');
    expect(port.ofType('dh:describe')).toEqual([expect.objectContaining({ frameId: 3, message: { type: 'dh:describe', ids: [7], context: true } })]);
    expect(port.ofType('dh:frameSelector')).toEqual([expect.objectContaining({ frameId: 0, message: { type: 'dh:frameSelector', frameId: 3 } })]);
    expect(r.data).toEqual([{ selector: "//iframe[@id='pay']//button[7]", description: 'Pay button', method: 'click', arguments: [] }]);
  });

  it('a bad answer twice: MODEL_OUTPUT_INVALID naming the model', async () => {
    const { deps, model } = setup([reply({ elements: [{ elementId: 'e3' }] }), reply({ items: [] })]);
    await failure(inferObserve(deps, context(), 'find buttons'), 'MODEL_OUTPUT_INVALID', /model 'openai\/mock' answered observe/);
    expect(promptOf(model, 1).user).toContain('Your previous answer did not fit the schema: elements.0.');
  });

  it('a model that hangs past the deadline: TIMEOUT naming the model', async () => {
    const { deps } = setup(
      (o) =>
        new Promise<GenerateResult>((_, reject) => {
          o.abortSignal?.addEventListener('abort', () => reject(o.abortSignal!.reason));
        }),
    );
    await failure(
      inferObserve(deps, context({ timeoutMs: 50, domSettleTimeoutMs: 0 }), 'find buttons'),
      'TIMEOUT',
      /model 'openai\/mock' did not answer within/,
    );
  });
});

describe('inferExtract', () => {
  const PAGE_SCHEMA = {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'docsUrl'],
    properties: { title: { type: 'string' }, docsUrl: { type: 'string' } },
  };

  it('validates against a JSON Schema object, retries on a mismatch, and turns an element id for a URL into an absolute URL', async () => {
    const { model, deps } = setup([reply({ title: 42 }, usage(200, 9)), reply({ title: 'Sign up', docsUrl: 'e4' }, usage(210, 11))]);
    const r = await inferExtract(deps, context(), 'get the title and the docs link', PAGE_SCHEMA);
    expect(schemaSeenBy(model)).toEqual(PAGE_SCHEMA);
    expect(promptOf(model).system).toContain('You extract data from a web page');
    expect(promptOf(model).user).toContain('Instruction: get the title and the docs link');
    expect(promptOf(model).user).toContain(SNAPSHOT_TEXT);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptOf(model, 1).user).toContain('Your previous answer did not fit the schema');
    expect(promptOf(model, 1).user).toContain('title');
    expect(r.data).toEqual({ title: 'Sign up', docsUrl: 'http://site.test/docs' });
    expect(r.usage).toMatchObject({ inputTokens: 410, outputTokens: 20 });
  });

  it('two answers that do not fit the schema: MODEL_OUTPUT_INVALID naming the model', async () => {
    const { deps } = setup([reply({ title: 42 }), reply({ title: 'x', docsUrl: 'y', extra: 1 })]);
    const e = await failure(inferExtract(deps, context(), 'get the title', PAGE_SCHEMA), 'MODEL_OUTPUT_INVALID', /model 'openai\/mock' answered extract/);
    expect(e.data).toMatchObject({ model: 'openai/mock' });
  });

  it('wraps a non-object schema for the provider and unwraps the answer', async () => {
    const listSchema = { type: 'array', items: { type: 'string' } };
    const { model, deps } = setup([reply({ value: ['Sign up', 'Create account'] })]);
    const r = await inferExtract(deps, context(), 'list the visible labels', listSchema);
    expect(schemaSeenBy(model)).toEqual({ type: 'object', additionalProperties: false, required: ['value'], properties: { value: listSchema } });
    expect(r.data).toEqual(['Sign up', 'Create account']);
  });

  it('a wrapped answer of the wrong type is retried', async () => {
    const { model, deps } = setup([reply({ value: 'Sign up' }), reply({ value: ['Sign up'] })]);
    const r = await inferExtract(deps, context(), 'list the labels', { type: 'array', items: { type: 'string' } });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptOf(model, 1).user).toContain('did not fit the schema');
    expect(r.data).toEqual(['Sign up']);
  });

  it('url-like fields: ids and relative paths become absolute URLs based on the page URL; other fields are left alone', async () => {
    const schema = {
      type: 'object',
      properties: {
        links: { type: 'array', items: { type: 'string' } },
        homepage: { type: 'string' },
        label: { type: 'string' },
        website: { type: 'string' },
        imageHref: { type: 'string' },
      },
    };
    const { model, deps } = setup([
      reply({
        links: ['e4', '/about', './terms', '../up', '?q=1', 'https://other.test/a', 'e3'],
        homepage: 'e4',
        label: 'e4',
        website: 'not available',
        imageHref: '',
      }),
    ]);
    const r = await inferExtract(deps, context(), 'get the links', schema);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(r.data).toEqual({
      // e3 is a button: it has no href, so it is left as the model wrote it.
      links: [
        'http://site.test/docs',
        'http://site.test/about',
        'http://site.test/terms',
        'http://site.test/up',
        'http://site.test/form?q=1',
        'https://other.test/a',
        'e3',
      ],
      homepage: 'http://site.test/docs',
      label: 'e4',
      website: 'not available',
      imageHref: '',
    });
  });

  it('a format: uri field with an absolute URL passes validation and is kept', async () => {
    const { model, deps } = setup([reply({ docs: 'https://docs.test/start' })]);
    const r = await inferExtract(deps, context(), 'docs link', { type: 'object', required: ['docs'], properties: { docs: { type: 'string', format: 'uri' } } });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(r.data).toEqual({ docs: 'https://docs.test/start' });
  });

  // BUG: the answer is validated against the schema BEFORE fixUrls turns ids and relative hrefs
  // into absolute URLs. A field with format: 'uri' (what the client sends for zod's
  // z.string().url()) rejects '/docs', which is exactly what the extract system prompt tells the
  // model to give ("the href shown in the outline"), so both attempts fail and extract throws
  // MODEL_OUTPUT_INVALID instead of returning http://site.test/docs. fixUrls' own handling of
  // format 'uri' / 'url' can never be reached with a relative value.
  it('a zod z.string().url() field accepts the href from the outline and returns it absolute', async () => {
    const { zodSchema } = await import('ai');
    const { z } = await import('zod');
    const schema = zodSchema(z.object({ docs: z.string().url() })).jsonSchema as Record<string, unknown>;
    expect(schema).toMatchObject({ properties: { docs: { format: 'uri' } } });
    const { deps } = setup([reply({ docs: '/docs' }), reply({ docs: '/docs' })]);
    const r = await inferExtract(deps, context(), 'the docs link', schema);
    expect(r.data).toEqual({ docs: 'http://site.test/docs' });
  });

  it('without a schema asks for { extraction } and returns it', async () => {
    const { model, deps } = setup([reply({ extraction: 'Sign up for an account' })]);
    const r = await inferExtract(deps, context(), 'what is the heading', undefined);
    expect(schemaSeenBy(model)).toEqual(TEXT_EXTRACTION_SCHEMA);
    expect(r.data).toEqual({ extraction: 'Sign up for an account' });
  });

  it('with screenshot: the first call carries the page screenshot', async () => {
    const { port, model, deps } = setup([reply({ extraction: 'x' })]);
    await inferExtract(deps, context({ screenshot: true }), 'what is shown', undefined);
    expect(port.cdpCalls.filter((c) => c.method === 'Page.captureScreenshot')).toHaveLength(1);
    const { images } = promptOf(model);
    expect(images).toHaveLength(1);
    expect(images[0].mediaType).toBe('image/jpeg');
  });

  it('a folded page is read whole and extracted chunk by chunk; answers are merged', async () => {
    const bigText = Array.from({ length: 1200 }, (_, i) => `[e${i + 10}] listitem "Item number ${i} ${'x'.repeat(60)}"`).join('\n');
    const { port, model, deps } = setup([reply({ items: ['a'], title: 'Shop' }), reply({ items: ['b', 'c'], title: '' })], (call) => {
      if (call.message.type === 'dh:snapshot') {
        return call.message.budget === 50_000_000 ? { ...SNAPSHOT, text: bigText, folded: false } : { ...SNAPSHOT, folded: true };
      }
      return defaultAnswer(call);
    });
    const r = await inferExtract(deps, context(), 'list the items', {
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'string' } }, title: { type: 'string' } },
    });
    expect(port.ofType('dh:snapshot').map((c) => c.message.budget)).toEqual([24_000, 50_000_000]);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptOf(model, 0).user).toContain('(This is part 1 of 2 of the page.)');
    expect(promptOf(model, 1).user).toContain('(This is part 2 of 2 of the page.)');
    // Every line of the page went to exactly one chunk.
    const sent = [0, 1].map((i) => promptOf(model, i).user);
    expect(sent[0]).toContain('Item number 0 ');
    expect(sent[1]).toContain('Item number 1199 ');
    expect(sent[0]).not.toContain('Item number 1199 ');
    expect(r.data).toEqual({ items: ['a', 'b', 'c'], title: 'Shop' });
  });

  it('a page too large for eight chunks is refused before any model call', async () => {
    const line = `[e1] paragraph "${'y'.repeat(990)}"`;
    const huge = Array.from({ length: 700 }, () => line).join('\n'); // ~700 kB: 10 chunks
    const { model, deps } = setup([reply({ extraction: 'x' })], (call) =>
      call.message.type === 'dh:snapshot'
        ? { ...SNAPSHOT, text: call.message.budget === 50_000_000 ? huge : SNAPSHOT_TEXT, folded: true }
        : defaultAnswer(call),
    );
    await failure(inferExtract(deps, context(), 'everything', undefined), 'INVALID_ARGUMENT', /too large to extract from in 8 model calls/);
    expect(model.doGenerateCalls).toEqual([]);
  });

  it('a model that hangs past the deadline: TIMEOUT naming the model', async () => {
    const { deps } = setup(
      (o) =>
        new Promise<GenerateResult>((_, reject) => {
          o.abortSignal?.addEventListener('abort', () => reject(o.abortSignal!.reason));
        }),
    );
    await failure(
      inferExtract(deps, context({ timeoutMs: 50, domSettleTimeoutMs: 0 }), 'title', undefined),
      'TIMEOUT',
      /model 'openai\/mock' did not answer within/,
    );
  });

  // BUG: a child frame's snapshot shortens its same-origin links to a path (walker.ts shortUrl
  // compares with the frame's own origin), but fixUrls resolves every href against the TOP
  // page's URL. A link inside a cross-origin iframe (http://pay.test) shown as `href=/pay`
  // comes back as http://site.test/pay, a URL that does not exist on the page.
  // Child frames print absolute hrefs (only the top frame shortens to paths; see walker.ts),
  // so a link inside a cross-origin iframe keeps its own origin.
  it("keeps a link inside a cross-origin iframe on that frame's origin", async () => {
    const childText = '[f3e1] link "Pay now" href=http://pay.test/pay';
    const topText = `${SNAPSHOT_TEXT}\n[e5] iframe "Payment"\n  ${childText}`;
    const { port, deps } = setup([reply({ payUrl: 'f3e1' })], (call) => {
      if (call.message.type === 'dh:snapshot') {
        if (call.frameId === 3) return { text: childText, tokens: 5, folded: false, iframes: 0, url: 'http://pay.test/checkout' };
        return { ...SNAPSHOT, text: topText, iframes: 1 };
      }
      return defaultAnswer(call);
    });
    port.frameList = [
      { frameId: 0, parentFrameId: -1, url: 'http://site.test/form' },
      { frameId: 3, parentFrameId: 0, url: 'http://pay.test/checkout' },
    ];
    const r = await inferExtract(deps, context(), 'the pay link', { type: 'object', properties: { payUrl: { type: 'string' } } });
    expect(r.data).toEqual({ payUrl: 'http://pay.test/pay' });
  });
});

describe('substitute', () => {
  const vars = { email: { value: 'ada@example.test' }, price: { value: '$& 5' }, 'first-name': { value: 'Ada' }, empty: { value: '' } };

  it('replaces known %names% anywhere in each argument', () => {
    expect(substitute(['%email%', 'to: %email%, %first-name%!', '%empty%|'], vars)).toEqual(['ada@example.test', 'to: ada@example.test, Ada!', '|']);
  });

  it('inserts values literally (no $-patterns of String.replace)', () => {
    expect(substitute(['cost %price%'], vars)).toEqual(['cost $& 5']);
  });

  it('leaves unknown names, lone percent signs and plain text alone', () => {
    expect(substitute(['%password%', '50%', '100% %email', 'plain', '%%'], vars)).toEqual(['%password%', '50%', '100% %email', 'plain', '%%']);
    expect(substitute([], vars)).toEqual([]);
  });

  it('does not substitute recursively', () => {
    expect(substitute(['%a%'], { a: { value: '%b%' }, b: { value: 'no' } })).toEqual(['%b%']);
  });

  // BUG: substitute checks `name in vars`, which is true for Object.prototype members, so an
  // unknown placeholder such as %constructor% or %toString% is replaced by the string
  // "undefined" instead of being left alone (fill would type "undefined" into the field).
  it('leaves %constructor% and %toString% alone when no such variable exists', () => {
    expect(substitute(['%constructor%', 'x %toString% y'], { email: { value: 'a' } })).toEqual(['%constructor%', 'x %toString% y']);
  });
});

describe('mergeExtracted', () => {
  it('concatenates arrays', () => {
    expect(mergeExtracted([1, 2], [3])).toEqual([1, 2, 3]);
    expect(mergeExtracted([], ['a'])).toEqual(['a']);
  });

  it('merges objects recursively, keeping keys from both sides', () => {
    expect(
      mergeExtracted({ items: [{ n: 1 }], meta: { page: 1, total: null }, onlyA: true }, { items: [{ n: 2 }], meta: { total: 40, extra: 'x' }, onlyB: 0 }),
    ).toEqual({ items: [{ n: 1 }, { n: 2 }], meta: { page: 1, total: 40, extra: 'x' }, onlyA: true, onlyB: 0 });
  });

  it('the first non-empty scalar wins', () => {
    expect(mergeExtracted(5, 7)).toBe(5);
    expect(mergeExtracted(0, 7)).toBe(0);
    expect(mergeExtracted(false, true)).toBe(false);
    expect(mergeExtracted(null, 7)).toBe(7);
    expect(mergeExtracted(undefined, 'b')).toBe('b');
    expect(mergeExtracted('', 'b')).toBe('b');
    expect(mergeExtracted('a', '')).toBe('a');
    expect(mergeExtracted('a', null)).toBe('a');
    expect(mergeExtracted({ price: null }, { price: 9.5 })).toEqual({ price: 9.5 });
  });

  it('strings: a blank first value gives way; a repeated or contained second value is not added twice', () => {
    expect(mergeExtracted('   ', 'b')).toBe('b');
    expect(mergeExtracted('Shop', 'Shop')).toBe('Shop');
    expect(mergeExtracted('Big Shop', 'Shop')).toBe('Big Shop');
  });

  // The doc comment says "the first non-empty scalar wins", but two different non-empty strings
  // are joined with a newline (useful for { extraction } text split over chunks).
  it('strings: two different non-empty strings are joined with a newline', () => {
    expect(mergeExtracted('first part', 'second part')).toBe('first part\nsecond part');
    expect(mergeExtracted({ extraction: 'a' }, { extraction: 'b' })).toEqual({ extraction: 'a\nb' });
  });

  it('does not mutate its inputs', () => {
    const a = { list: [1], o: { k: 1 } };
    const b = { list: [2], o: { j: 2 } };
    mergeExtracted(a, b);
    expect(a).toEqual({ list: [1], o: { k: 1 } });
    expect(b).toEqual({ list: [2], o: { j: 2 } });
  });
});

describe("model requests carry the prompt's parts as data", () => {
  const LINES: OutlineLine[] = [
    { depth: 0, kind: 'element', id: 'e1', role: 'heading', name: 'Sign up', states: { level: '1' } },
    { depth: 0, kind: 'element', id: 'e2', role: 'textbox', name: 'Email', states: { value: 'ada@secret.test' } },
    { depth: 0, kind: 'element', id: 'e3', role: 'button', name: 'Create account', states: {} },
    { depth: 0, kind: 'element', id: 'e4', role: 'link', name: 'Docs', states: { href: '/docs' } },
  ];
  const withLines: Answer = (call) => (call.message.type === 'dh:snapshot' ? { ...SNAPSHOT, lines: LINES } : defaultAnswer(call));
  const CALLBACK: ResolvedModel = { kind: 'callback', name: 'mine', callbackId: 'cb1' };
  const LOCAL: ResolvedModel = { kind: 'local', name: 'deckhand/local' };

  function callbackSetup(answers: unknown[], portAnswer: Answer = withLines) {
    const { port, deps } = setup([], portAnswer);
    const requests: ModelRequest[] = [];
    deps.invokeCallback = async (_id, request) => {
      requests.push(request);
      return { object: answers[requests.length - 1] };
    };
    return { port, deps, requests };
  }

  it('a callback model gets the instruction, the outline lines (values masked as in the prompt) and, on a second step, what was done', async () => {
    const { port, deps, requests } = callbackSetup([
      actAnswer({ twoStep: true, description: 'Country dropdown' }),
      actAnswer({ elementId: 'e4', description: 'Docs link' }),
    ]);
    await inferAct(deps, context({ model: CALLBACK, variables: { email: 'ada@secret.test' } }), 'choose France');
    // The snapshot was asked for its lines, and for the rows the instruction names.
    expect(port.ofType('dh:snapshot')[0].message).toMatchObject({ lines: true, focus: 'choose France', budget: 12_000 });
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ instruction: 'choose France', outline: [LINES[0], { ...LINES[1], states: { value: '%email%' } }, LINES[2], LINES[3]] });
    expect(requests[0].prompt).toContain('Instruction: choose France');
    expect(requests[0].alreadyDone).toBeUndefined();
    expect(requests[1].alreadyDone).toBe('click on Country dropdown');
    expect(JSON.stringify(requests)).not.toContain('ada@secret.test');
  });

  it('a provider model reads only the text: the snapshot is not asked for lines', async () => {
    const { port, deps } = setup([reply(actAnswer())]);
    await inferAct(deps, context(), 'click create account');
    expect(port.ofType('dh:snapshot')[0].message.lines).toBeUndefined();
    expect(port.ofType('dh:snapshot')[0].message.focus).toBe('click create account');
  });

  it('the local model reads the lines, not the prompt, of a narrow view first; a view that folded nothing is the whole page', async () => {
    // The text says nothing the local model could use: only the lines name the button.
    const { port, deps } = setup([], (call) =>
      call.message.type === 'dh:snapshot' ? { ...SNAPSHOT, text: '(text the local model ignores)', lines: LINES } : defaultAnswer(call),
    );
    const r = await inferAct(deps, context({ model: LOCAL }), 'click create account');
    expect(port.ofType('dh:snapshot').map((c) => c.message)).toMatchObject([{ budget: 3000, lines: true, focus: 'click create account' }]);
    expect(r.result.data.success).toBe(true);
    expect(r.result.data.actions[0].selector).toBe("//*[@id='x3']");
  });

  it('what the local model cannot find in a folded narrow view, it looks for in the whole page; a refusal there stands', async () => {
    // Folded away: everything the words could name ("Sign up" would pass for "create account").
    const narrowLines = LINES.filter((l) => l.id === 'e4');
    const answers =
      (found: boolean): Answer =>
      (call) => {
        if (call.message.type !== 'dh:snapshot') return defaultAnswer(call);
        if (call.message.budget === 3000)
          return { ...SNAPSHOT, folded: true, lines: [...narrowLines, { depth: 0, kind: 'summary', text: '9 lines omitted', states: {} }] };
        return { ...SNAPSHOT, lines: found ? LINES : narrowLines };
      };
    const wide = setup([], answers(true));
    const r = await inferAct(wide.deps, context({ model: LOCAL }), 'click create account');
    expect(wide.port.ofType('dh:snapshot').map((c) => c.message.budget)).toEqual([3000, 12_000]);
    expect(r.result.data.actions[0].selector).toBe("//*[@id='x3']");

    const none = setup([], answers(false));
    const refused = await inferAct(none.deps, context({ model: LOCAL }), 'click create account');
    expect(none.port.ofType('dh:snapshot').map((c) => c.message.budget)).toEqual([3000, 12_000]);
    expect(refused.result.data.success).toBe(false);
    expect(none.port.ofType('dh:op')).toHaveLength(0);
  });

  it('extract: the local model reads the whole page in one piece; chunks of a folded page carry their own lines', async () => {
    const local = setup([], withLines);
    await inferExtract(local.deps, context({ model: LOCAL }), 'get the heading', { type: 'object', properties: { heading: { type: 'string' } } });
    expect(local.port.ofType('dh:snapshot').map((c) => c.message.budget)).toEqual([50_000_000]);

    const bigLines: OutlineLine[] = Array.from({ length: 1200 }, (_, i) => ({
      depth: 0,
      kind: 'element',
      id: `e${i + 10}`,
      role: 'listitem',
      name: `Item number ${i} ${'x'.repeat(60)}`,
      states: {},
    }));
    const bigText = bigLines.map((l) => `[${l.id}] listitem ${JSON.stringify(l.name)}`).join('\n');
    const { requests, deps } = callbackSetup([{ items: ['a'] }, { items: ['b'] }], (call) => {
      if (call.message.type === 'dh:snapshot')
        return call.message.budget === 50_000_000
          ? { ...SNAPSHOT, text: bigText, lines: bigLines, folded: false }
          : { ...SNAPSHOT, lines: LINES, folded: true };
      return defaultAnswer(call);
    });
    await inferExtract(deps, context({ model: CALLBACK }), 'list the items', {
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'string' } } },
    });
    expect(requests).toHaveLength(2);
    for (const r of requests) {
      const outline = r.prompt
        .slice(r.prompt.indexOf('Page outline:\n') + 14)
        .split('\n\n(This is part')[0]
        .split('\n');
      expect(r.outline!.map((l) => `[${l.id}] listitem ${JSON.stringify(l.name)}`)).toEqual(outline);
    }
    expect(requests[0].outline!.length + requests[1].outline!.length).toBe(1200);
  });
});
