import { describe, expect, it } from 'vitest';
import {
  drivenStructured,
  hedgesOnDrivenClock,
  only,
  PLACE_HEDGE,
  STREAMED_OR_WHOLE,
  settledAfter,
  untilEvents,
} from './helpers';

// A hedge's failure that comes while the first run waits for a next round it fixed already joins
// that round (docs/gateway-protocol.md §4.8), as the unhedged walk's round has it: before, it went
// to the round after — one more retry, so with maxRetries 1 the call failed where the unhedged one
// answers, and with 2 it asked the first model a third time (rv-7hedge F3). The driven clock
// gives each request's time.
const FIRST = 'community/so-native';
const HEDGE = 'community/so-plain';

describe.each(STREAMED_OR_WHOLE)(
  '%s: a hedge failing while the first run waits for its next round',
  (_, whole) => {
    hedgesOnDrivenClock();

    it.each([1, 2])(
      'maxRetries %i: its model is asked in that round, which answers',
      async (maxRetries) => {
        // FIRST always 503; the hedge's HEDGE a 500 once, which comes 20 ms after FIRST's 503
        // (the first run then waits for its round's backoff, 100 to 200 ms).
        const { gateway, client, events } = await drivenStructured(
          {},
          { maxRetries, retryBaseDelayMs: 200 },
          [
            { fault: 'service_unavailable', model: FIRST },
            { fault: 'upstream_text', model: HEDGE, times: 1 },
          ],
        );
        const releaseFirst = gateway.hold('chat', { faults: true });
        const request = { model: FIRST, messages: [{ role: 'user' as const, content: 'hi' }] };
        const ask = { fallbackModels: [HEDGE], hedge: PLACE_HEDGE };
        const call: Promise<unknown> = whole
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
        // (A failed call rejects here: the test fails with its error.)
        await settledAfter(1_000, call);
        const asked = only(events, 'attempt').map((attempt) => attempt.model);
        expect(asked).toEqual([FIRST, HEDGE, FIRST, HEDGE]);
        // One round retried, as unhedged (FIRST, HEDGE, HEDGE again after the 500).
        expect(only(events, 'retry')).toHaveLength(1);
        expect(only(events, 'done')).toMatchObject([{ ok: true }]);
      },
    );
  },
);
