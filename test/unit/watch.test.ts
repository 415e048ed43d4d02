/** engine/people/watch.ts against a fake port: what a panel is told of a run, masking, and the thumbnails' rate. */
import { describe, expect, it } from 'vitest';
import { Watch } from '../../src/engine/people/watch';
import { DeckhandError, ErrorCode } from '../../src/protocol/errors';
import { WatchEventSchema, type WatchEvent } from '../../src/protocol/panel';
import type { BrowserPort } from '../../src/engine/ports';

const caller = { id: 'c1', transport: 'cdp' as const, info: { kind: 'node' } };

function setup(thumbnail?: BrowserPort['thumbnail']) {
  const events: WatchEvent[] = [];
  const port = { activePage: async () => ({ id: 7, url: 'https://example.test/', title: 't' }), ...(thumbnail ? { thumbnail } : {}) } as unknown as BrowserPort;
  const watch = new Watch(port, (e) => events.push(WatchEventSchema.parse(e)));
  return { events, watch };
}

describe('Watch', () => {
  it('masks every variable value and reports steps, outcomes and the opId as the run id', () => {
    const { events, watch } = setup();
    const run = watch.begin('agent.run', { instruction: 'log in with hunter2-pass', variables: { pw: 'hunter2-pass' }, opId: 'op-1' }, caller)!;
    run.log({ level: 'debug', message: 'act: calling deckhand/local' });
    run.log({
      level: 'info',
      message: 'step 1: type hunter2-pass',
      data: {
        span: 'agent-step',
        step: {
          type: 'type',
          reasoning: 'the password is hunter2-pass',
          taskCompleted: false,
          action: {},
          timeMs: 3,
          pageText: '',
          pageUrl: '',
          instruction: '',
          result: 'error: no field',
        },
      },
    });
    run.fail(new DeckhandError(ErrorCode.ActionFailed, 'could not type hunter2-pass'));
    expect(JSON.stringify(events)).not.toContain('hunter2-pass');
    expect(events.map((e) => e.phase)).toEqual(['started', 'step', 'finished']);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(events.every((e) => e.runId === 'op-1' && e.op === 'agent' && e.description === 'log in with %pw%')).toBe(true);
    expect(events[1].step).toMatchObject({ type: 'type', message: 'step 1: type %pw%', reasoning: 'the password is %pw%', outcome: 'failure' });
    expect(events[2].outcome).toMatchObject({ success: false, error: { code: 'ACTION_FAILED', message: 'could not type %pw%' } });
  });

  it('describes an Action, and leaves unwatched methods alone', () => {
    const { events, watch } = setup();
    expect(watch.begin('page.goto', { page: 1, url: 'https://x.test' }, caller)).toBeNull();
    const run = watch.begin('act', { input: { selector: '#q', description: 'the search box', method: 'fill', arguments: ['%q%'] } }, caller)!;
    run.finish({ data: { success: true, message: 'fill performed on input#q' } });
    expect(events[0].description).toBe('fill "%q%" on the search box');
    expect(events[1].outcome).toMatchObject({ success: true, message: 'fill performed on input#q' });
  });

  it('takes one thumbnail at a time: the newest request waits, older ones are dropped, values are hidden', async () => {
    const calls: { page: number; hide: string[] }[] = [];
    const pending: (() => void)[] = [];
    const { events, watch } = setup(
      (page, o) =>
        new Promise((resolve) => {
          calls.push({ page, hide: o.hide });
          pending.push(() => resolve('data:image/jpeg;base64,AAAA'));
        }),
    );
    const run = watch.begin('act', { input: 'type %who%', options: { page: 3, variables: { who: 'zebra-7731' } } }, caller)!;
    const step = {
      level: 'info' as const,
      message: 'x',
      data: {
        span: 'agent-step',
        step: { type: 'click', reasoning: '', taskCompleted: false, action: {}, timeMs: 1, pageText: '', pageUrl: '', instruction: '' },
      },
    };
    run.log(step);
    run.log(step);
    run.log(step);
    run.finish({ data: { success: true, message: 'ok' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([{ page: 3, hide: ['zebra-7731'] }]);
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.length).toBe(2); // the newest (the finish's), not the two in between
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(watch.stats).toEqual({ thumbnails: 2, dropped: 2 });
    expect(events.filter((e) => e.phase === 'thumbnail').length).toBe(2);
  });
});
