import type { FaultRule } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import {
  askedWhen,
  caught,
  hedgedPlaceAsked,
  hedgesOnDrivenClock,
  only,
  STREAMED_OR_WHOLE,
  settledAfter,
} from './helpers';

// A hedge whose own request fails (not cut) gives its failure to the first run's walk
// (docs/gateway-protocol.md §4.8), which retries it as the unhedged walk over the same models does.
// Over [bad, good]: the hedge to good goes at 30 ms and fails (`fault`), then bad's off-schema
// content wins the race and fails its check. The driven clock gives each request's time.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

describe.each(STREAMED_OR_WHOLE)('%s', (_, whole) => {
  hedgesOnDrivenClock();

  /** Bad's content after `badAfterMs`; good's first `times` requests fail with `fault`. */
  const hedgeFailed = (setup: {
    badAfterMs: number;
    maxRetries: number;
    retryBaseDelayMs: number;
    fault: Pick<FaultRule, 'fault' | 'retryAfter'>;
    times: number;
  }) =>
    hedgedPlaceAsked({
      first: BAD,
      fallback: GOOD,
      changed: { [BAD]: { firstChunkMs: setup.badAfterMs } },
      options: { maxRetries: setup.maxRetries, retryBaseDelayMs: setup.retryBaseDelayMs },
      faults: [{ ...setup.fault, model: GOOD, times: setup.times }],
      whole,
    });

  // A failure the walk retries on the same model (a 500 `upstream_error`, the key's 429
  // `client_concurrency_exceeded`) goes to the first run's next round: before, only failover
  // failures went over, so the first run's refused answer ended the call (`invalid_structured_output`
  // after 2 requests, where the unhedged call answers after 3: rv-6hedge F1).
  describe('a hedge failed with a failure retried in place', () => {
    it.each([{ fault: 'upstream_text' }, { fault: 'rate_limit', retryAfter: 1 }] as const)(
      'its $fault: retried by the first run after its refused answer, which answers',
      async (fault) => {
        // Bad's content after 300 ms; good fails its first request.
        const { gateway, events, call } = await hedgeFailed({
          badAfterMs: 300,
          maxRetries: 1,
          retryBaseDelayMs: 50,
          fault,
          times: 1,
        });
        // (A failed call rejects here: the test fails with its error.)
        await settledAfter(5_000, call);
        const asked = only(events, 'attempt').map((attempt) => attempt.model);
        expect(asked).toEqual([BAD, GOOD, GOOD]);
        expect(gateway.emulator.counters.requests.chat).toBe(3);
      },
    );
  });

  // A failure of its own (a 429 with Retry-After, a 503, a lost connection): a next round of that
  // walk may retry it once its Retry-After passed, within the call's `maxRetries`. The first run's
  // content, winning later, takes over nothing of it: before, its refused answer asked the hedge's
  // model again at once, before its Retry-After and beyond `maxRetries` (rv-5hedge F1).
  describe('a hedge that failed on its own, the first run winning after', () => {
    /** Bad's content after 400 ms; good's first two requests fail with `fault`. The call's error. */
    async function hedgeLostFirst(
      maxRetries: number,
      fault: Pick<FaultRule, 'fault' | 'retryAfter'>,
    ) {
      const setup = { badAfterMs: 400, maxRetries, retryBaseDelayMs: 20, fault, times: 2 };
      const { gateway, events, call } = await hedgeFailed(setup);
      const failed = await settledAfter(
        5_000,
        caught(() => call),
      );
      return {
        failed,
        asked: askedWhen(events),
        requests: gateway.emulator.counters.requests.chat,
      };
    }

    it('maxRetries 0: its model is not asked again (the unhedged call asks it once too)', async () => {
      const busy = { fault: 'model_busy', retryAfter: 1 } as const;
      const { failed, asked, requests } = await hedgeLostFirst(0, busy);
      expect(asked).toEqual([`0 ${BAD}`, `30 ${GOOD}`]);
      expect(requests).toBe(2);
      expect(failed.route?.hops.map((hop) => hop.model).sort()).toEqual([BAD, GOOD]);
    });

    it.each([{ fault: 'service_unavailable' }, { fault: 'drop_connection' }] as const)(
      'maxRetries 0, its $fault: not asked again',
      async (fault) => {
        const { asked, requests } = await hedgeLostFirst(0, fault);
        expect(asked.map((line) => line.split(' ')[1])).toEqual([BAD, GOOD]);
        expect(requests).toBe(2);
      },
    );

    it('maxRetries 1: asked again once, by a next round, once its Retry-After passed', async () => {
      const busy = { fault: 'model_busy', retryAfter: 1 } as const;
      const { failed, asked, requests } = await hedgeLostFirst(1, busy);
      // Its 429 came at 30 ms: the round after bad's refusal (at 400 ms) waits for 1,030 ms.
      expect(asked).toEqual([`0 ${BAD}`, `30 ${GOOD}`, `1030 ${GOOD}`]);
      expect(requests).toBe(3);
      expect(failed.code).toBe('model_busy');
    });
  });
});
