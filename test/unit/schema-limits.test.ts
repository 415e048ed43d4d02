import { describe, expect, it } from 'vitest';
import { SCHEMA_LIMITS, schemaTooBig } from '../../src/protocol/json';
import { ExtractRequestSchema } from '../../src/protocol/http';
import { Methods } from '../../src/protocol/methods';
import { describeZodError } from '../../src/protocol/zod-errors';

/** Objects nested `n` deep: {a: {a: ... 1}}. */
const nested = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};

describe('how deep and large a schema for extract may be', () => {
  it('allows the bound and refuses one more level or value, without recursion', () => {
    expect(schemaTooBig(nested(SCHEMA_LIMITS.depth))).toBeNull();
    expect(schemaTooBig(nested(SCHEMA_LIMITS.depth + 1))).toMatch(/nested more than 64 levels deep/);
    // Deeper than any call stack: measured, not recursed into.
    expect(schemaTooBig(nested(200_000))).toMatch(/nested more than 64 levels deep/);
    expect(schemaTooBig(Array.from({ length: SCHEMA_LIMITS.values - 1 }, () => 1))).toBeNull();
    expect(schemaTooBig(Array.from({ length: SCHEMA_LIMITS.values }, () => 1))).toMatch(/more than 10,000 values/);
    // A cycle (from a Node caller) ends at the value bound.
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(schemaTooBig(cyclic)).toMatch(/nested more than|more than 10,000 values/);
  });

  it('is checked by the worker for every client and by the HTTP service, naming the field', () => {
    const rpc = Methods.extract.params.safeParse({ instruction: 'x', schema: nested(5000) });
    expect(rpc.success).toBe(false);
    expect(describeZodError(rpc.error!, 'extract')).toMatch(/schema.*nested more than 64 levels deep/);
    const http = ExtractRequestSchema.safeParse({ instruction: 'x', schema: nested(5000) });
    expect(http.success).toBe(false);
    expect(Methods.extract.params.safeParse({ instruction: 'x', schema: { type: 'object', properties: { a: { type: 'string' } } } }).success).toBe(true);
  });
});
