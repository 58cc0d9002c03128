import { describe, expect, it } from 'vitest';
import { hedgedPlaceStream, hedgesOnDrivenClock, STRUCTURED_MODELS, settledAfter } from './helpers';

// A hedge sent to a spare that failed on its own (a retryable 503, not cut) leaves that failure
// to the first run's walk (docs/gateway-protocol.md §4.7): the first run's refused answer then
// moves on to a next round that retries the spare, as the unhedged walk over [bad, good] does.
// Before, the spare was in no round of the first run and the call failed where the unhedged one
// recovered (rv-3hedge F1).

const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

describe('a hedged structured stream whose hedge to a spare failed on its own', () => {
  hedgesOnDrivenClock();

  it('retries the spare in the first run’s next round once the first answer is refused', async () => {
    // bad's content (off the schema) comes after 100 ms: the hedge to good goes first, at 30 ms.
    const models = {
      ...STRUCTURED_MODELS,
      [BAD]: { ...STRUCTURED_MODELS[BAD]!, firstChunkMs: 100 },
    };
    const { gateway, opened } = await hedgedPlaceStream({
      first: BAD,
      fallbacks: [GOOD],
      models,
      options: { maxRetries: 2 },
      faults: [{ fault: 'service_unavailable', model: GOOD, times: 1 }],
    });
    const stream = await settledAfter(2_000, opened);
    const result = await settledAfter(100, stream.result());
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe(GOOD);
    expect(stream.route.hops).toMatchObject([
      { model: GOOD, outcome: 'failed', reason: 'provider_unavailable' },
      { model: BAD, outcome: 'failed', reason: 'invalid_structured_output' },
      { model: GOOD, outcome: 'answered' },
    ]);
    expect(gateway.emulator.counters.requests.chat).toBe(3);
  });
});
