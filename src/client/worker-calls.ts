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
  d.link.serve('log', (p) => {
    d.logger.log(p.level, p.message, p.data);
    for (const l of d.stepListeners) l(p);
    const s = spanOf(p.data);
    const parent = s?.span === 'model-call' && s.opId ? d.spans.get(s.opId) : undefined;
    if (s?.span === 'model-call' && parent) {
      const ctx = trace.setSpan(context.active(), parent);
      const span = d.tracer.startSpan('deckhand.model_call', { startTime: s.startedAt, attributes: { 'deckhand.model': s.model, 'gen_ai.usage.input_tokens': s.inputTokens, 'gen_ai.usage.output_tokens': s.outputTokens } }, ctx);
      span.end(s.endedAt);
    }
    return null;
  });
}
