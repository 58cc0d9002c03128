import { describe, expect, it } from 'vitest';
import {
  FOREVER,
  hedgedPlaceStream,
  hedgesOnDrivenClock,
  hi,
  only,
  settledAfter,
  untilHedgeCut,
} from './helpers';

// A hedge whose first content cut the first run takes over the models that run had left
// (docs/gateway-protocol.md §4.7): they are later hops of the call, read against their breakers
// again as any later hop is (README §Circuit breakers). A breaker that opened while the hedge's
// answer was held leaves its model out: no request, a `circuit_open` skip (rv-3hedge F2).

const SILENT_MS = 1_000;
const FIRST = 'community/so-object';
const HEDGED = 'community/so-claimed';
const LAST = 'community/so-native';

describe('a hedge that took over the cut run’s models', () => {
  hedgesOnDrivenClock();

  it('leaves out a taken-over model whose breaker opened meanwhile', async () => {
    const { gateway, client, events, opened } = await hedgedPlaceStream({
      first: FIRST,
      fallbacks: [HEDGED, LAST],
      options: { circuitBreaker: { failures: 1, cooldownMs: FOREVER }, maxRetries: 0 },
      faults: [
        // FIRST never sends its first chunk, then answers 503 once: the other call opens its breaker.
        { fault: 'stall_first_chunk', model: FIRST, ms: FOREVER, times: 1 },
        { fault: 'service_unavailable', model: FIRST, afterRequests: 1, times: 1 },
        // The hedge's content decides the race, then its answer (off the schema) is held a while.
        { fault: 'stall_stream', model: HEDGED, afterChunks: 3, ms: SILENT_MS },
      ],
    });
    const { emulator } = gateway;
    await untilHedgeCut(gateway);
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', model: HEDGED },
      { phase: 'won', model: HEDGED, winner: 'hedge', lost: FIRST },
    ]);
    const other = client.chat(hi(FIRST), { fallbackModels: ['community/so-plain'] });
    await settledAfter(0, other);
    expect(only(events, 'circuit-open')).toMatchObject([{ model: FIRST }]);

    const stream = await settledAfter(SILENT_MS + 100, opened);
    await settledAfter(0, stream.result());
    expect(stream.route.hops).toMatchObject([
      { model: FIRST, outcome: 'lost' },
      { model: HEDGED, outcome: 'failed', reason: 'invalid_structured_output' },
      { model: FIRST, outcome: 'skipped', reason: 'circuit_open' },
      { model: LAST, outcome: 'answered' },
    ]);
    expect(only(events, 'model-skipped')).toMatchObject([{ model: FIRST, reason: 'circuit_open' }]);
    // FIRST had two requests: the call's cut one, the other call's 503. Its breaker stays open.
    expect(emulator.counters.requests.chat).toBe(5);
    expect(only(events, 'circuit-close')).toEqual([]);
  });
});
