import { describe, expect, it } from 'vitest';
import { GatewayError, type GatewayErrorCode } from '../errors/errors';
import { FailoverWalk } from './failover-walk';

// A hedge whose first content decided the race takes over the cut run's walk (takeOver): what the
// unhedged walk would still have asked, and the retries left of the call's one `maxRetries`.
const retry = { maxRetryAfterMs: 60_000, retryBaseDelayMs: 0, maxRetries: 2 };
const limits = { ...retry, remainingMs: 300_000 };

const failure = (code: GatewayErrorCode, status?: number) =>
  new GatewayError({ code, message: code, status });

/** The first run over `models`, and a hedge to `spare` (taken out of its round). */
function hedgedOver(...models: string[]) {
  const first = new FailoverWalk({ models, bodyFor: (model) => model });
  const spare = first.spare()!.model;
  const hedge = new FailoverWalk({
    models: [spare],
    bodyFor: (model) => model,
    routeOf: first,
    oneAttempt: true,
  });
  return { first, hedge };
}

describe('FailoverWalk.takeOver', () => {
  it('a hedge takes its one attempt only, until it takes over the cut run: then the call’s retries', () => {
    const { first, hedge } = hedgedOver('a', 'b');
    hedge.startAttempt();
    expect(hedge.movesOn(limits.remainingMs, retry)).toBe(false);
    first.startAttempt();
    hedge.takeOver(first);
    hedge.next(failure('invalid_structured_output', 200), 0, limits);
    hedge.startAttempt();
    expect(hedge.model).toBe('a');
    // A 500 of the re-asked model is retried on it, as the unhedged walk's is.
    expect(hedge.next(failure('upstream_error', 500), 0, limits)).toMatchObject({
      waitMs: expect.any(Number),
    });
  });

  it('takes a model the cut run was waiting to retry, its earlier failures and its waits', () => {
    // The hedge takes b; first: a fails over (502), c's 500 waits for its retry (one of the call's
    // two waits) when the hedge's content cuts it.
    const { first, hedge } = hedgedOver('a', 'b', 'c', 'd');
    first.startAttempt();
    first.next(failure('all_providers_failed', 502), 0, limits);
    first.startAttempt();
    expect(first.model).toBe('c');
    expect(first.next(failure('upstream_error', 500), 0, limits)).toHaveProperty('waitMs');
    hedge.startAttempt();
    hedge.takeOver(first);
    hedge.next(failure('invalid_structured_output', 200), 0, limits);
    // c, whose retry the unhedged walk would send, is asked now, then d, never tried.
    const asked: string[] = [];
    const failOver = (waits: number) => {
      asked.push(hedge.startAttempt());
      return hedge.next(failure('all_providers_failed', 502), waits, limits);
    };
    expect(failOver(0)).toEqual({ now: true });
    // Every model failed over: a next round (the call's second wait) retries a, the cut run's.
    expect(failOver(0)).toHaveProperty('waitMs');
    expect([failOver(1), failOver(1)]).toEqual([{ now: true }, { now: true }]);
    // The call's two waits are taken, one by the cut run: no third round.
    expect(failOver(1)).toBeUndefined();
    expect(asked).toEqual(['c', 'd', 'a', 'c', 'd']);
  });
});
