import type { FaultRule } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import {
  askedWhen,
  drivenStructured,
  hedgesOnDrivenClock,
  PLACE_HEDGE,
  STREAMED_OR_WHOLE,
  settledAfter,
  untilEvents,
} from './helpers';

// The key's Retry-After told to a hedge holds the first run's next request back only while the
// held request keeps a fair chance of the deadline: as much time after the hold as the hold
// itself (docs/gateway-protocol.md §4.8). Before, any hold that ended before the deadline was
// taken, so a retry held to 1030 ms of a 1300 ms deadline timed out where the unhedged call,
// never told the key's limit, retried after its backoff and answered (rv-9hedge F2). The driven
// clock gives each request's time.
const FIRST = 'community/so-native';
const HEDGE = 'community/so-plain';

/**
 * Over [FIRST, HEDGE] with `timeoutMs`, hedged after 30 ms: FIRST's request held until the hedge
 * got the key's 429 (Retry-After 1 s), then a 500; FIRST's retry answers after 400 ms.
 */
async function keyToldWithDeadline(timeoutMs: number, whole: boolean) {
  const faults: FaultRule[] = [
    { fault: 'upstream_text', model: FIRST, times: 1 },
    { fault: 'slow_headers', model: FIRST, ms: 400, times: 1, afterRequests: 1 },
    { fault: 'rate_limit', model: HEDGE, times: 1, retryAfter: 1 },
  ];
  const options = { maxRetries: 1, retryBaseDelayMs: 50, timeoutMs };
  const { gateway, client, events } = await drivenStructured({}, options, faults);
  const releaseFirst = gateway.hold('chat', { faults: true });
  const request = { model: FIRST, messages: [{ role: 'user' as const, content: 'hi' }] };
  const ask = { fallbackModels: [HEDGE], hedge: PLACE_HEDGE };
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
  return askedWhen(events);
}

describe.each(STREAMED_OR_WHOLE)("%s: the key's Retry-After near the deadline", (_, whole) => {
  hedgesOnDrivenClock();

  it('a hold leaving less after it than itself is not taken: the retry answers', async () => {
    const asked = await keyToldWithDeadline(1_300, whole);
    expect(asked.map((at) => at.split(' ')[1])).toEqual([FIRST, HEDGE, FIRST]);
    // (Released at 40 ms, retried after its backoff of at most 50 ms, as unhedged.)
    expect(Number(asked[2]!.split(' ')[0])).toBeLessThanOrEqual(90);
  });

  it('one leaving as much after it is taken: the retry waits for the key', async () => {
    const asked = await keyToldWithDeadline(2_500, whole);
    expect(asked).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${FIRST}`]);
  });
});
