import { describe, expect, it } from 'vitest';
import {
  askedWhen,
  caught,
  hedgedPlaceAsked,
  hedgesOnDrivenClock,
  STREAMED_OR_WHOLE,
  settledAfter,
} from './helpers';

// A hedge that failed on its own (not cut: a 429 with Retry-After, a 503, a lost connection) gives
// its failure to the first run's walk (docs/gateway-protocol.md §4.8): a next round of that walk
// may retry it once its Retry-After passed, within the call's `maxRetries` — as the unhedged walk
// over the same models asks it. The first run's content, winning later, takes over nothing of it:
// before, its refused answer asked the hedge's model again at once, before its Retry-After and
// beyond `maxRetries` (rv-5hedge F1). The driven clock gives each request's time.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

/**
 * Over [bad, good], bad's off-schema content after 400 ms: the hedge to good goes at 30 ms and
 * fails on its own (`fault`), then bad's content wins the race and fails its check.
 */
async function hedgeLostFirst(
  whole: boolean,
  maxRetries: number,
  fault: { fault: 'model_busy' | 'service_unavailable' | 'drop_connection'; retryAfter?: number },
) {
  const { gateway, events, call } = await hedgedPlaceAsked({
    first: BAD,
    fallback: GOOD,
    changed: { [BAD]: { firstChunkMs: 400 } },
    options: { maxRetries, retryBaseDelayMs: 20 },
    faults: [{ ...fault, model: GOOD, times: 2 }],
    whole,
  });
  const failed = await settledAfter(
    5_000,
    caught(() => call),
  );
  return { failed, asked: askedWhen(events), requests: gateway.emulator.counters.requests.chat };
}

describe.each(STREAMED_OR_WHOLE)(
  '%s: a hedge that failed on its own, the first run winning after',
  (_, whole) => {
    hedgesOnDrivenClock();

    it('maxRetries 0: its model is not asked again (the unhedged call asks it once too)', async () => {
      const busy = { fault: 'model_busy', retryAfter: 1 } as const;
      const { failed, asked, requests } = await hedgeLostFirst(whole, 0, busy);
      expect(asked).toEqual([`0 ${BAD}`, `30 ${GOOD}`]);
      expect(requests).toBe(2);
      expect(failed.route?.hops.map((hop) => hop.model).sort()).toEqual([BAD, GOOD]);
    });

    it.each([{ fault: 'service_unavailable' }, { fault: 'drop_connection' }] as const)(
      'maxRetries 0, its $fault: not asked again',
      async (fault) => {
        const { asked, requests } = await hedgeLostFirst(whole, 0, fault);
        expect(asked.map((line) => line.split(' ')[1])).toEqual([BAD, GOOD]);
        expect(requests).toBe(2);
      },
    );

    it('maxRetries 1: asked again once, by a next round, once its Retry-After passed', async () => {
      const busy = { fault: 'model_busy', retryAfter: 1 } as const;
      const { failed, asked, requests } = await hedgeLostFirst(whole, 1, busy);
      // Its 429 came at 30 ms: the round after bad's refusal (at 400 ms) waits for 1,030 ms.
      expect(asked).toEqual([`0 ${BAD}`, `30 ${GOOD}`, `1030 ${GOOD}`]);
      expect(requests).toBe(3);
      expect(failed.code).toBe('model_busy');
    });
  },
);
