/**
 * The worker evaluating code in itself: chrome.debugger attached to its own
 * service-worker target. Extension CSP forbids eval() in the worker's code, but
 * Runtime.evaluate from a debugger is not subject to it; only trusted callers
 * (who already control the browser over CDP, or an authenticated bridge) reach this.
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { SelfEvaluator } from '../engine/ports';

export class ChromeSelfEvaluator implements SelfEvaluator {
  private target: Promise<string> | null = null;

  private async attach(): Promise<string> {
    const url = chrome.runtime.getURL('background.js');
    const targets = await chrome.debugger.getTargets();
    const me = targets.find((t) => t.type === 'worker' && t.url === url) ?? targets.find((t) => t.url === url);
    if (!me) throw new DeckhandError(ErrorCode.Internal, 'the worker could not find its own debugger target');
    try {
      await chrome.debugger.attach({ targetId: me.id }, '1.3');
    } catch (e) {
      if (!/already attached/i.test(String((e as Error)?.message))) throw e;
    }
    return me.id;
  }

  async evaluate(expression: string, timeoutMs: number): Promise<unknown> {
    this.target ??= this.attach();
    this.target.catch(() => (this.target = null));
    const targetId = await this.target;
    const r = (await chrome.debugger.sendCommand({ targetId }, 'Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
      timeout: timeoutMs,
    })) as { result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } };
    if (r.exceptionDetails) {
      const d = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
      throw new DeckhandError(ErrorCode.BatchFailed, `the batch callback could not be started: ${d.split('\n')[0]}`, { stack: d });
    }
    return r.result.value;
  }
}
