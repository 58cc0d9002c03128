import { describe, expect, it, vi } from 'vitest';
import { GatewayError, type GatewayErrorCode } from '../errors/errors';
import { FailoverWalk } from './failover-walk';

// A hedge whose first content decided the race takes over the cut run's walk (takeOver): what the
// unhedged walk would still have asked, and the retries left of the call's one `maxRetries`.
const retry = { maxRetryAfterMs: 60_000, retryBaseDelayMs: 0, maxRetries: 2 };
const limits = { ...retry, remainingMs: 300_000 };

const failure = (code: GatewayErrorCode, status?: number) =>
  new GatewayError({ code, message: code, status });

/** The first run over `models`, and a hedge to `spare` (taken out of its round). */
/** A 429 `model_busy` whose Retry-After asks for `retryAfterMs`. */
const busyFor = (retryAfterMs: number) =>
  new GatewayError({ code: 'model_busy', message: 'busy', status: 429, retryAfterMs });

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

  it('keeps a retry the cut run was waiting to send for a next round, its wait not counted', () => {
    // The hedge takes b; first: a fails over (502), c's 500 waits for its retry when the hedge's
    // content cuts it: that wait never ended in a retry, so it is not one of the call's two.
    const { first, hedge } = hedgedOver('a', 'b', 'c', 'd');
    first.startAttempt();
    first.next(failure('all_providers_failed', 502), 0, limits);
    first.startAttempt();
    expect(first.model).toBe('c');
    expect(first.next(failure('upstream_error', 500), 0, limits)).toHaveProperty('waitMs');
    hedge.startAttempt();
    hedge.takeOver(first);
    hedge.next(failure('invalid_structured_output', 200), 0, limits);
    // d, never tried, is asked now; c, whose retry was waiting, only in a next round (its wait).
    const asked: string[] = [];
    const failOver = (waits: number) => {
      asked.push(hedge.startAttempt());
      return hedge.next(failure('all_providers_failed', 502), waits, limits);
    };
    expect(failOver(0)).toHaveProperty('waitMs');
    expect([failOver(1), failOver(1), failOver(1)]).toEqual([
      { now: true },
      { now: true },
      expect.objectContaining({ waitMs: expect.any(Number) }),
    ]);
    expect([failOver(2), failOver(2)]).toEqual([{ now: true }, { now: true }]);
    // The call's two waits are taken: no third round.
    expect(failOver(2)).toBeUndefined();
    expect(asked).toEqual(['d', 'a', 'c', 'd', 'a', 'c', 'd']);
  });

  it('a model the cut run waited to retry keeps what is left of its Retry-After', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // The hedge takes b; a is busy for 1 s: first waits for a round retrying it.
      const { first, hedge } = hedgedOver('a', 'b');
      first.startAttempt();
      const busy = busyFor(1_000);
      expect(first.next(busy, 0, limits)).toMatchObject({ waitMs: 1_000 });
      hedge.startAttempt();
      vi.advanceTimersByTime(400);
      hedge.takeOver(first);
      // The hedge's answer refused 400 ms later: a is asked once its Retry-After passed, not now;
      // that retry's event went when first began the wait (`told`).
      expect(hedge.next(failure('invalid_structured_output', 200), 0, limits)).toEqual({
        waitMs: 600,
        failure: busy,
        model: 'a',
        told: true,
      });
      expect(hedge.startAttempt()).toBe('a');
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes nothing of a run that ended on its own but its failures, asked in a next round', () => {
    // The hedge to b failed on its own (busy 1 s, its one attempt): the first run's content decides
    // the race after; its refusal does not ask b at once, as the unhedged walk would not.
    const { first, hedge } = hedgedOver('a', 'b');
    hedge.startAttempt();
    const busy = busyFor(1_000);
    expect(hedge.next(busy, 0, limits)).toBeUndefined();
    first.adoptFailures(hedge);
    first.startAttempt();
    first.takeOver(hedge);
    expect(first.next(failure('invalid_structured_output', 200), 0, limits)).toMatchObject({
      waitMs: expect.any(Number),
      failure: busy,
    });
    expect(first.startAttempt()).toBe('b');
    expect(first.next(busy, 1, { ...limits, maxRetries: 1 })).toBeUndefined();
  });
});
