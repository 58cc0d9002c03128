import { describe, expect, it } from 'vitest';
import { serverFailure } from '../../test/helpers';
import { GatewayError } from '../errors/errors';
import { retrySameRequest } from './attempt-policy';

const limits = { maxRetries: 2, maxRetryAfterMs: 60_000, retryBaseDelayMs: 0 };
const unavailable = serverFailure('provider_unavailable', 503);

describe('retrySameRequest (the transport default policy)', () => {
  it('sends the same request each attempt, and tells `failed` when the call fails', () => {
    const failures: unknown[] = [];
    const request = { body: '{"x":1}', requestedModel: 'm' };
    const policy = retrySameRequest(request, limits, (error) => failures.push(error));
    expect(policy.request(1, undefined, {})).toBe(request);
    expect(policy.request(2, undefined, {})).toBe(request);
    policy.failed?.(unavailable);
    expect(failures).toEqual([unavailable]);
  });

  it('waits and retries what the retry policy retries, while maxRetries allows', () => {
    const policy = retrySameRequest({}, limits);
    expect(policy.next(unavailable, 0, 60_000)).toEqual({ waitMs: 0 });
    expect(policy.next(unavailable, 1, 60_000)).toEqual({ waitMs: 0 });
    expect(policy.next(unavailable, 2, 60_000)).toBeUndefined();
  });

  it('never moves on at once and never retries what is not retryable', () => {
    const policy = retrySameRequest({}, limits);
    const invalid = new GatewayError({ code: 'invalid_request_error', message: 'no', status: 400 });
    expect(policy.next(invalid, 0, 60_000)).toBeUndefined();
    // A Retry-After longer than what is left of the deadline: the call fails at once.
    const busy = new GatewayError({
      code: 'model_busy',
      message: 'busy',
      status: 429,
      retryAfterMs: 5_000,
    });
    expect(policy.next(busy, 0, 1_000)).toBeUndefined();
    expect(policy.next(busy, 0, 10_000)).toEqual({ waitMs: 5_000 });
    expect(policy.accept).toBeUndefined();
  });
});
