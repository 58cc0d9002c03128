import { describe, expect, it } from 'vitest';
import { isGatewayError } from './index';
import { invalidRequest, utf8ByteLength } from './internal';

describe('invalidRequest', () => {
  it('is the exported validation refusal: field set, message led by the field', () => {
    const error = invalidRequest('tools[1]', 'two tools are named "search"');
    expect(isGatewayError(error)).toBe(true);
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe('tools[1]');
    expect(error.message).toBe('tools[1]: two tools are named "search"');
    expect(error.isRetryable).toBe(false);
    expect(error.status).toBeUndefined();
  });
});

describe('utf8ByteLength', () => {
  it('is exported and counts as TextEncoder does', () => {
    for (const text of ['', 'abc', 'привіт', '👍🏽', '\ud800x']) {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});
