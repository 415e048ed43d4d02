/**
 * The shared test vectors (test/vectors/*.json), which the Python (and later Go) clients'
 * tests read too: the same high-level call sends byte-for-byte the same frame from every
 * client, answers are read the same way, and the worker's calls to a client are answered
 * with the same bytes. Here the Node client runs them against a fake link that records
 * frames and answers with the vector's answer.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHandle } from '../../src/client/browser';
import { Deckhand } from '../../src/client/deckhand';
import { type ClientHandler, type ClientMethodName, type WorkerLink } from '../../src/client/link';
import { DeckhandError } from '../../src/protocol/errors';
import { ClientMethods, Methods, type MethodName, type Params } from '../../src/protocol/methods';
import { RpcPeer } from '../../src/protocol/rpc';

const dir = fileURLToPath(new URL('../vectors/', import.meta.url));
const read = (name: string) => JSON.parse(readFileSync(dir + name, 'utf8'));
const calls = read('calls.json') as { cases: Case[] };
const errors = read('errors.json') as {
  received: { name: string; error: { code: string; message: string; data?: Record<string, unknown> }; code: string }[];
  invalidAnswers: { name: string; call: Call; answer: unknown; code: string }[];
  rejected: { name: string; create?: Record<string, unknown>; call?: Call; code: string }[];
};
const clientCalls = read('client-calls.json') as {
  generate: unknown;
  cases: { name: string; create: Record<string, unknown>; exchanges: [string, string][] }[];
};

interface Call {
  on: 'deckhand' | 'page' | 'locator' | 'context' | 'agent' | 'flows';
  method: string;
  args: unknown[];
  options?: Record<string, unknown>;
  locator?: { selector: string; nth?: number };
  agent?: Record<string, unknown>;
  function?: boolean;
}
interface Case {
  name: string;
  create?: Record<string, unknown>;
  call: Call;
  frame: string;
  answer: unknown;
  checks?: Record<string, unknown>;
}

/** A link to no worker: records each frame and answers it with what the vector says. */
class FakeLink implements WorkerLink {
  readonly extensionId = 'fake';
  readonly isConnected = true;
  frames: string[] = [];
  replies: string[] = [];
  answer: unknown = null;
  error: unknown = null;
  readonly peer: RpcPeer = new RpcPeer((raw, id) => {
    if (id === undefined) {
      this.replies.push(raw);
      return;
    }
    const { method } = JSON.parse(raw) as { method: string };
    if (method !== 'engine.ping') this.frames.push(raw);
    const reply =
      method === 'engine.ping'
        ? { kind: 'res', id, result: { version: '0.1.0', extensionId: 'fake' } }
        : this.error
          ? { kind: 'err', id, error: this.error }
          : { kind: 'res', id, result: this.answer };
    queueMicrotask(() => this.peer.receive(JSON.stringify(reply)));
  }, 'fake worker');
  call<M extends MethodName>(method: M, params: Params<M>) {
    return this.peer.call(Methods, method, params);
  }
  serve<M extends ClientMethodName>(method: M, handler: ClientHandler<M>): void {
    this.peer.serve(ClientMethods, method, handler);
  }

  hold<T>(p: Promise<T>): Promise<T> {
    return this.peer.hold(p);
  }
  async close(): Promise<void> {}
}

function createOptions(o: Record<string, unknown> = {}): Record<string, unknown> {
  const out = { ...o };
  const m = out.model as Record<string, unknown> | undefined;
  if (m && typeof m === 'object' && m.callback === 'generate') {
    const { callback: _c, ...rest } = m;
    const generate = () => clientCalls.generate as never;
    out.model = Object.keys(rest).length ? { callback: generate, ...rest } : generate;
  }
  return out;
}

async function setup(create?: Record<string, unknown>) {
  const link = new FakeLink();
  const browser = new BrowserHandle(link, null, null, null);
  const dh = await Deckhand.create({ browser, ...(createOptions(create) as object) });
  return { link, browser, dh };
}

/** Run a vector's call with the Node client's own API. */
async function run(dh: Deckhand, browser: BrowserHandle, c: Call): Promise<unknown> {
  const opts = c.options ? [c.options] : [];
  const args = c.function ? [(0, eval)(`(${c.args[0] as string})`), ...c.args.slice(1)] : c.args;
  const page = browser.context.page(7);
  switch (c.on) {
    case 'deckhand': {
      const arity: Record<string, number> = { act: 1, observe: 1, extract: 2, metrics: 0, experimentalBatch: 2 };
      const padded = c.options ? [...args, ...Array(Math.max(0, arity[c.method] - args.length)).fill(undefined), c.options] : args;
      return (dh as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method](...padded);
    }
    case 'page':
      return (page as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method](...args, ...opts);
    case 'locator': {
      let l = page.locator(c.locator!.selector);
      if (c.locator!.nth !== undefined) l = l.nth(c.locator!.nth);
      return (l as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method](...args, ...opts);
    }
    case 'context':
      return (browser.context as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method](...args, ...opts);
    case 'agent':
      return dh.agent(c.agent as never).execute(args[0] as never);
    case 'flows':
      return (dh.flows as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method](...args, ...opts);
  }
}

/** The frame with the run's request id, operation id and callback id put back as placeholders. */
function normalise(frame: string): string {
  return frame
    .replace(/^\{"kind":"req","id":\d+,/, '{"kind":"req","id":%ID%,')
    .replace(/"opId":"[0-9a-f-]{36}"/g, '"opId":"%OPID%"')
    .replace(/"callbackId":"[0-9a-f-]{36}"/g, '"callbackId":"%CALLBACK%"');
}

const at = (value: unknown, path: string): unknown =>
  path === '' ? value : path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);

const failure = async (f: () => Promise<unknown> | unknown) => {
  try {
    await f();
  } catch (e) {
    return e as DeckhandError;
  }
  throw new Error('expected a failure');
};

const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  // The vectors assume no provider key in the environment (the default model is the local one).
  for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY']) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
});

describe('test/vectors/calls.json: the frame each call sends, and what its answer reads as', () => {
  for (const c of calls.cases) {
    it(c.name, async () => {
      const { link, browser, dh } = await setup(c.create);
      link.answer = c.answer;
      const value = await run(dh, browser, c.call);
      expect(link.frames.map(normalise)).toEqual([c.frame]);
      for (const [path, expected] of Object.entries(c.checks ?? {})) {
        const got = at(value, path);
        if (expected === null) expect(got ?? null, path).toBeNull();
        else expect(got, path).toEqual(expected);
      }
    });
  }
});

describe('test/vectors/errors.json', () => {
  for (const e of errors.received) {
    it(`received: ${e.name}`, async () => {
      const { link, dh } = await setup();
      link.error = e.error;
      const err = await failure(() => dh.metrics());
      expect(err).toBeInstanceOf(DeckhandError);
      expect(err.code).toBe(e.code);
      expect(err.message).toBe(e.error.message);
      if (e.error.data) expect(err.data).toEqual(e.error.data);
    });
  }
  for (const e of errors.invalidAnswers) {
    it(`an answer that does not fit: ${e.name}`, async () => {
      const { link, browser, dh } = await setup();
      link.answer = e.answer;
      expect((await failure(() => run(dh, browser, e.call))).code).toBe(e.code);
    });
  }
  for (const e of errors.rejected) {
    it(`rejected before sending: ${e.name}`, async () => {
      const link = new FakeLink();
      const browser = new BrowserHandle(link, null, null, null);
      const err = await failure(async () => {
        const dh = await Deckhand.create({ browser, ...(createOptions(e.create) as object) });
        await run(dh, browser, e.call!);
      });
      expect(err).toBeInstanceOf(DeckhandError);
      expect(err.code, err.message).toBe(e.code);
      expect(link.frames).toEqual([]);
    });
  }
});

describe('test/vectors/client-calls.json: the worker calls the client', () => {
  for (const c of clientCalls.cases) {
    it(c.name, async () => {
      const { link, browser, dh } = await setup(c.create);
      let callbackId = '';
      if (JSON.stringify(c.exchanges).includes('%CALLBACK%')) {
        // Learn the id this client gave its callback from the frame of one call that uses it.
        link.answer = calls.cases[0].answer;
        await dh.act('click the Multi button');
        callbackId = /"callbackId":"([^"]+)"/.exec(link.frames.at(-1)!)![1];
      }
      for (const [incoming, reply] of c.exchanges) {
        link.replies.length = 0;
        link.peer.receive(incoming.replace('%CALLBACK%', callbackId));
        await expect.poll(() => link.replies.length).toBe(1);
        expect(link.replies[0]).toBe(reply);
      }
      void browser;
    });
  }
});
