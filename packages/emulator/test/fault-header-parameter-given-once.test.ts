import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index';
import { call, errorBodyOf } from './helpers';

// `retryAfter=1; retryAfter=9` took the last, `retryAfter=5=60` took 5: a guess at what the test
// meant. Every other malformed X-Emulator-Fault is a 400 naming the header; these are too.

describe('an X-Emulator-Fault parameter', () => {
  it.each([
    ['rate_limit; retryAfter=1; retryAfter=9', /'retryAfter' is given more than once/],
    ['rate_limit; retryAfter=5=60', /'retryAfter=5=60' \(one '=' between a key and its number\)/],
  ])('is refused: %s', async (fault, message) => {
    const response = await call(createEmulator(), '/models', {
      headers: { 'x-emulator-fault': fault },
    });
    expect(response.headers.get('retry-after')).toBeNull();
    const error = await errorBodyOf(response);
    expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    expect(error.message).toMatch(message);
  });

  it('given once with one value is taken', async () => {
    const response = await call(createEmulator(), '/models', {
      headers: { 'x-emulator-fault': 'rate_limit; retryAfter=9' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('9');
  });
});
