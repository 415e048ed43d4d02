/** The thirty-two usage counters: tokens, time, dollars spent and what cache hits saved. */
import { describe, expect, it } from 'vitest';
import { MetricsBook } from '../../src/engine/metrics';
import type { Usage } from '../../src/protocol/schemas';

// Written out independently of the source's METRIC_NAMES, so a renamed counter fails here.
const OPS = ['act', 'extract', 'observe', 'total'];
const COUNTERS = [
  'PromptTokens',
  'CompletionTokens',
  'ReasoningTokens',
  'CachedInputTokens',
  'InferenceTimeMs',
  'CostUsd',
  'CacheSavedTokens',
  'CacheSavedCostUsd',
];
const NAMES = OPS.flatMap((o) => COUNTERS.map((c) => `${o}${c}`));
/** The counters of the version before costs: what a worker saved then. */
const OLD_NAMES = OPS.flatMap((o) => COUNTERS.slice(0, 5).map((c) => `${o}${c}`));

const usage = (inputTokens: number, outputTokens: number, reasoningTokens: number, cachedInputTokens: number, inferenceTimeMs: number): Usage => ({
  inputTokens,
  outputTokens,
  reasoningTokens,
  cachedInputTokens,
  inferenceTimeMs,
});

describe('MetricsBook', () => {
  it('starts with exactly thirty-two counters, all zero', () => {
    const m = new MetricsBook().snapshot();
    expect(NAMES).toHaveLength(32);
    expect(Object.keys(m).sort()).toEqual([...NAMES].sort());
    for (const n of NAMES) expect(m[n as keyof typeof m]).toBe(0);
  });

  it('adds usage to the operation and to the total only', () => {
    const book = new MetricsBook();
    book.add('act', usage(100, 20, 5, 40, 1500));
    const m = book.snapshot();
    expect(m).toMatchObject({
      actPromptTokens: 100,
      actCompletionTokens: 20,
      actReasoningTokens: 5,
      actCachedInputTokens: 40,
      actInferenceTimeMs: 1500,
      totalPromptTokens: 100,
      totalCompletionTokens: 20,
      totalReasoningTokens: 5,
      totalCachedInputTokens: 40,
      totalInferenceTimeMs: 1500,
    });
    for (const o of ['extract', 'observe']) for (const c of COUNTERS) expect(m[`${o}${c}` as keyof typeof m]).toBe(0);
  });

  it('accumulates across calls and operations', () => {
    const book = new MetricsBook();
    book.add('act', usage(10, 1, 0, 0, 100));
    book.add('act', usage(5, 2, 1, 3, 50));
    book.add('extract', usage(7, 3, 2, 1, 25));
    book.add('observe', usage(1, 1, 1, 1, 1));
    const m = book.snapshot();
    expect(m.actPromptTokens).toBe(15);
    expect(m.actCompletionTokens).toBe(3);
    expect(m.actCachedInputTokens).toBe(3);
    expect(m.actInferenceTimeMs).toBe(150);
    expect(m.extractPromptTokens).toBe(7);
    expect(m.extractReasoningTokens).toBe(2);
    expect(m.observeInferenceTimeMs).toBe(1);
    expect(m.totalPromptTokens).toBe(23);
    expect(m.totalCompletionTokens).toBe(7);
    expect(m.totalReasoningTokens).toBe(4);
    expect(m.totalCachedInputTokens).toBe(5);
    expect(m.totalInferenceTimeMs).toBe(176);
  });

  it('totals are the sum of the operations to the last bit, however the fractional times arrived', () => {
    const book = new MetricsBook();
    // Summed one call at a time into a separate total, these drift from the per-operation sums.
    const times = [0, 1.578, 0.067, 2.504, 0.393, 2.628, 0.565];
    times.forEach((t, i) => book.add((['act', 'observe', 'extract'] as const)[i % 3], usage(0, 0, 0, 0, t)));
    const m = book.snapshot();
    expect(m.totalInferenceTimeMs).toBe(m.actInferenceTimeMs + m.extractInferenceTimeMs + m.observeInferenceTimeMs);
    expect(m.totalInferenceTimeMs).toBeCloseTo(
      times.reduce((a, b) => a + b, 0),
      9,
    );
  });

  it('returns a copy: changing a snapshot changes nothing in the book', () => {
    const book = new MetricsBook();
    book.add('observe', usage(3, 0, 0, 0, 0));
    const s = book.snapshot();
    s.observePromptTokens = 999;
    s.totalPromptTokens = -1;
    expect(book.snapshot().observePromptTokens).toBe(3);
    expect(book.snapshot().totalPromptTokens).toBe(3);
    expect(book.snapshot()).not.toBe(book.snapshot());
  });

  it('does not reset when read', () => {
    const book = new MetricsBook();
    book.add('extract', usage(4, 4, 0, 0, 10));
    expect(book.snapshot().extractPromptTokens).toBe(4);
    expect(book.snapshot().extractPromptTokens).toBe(4);
    book.add('extract', usage(1, 0, 0, 0, 0));
    expect(book.snapshot().extractPromptTokens).toBe(5);
  });

  it('restores known numeric counters and ignores the rest', () => {
    const book = new MetricsBook();
    book.restore({ actPromptTokens: 12, totalPromptTokens: 12, bogus: 5, extractCompletionTokens: 'x' } as never);
    const m = book.snapshot();
    expect(m.actPromptTokens).toBe(12);
    expect(m.totalPromptTokens).toBe(12);
    expect(m.extractCompletionTokens).toBe(0);
    expect(Object.keys(m)).toHaveLength(32);
    book.add('act', usage(1, 0, 0, 0, 0));
    expect(book.snapshot().actPromptTokens).toBe(13);
  });

  it('adds what a call cost, when it is known, to its operation and the total', () => {
    const book = new MetricsBook();
    book.add('act', usage(1000, 100, 0, 0, 10), 0.0025);
    book.add('act', usage(10, 1, 0, 0, 10)); // a model whose price is unknown: tokens count, dollars do not
    book.add('extract', usage(500, 50, 0, 0, 10), 0.0001);
    book.add('observe', usage(0, 0, 0, 0, 1), 0); // the built-in model
    const m = book.snapshot();
    expect(m.actCostUsd).toBe(0.0025);
    expect(m.extractCostUsd).toBe(0.0001);
    expect(m.observeCostUsd).toBe(0);
    expect(m.totalCostUsd).toBe(0.0026);
    expect(m.actPromptTokens).toBe(1010);
  });

  it('dollar sums read as written: 0.1 + 0.2 is 0.3, however many calls it took', () => {
    const book = new MetricsBook();
    for (let i = 0; i < 10; i++) book.add('act', usage(1, 1, 0, 0, 1), 0.1);
    book.add('extract', usage(1, 1, 0, 0, 1), 0.2);
    const m = book.snapshot();
    expect(m.actCostUsd).toBe(1);
    expect(m.totalCostUsd).toBe(1.2);
  });

  it('cache hits add what they saved, and nothing to the spent counters', () => {
    const book = new MetricsBook();
    book.addSaved('act', 132, 0.0000672);
    book.addSaved('act', 132, 0.0000672);
    book.addSaved('extract', 40); // price unknown: the tokens count, the dollars do not
    const m = book.snapshot();
    expect(m.actCacheSavedTokens).toBe(264);
    expect(m.actCacheSavedCostUsd).toBe(0.0001344);
    expect(m.extractCacheSavedTokens).toBe(40);
    expect(m.extractCacheSavedCostUsd).toBe(0);
    expect(m.totalCacheSavedTokens).toBe(304);
    expect(m.totalCacheSavedCostUsd).toBe(0.0001344);
    expect(m.totalPromptTokens).toBe(0);
    expect(m.totalCostUsd).toBe(0);
  });

  it('restores counters a version before costs saved: the new counters start at zero and keep counting', () => {
    const book = new MetricsBook();
    book.restore(Object.fromEntries(OLD_NAMES.map((n) => [n, 5])) as never);
    let m = book.snapshot();
    expect(Object.keys(m)).toHaveLength(32);
    expect(m.actPromptTokens).toBe(5);
    expect(m.totalPromptTokens).toBe(15);
    expect(m.actCostUsd).toBe(0);
    expect(m.totalCacheSavedTokens).toBe(0);
    book.add('act', usage(1, 0, 0, 0, 0), 0.5);
    book.addSaved('observe', 7, 0.25);
    // A saved set of today's counters round-trips, dollars included.
    const again = new MetricsBook();
    again.restore(book.snapshot());
    m = again.snapshot();
    expect(m).toEqual(book.snapshot());
    expect(m).toMatchObject({ actCostUsd: 0.5, totalCostUsd: 0.5, observeCacheSavedTokens: 7, observeCacheSavedCostUsd: 0.25, totalCacheSavedCostUsd: 0.25 });
  });
});
