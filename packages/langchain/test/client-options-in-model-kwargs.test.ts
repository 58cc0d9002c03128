import { describe, expect, it } from 'vitest';
import { refusedKwargs } from './refused-before-sending';

const CLIENT = /no request field: a client option: pass `client: createGatewayClient\(\{…\}\)`/;

/**
 * `modelKwargs` are request fields sent as they are: core's client options given there would reach
 * the model server, nothing set, and a model's `timeout` too. Refused, a model's and a call's, before
 * any request, naming where each goes.
 */
describe('client options and `timeout` in modelKwargs are refused, not sent', () => {
  it.each([
    [{ circuitBreaker: { failures: 3 } }, 'circuitBreaker', CLIENT],
    [{ maxRetryAfterMs: 10 }, 'maxRetryAfterMs', CLIENT],
    [{ maxResponseBytes: 1024 }, 'maxResponseBytes', CLIENT],
    [{ catalogTtlMs: 5 }, 'catalogTtlMs', CLIENT],
    [
      { timeout: 5000 },
      'timeout',
      /`timeout` is no request field: a model setting or a call option/,
    ],
  ])('%o', async (kwargs, key, message) => {
    const { refusals, bodies } = await refusedKwargs(() => kwargs);
    for (const [error, code] of refusals) {
      expect(error.code).toBe(code);
      expect(error.field).toBe(key);
      expect(error.message).toMatch(message);
      // (`timeout` is named for itself, not as a near miss of `timeoutMs`.)
      expect(error.message).not.toContain('did you mean');
    }
    expect(bodies).toHaveLength(0);
  });
});
