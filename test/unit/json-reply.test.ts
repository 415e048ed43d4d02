/**
 * Reading a model's reply as JSON (src/models/json-reply.ts) and knowing where an answer ends
 * (src/models/chat-completions.ts): the forms small models and servers without schema support
 * really produce.
 */
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { readJson, replyExcerpt, schemaProblem, withNulls } from '../../src/models/json-reply';
import { jsonEndWatcher, refusesShape, shapesFor } from '../../src/models/chat-completions';
import type { ProviderModel } from '../../src/models/call';

const value = (text: string) => {
  const r = readJson(text);
  if ('problem' in r) throw new Error(r.problem);
  return r.value;
};

describe('readJson', () => {
  it('reads JSON as it is, in a code fence, or inside prose', () => {
    expect(value('{"a":1}')).toEqual({ a: 1 });
    expect(value('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(value('Sure! Here is the answer:\n{"a": {"b": [1, 2]}}\nHope this helps.')).toEqual({ a: { b: [1, 2] } });
    expect(value('[1, 2]')).toEqual([1, 2]);
  });

  it('repairs the slips of small models: single quotes, trailing commas, Python literals, a cut-off end', () => {
    expect(value("{'a': 'x', 'b': True, 'c': None,}")).toEqual({ a: 'x', b: true, c: null });
    expect(value('{"found": true, "elementId": "e3", "reason": "the Save butt')).toEqual({ found: true, elementId: 'e3', reason: 'the Save butt' });
  });

  it('takes only an object for a schema that wants one: an id in brackets in prose is not the answer', () => {
    const schema = { type: 'object' };
    expect(readJson('[e2] heading "Shop" is it: {"elementId": "e2"}', schema)).toEqual({ value: { elementId: 'e2' } });
    expect(readJson('[e2] heading "Shop"', schema)).toEqual({ problem: 'the reply holds no JSON object' });
  });

  it('says why when there is nothing to read', () => {
    expect(readJson('   ')).toEqual({ problem: 'the reply was empty' });
    expect(readJson('I cannot help with that.')).toEqual({ problem: 'the reply holds no JSON object' });
  });
});

describe('schema checks', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['tool', 'url', 'answer'],
    properties: { tool: { type: 'string' }, url: { type: ['string', 'null'] }, answer: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
  };

  it('a required property that may be null counts as null when left out; one that may not stays missing', () => {
    expect(withNulls({ tool: 'done' }, schema)).toEqual({ tool: 'done', url: null, answer: null });
    expect(schemaProblem(withNulls({ tool: 'done' }, schema), schema)).toBeNull();
    expect(schemaProblem(withNulls({ url: 'x' }, schema), schema)).toMatch(/required property "tool"/);
  });

  it('names what does not fit, where', () => {
    expect(schemaProblem({ tool: 3, url: null, answer: null }, schema)).toMatch(/^tool: /);
    expect(schemaProblem({ tool: 'x', url: null, answer: null, extra: 1 }, schema)).toMatch(/extra/);
  });

  it('shows at most 500 characters of a reply, quoted', () => {
    const shown = replyExcerpt('x'.repeat(2000));
    expect(shown.length).toBeLessThan(510);
    expect(shown.startsWith('"x')).toBe(true);
  });
});

describe('the end of an answer', () => {
  const feed = (...chunks: string[]) => {
    const ends = jsonEndWatcher();
    return chunks.map((c) => ends(c));
  };

  it('comes when the first value closes, whatever strings hold', () => {
    expect(feed('{"a": "}{", ', '"b": [1, {"c": "\\"}"}]', '}', ' more')).toEqual([false, false, true, false]);
    expect(feed('Here: ', '[1, 2', ']')).toEqual([false, false, true]);
    expect(feed('{"a": "x\\\\"', '}')).toEqual([false, true]);
  });

  it('for an object answer, brackets before the first brace do not count', () => {
    const ends = jsonEndWatcher(/\{/);
    expect(['[e2] heading ', '"Shop" {"a": [1]', '}'].map((c) => ends(c))).toEqual([false, false, true]);
  });
});

describe('structured-output shapes', () => {
  const model = (over: Partial<ProviderModel> = {}): ProviderModel => ({
    kind: 'provider',
    name: 'm',
    provider: 'openai-compatible',
    modelId: `m-${Math.random()}`,
    baseURL: 'http://127.0.0.1:1/v1',
    ...over,
  });

  it('auto tries the strongest first; a forced shape is the only one', () => {
    expect(shapesFor(model())).toEqual(['json_schema_strict', 'json_schema', 'json_object', 'text']);
    expect(shapesFor(model({ structuredOutput: 'tool' }))).toEqual(['tool']);
  });

  it("a refusal is an HTTP error that names the request's response_format, not any failure", () => {
    const err = (statusCode: number, responseBody: string) =>
      new APICallError({ message: 'x', url: 'http://127.0.0.1:1/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody });
    expect(refusesShape(err(500, `{"error":{"message":"Input should be 'text' or 'json_object' at ('body', 'response_format', 'type')"}}`))).toBe(true);
    expect(refusesShape(err(400, "Invalid schema for response_format 'answer': additionalProperties"))).toBe(true);
    expect(refusesShape(err(500, 'CUDA out of memory'))).toBe(false);
    expect(refusesShape(err(401, 'bad key for response_format'))).toBe(false);
    expect(refusesShape(new Error('response_format'))).toBe(false);
  });
});
