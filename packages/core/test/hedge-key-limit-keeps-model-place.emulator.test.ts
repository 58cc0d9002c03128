import type { FaultRule } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import {
  askedWhen,
  drivenStructured,
  hedgesOnDrivenClock,
  only,
  PLACE_HEDGE,
  STREAMED_OR_WHOLE,
  settledAfter,
  untilEvents,
} from './helpers';

// The key's own limit (`client_concurrency_exceeded`) told to a hedge says nothing of the hedge's
// model: the unhedged walk, told it on that model, retries the same model once the key's
// Retry-After passed (docs/gateway-protocol.md §4.8). So the first run, moving on after its own
// failure, asks that model again (its place in the caller's list kept, one retry counted), not the
// next one listed: before, it went on to the third model while unhedged the second answered
// (rv-9hedge F3). The driven clock gives each request's time.
const FIRST = 'community/so-native';
const HEDGE = 'community/so-plain';
const NEXT = 'community/so-object';

describe.each(STREAMED_OR_WHOLE)("%s: a hedge told the key's limit on its model", (_, whole) => {
  hedgesOnDrivenClock();

  it.each([1, 2])(
    'maxRetries %i: the first run moving on asks that model again, after the key',
    async (maxRetries) => {
      // FIRST a 503 once (held until the hedge's 429, Retry-After 1 s, came at 30 ms).
      const faults: FaultRule[] = [
        { fault: 'service_unavailable', model: FIRST, times: 1 },
        { fault: 'rate_limit', model: HEDGE, times: 1, retryAfter: 1 },
      ];
      const options = { maxRetries, retryBaseDelayMs: 50 };
      const { gateway, client, events } = await drivenStructured({}, options, faults);
      const releaseFirst = gateway.hold('chat', { faults: true });
      const request = { model: FIRST, messages: [{ role: 'user' as const, content: 'hi' }] };
      const ask = { fallbackModels: [HEDGE, NEXT], hedge: PLACE_HEDGE };
      const call: Promise<unknown> = whole
        ? client.chat(request, ask)
        : client.chatStream(request, ask).then((stream) => stream.result());
      await settledAfter(10, gateway.untilHeld(1));
      gateway.hold('chat')();
      const keyLimit = (event: { type: string; code?: string }) =>
        event.type === 'response' && event.code === 'client_concurrency_exceeded';
      await settledAfter(
        30,
        untilEvents(events, (all) => all.some(keyLimit)),
      );
      releaseFirst();
      // (A failed call rejects here: the test fails with its error.)
      await settledAfter(10_000, call);
      expect(askedWhen(events)).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${HEDGE}`]);
      expect(only(events, 'failover')).toMatchObject([{ from: FIRST, to: HEDGE }]);
      // Its retry, as unhedged: told, and counted (one resend, one `retry` event).
      expect(only(events, 'retry')).toMatchObject([
        { model: HEDGE, reason: 'client_concurrency_exceeded' },
      ]);
      expect(only(events, 'done')).toMatchObject([{ ok: true }]);
    },
  );
});
