/** The twenty usage counters: start at zero, only successful model work adds, reading never resets. */
import { METRIC_COUNTERS, METRIC_NAMES, type Metrics, type Usage } from '../protocol/schemas';

export type Operation = 'act' | 'extract' | 'observe';
const OPERATIONS: Operation[] = ['act', 'extract', 'observe'];

export class MetricsBook {
  private values: Metrics = Object.fromEntries(METRIC_NAMES.map((n) => [n, 0])) as Metrics;

  add(op: Operation, u: Usage): void {
    this.values[`${op}PromptTokens`] += u.inputTokens;
    this.values[`${op}CompletionTokens`] += u.outputTokens;
    this.values[`${op}ReasoningTokens`] += u.reasoningTokens;
    this.values[`${op}CachedInputTokens`] += u.cachedInputTokens;
    this.values[`${op}InferenceTimeMs`] += u.inferenceTimeMs;
  }

  /** The totals are derived, not kept: a separately summed float would drift from the operations' sum. */
  snapshot(): Metrics {
    const m = { ...this.values };
    for (const c of METRIC_COUNTERS) m[`total${c}`] = OPERATIONS.reduce((sum, op) => sum + m[`${op}${c}`], 0);
    return m;
  }

  restore(m: Partial<Metrics>): void {
    for (const n of METRIC_NAMES) if (typeof m[n] === 'number') this.values[n] = m[n]!;
  }
}
