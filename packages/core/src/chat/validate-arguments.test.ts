import { describe, expect, it } from 'vitest';
import {
  missingCapabilities,
  modelsWithCapabilities,
  readNeeds,
} from '../catalog/model-capabilities';
import { createGatewayClient } from '../client/client';
import { isGatewayError } from '../errors/errors';
import { parseRetryAfter } from '../http/retry-policy';
import { checkSerialisable, validateChatRequest } from './validate-chat';

const base = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('numbers that JSON cannot carry are refused, not sent as null', () => {
  it.each([
    ['temperature', Number.NaN],
    ['top_p', Number.POSITIVE_INFINITY],
    ['max_tokens', Number.NEGATIVE_INFINITY],
    ['seed', Number.NaN],
  ])('%s: %s', (field, value) => {
    const error = refusal(() => validateChatRequest({ ...base, [field]: value }));
    expect(error).toMatchObject({ code: 'invalid_request_error', field });
    expect(error.message).toContain(String(value));
  });

  it('a finite value passes', () => {
    expect(() => validateChatRequest({ ...base, temperature: 0.2, top_p: 1 })).not.toThrow();
  });

  it('through the client: nothing is sent', async () => {
    let sent = 0;
    const client = createGatewayClient({
      baseURL: 'https://nan.test',
      apiKey: 'k-nan',
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    await expect(client.chat({ ...base, temperature: Number.NaN })).rejects.toMatchObject({
      code: 'invalid_request_error',
      field: 'temperature',
    });
    expect(sent).toBe(0);
  });
});

describe('schemas must be serialisable', () => {
  const tool = (parameters: unknown) => ({
    ...base,
    tools: [{ type: 'function' as const, function: { name: 'f', parameters } }],
  });

  it('circular schema', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    schema.properties = { self: schema };
    const error = refusal(() => validateChatRequest(tool(schema) as never));
    expect(error).toMatchObject({ code: 'invalid_request_error' });
    expect(error.message).toContain('circular');
  });

  it('BigInt in a schema', () => {
    const error = refusal(() =>
      validateChatRequest(tool({ type: 'integer', maximum: 10n }) as never),
    );
    expect(error.message).toContain('BigInt');
  });

  it('very deep schema (100 000 levels) is refused without a stack overflow', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) schema = { type: 'array', items: schema };
    const error = refusal(() =>
      validateChatRequest({
        ...base,
        response_format: { type: 'json_schema', json_schema: { name: 's', schema } },
      } as never),
    );
    expect(error.field).toBe('response_format.json_schema.schema');
    expect(error.message).toContain('64 levels');
  });

  it('shared (non-circular) sub-schemas and ordinary depth pass', () => {
    const shared = { type: 'string' };
    expect(() => checkSerialisable('s', { a: shared, b: shared, c: [shared] })).not.toThrow();
  });

  it('Infinity inside a schema', () => {
    expect(
      refusal(() => checkSerialisable('s', { maximum: Number.POSITIVE_INFINITY })).message,
    ).toContain('Infinity');
  });
});

describe('capability checks read `needs`', () => {
  it('a string is one capability', () => {
    expect(readNeeds('vision')).toEqual(['vision']);
    expect(missingCapabilities(['chat'], 'vision' as never)).toEqual(['vision']);
    expect(
      modelsWithCapabilities([{ id: 'a', capabilities: ['vision'] } as never], 'vision' as never),
    ).toEqual(['a']);
  });

  it('anything else that is not a list of strings is invalid_request_error', () => {
    expect(refusal(() => readNeeds(42))).toMatchObject({
      code: 'invalid_request_error',
      field: 'needs',
    });
    expect(refusal(() => readNeeds(['chat', 3]))).toMatchObject({ field: 'needs[1]' });
  });
});

describe('Retry-After per RFC 9110', () => {
  const now = Date.parse('2026-11-22T00:00:00Z');
  it.each([
    ['3', 3000],
    ['0', 0],
    ['Sun, 22 Nov 2026 00:00:07 GMT', 7000],
    ['Sunday, 22-Nov-26 00:00:09 GMT', 9000],
    ['Sun Nov 22 00:00:05 2026', 5000],
  ])('%s → %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each(['-1', '5, 6', '1e3', 'soon', '+5', 'Sun, 22 Nov 2026', '2026-11-22T00:00:07Z'])(
    '%s is ignored (undefined), not 0',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );
});

describe('a missing field is named as missing', () => {
  it('no `messages`: "got nothing (undefined)", not "got undefined undefined"', () => {
    const error = refusal(() => validateChatRequest({ model: 'm' } as never));
    expect(error.message).toContain('messages');
    expect(error.message).toContain('got nothing (undefined)');
    expect(error.message).not.toContain('undefined undefined');
  });
});

describe('validateChatRequest returns the request as the call sends it', () => {
  it('the same object when no optional field is null: nothing copied', () => {
    const request = { ...base, temperature: 0.2 };
    expect(validateChatRequest(request)).toBe(request);
  });

  it('a copy without the null optional fields, the caller’s request unchanged', () => {
    const request = { ...base, seed: null, stop: null, logit_bias: null } as never;
    expect(validateChatRequest(request)).toEqual({ ...base, logit_bias: null });
    expect(request).toEqual({ ...base, seed: null, stop: null, logit_bias: null });
  });
});
