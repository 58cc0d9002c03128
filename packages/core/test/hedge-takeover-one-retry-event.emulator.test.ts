import { describe, expect, it } from 'vitest';
import {
  hedgedPlaceAsked,
  hedgesOnDrivenClock,
  only,
  settledAfter,
  stalledOnceFault,
} from './helpers';

// A retry the cut run was waiting to send, taken over by the hedge that won (docs/gateway-protocol.md
// §4.8), is one resend: its `retry` event went when the cut run began the wait, and the winner's
// round that sends it continues that retry and tells none again. Before, it was told twice (the
// second naming the same failure, `delayMs` what was left), and the retries metric counted two
// (rv-6hedge F4). The driven clock gives each request's time.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

describe('a hedge that won while the cut run waited to retry', () => {
  hedgesOnDrivenClock();

  it('sends that retry with the one retry event told when the wait began', async () => {
    // Over [good, bad], bad's content 85 ms after its request: good's first request stalls (cut at
    // 100 ms), the hedge to bad goes at 30 ms, good's retry at 100 ms is busy for 1 s: the first
    // run waits for it when bad's content cuts it, at 115 ms; bad's answer fails its check.
    const busy = { model: GOOD, times: 1, afterRequests: 1, retryAfter: 1 };
    const { events, call } = await hedgedPlaceAsked({
      first: GOOD,
      fallback: BAD,
      changed: { [BAD]: { firstChunkMs: 85 } },
      options: { maxRetries: 2, retryBaseDelayMs: 0, firstChunkTimeoutMs: 100 },
      faults: [stalledOnceFault(GOOD), { ...busy, fault: 'model_busy' }],
      whole: false,
    });
    await settledAfter(3_000, call);
    const attempts = only(events, 'attempt');
    const start = attempts[0]!.time;
    expect(attempts.map((attempt) => attempt.model)).toEqual([GOOD, BAD, GOOD, GOOD]);
    // Two resends of good: two retry events, the second told at its 429 (1 s), for the whole wait.
    const retries = only(events, 'retry').map(({ time, model, reason, delayMs }) => ({
      after: time - start,
      model,
      reason,
      delayMs,
    }));
    expect(retries).toEqual([
      { after: 100, model: GOOD, reason: 'timeout', delayMs: 0 },
      { after: 101, model: GOOD, reason: 'model_busy', delayMs: 1_000 },
    ]);
    expect(attempts[3]!.time - start).toBe(1_101);
  });
});
