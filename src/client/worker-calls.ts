/**
 * What the worker asks of the client that sent a command, answered here: its cache store
 * (the worker names keys only; this client's store, scoped to its own tenant, answers), its
 * callback models, its own agent tools, and the log lines of its operations (model calls
 * become child spans of the operation's span, with their real times).
 */
import { context, trace, type Span, type Tracer } from '@opentelemetry/api';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { spanOf } from '../protocol/log-spans';
import type { CacheStore } from './cache/store';
import type { WorkerLink } from './link';
import type { Logger } from './logging';
import type { CallbackRegistry } from './models';
import { ApprovalDecisionSchema, type ApprovalHandler } from '../protocol/approval';

export interface WorkerCallDeps {
  link: WorkerLink;
  store: () => CacheStore | null | undefined;
  callbacks: CallbackRegistry;
  /** The caller's own agent tools, by name, while an agent run uses them. */
  tools: Map<string, (input: unknown) => Promise<string>>;
  logger: Logger;
  stepListeners: Set<(line: { data?: Record<string, unknown> }) => void>;
  /** Running operations' spans, by opId. */
  spans: Map<string, Span>;
  tracer: Tracer;
  /** The handler that decides a step of the call with this opId (its own, else the instance's), if any. */
  approver: (opId: string | undefined) => ApprovalHandler | undefined;
}

export function serveWorkerCalls(d: WorkerCallDeps): void {
  const store = () => {
    const s = d.store();
    if (!s) throw new DeckhandError(ErrorCode.InvalidArgument, 'this client has no cache store');
    return s;
  };
  d.link.serve('cache.lookup', (p) => store().lookup(p.key, p.baseKey));
  d.link.serve('cache.record', (p) => store().record(p));
  d.link.serve('cache.invalidate', async (p) => {
    await store().invalidate(p.key);
    return null;
  });
  d.link.serve('model.generate', async (p) => {
    const fn = d.callbacks.get(p.callbackId);
    if (!fn) throw new DeckhandError(ErrorCode.NoModelConfigured, 'the callback model is no longer registered with this client');
    return await fn(p.request);
  });
  d.link.serve('tool.call', async (p) => {
    const fn = d.tools.get(p.name);
    if (!fn) throw new DeckhandError(ErrorCode.InvalidArgument, `no tool '${p.name}' is registered with this client`);
    return { output: await fn(p.input) };
  });
  // A step waits for approval: the call's handler decides (or says null: the side panel may).
  // Meanwhile the worker's clock for that call stands still, and so do this side's deadlines.
  const asking = new Map<string, AbortController>();
  d.link.serve('approval.request', async (req) => {
    const ended = new AbortController();
    asking.set(req.id, ended);
    // Until the request ends (whoever decides, the side panel included), or a moment past its deadline.
    void d.link.hold(
      new Promise<void>((resolve) => {
        // No word of its end (a worker that went away): forget it then as well.
        const t = setTimeout(() => (asking.delete(req.id), resolve()), Math.max(0, req.deadline - Date.now()) + 5_000);
        ended.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      }),
    );
    const handler = d.approver(req.opId);
    if (!handler) return { decision: null };
    try {
      const decision = await handler(req, { signal: ended.signal });
      if (decision !== null && decision !== undefined && !ApprovalDecisionSchema.safeParse(decision).success) {
        throw new DeckhandError(ErrorCode.InvalidArgument, `onApproval returned ${JSON.stringify(decision)}; return 'approve', 'skip', 'stop' or null`);
      }
      return { decision: decision ?? null, by: 'the caller' };
    } catch (e) {
      // A handler that failed cannot decide; the others still may.
      d.logger.log('warn', `onApproval failed: ${(e as Error).message}`);
      return { decision: null };
    }
  });
  d.link.serve('approval.settled', (end) => {
    asking.get(end.id)?.abort(new DeckhandError(ErrorCode.Cancelled, `approval ${end.id} ended: ${end.decision}`));
    asking.delete(end.id);
    return null;
  });
  d.link.serve('log', (p) => {
    d.logger.log(p.level, p.message, p.data);
    for (const l of d.stepListeners) l(p);
    const s = spanOf(p.data);
    const parent = s?.span === 'model-call' && s.opId ? d.spans.get(s.opId) : undefined;
    if (s?.span === 'model-call' && parent) {
      const ctx = trace.setSpan(context.active(), parent);
      const span = d.tracer.startSpan(
        'deckhand.model_call',
        {
          startTime: s.startedAt,
          attributes: { 'deckhand.model': s.model, 'gen_ai.usage.input_tokens': s.inputTokens, 'gen_ai.usage.output_tokens': s.outputTokens },
        },
        ctx,
      );
      span.end(s.endedAt);
    }
    return null;
  });
}
