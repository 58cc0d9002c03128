import { describe, expect, it } from 'vitest';
import { readStructuredOutput, STRUCTURED_OUTPUT_METHODS } from '../call/structured-output-options';
import { GatewayError } from '../errors/errors';
import { chooseStructuredOutputMethod, chooseUnlistedMethod } from './structured-output-method';

const all = { methods: STRUCTURED_OUTPUT_METHODS };

function choose(
  capabilities: string[],
  needs: Parameters<typeof chooseStructuredOutputMethod>[2] = all,
  verification?: string,
) {
  return chooseStructuredOutputMethod('m', { capabilities, verification }, needs);
}

describe('chooseStructuredOutputMethod', () => {
  it('prefers json_schema, then tools, then json_object, by default', () => {
    expect(choose(['chat', 'json_object', 'tools', 'json_schema'])).toEqual({
      method: 'json_schema',
    });
    expect(choose(['chat', 'json_object', 'tools'])).toEqual({ method: 'tools' });
    expect(choose(['chat', 'json_object'])).toEqual({ method: 'json_object' });
  });

  it('follows the order the caller gives, and only the methods it allows', () => {
    const caps = ['chat', 'json_object', 'tools', 'json_schema'];
    expect(choose(caps, { methods: ['json_object', 'json_schema'] })).toEqual({
      method: 'json_object',
    });
    expect(choose(caps, { methods: ['tools'] })).toEqual({ method: 'tools' });
    const skip = choose(['chat', 'json_object'], { methods: ['json_schema', 'tools'] });
    expect(skip).toEqual({
      skip: 'missing_capability',
      detail:
        'Model "m" serves a JSON schema only by json_object, and the call allows json_schema, tools',
    });
  });

  it('skips a model with none of the three, saying so', () => {
    expect(choose(['chat', 'streaming'])).toEqual({
      skip: 'missing_capability',
      detail:
        'Model "m" cannot serve a JSON schema: it lists none of json_schema, tools, json_object',
    });
    // An entry without a capabilities array has none.
    expect(
      chooseStructuredOutputMethod('m', { capabilities: undefined as never }, all),
    ).toHaveProperty('skip');
  });

  it('does not force a tool call over the request’s own tools', () => {
    expect(choose(['chat', 'tools', 'json_object'], { ...all, ownTools: true })).toEqual({
      method: 'json_object',
    });
    const skip = choose(['chat', 'tools'], { ...all, ownTools: true });
    expect(skip).toHaveProperty('skip', 'missing_capability');
    expect((skip as { detail: string }).detail).toMatch(
      /tools is left out because the request has tools of its own/,
    );
  });

  it('keeps the own-tools rule for a model whose capabilities are unknown', () => {
    const methods = ['tools', 'json_schema'] as const;
    expect(chooseUnlistedMethod('my/own', { methods: [...methods] })).toEqual({ method: 'tools' });
    expect(chooseUnlistedMethod('my/own', { methods: [...methods], ownTools: true })).toEqual({
      method: 'json_schema',
    });
    const skip = chooseUnlistedMethod('my/own', { methods: ['tools'], ownTools: true });
    expect(skip).toHaveProperty('skip', 'missing_capability');
    expect((skip as { detail: string }).detail).toMatch(
      /tools is left out because the request has tools of its own/,
    );
  });

  it('reports the verification without letting it reorder the methods', () => {
    expect(choose(['chat', 'tools', 'json_schema'], all, 'provider_claimed')).toEqual({
      method: 'json_schema',
      verification: 'provider_claimed',
    });
    expect(choose(['chat', 'json_schema'], all, 'exact')).toEqual({
      method: 'json_schema',
      verification: 'exact',
    });
  });
});

describe('readStructuredOutput', () => {
  it('defaults to all three methods in order', () => {
    expect(readStructuredOutput(undefined, 'call option')).toEqual([
      'json_schema',
      'tools',
      'json_object',
    ]);
    expect(readStructuredOutput({}, 'call option')).toEqual([
      'json_schema',
      'tools',
      'json_object',
    ]);
    expect(readStructuredOutput({ methods: ['tools', 'json_object'] }, 'model setting')).toEqual([
      'tools',
      'json_object',
    ]);
  });

  function refusal(value: unknown, place: 'call option' | 'client option' = 'call option') {
    try {
      readStructuredOutput(value, place);
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      const { code, field, message } = error as GatewayError;
      return { code, field, message };
    }
    throw new Error('not refused');
  }

  it('refuses a bad value before sending, naming the field, with the code of its place', () => {
    expect(refusal('json_schema')).toEqual({
      code: 'invalid_request_error',
      field: 'structuredOutput',
      message:
        'structuredOutput (call option) must be { methods?, standard?, lastAnswer? }, got a string',
    });
    expect(refusal({ methods: [] }, 'client option')).toEqual({
      code: 'configuration_error',
      field: 'structuredOutput.methods',
      message:
        'structuredOutput.methods (client option) must list at least one method, got an empty array',
    });
    expect(refusal({ methods: ['json_schema', 'xml'] })).toMatchObject({
      field: 'structuredOutput.methods[1]',
      message:
        'structuredOutput.methods[1] (call option) must be one of json_schema, tools, json_object, got "xml"',
    });
    expect(refusal({ methods: ['tools', 'tools'] })).toMatchObject({
      field: 'structuredOutput.methods[1]',
      message: 'structuredOutput.methods[1] (call option) repeats structuredOutput.methods[0]',
    });
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    expect(refusal({ methods: [, 'tools'] })).toMatchObject({
      field: 'structuredOutput.methods[0]',
    });
    expect(refusal({ methods: [7] }).message).toMatch(/got a number$/);
    expect(refusal({ methods: 'tools' }).message).toMatch(/got a string$/);
    expect(refusal({ method: ['tools'] })).toMatchObject({
      field: 'structuredOutput.method',
      message: expect.stringMatching(
        /unknown option `method` in structuredOutput — did you mean `methods`/,
      ),
    });
  });

  it('takes a Standard Schema per call only, and refuses anything else there', () => {
    const standard = {
      '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
    };
    expect(readStructuredOutput({ standard }, 'call option')).toHaveLength(3);
    expect(refusal({ standard }, 'client option')).toMatchObject({
      field: 'structuredOutput.standard',
      message: expect.stringMatching(/is a call option only/),
    });
    expect(refusal({ standard: { parse() {} } })).toMatchObject({
      field: 'structuredOutput.standard',
      message: expect.stringMatching(/must be a Standard Schema .* got an object$/),
    });
  });

  it('quotes a long unknown method only in part', () => {
    expect(refusal({ methods: ['x'.repeat(500)] }).message.length).toBeLessThan(200);
  });
});
