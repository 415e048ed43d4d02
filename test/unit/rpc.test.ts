/** The symmetric RPC peer, wired to a twin through an asynchronous fake transport. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeckhandError, ErrorCode } from '../../src/protocol/errors';
import { RpcPeer } from '../../src/protocol/rpc';
import { answerWithin, DEADLINE_MARGIN_MS } from '../../src/protocol/methods';
import { DEFAULTS } from '../../src/protocol/schemas';

/** Two peers: node's messages arrive at the worker on a microtask, the worker's at node on a macrotask. */
function pair() {
  const sent = { node: [] as string[], worker: [] as string[] };
  let node!: RpcPeer;
  let worker!: RpcPeer;
  node = new RpcPeer((m) => {
    sent.node.push(m);
    queueMicrotask(() => worker.receive(m));
  }, 'worker');
  worker = new RpcPeer((m) => {
    sent.worker.push(m);
    setTimeout(() => node.receive(m), 0);
  }, 'node');
  return { node, worker, sent };
}

/** A peer whose outgoing messages are only recorded (the far side never answers by itself). */
function lonely(label = 'worker') {
  const out: { message: Record<string, unknown>; requestId?: number }[] = [];
  const peer = new RpcPeer((m, requestId) => {
    out.push({ message: JSON.parse(m), requestId });
  }, label);
  return { peer, out };
}

async function rejection(p: Promise<unknown>): Promise<DeckhandError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DeckhandError);
  return e as DeckhandError;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RpcPeer request/response', () => {
  it('answers a request with the handler result', async () => {
    const { node, worker } = pair();
    worker.handle('add', (p) => {
      const { a, b } = p as { a: number; b: number };
      return a + b;
    });
    await expect(node.request('add', { a: 2, b: 3 }, 1000)).resolves.toBe(5);
    expect(node.inFlight).toBe(0);
  });

  it('works in both directions at once, with async handlers', async () => {
    const { node, worker } = pair();
    worker.handle('echo', async (p) => ({ from: 'worker', p }));
    node.handle('echo', async (p) => {
      await new Promise((r) => setTimeout(r, 5));
      return { from: 'node', p };
    });
    const [a, b, c] = await Promise.all([node.request('echo', 1, 1000), worker.request('echo', 2, 1000), node.request('echo', { deep: [3] }, 1000)]);
    expect(a).toEqual({ from: 'worker', p: 1 });
    expect(b).toEqual({ from: 'node', p: 2 });
    expect(c).toEqual({ from: 'worker', p: { deep: [3] } });
  });

  it('matches replies to requests by id even when they come back out of order', async () => {
    const { node, worker } = pair();
    worker.handle('wait', (p) => new Promise((r) => setTimeout(() => r(p), p as number)));
    const results: number[] = [];
    await Promise.all([30, 1, 15].map(async (ms) => results.push((await node.request('wait', ms, 1000)) as number)));
    expect(results).toEqual([1, 15, 30]);
  });

  it('sends null for a handler that returns nothing', async () => {
    const { node, worker } = pair();
    worker.handle('noop', () => undefined);
    await expect(node.request('noop', {}, 1000)).resolves.toBeNull();
  });

  it('gives each request a new id and passes it to the transport; replies carry none', async () => {
    const { peer, out } = lonely();
    void peer.request('a', 1, 1000).catch(() => undefined);
    void peer.request('b', 2, 1000).catch(() => undefined);
    expect(out.map((o) => o.message)).toEqual([
      { kind: 'req', id: 1, method: 'a', params: 1 },
      { kind: 'req', id: 2, method: 'b', params: 2 },
    ]);
    expect(out.map((o) => o.requestId)).toEqual([1, 2]);
    peer.handle('x', () => 'ok');
    peer.receive(JSON.stringify({ kind: 'req', id: 77, method: 'x', params: null }));
    await vi.waitFor(() => expect(out).toHaveLength(3));
    expect(out[2]).toEqual({ message: { kind: 'res', id: 77, result: 'ok' }, requestId: undefined });
    peer.failAll(new DeckhandError(ErrorCode.Closed, 'done'));
  });
});

describe('RpcPeer errors', () => {
  it('rebuilds a handler DeckhandError on the caller side with code, message and data', async () => {
    const { node, worker } = pair();
    worker.handle('find', () => {
      throw new DeckhandError(ErrorCode.ElementNotFound, "no element matches '#x'", { selector: '#x' });
    });
    const e = await rejection(node.request('find', {}, 1000));
    expect(e.code).toBe('ELEMENT_NOT_FOUND');
    expect(e.message).toBe("no element matches '#x'");
    expect(e.data).toEqual({ selector: '#x' });
  });

  it('reports a plain thrown Error (or async rejection) as INTERNAL with its message', async () => {
    const { node, worker } = pair();
    worker.handle('boom', async () => {
      throw new TypeError('x is not a function');
    });
    const e = await rejection(node.request('boom', {}, 1000));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toBe('x is not a function');
  });

  it('answers an unknown method with PROTOCOL_ERROR naming it', async () => {
    const { node } = pair();
    const e = await rejection(node.request('nope.nothing', {}, 1000));
    expect(e.code).toBe('PROTOCOL_ERROR');
    expect(e.message).toContain("'nope.nothing'");
  });

  it('turns an unknown error code from the wire into INTERNAL', async () => {
    const { peer, out } = lonely();
    const p = peer.request('m', {}, 1000);
    const id = out[0].message.id;
    peer.receive(JSON.stringify({ kind: 'err', id, error: { code: 'MADE_UP', message: 'strange' } }));
    const e = await rejection(p);
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toBe('strange');
  });

  // BUG: a handler result that JSON.stringify cannot serialise (circular, BigInt) makes
  // dispatch's send throw inside the try that is meant for "the caller is gone", so no
  // reply is ever sent and the caller waits out its whole deadline for a misleading TIMEOUT.
  it('answers with an error when the handler result cannot be serialised', async () => {
    const { node, worker } = pair();
    worker.handle('big', () => ({ n: 10n }));
    const e = await rejection(node.request('big', {}, 200));
    expect(e.code).not.toBe('TIMEOUT');
  });
});

describe('RpcPeer deadlines', () => {
  it('times out an unanswered request with TIMEOUT naming the method and the deadline', async () => {
    vi.useFakeTimers();
    const { peer } = lonely('worker');
    const p = peer.request('page.snapshot', {}, 5000);
    let settled = false;
    p.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBe(false);
    expect(peer.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const e = await rejection(p);
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toBe("'page.snapshot' timed out after 5000 ms waiting for the worker");
    expect(e.data).toEqual({ method: 'page.snapshot', timeoutMs: 5000 });
    expect(peer.inFlight).toBe(0);
  });

  it('clears the deadline when the reply arrives', async () => {
    vi.useFakeTimers();
    const { peer, out } = lonely();
    const p = peer.request('m', {}, 5000);
    expect(vi.getTimerCount()).toBe(1);
    peer.receive(JSON.stringify({ kind: 'res', id: out[0].message.id, result: 42 }));
    await expect(p).resolves.toBe(42);
    expect(vi.getTimerCount()).toBe(0);
    // A duplicate or late reply for a settled id is ignored.
    expect(() => peer.receive(JSON.stringify({ kind: 'res', id: out[0].message.id, result: 43 }))).not.toThrow();
  });
});

describe('RpcPeer failure of calls in flight', () => {
  it('failAll rejects every call in flight with the code, naming each method', async () => {
    const { peer } = lonely();
    const a = peer.request('page.goto', {}, 10_000);
    const b = peer.request('act', {}, 10_000);
    expect(peer.inFlight).toBe(2);
    peer.failAll(new DeckhandError(ErrorCode.WorkerGone, 'the worker stopped', { reason: 'idle' }));
    const [ea, eb] = await Promise.all([rejection(a), rejection(b)]);
    expect(ea.code).toBe('WORKER_GONE');
    expect(ea.message).toBe("'page.goto' failed: the worker stopped");
    expect(ea.data).toEqual({ reason: 'idle' });
    expect(eb.message).toBe("'act' failed: the worker stopped");
    expect(peer.inFlight).toBe(0);
  });

  it('failAll without permanently still accepts later calls', async () => {
    const { peer, out } = lonely();
    void peer.request('a', {}, 1000).catch(() => undefined);
    peer.failAll(new DeckhandError(ErrorCode.WorkerGone, 'gone'));
    const p = peer.request('b', {}, 1000);
    expect(out).toHaveLength(2);
    peer.receive(JSON.stringify({ kind: 'res', id: out[1].message.id, result: 'back' }));
    await expect(p).resolves.toBe('back');
  });

  it('failAll(..., true) refuses later calls without sending them', async () => {
    const { peer, out } = lonely();
    const inflight = peer.request('a', {}, 1000);
    const closed = new DeckhandError(ErrorCode.BrowserClosed, 'the browser closed');
    peer.failAll(closed, true);
    expect((await rejection(inflight)).code).toBe('BROWSER_CLOSED');
    const e = await rejection(peer.request('b', {}, 1000));
    expect(e).toBe(closed);
    expect(out).toHaveLength(1);
    expect(peer.inFlight).toBe(0);
  });

  it('fail(id, err) rejects just that call', async () => {
    const { peer, out } = lonely();
    const a = peer.request('a', {}, 1000);
    const b = peer.request('b', {}, 1000);
    const err = new DeckhandError(ErrorCode.PageClosed, 'tab went away');
    peer.fail(out[0].requestId!, err);
    await expect(a).rejects.toBe(err);
    expect(peer.inFlight).toBe(1);
    peer.fail(9999, err); // unknown id: nothing happens
    expect(peer.inFlight).toBe(1);
    peer.receive(JSON.stringify({ kind: 'res', id: out[1].requestId, result: 'b ok' }));
    await expect(b).resolves.toBe('b ok');
  });

  it('rejects at once when the transport throws, as WORKER_GONE unless it threw a DeckhandError', async () => {
    vi.useFakeTimers();
    const broken = new RpcPeer(() => {
      throw new Error('port disconnected');
    }, 'worker');
    const e = await rejection(broken.request('m', {}, 1000));
    expect(e.code).toBe('WORKER_GONE');
    expect(e.message).toBe("could not send 'm' to the worker: port disconnected");
    expect(broken.inFlight).toBe(0);
    expect(vi.getTimerCount()).toBe(0);

    const own = new DeckhandError(ErrorCode.ExtensionMissing, 'no extension');
    const picky = new RpcPeer(() => {
      throw own;
    });
    await expect(picky.request('m', {}, 1000)).rejects.toBe(own);
  });
});

describe('RpcPeer input validation', () => {
  it('ignores malformed messages without answering or disturbing calls in flight', async () => {
    const { peer, out } = lonely();
    const handler = vi.fn(() => 'x');
    peer.handle('m', handler);
    const p = peer.request('m', {}, 1000);
    const id = out[0].message.id as number;
    for (const raw of [
      'not json',
      '',
      'null',
      '[]',
      '{}',
      JSON.stringify({ kind: 'bogus', id }),
      JSON.stringify({ kind: 'req', id: 'one', method: 'm', params: {} }),
      JSON.stringify({ kind: 'req', id: 1.5, method: 'm', params: {} }),
      JSON.stringify({ kind: 'req', id: 3, params: {} }),
      JSON.stringify({ kind: 'res', id: String(id), result: 1 }),
      JSON.stringify({ kind: 'err', id, error: { message: 'no code' } }),
      JSON.stringify({ kind: 'err', id, error: 'string error' }),
    ]) {
      expect(() => peer.receive(raw)).not.toThrow();
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(handler).not.toHaveBeenCalled();
    expect(out).toHaveLength(1); // nothing was answered
    expect(peer.inFlight).toBe(1); // the real call is still waiting
    peer.receive(JSON.stringify({ kind: 'res', id, result: 'fine' }));
    await expect(p).resolves.toBe('fine');
  });

  it('ignores a reply for an id it never sent', () => {
    const { peer } = lonely();
    expect(() => peer.receive(JSON.stringify({ kind: 'res', id: 12345, result: 1 }))).not.toThrow();
    expect(peer.inFlight).toBe(0);
  });
});

describe('the deadline a worker acknowledges (answerWithin), and a caller that waits by it', () => {
  it('a model operation without a timeout gets the model default; an Action the action default; a given timeout wins', () => {
    const m = DEADLINE_MARGIN_MS;
    expect(answerWithin('act', { input: 'click Save' })).toBe(DEFAULTS.modelOperationTimeoutMs + m);
    expect(answerWithin('observe', {})).toBe(DEFAULTS.modelOperationTimeoutMs + m);
    expect(answerWithin('extract', { instruction: 'the title' })).toBe(DEFAULTS.modelOperationTimeoutMs + m);
    expect(answerWithin('act', { input: { selector: '#a', method: 'click' } })).toBe(DEFAULTS.actionTimeoutMs + m);
    expect(answerWithin('act', { input: 'click Save', options: { timeout: 5000 } })).toBe(5000 + m);
    expect(answerWithin('page.goto', { page: 1, url: 'https://a.test/' })).toBe(DEFAULTS.navigationTimeoutMs + m);
    expect(answerWithin('page.goto', { page: 1, url: 'https://a.test/', options: { timeout: 700 } })).toBe(700 + m);
    expect(answerWithin('batch.run', { source: 'x', hasInput: false })).toBe(DEFAULTS.batchTimeoutMs + 10_000);
    expect(answerWithin('agent.run', { maxSteps: 2, toolTimeout: 1000 })).toBe(2 * (3 * 1000 + 10_000));
    // Nonsense is bounded (the schema refuses it anyway): never a timer past the longest call.
    expect(answerWithin('page.evaluate', { timeout: 1e15 })).toBe(DEFAULTS.navigationTimeoutMs + m);
  });

  it('the caller waits for the ack, then for what it promised plus the grace; a hold stops the clock', async () => {
    vi.useFakeTimers();
    const { peer: node, out } = lonely();
    const p = rejection(node.request('act', { input: 'x' }));
    const id = out[0].message.id as number;
    await vi.advanceTimersByTimeAsync(DEFAULTS.rpcAckMs - 10);
    node.receive(JSON.stringify({ kind: 'ack', id, ms: 30_000 }));
    // Past the ack wait, but within the promise.
    await vi.advanceTimersByTimeAsync(30_000);
    let held!: () => void;
    const hold = node.hold(new Promise<void>((r) => (held = r)));
    await vi.advanceTimersByTimeAsync(600_000);
    expect(node.inFlight).toBe(1);
    held();
    await hold;
    await vi.advanceTimersByTimeAsync(DEFAULTS.rpcGraceMs + 10);
    const e = await p;
    expect(e.code).toBe(ErrorCode.Timeout);
    expect(e.message).toContain('promised 30000 ms');
  });

  it('without an ack, the caller gives up after DEFAULTS.rpcAckMs', async () => {
    vi.useFakeTimers();
    const { peer: node } = lonely();
    const p = rejection(node.request('act', { input: 'x' }));
    await vi.advanceTimersByTimeAsync(DEFAULTS.rpcAckMs + 1);
    expect((await p).code).toBe(ErrorCode.Timeout);
  });

  it('a serving peer with ackWith acknowledges before it answers', async () => {
    const { node, worker, sent } = pair();
    worker.ackWith(answerWithin);
    worker.handle('observe', async () => 'ok');
    await expect(node.request('observe', {})).resolves.toBe('ok');
    expect(JSON.parse(sent.worker[0])).toEqual({ kind: 'ack', id: 1, ms: DEFAULTS.modelOperationTimeoutMs + DEADLINE_MARGIN_MS });
    expect(JSON.parse(sent.worker[1])).toMatchObject({ kind: 'res', id: 1 });
  });
});
