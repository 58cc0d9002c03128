// docs/gateway-protocol.md §6 (`embedMany`'s batches), §10.5 (the failures core's retry policy
// retries; a caller that owns the retries).
import { callEndedError } from '../call/call-scope';
import { isGatewayError } from '../errors/errors';
import type { AttemptPolicy } from '../http/attempt-policy';
import { isRetryableWithin } from '../http/retry-policy';
import type { SiblingRequest } from './sibling-requests';

/**
 * What the policies of one call's batches share (`siblingPolicy`): which batches are sent (an
 * attempt of theirs holds its slot), and the call's first failure.
 */
export interface BatchesSent {
  sent: boolean[];
  /** The batches whose request went out at least once (not stopped before it was sent). */
  posted?: boolean[];
  failure?: { reason: unknown };
}

/**
 * An internal option of `embedMany`, beside `KEPT_VECTORS` (kept-vectors.ts) and for the same
 * adapter: when the call fails, it is told each batch whose request was sent and not answered
 * (texts `start` to `end`), and no other: a batch stopped before it was sent is not told. So an
 * adapter counting each request's failed sends (the AI SDK's `maxRetries` per request) counts
 * exactly the requests that failed, not those queued behind them (rv-6embed F1).
 */
export const FAILED_BATCHES: unique symbol = Symbol.for('@infergate/core embedMany failed batches');

/** `embedMany`'s options with the adapter's ear for the batches sent and failed. */
export interface FailedBatchesOption {
  [FAILED_BATCHES]?: (start: number, end: number) => void;
}

/** Tells `failed` each of `batches` sent and left without its vectors (see `FAILED_BATCHES`). */
export function tellFailedBatches(
  failed: (start: number, end: number) => void,
  batches: readonly { start: number; end: number }[],
  sent: BatchesSent,
  vectors: readonly (number[] | undefined)[],
): void {
  batches.forEach(({ start, end }, index) => {
    if (sent.posted?.[index] === true && vectors[start] === undefined) failed(start, end);
  });
}

/**
 * `runSiblingRequests`' `letFinish` for an `embedMany` whose vectors are kept for a retry of the
 * whole call (kept-vectors.ts): after a failure core's retry policy would retry (a `Retry-After`
 * longer than `maxRetryAfterMs` is none), the batches sent finish into the kept vectors; so they
 * do after the `aborted` of a batch that failure stopped unsent. Any other failure stops them
 * (the caller's abort stops them all by itself; a deadline is a `timeout`).
 */
export function inFlightFinish(
  batches: BatchesSent,
  maxRetryAfterMs: number,
): (failure: unknown, index: number) => boolean {
  return (failure, index) =>
    batches.sent[index] === true &&
    isGatewayError(failure) &&
    (failure.code === 'aborted' || isRetryableWithin(failure, maxRetryAfterMs));
}

/**
 * `policy` for batch `index` of a call: it counts as sent while an attempt of it holds its slot
 * (from `request` to `released`: waiting to retry, it is not), its failure stops its siblings
 * before its slot is given back (`failed`). A batch let finish after the call failed is not
 * retried, nor sent again: it ends with its own failure, or as a stopped request (`aborted`).
 */
export function siblingPolicy(
  policy: AttemptPolicy,
  sibling: SiblingRequest,
  index: number,
  batches: BatchesSent,
): AttemptPolicy {
  return {
    request: (...args) => {
      // (Stopped, it ends as its scope says: the caller's abort keeps its reason.)
      if (batches.failure && !sibling.signal.aborted) throw callEndedError(batches.failure.reason);
      batches.sent[index] = true;
      // Stopped already, it is not sent: its scope's end is thrown before it would go out.
      if (!sibling.signal.aborted) {
        batches.posted ??= [];
        batches.posted[index] = true;
      }
      return policy.request(...args);
    },
    released: () => {
      batches.sent[index] = false;
    },
    next: (...args) => (batches.failure ? undefined : policy.next(...args)),
    failed: (error) => {
      batches.failure ??= { reason: error };
      sibling.stop(error);
    },
  };
}
