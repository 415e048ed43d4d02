/** Approval's pure parts: which kinds a step matches, the desk that collects decisions, held deadlines, and RPC holds. */
import { describe, expect, it } from 'vitest';
import { ApprovalDesk, classify, Gate, type Answerer } from '../../src/engine/people/approval';
import { ApprovalPolicySchema, type ApprovalRequest, type RiskFacts } from '../../src/protocol/approval';
import { withDeadline } from '../../src/engine/core/pages';
import { RpcPeer } from '../../src/protocol/rpc';

const facts = (f: Partial<RiskFacts>): RiskFacts => ({ tag: 'button', text: '', submits: false, enterSubmits: false, file: false, ...f });
const page = 'https://shop.example/cart';
const all = { when: ['submit', 'delete', 'pay', 'leave-site', 'upload'] as const };
const kinds = (step: Parameters<typeof classify>[1], policy: Parameters<typeof classify>[0] = { ...all, when: [...all.when] }) => classify(policy, step).kinds;

describe('classify', () => {
  it('a goto to another site leaves it; the same site with or without www does not', () => {
    expect(kinds({ method: 'goto', args: [], pageUrl: page, facts: null, target: 'https://evil.example/' })).toEqual(['leave-site']);
    expect(kinds({ method: 'goto', args: [], pageUrl: page, facts: null, target: 'https://www.shop.example/x' })).toEqual([]);
  });
  it('an element the page could not describe waits for every kind asked for (never goes ahead unchecked)', () => {
    expect(kinds({ method: 'click', args: [], pageUrl: page, facts: null }, { when: ['pay'] })).toEqual(['pay']);
  });
  it('words match whole words, in any case, on the element and the instruction', () => {
    const p = { words: ['cancel'] };
    expect(classify(p, { method: 'click', args: [], pageUrl: page, facts: facts({ text: 'Cancel order' }) })).toMatchObject({
      kinds: ['words'],
      words: ['cancel'],
    });
    expect(kinds({ method: 'click', args: [], pageUrl: page, facts: facts({ text: 'Cancellation policy' }) }, p)).toEqual([]);
    expect(kinds({ method: 'click', args: [], pageUrl: page, facts: facts({ text: 'OK' }), instruction: 'cancel the booking' }, p)).toEqual(['words']);
  });
  it('kinds not asked for are not reported', () => {
    expect(
      kinds({ method: 'click', args: [], pageUrl: page, facts: facts({ text: 'Place order', submits: true, formAction: page }) }, { when: ['delete'] }),
    ).toEqual([]);
    expect(kinds({ method: 'click', args: [], pageUrl: page, facts: facts({ text: 'Place order', submits: true, formAction: page }) }).sort()).toEqual([
      'pay',
      'submit',
    ]);
  });
  it('hovering, scrolling and focusing never wait', () => {
    expect(Gate.gates('hover')).toBe(false);
    expect(Gate.gates('scrollTo')).toBe(false);
    expect(Gate.gates('click')).toBe(true);
    expect(Gate.gates('goto')).toBe(true);
  });
  it('a policy needs a kind or a word; unknown kinds and out-of-range timeouts are refused', () => {
    expect(ApprovalPolicySchema.safeParse({}).success).toBe(false);
    expect(ApprovalPolicySchema.safeParse({ when: ['explode'] }).success).toBe(false);
    expect(ApprovalPolicySchema.safeParse({ when: ['pay'], timeout: 600_001 }).success).toBe(false);
    expect(ApprovalPolicySchema.safeParse({ words: ['wire transfer'] }).success).toBe(true);
  });
});

const req = (id: string, ms = 1000): ApprovalRequest => ({
  id,
  kinds: ['submit'],
  method: 'click',
  arguments: [],
  element: 'button "Send"',
  url: page,
  summary: 'click',
  deadline: Date.now() + ms,
});
const answerer = (name: string, answer: () => Promise<{ decision: 'approve' | 'skip' | 'stop' | null }>, ended: string[]): Answerer => ({
  name,
  ask: answer,
  settled: (s) => ended.push(`${name}:${s.decision}`),
});

describe('ApprovalDesk', () => {
  it('takes the first decision, tells every answerer how it ended; one that cannot decide leaves it to others', async () => {
    const desk = new ApprovalDesk();
    const ended: string[] = [];
    const never = answerer('caller', async () => ({ decision: null }), ended);
    const panel = answerer('panel', () => new Promise((r) => setTimeout(() => r({ decision: 'approve' }), 50)), ended);
    expect(await desk.ask(req('a'), [never, panel], undefined)).toEqual({ decision: 'approve', by: 'panel' });
    expect(ended.sort()).toEqual(['caller:approve', 'panel:approve']);
    expect(desk.waiting()).toEqual([]);
  });
  it('no decision by the deadline is null (a refusal); a panel that opens meanwhile is asked too', async () => {
    const desk = new ApprovalDesk();
    const ended: string[] = [];
    const waiting = desk.ask(req('b', 300), [], undefined);
    expect(desk.waiting().map((r) => r.id)).toEqual(['b']);
    const late = answerer('late', () => new Promise(() => undefined), ended);
    desk.offer(late);
    expect(await waiting).toBeNull();
    expect(ended).toEqual(['late:timeout']);
  });
  it('a decision from elsewhere (the HTTP endpoint) settles it; an unknown id is false', async () => {
    const desk = new ApprovalDesk();
    const p = desk.ask(req('c'), [], undefined);
    expect(desk.decide('nope', 'approve', 'x')).toBe(false);
    expect(desk.decide('c', 'stop', 'the HTTP caller')).toBe(true);
    expect(await p).toEqual({ decision: 'stop', by: 'the HTTP caller' });
  });
  it('the call stopping ends the wait with no decision', async () => {
    const desk = new ApprovalDesk();
    const ac = new AbortController();
    const p = desk.ask(req('d', 10_000), [], ac.signal);
    ac.abort();
    expect(await p).toBeNull();
  });
});

describe('deadlines while a person decides', () => {
  it('withDeadline moves out by the time held', async () => {
    let held = 0;
    const slow = new Promise((r) => setTimeout(() => r('ok'), 250));
    const t = setTimeout(() => (held = 200), 50);
    await expect(withDeadline(slow, 150, 'op', undefined, () => held)).resolves.toBe('ok');
    clearTimeout(t);
    await expect(withDeadline(new Promise(() => undefined), 100, 'op')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
  it("RpcPeer.hold stops a call's clock while it runs", async () => {
    const peer = new RpcPeer(() => undefined, 'far side');
    const call = peer.request('x', {}, 150);
    const outcome = call.then(
      () => 'answered',
      (e: { code: string }) => e.code,
    );
    let released = () => {};
    void peer.hold(new Promise<void>((r) => (released = r)));
    await new Promise((r) => setTimeout(r, 300));
    const early = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still waiting'), 0))]);
    expect(early).toBe('still waiting');
    released();
    expect(await outcome).toBe('TIMEOUT');
  });
});
