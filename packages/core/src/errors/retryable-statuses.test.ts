// docs/gateway-protocol.md §10.5: which HTTP statuses core retries. The spec keeps a model server's
// own status (§10.3), so the gateway's list (502, 503, 504) is not all a call meets: 408, 409 and
// every 5xx are retried (as the AI SDK's `APICallError` default), except 501 and 505, which say the
// request itself cannot be served. 408, 409 and 520–529 used to be final.
import { describe, expect, it } from 'vitest';
import { gatewayFailure } from './errors';
import { isRetryableFailure, isWorthNewCall } from './retryable-failure';

const retried = [408, 409, 429, 500, 502, 503, 504, 507, 520, 521, 522, 523, 524, 529, 599];
const final = [400, 401, 403, 404, 405, 410, 413, 422, 501, 505];

describe('an HTTP error answer, by its status', () => {
  it.each(retried)('%i is retryable, and worth a new call', (status) => {
    const failure = { code: 'upstream_error' as const, status };
    expect(isRetryableFailure(failure)).toBe(true);
    const error = gatewayFailure({ ...failure, message: 'm' }, {});
    expect(error.isRetryable).toBe(true);
    expect(isWorthNewCall(error)).toBe(true);
  });

  it.each(final)('%i is final', (status) => {
    const failure = { code: 'upstream_error' as const, status };
    expect(isRetryableFailure(failure)).toBe(false);
    expect(isWorthNewCall(gatewayFailure({ ...failure, message: 'm' }, {}))).toBe(false);
  });

  it('a 2xx answer that failed stays final whatever its code', () => {
    expect(isRetryableFailure({ code: 'upstream_error', status: 200 })).toBe(false);
  });
});
