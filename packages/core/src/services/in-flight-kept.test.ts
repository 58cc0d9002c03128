import { describe, expect, it } from 'vitest';
import { GatewayError, isGatewayError } from '../errors/errors';
import { retrySameRequest } from '../http/attempt-policy';
import { type BatchesSent, inFlightFinish, siblingPolicy } from './in-flight-kept';
import type { SiblingRequest } from './sibling-requests';

const BUSY = new GatewayError({ code: 'model_busy', message: 'busy', status: 503 });
const LIMITS = { maxRetries: 2, maxRetryAfterMs: 60_000, retryBaseDelayMs: 0 };
const ANSWER = {};

/** A sibling that records the failures it is told to stop the others with. */
function sibling(): SiblingRequest & { stops: unknown[] } {
  const stops: unknown[] = [];
  return { stops, signal: new AbortController().signal, stop: (error) => stops.push(error) };
}

describe('siblingPolicy', () => {
  it('counts the batch sent while an attempt holds its slot; its failure stops the others', () => {
    const batches: BatchesSent = { sent: [] };
    const one = sibling();
    const policy = siblingPolicy(retrySameRequest({}, LIMITS), one, 1, batches);
    expect(batches.sent[1]).toBeUndefined();
    const request = policy.request(1, undefined, ANSWER);
    expect(batches.sent).toEqual([undefined, true]);
    // Its slot given back (to wait for a retry): no longer in flight.
    policy.released?.(request);
    expect(batches.sent).toEqual([undefined, false]);
    // Before the call failed, its own retries are the default policy's.
    expect(policy.next(BUSY, 0, 10_000)).toEqual({ waitMs: expect.any(Number) });
    policy.failed?.(BUSY);
    expect(one.stops).toEqual([BUSY]);
    expect(batches.failure?.reason).toBe(BUSY);
  });

  it('once the call failed, a batch let finish is neither retried nor sent again', () => {
    const batches: BatchesSent = { sent: [true], failure: { reason: BUSY } };
    const policy = siblingPolicy(retrySameRequest({}, LIMITS), sibling(), 0, batches);
    expect(policy.next(BUSY, 0, 10_000)).toBeUndefined();
    let thrown: unknown;
    try {
      policy.request(2, undefined, ANSWER);
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayError(thrown) && [thrown.code, thrown.cause]).toEqual(['aborted', BUSY]);
  });
});

describe('inFlightFinish', () => {
  const batches: BatchesSent = { sent: [true, false] };
  const letFinish = inFlightFinish(batches, 60_000);
  const error = (fields: Partial<ConstructorParameters<typeof GatewayError>[0]>) =>
    new GatewayError({ code: 'upstream_error', message: 'x', ...fields });

  it('lets the sent batches finish after a failure the retry policy retries, or a stopped one', () => {
    expect(letFinish(BUSY, 0)).toBe(true);
    expect(letFinish(error({ code: 'aborted' }), 0)).toBe(true);
    // Not sent: stopped.
    expect(letFinish(BUSY, 1)).toBe(false);
  });

  it('stops them after any other failure, a Retry-After too long, a deadline', () => {
    expect(letFinish(error({ code: 'model_busy', status: 503, retryAfterMs: 120_000 }), 0)).toBe(
      false,
    );
    expect(letFinish(error({ status: 400 }), 0)).toBe(false);
    expect(letFinish(error({ code: 'timeout' }), 0)).toBe(false);
    expect(letFinish(new Error('not a GatewayError'), 0)).toBe(false);
  });
});
