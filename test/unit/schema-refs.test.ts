/** A caller's JSON Schema with $defs references, as pydantic and other generators write it: put in place by the worker's params. */
import { describe, expect, it } from 'vitest';
import { inlineSchemaRefs, SCHEMA_LIMITS } from '../../src/protocol/json';
import { Methods } from '../../src/protocol/methods';

describe('inlineSchemaRefs', () => {
  it('puts $defs and definitions references in place, keeps siblings, and leaves a property named $ref alone', () => {
    const pydantic = {
      type: 'object',
      properties: {
        item: { $ref: '#/$defs/Item', description: 'the first item' },
        items: { type: 'array', items: { $ref: '#/$defs/Item' } },
        odd: { $ref: '#/definitions/a~1b' },
      },
      required: ['item'],
      $defs: { Item: { type: 'object', properties: { name: { type: 'string' }, $ref: { type: 'string' } } } },
      definitions: { 'a/b': { type: 'integer' } },
    };
    const item = { type: 'object', properties: { name: { type: 'string' }, $ref: { type: 'string' } } };
    expect(inlineSchemaRefs(pydantic)).toEqual({
      type: 'object',
      properties: { item: { ...item, description: 'the first item' }, items: { type: 'array', items: item }, odd: { type: 'integer' } },
      required: ['item'],
    });
  });

  it('a recursive type stays a reference, with the definitions it needs; an unknown reference is left as it is', () => {
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' }, other: { $ref: '#/$defs/Missing' } },
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    };
    const out = inlineSchemaRefs(tree);
    expect(out.properties).toEqual({
      root: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } },
      other: { $ref: '#/$defs/Missing' },
    });
    expect(out.$defs).toEqual(tree.$defs);
  });

  it('a schema that grows past the bound when written out is refused, naming the bound', () => {
    // Each level refers to the one below twice: written out, 2^30 copies.
    const $defs: Record<string, unknown> = { L0: { type: 'string' } };
    for (let i = 1; i <= 30; i++) $defs[`L${i}`] = { type: 'array', items: [{ $ref: `#/$defs/L${i - 1}` }, { $ref: `#/$defs/L${i - 1}` }] };
    expect(() => inlineSchemaRefs({ $ref: '#/$defs/L30', $defs })).toThrow(String(SCHEMA_LIMITS.values.toLocaleString('en-US')));
    const parsed = Methods.extract.params.safeParse({ schema: { $ref: '#/$defs/L30', $defs } });
    expect(parsed.success).toBe(false);
  });

  it("the worker's extract params carry the schema with its references in place", () => {
    const parsed = Methods.extract.params.parse({ schema: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'number' } } } });
    expect(parsed.schema).toEqual({ type: 'object', properties: { a: { type: 'number' } } });
  });
});
