/** The twenty usage counters: start at zero, only successful model work adds, reading never resets. */
import { METRIC_NAMES, type Metrics, type Usage } from '../protocol/schemas';

export type Operation = 'act' | 'extract' | 'observe';

export class MetricsBook {
  private values: Metrics = Object.fromEntries(METRIC_NAMES.map((n) => [n, 0])) as Metrics;

  add(op: Operation, u: Usage): void {
    for (const prefix of [op, 'total'] as const) {
      this.values[`${prefix}PromptTokens`] += u.inputTokens;
      this.values[`${prefix}CompletionTokens`] += u.outputTokens;
      this.values[`${prefix}ReasoningTokens`] += u.reasoningTokens;
      this.values[`${prefix}CachedInputTokens`] += u.cachedInputTokens;
      this.values[`${prefix}InferenceTimeMs`] += u.inferenceTimeMs;
    }
  }

  snapshot(): Metrics {
    return { ...this.values };
  }

  restore(m: Partial<Metrics>): void {
    for (const n of METRIC_NAMES) if (typeof m[n] === 'number') this.values[n] = m[n]!;
  }
}
