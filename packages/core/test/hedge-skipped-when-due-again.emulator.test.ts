import { describe, expect, it } from 'vitest';
import {
  drivenStructured,
  hedgesOnDrivenClock,
  only,
  PLACE_HEDGE,
  STREAMED_OR_WHOLE,
  settledAfter,
} from './helpers';

// A hedge due while the first run waits between its attempts, with no model to go to, is due
// again afterMs after the run's next request (docs/gateway-protocol.md §4.8). Its `hedge-skipped`
// event is told only when no hedge follows, at the call's end, naming the request the delay
// counted from and the wait it had then; before, it went at once, `waitedMs: 0` (no attempt in
// flight) and naming the model waited for, even when the hedge was sent later (rv-7hedge). The
// driven clock gives each request's time.
const FIRST = 'community/so-native';
const OTHER = 'community/so-plain';

describe.each(STREAMED_OR_WHOLE)('%s: a hedge skipped while due again', (_, whole) => {
  hedgesOnDrivenClock();

  it('not due again before the answer: told once, as it was due', async () => {
    // FIRST's first request: the key's 429 at once (Retry-After 1 s); its retry answers at once.
    const { client, events } = await drivenStructured({}, { maxRetries: 1 }, [
      { fault: 'rate_limit', model: FIRST, times: 1, retryAfter: 1 },
    ]);
    const request = { model: FIRST, messages: [{ role: 'user' as const, content: 'hi' }] };
    const options = { fallbackModels: [OTHER], hedge: PLACE_HEDGE };
    const call: Promise<unknown> = whole
      ? client.chat(request, options)
      : client.chatStream(request, options).then((stream) => stream.result());
    await settledAfter(2_000, call);
    expect(only(events, 'hedge')).toEqual([]);
    expect(only(events, 'hedge-skipped')).toMatchObject([
      { model: FIRST, reason: 'no_candidate', waitedMs: 30 },
    ]);
    // (Told at the call's end: after the retry's attempt, before `done`.)
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('attempt')).toBeLessThan(types.indexOf('hedge-skipped'));
  });
});
