/** Credentials are scrubbed from every message that leaves the service. */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/protocol/redact';
import { environmentSecrets, scrubCredentials } from '../../src/client/models';
import { mapModelError } from '../../src/models/provider-call';
import { APICallError } from 'ai';

describe('redactSecrets', () => {
  it('masks the given secret values, plain and URL-encoded', () => {
    const out = redactSecrets('key my-very-secret/value and my-very-secret%2Fvalue end', ['my-very-secret/value']);
    expect(out).not.toContain('my-very-secret');
    expect(out).toBe('key [redacted] and [redacted] end');
  });

  it('masks anything shaped like a credential, whoever it belongs to', () => {
    const cases = [
      'Incorrect API key provided: sk-proj-abcdefghijklmnop1234',
      'header Authorization: Bearer abc.def.ghi-jkl_mno',
      '{"api_key": "zq8Xk2pL0vWm"}',
      'x-api-key=qwertyuiop123',
      'google key AIzaSyA1234567890abcdefghijk',
      'aws AKIAABCDEFGHIJKLMNOP',
      '-----BEGIN PRIVATE KEY-----\nMIIEv...\n-----END PRIVATE KEY-----',
      'service key dh_abcdefghijklmnopqrstuv',
    ];
    for (const c of cases) {
      const out = redactSecrets(c);
      expect(out, c).toContain('[redacted]');
      expect(out).not.toMatch(/sk-proj-abc|abc\.def\.ghi|zq8Xk2pL0vWm|qwertyuiop123|AIzaSyA123|AKIAABCDEF|MIIEv|dh_abcdef/);
    }
  });

  it('leaves ordinary text alone, and short values are not treated as secrets', () => {
    expect(redactSecrets('the button "Sign in" was clicked', ['abc'])).toBe('the button "Sign in" was clicked');
    // Validation messages that name a credential field stay readable.
    expect(redactSecrets('invalid model configuration: apiKey: Required')).toBe('invalid model configuration: apiKey: Required');
    expect(redactSecrets('password: must be at least 8 characters')).toBe('password: must be at least 8 characters');
  });
});

describe('scrubbing at the edges', () => {
  it("a provider error that echoes the call's key comes back without it", () => {
    const e = new APICallError({
      message: 'Incorrect API key provided: callerkey-1234567890. You can find your API key at ...',
      url: 'http://x.test/v1/responses',
      requestBodyValues: {},
      statusCode: 401,
    });
    const m = mapModelError(e, { kind: 'provider', name: 'openai/gpt', provider: 'openai', modelId: 'gpt', apiKey: 'callerkey-1234567890' } as never, 1000);
    expect(m.code).toBe('MODEL_AUTH_FAILED');
    expect(m.message).not.toContain('callerkey-1234567890');
    expect(m.message).toContain('[redacted]');
  });

  it("the environment's keys are scrubbed from any text", () => {
    const env = { OPENAI_API_KEY: 'plainenvkey-42424242', DECKHAND_API_KEYS: 'svc-key-one-1,svc-key-two-2', AWS_SECRET_ACCESS_KEY: 'awssecret-999' };
    expect(environmentSecrets(env)).toEqual(expect.arrayContaining(['plainenvkey-42424242', 'svc-key-one-1', 'svc-key-two-2', 'awssecret-999']));
    const out = scrubCredentials('failed with plainenvkey-42424242 for svc-key-two-2 and awssecret-999', [], env);
    expect(out).toBe('failed with [redacted] for [redacted] and [redacted]');
  });
});
