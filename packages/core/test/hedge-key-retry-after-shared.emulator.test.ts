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

// The key's own Retry-After (a 429 `client_concurrency_exceeded`, the same for every model) told
// to one run of a hedged call is a not-before for the other run's next request too
// (docs/gateway-protocol.md §4.8): before, the first run sent its retry (or its next model) into
// it, though the unhedged call, told it, waits it out (rv-6hedge F3). Only while it fits: one
// above `maxRetryAfterMs`, or past the deadline, leaves the run on its own schedule, as unhedged —
// it never ends a call the unhedged one answers (rv-7hedge R1–R3, which a first try failed). The
// driven clock gives each request's time.
const FIRST = 'community/so-native';
const HEDGE = 'community/so-plain';
const NEXT = 'community/so-object';

/**
 * Over [FIRST, ...fallbacks], hedged after 30 ms: FIRST's request held until the hedge (on HEDGE)
 * got the key's 429 with `retryAfter` s, then failing with `faultA`; later requests answer.
 */
async function hedgeToldKeyLimit(setup: {
  faultA: FaultRule['fault'];
  retryAfter: number;
  fallbacks: string[];
  options?: { maxRetryAfterMs?: number; timeoutMs?: number };
  whole: boolean;
}) {
  const faults: FaultRule[] = [
    { fault: setup.faultA, model: FIRST, times: 1 },
    { fault: 'rate_limit', model: HEDGE, times: 1, retryAfter: setup.retryAfter },
  ];
  const options = { maxRetries: 1, retryBaseDelayMs: 50, ...setup.options };
  const { gateway, client, events } = await drivenStructured({}, options, faults);
  const releaseFirst = gateway.hold('chat', { faults: true });
  const request = { model: FIRST, messages: [{ role: 'user' as const, content: 'hi' }] };
  const ask = { fallbackModels: setup.fallbacks, hedge: PLACE_HEDGE };
  const call: Promise<unknown> = setup.whole
    ? client.chat(request, ask)
    : client.chatStream(request, ask).then((stream) => stream.result());
  await settledAfter(10, gateway.untilHeld(1));
  // (The first request stays held; the hedge's 429 comes at once.)
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
  return { asked: askedWhen(events), events };
}

describe.each(STREAMED_OR_WHOLE)("%s: the key's Retry-After told to a hedge", (_, whole) => {
  hedgesOnDrivenClock();

  it("holds the first run's retry until it passed, when it fits", async () => {
    const { asked, events } = await hedgeToldKeyLimit({
      faultA: 'upstream_text',
      retryAfter: 1,
      fallbacks: [HEDGE],
      whole,
    });
    // The hedge's 429 came at 30 ms: the 500's retry waits for 1030, not its 50 ms backoff.
    expect(asked).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${FIRST}`]);
    expect(only(events, 'retry')).toMatchObject([{ model: FIRST, reason: 'upstream_error' }]);
  });

  it("holds the first run's next model too (R1), as the unhedged call waits it out", async () => {
    const { asked, events } = await hedgeToldKeyLimit({
      faultA: 'service_unavailable',
      retryAfter: 1,
      fallbacks: [HEDGE, NEXT],
      whole,
    });
    expect(asked).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${NEXT}`]);
    // A move to the next model held back is no retry: no `retry` event, none counted.
    expect(only(events, 'retry')).toEqual([]);
    expect(only(events, 'failover')).toMatchObject([{ from: FIRST, to: NEXT }]);
  });

  it.each([
    ['above maxRetryAfterMs (R2)', { maxRetryAfterMs: 2_000 }],
    ['past the deadline (R3)', { timeoutMs: 3_000 }],
  ])('one %s leaves the retry on its own schedule: it answers', async (_, options) => {
    const { asked } = await hedgeToldKeyLimit({
      faultA: 'upstream_text',
      retryAfter: 5,
      fallbacks: [HEDGE],
      options,
      whole,
    });
    expect(asked.map((at) => at.split(' ')[1])).toEqual([FIRST, HEDGE, FIRST]);
    // (Released at 40 ms, retried after its backoff of at most 50 ms.)
    expect(Number(asked[2]!.split(' ')[0])).toBeLessThanOrEqual(90);
  });
});
