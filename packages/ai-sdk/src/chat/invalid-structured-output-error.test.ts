import { TypeValidationError } from '@ai-sdk/provider';
import { GatewayError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { InvalidStructuredOutputError } from './invalid-structured-output-error';

/** Core's error for a call whose every hop answered off the schema (the last one `b`). */
const failure = new GatewayError({
  code: 'invalid_structured_output',
  message:
    'Every model tried failed (2 attempts): "a": invalid_structured_output (…); "b": invalid_structured_output (…)',
  model: 'b',
  invalidOutput: {
    method: 'json_object',
    text: '{"title":"Orbit"}',
    issues: [{ message: 'Instance does not have required property "year".', path: '' }],
  },
  route: {
    requested: ['a', 'b'],
    hops: [
      { model: 'a', outcome: 'failed', reason: 'invalid_structured_output' },
      { model: 'b', outcome: 'ended', code: 'invalid_structured_output' },
    ],
  },
});

describe('InvalidStructuredOutputError', () => {
  it("is a TypeValidationError carrying core's message, the text, the issues and the route", () => {
    const error = new InvalidStructuredOutputError(failure);
    expect(TypeValidationError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(TypeValidationError);
    expect(error.message).toBe(failure.message);
    expect(error.value).toBe('{"title":"Orbit"}');
    expect(error.text).toBe('{"title":"Orbit"}');
    expect(error.method).toBe('json_object');
    expect(error.modelId).toBe('b');
    expect(error.issues).toEqual(failure.invalidOutput?.issues);
    expect(error.route).toEqual(failure.route);
    expect(error.cause).toBe(failure);
  });

  it('has its own name and marker', () => {
    const error = new InvalidStructuredOutputError(failure);
    expect(error.name).toBe('AI_InvalidStructuredOutputError');
    expect(InvalidStructuredOutputError.isInstance(error)).toBe(true);
    const plain = new TypeValidationError({ value: 1, cause: new Error('no') });
    expect(InvalidStructuredOutputError.isInstance(plain)).toBe(false);
    expect(InvalidStructuredOutputError.isInstance(undefined)).toBe(false);
    expect(String(error)).toMatch(/^AI_InvalidStructuredOutputError: Every model tried failed/);
  });
});
