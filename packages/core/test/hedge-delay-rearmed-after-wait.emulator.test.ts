import { describe, expect, it } from 'vitest';
import {
  drivenStructured,
  hedgesOnDrivenClock,
  only,
  PLACE_HEDGE,
  STREAMED_OR_WHOLE,
  settledAfter,
} from './helpers';

// A hedge due while the first run has no request in flight and no model to hedge to (waiting to
// retry a round: every model in its backoff) is skipped (`no_candidate`, reported once) and its
// delay starts again at the run's next request: `afterMs` counts from the request actually slow
// (docs/gateway-protocol.md §4.8). Before, it was never considered again, though the round's retry
// was slow and the other model free by then (rv-6hedge F2). The driven clock gives each request's
// time.
const SLOW = 'community/so-native';
const OTHER = 'community/so-plain';

describe.each(STREAMED_OR_WHOLE)('%s: a hedge whose delay ran out in a round wait', (_, whole) => {
  hedgesOnDrivenClock();

  it("is sent afterMs after the round's request, once", async () => {
    // Over [slow, other]: both fail their first request (503); the round retries slow after its
    // 200 ms backoff, whose answer takes 3 s; other answers its next request.
    const failed = [SLOW, OTHER].map((model) => ({
      fault: 'service_unavailable' as const,
      model,
      times: 1,
    }));
    const slowHeaders = { fault: 'slow_headers', model: SLOW, ms: 3_000 } as const;
    const { client, events } = await drivenStructured(
      { [SLOW]: { firstChunkMs: 3_000 } },
      { maxRetries: 1, retryBaseDelayMs: 200 },
      whole ? [...failed, slowHeaders] : failed,
    );
    const request = { model: SLOW, messages: [{ role: 'user' as const, content: 'hi' }] };
    const options = { fallbackModels: [OTHER], hedge: PLACE_HEDGE };
    const call: Promise<unknown> = whole
      ? client.chat(request, options)
      : client.chatStream(request, options).then((stream) => stream.result());
    await settledAfter(5_000, call);
    const attempts = only(events, 'attempt');
    expect(attempts.map((attempt) => attempt.model)).toEqual([SLOW, OTHER, SLOW, OTHER]);
    const [, , round, hedge] = attempts.map((attempt) => attempt.time);
    expect(hedge! - round!).toBe(30);
    // (The hedge due during the wait went later: no `hedge-skipped` says it was not sent.)
    expect(only(events, 'hedge-skipped')).toEqual([]);
    const sent = only(events, 'hedge').filter((event) => event.phase === 'sent');
    expect(sent).toMatchObject([{ from: SLOW, model: OTHER, waitedMs: 30 }]);
    expect(only(events, 'hedge').at(-1)).toMatchObject({ phase: 'won', winner: 'hedge' });
  });
});
