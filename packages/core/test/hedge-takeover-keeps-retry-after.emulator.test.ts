import { describe, expect, it } from 'vitest';
import {
  askingPlace,
  driveClock,
  hedgesOnDrivenClock,
  only,
  settledAfter,
  stalledOnce,
  structuredGateway,
} from './helpers';

// A hedge whose content cut the first run while that run waited to retry a model (a round after
// its 429 with Retry-After) takes that retry over with its failure and what is left of its wait
// (docs/gateway-protocol.md §4.8): its refused answer asks the model once its Retry-After passed,
// as the unhedged walk does, not at once (rv-5hedge F2). The driven clock gives each request's time.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

describe('a hedge that won while the cut run waited for a Retry-After', () => {
  hedgesOnDrivenClock();

  it('asks the model the cut run waited for once its Retry-After passed', async () => {
    // Over [good, bad], bad's content 85 ms after its request: good's first request stalls (cut at
    // 100 ms), the hedge to bad goes at 30 ms, good's retry at 100 ms is busy for 1 s: the first
    // run waits for it when bad's content cuts it, at 115 ms.
    const { gateway, client, events } = await structuredGateway(
      { [BAD]: { firstChunkMs: 85 } },
      { maxRetries: 2, retryBaseDelayMs: 0, firstChunkTimeoutMs: 100 },
    );
    stalledOnce(gateway.emulator, GOOD);
    gateway.emulator.injectFault({
      fault: 'model_busy',
      model: GOOD,
      times: 1,
      afterRequests: 1,
      retryAfter: 1,
    });
    driveClock();
    const call = client
      .chatStream(askingPlace(GOOD), { fallbackModels: [BAD], hedge: { afterMs: 30, maxExtra: 1 } })
      .then((stream) => stream.result());
    const result = await settledAfter(3_000, call);
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    const attempts = only(events, 'attempt');
    expect(attempts.map((attempt) => attempt.model)).toEqual([GOOD, BAD, GOOD, GOOD]);
    // Good's 429 (Retry-After: 1) came at its second request, ~100 ms; bad's refusal at ~115 ms.
    const [, , busy, again] = attempts.map((attempt) => attempt.time);
    expect(again! - busy!).toBeGreaterThanOrEqual(1_000);
    expect(only(events, 'retry').at(-1)).toMatchObject({ reason: 'model_busy' });
    expect(gateway.emulator.counters.requests.chat).toBe(4);
  });
});
