// docs/gateway-protocol.md §5.3 (an error in a 2xx answer), §10.5 (retried as the same failure
// answered with its status: its Retry-After honoured as on a 429).
import { type GatewayError, withFailureContext } from '../errors/errors';
import { parseRetryAfter } from './retry-policy';

/**
 * The one reading of a failure a 2xx answer reported instead of any content — a whole body that
 * is an error object, a stream answered with one, a stream whose first event is one, whichever
 * call read it: no answer was given, so it is retryable by its code as the same failure answered
 * with a status would be, its wait the answer's `Retry-After` (read here when the error has none),
 * one longer than `maxRetryAfterMs` not retried (the caller gets it in `retryAfterMs`). Returns
 * `error`.
 */
export function reportedInsteadOfContent(
  error: GatewayError,
  headers: Headers,
  maxRetryAfterMs: number | undefined,
): GatewayError {
  if (error.retryAfterMs === undefined) {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
    if (retryAfterMs !== undefined)
      (error as { retryAfterMs?: number }).retryAfterMs = retryAfterMs;
  }
  return withFailureContext(error, { reportedInstead: true, maxRetryAfterMs });
}
