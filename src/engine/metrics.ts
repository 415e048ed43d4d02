/**
 * The usage counters (protocol/schemas.ts METRIC_COUNTERS, per operation and in total): start
 * at zero, only successful model work adds (and cache hits, to what they saved), reading never
 * resets.
 */
import { roundUsd } from '../protocol/prices';
import { METRIC_COUNTERS, METRIC_NAMES, type Metrics, type Usage } from '../protocol/schemas';

export type Operation = 'act' | 'extract' | 'observe';
const OPERATIONS: Operation[] = ['act', 'extract', 'observe'];
const DOLLARS = new Set<string>(['CostUsd', 'CacheSavedCostUsd']);

export class MetricsBook {
  private values: Metrics = Object.fromEntries(METRIC_NAMES.map((n) => [n, 0])) as Metrics;

  /** A model call's usage, and what it cost when its model's price is known. */
  add(op: Operation, u: Usage, costUsd?: number): void {
    this.values[`${op}PromptTokens`] += u.inputTokens;
    this.values[`${op}CompletionTokens`] += u.outputTokens;
    this.values[`${op}ReasoningTokens`] += u.reasoningTokens;
    this.values[`${op}CachedInputTokens`] += u.cachedInputTokens;
    this.values[`${op}InferenceTimeMs`] += u.inferenceTimeMs;
    if (costUsd !== undefined) this.values[`${op}CostUsd`] = roundUsd(this.values[`${op}CostUsd`] + costUsd);
  }

  /** A cache hit: the tokens of the inference it replaced, and their cost when known. */
  addSaved(op: Operation, tokens: number, costUsd?: number): void {
    this.values[`${op}CacheSavedTokens`] += tokens;
    if (costUsd !== undefined) this.values[`${op}CacheSavedCostUsd`] = roundUsd(this.values[`${op}CacheSavedCostUsd`] + costUsd);
  }

  /** The totals are derived, not kept: a separately summed float would drift from the operations' sum. */
  snapshot(): Metrics {
    const m = { ...this.values };
    for (const c of METRIC_COUNTERS) {
      const sum = OPERATIONS.reduce((s, op) => s + m[`${op}${c}`], 0);
      m[`total${c}`] = DOLLARS.has(c) ? roundUsd(sum) : sum;
    }
    return m;
  }

  /** Counters saved before (a worker that stopped); a name the saved set lacks (an older version's) stays zero. */
  restore(m: Partial<Metrics>): void {
    for (const n of METRIC_NAMES) if (typeof m[n] === 'number' && Number.isFinite(m[n])) this.values[n] = m[n]!;
  }
}
