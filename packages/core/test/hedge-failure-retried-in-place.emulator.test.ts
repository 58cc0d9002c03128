import { describe, expect, it } from 'vitest';
import {
  hedgedPlaceAsked,
  hedgesOnDrivenClock,
  only,
  STREAMED_OR_WHOLE,
  settledAfter,
} from './helpers';

// A hedge whose one request fails with a failure the walk retries on the same model (a 500
// `upstream_error`, the key's 429 `client_concurrency_exceeded`) gives it to the first run's next
// round (docs/gateway-protocol.md §4.8), as the unhedged walk over the same models retries it:
// before, only failover failures went over, so the first run's refused answer ended the call
// (`invalid_structured_output` after 2 requests, where the unhedged call answers after 3:
// rv-6hedge F1). The driven clock gives each request's time.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

/** Over [bad, good], bad's off-schema content after 300 ms; good fails its first request. */
async function hedgedOver(
  whole: boolean,
  fault: { fault: 'upstream_text' | 'rate_limit'; retryAfter?: number },
) {
  const { gateway, events, call } = await hedgedPlaceAsked({
    first: BAD,
    fallback: GOOD,
    changed: { [BAD]: { firstChunkMs: 300 } },
    options: { maxRetries: 1, retryBaseDelayMs: 50 },
    faults: [{ ...fault, model: GOOD, times: 1 }],
    whole,
  });
  // (A failed call rejects here: the test fails with its error.)
  await settledAfter(5_000, call);
  const asked = only(events, 'attempt').map((attempt) => attempt.model);
  return { asked, requests: gateway.emulator.counters.requests.chat };
}

describe.each(STREAMED_OR_WHOLE)(
  '%s: a hedge failed with a failure retried in place',
  (_, whole) => {
    hedgesOnDrivenClock();

    it.each([{ fault: 'upstream_text' }, { fault: 'rate_limit', retryAfter: 1 }] as const)(
      'its $fault: retried by the first run after its refused answer, which answers',
      async (fault) => {
        const { asked, requests } = await hedgedOver(whole, fault);
        expect(asked).toEqual([BAD, GOOD, GOOD]);
        expect(requests).toBe(3);
      },
    );
  },
);
