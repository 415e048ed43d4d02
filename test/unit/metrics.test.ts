/** The twenty usage counters. */
import { describe, expect, it } from 'vitest';
import { MetricsBook } from '../../src/engine/metrics';
import type { Usage } from '../../src/protocol/schemas';

// Written out independently of the source's METRIC_NAMES, so a renamed counter fails here.
const OPS = ['act', 'extract', 'observe', 'total'];
const COUNTERS = ['PromptTokens', 'CompletionTokens', 'ReasoningTokens', 'CachedInputTokens', 'InferenceTimeMs'];
const NAMES = OPS.flatMap((o) => COUNTERS.map((c) => `${o}${c}`));

const usage = (inputTokens: number, outputTokens: number, reasoningTokens: number, cachedInputTokens: number, inferenceTimeMs: number): Usage => ({
  inputTokens, outputTokens, reasoningTokens, cachedInputTokens, inferenceTimeMs,
});

describe('MetricsBook', () => {
  it('starts with exactly twenty counters, all zero', () => {
    const m = new MetricsBook().snapshot();
    expect(NAMES).toHaveLength(20);
    expect(Object.keys(m).sort()).toEqual([...NAMES].sort());
    for (const n of NAMES) expect(m[n as keyof typeof m]).toBe(0);
  });

  it('adds usage to the operation and to the total only', () => {
    const book = new MetricsBook();
    book.add('act', usage(100, 20, 5, 40, 1500));
    const m = book.snapshot();
    expect(m).toMatchObject({
      actPromptTokens: 100, actCompletionTokens: 20, actReasoningTokens: 5, actCachedInputTokens: 40, actInferenceTimeMs: 1500,
      totalPromptTokens: 100, totalCompletionTokens: 20, totalReasoningTokens: 5, totalCachedInputTokens: 40, totalInferenceTimeMs: 1500,
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
    expect(m.totalInferenceTimeMs).toBeCloseTo(times.reduce((a, b) => a + b, 0), 9);
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
    expect(Object.keys(m)).toHaveLength(20);
    book.add('act', usage(1, 0, 0, 0, 0));
    expect(book.snapshot().actPromptTokens).toBe(13);
  });
});
