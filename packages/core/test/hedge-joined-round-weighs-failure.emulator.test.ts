import { describe, expect, it } from 'vitest';
import {
  askPlace,
  caught,
  drivenStructured,
  hedgesOnDrivenClock,
  only,
  PLACE_HEDGE,
  STREAMED_OR_WHOLE,
  settledAfter,
  untilEvents,
} from './helpers';

// A hedge's failure that comes while the first run waits for a next round it fixed joins that
// round only if the retry policy would retry it (docs/gateway-protocol.md §4.8), as every other
// model of a round is weighed: a 400 or a refused answer is never asked again, as unhedged. Before,
// the round took it once its (absent) Retry-After had passed, so the hedged call asked it twice
// (rv-9hedge F1). The driven clock gives each request's time.
const FIRST = 'community/so-native';

/**
 * FIRST always 503, released first (its run fixes its next round and waits its backoff); the
 * hedge on `hedge` (failing always with `faults`, or by its answer) released inside that wait;
 * `structured`: the call asks for the place schema (`askingPlace`), else plain text.
 */
async function hedgeFailsInTheWait(
  hedge: string,
  whole: boolean,
  faults: { fault: string }[],
  structured: boolean,
) {
  const { gateway, client, events } = await drivenStructured(
    {},
    { maxRetries: 1, retryBaseDelayMs: 200 },
    [
      { fault: 'service_unavailable', model: FIRST },
      ...faults.map((fault) => ({ ...fault, model: hedge }) as never),
    ],
  );
  const releaseFirst = gateway.hold('chat', { faults: true });
  const ask = { fallbackModels: [hedge], hedge: PLACE_HEDGE };
  const request = { model: FIRST, messages: [{ role: 'user' as const, content: 'hi' }] };
  const call: Promise<unknown> = structured
    ? askPlace(client, FIRST, ask, whole)
    : whole
      ? client.chat(request, ask)
      : client.chatStream(request, ask).then((stream) => stream.result());
  await settledAfter(10, gateway.untilHeld(1));
  const releaseHedge = gateway.hold('chat', { faults: true });
  await settledAfter(30, gateway.untilHeld(2));
  releaseFirst();
  await settledAfter(
    20,
    untilEvents(events, (all) => only(all, 'retry').length === 1),
  );
  releaseHedge();
  const error = await settledAfter(
    1_000,
    caught(() => call),
  );
  return { events, error };
}

describe.each(STREAMED_OR_WHOLE)(
  '%s: a hedge failing unretryably while the first run waits for its next round',
  (_, whole) => {
    hedgesOnDrivenClock();

    it('a 400 of its model is not asked again in that round', async () => {
      const hedge = 'community/so-plain';
      const { events, error } = await hedgeFailsInTheWait(
        hedge,
        whole,
        [{ fault: 'upstream_json' }],
        false,
      );
      expect(only(events, 'attempt').map((attempt) => attempt.model)).toEqual([
        FIRST,
        hedge,
        FIRST,
      ]);
      expect(error.code).toBe('provider_unavailable');
    });

    it('a refused answer (off-schema) is not asked again; the call ends as unhedged', async () => {
      const hedge = 'community/so-claimed';
      const { events, error } = await hedgeFailsInTheWait(hedge, whole, [], true);
      expect(only(events, 'attempt').map((attempt) => attempt.model)).toEqual([
        FIRST,
        hedge,
        FIRST,
      ]);
      // Unhedged: FIRST, so-claimed refused, FIRST again in the round: its 503 ends the call.
      expect(error.code).toBe('provider_unavailable');
    });
  },
);
