import type { FaultRule } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import {
  hedgedPlaceStream,
  hedgesOnDrivenClock,
  only,
  settledAfter,
  stalledOnceFault,
} from './helpers';

// A hedge whose first content decided the race takes over what the run it cut had left
// (docs/gateway-protocol.md §4.8 item 5): the model it was cut on (asked again once) and the models
// it had not tried. Those models get the retries the unhedged walk would give them — the call's one
// `maxRetries` — not the hedge's single attempt: a 500 of the re-asked model is retried on it, a 503
// with `Retry-After` waits for a next round (the hedge run took its failures in no round before).
// (A 500 of the re-asked model, retried on it: hedged-structured-stream-held.emulator.test.ts.)
// Over [good, bad], good's first request never answers (only the cut frees its slot), so the hedge
// to bad is sent at 30 ms, bad's content cuts good, bad's answer fails its check, and good is asked
// again: the faults below answer that second request of good.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

/** Over [good, bad], hedged at 30 ms; `faults`: good's second request's; `options`: the client's. */
function hedgeToBadWins(faults: FaultRule[], options: { maxRetries?: number } = {}) {
  return hedgedPlaceStream({
    first: GOOD,
    fallbacks: [BAD],
    changed: { [GOOD]: { firstChunkMs: 0 } },
    options: { retryBaseDelayMs: 20, ...options },
    faults: [stalledOnceFault(GOOD), ...faults],
  });
}

describe('a hedge that won and took over the cut run’s models retries them as the unhedged walk does', () => {
  hedgesOnDrivenClock();

  it('the re-asked model’s 503 with Retry-After: a next round asks it again once that passed', async () => {
    const { gateway, events, opened } = await hedgeToBadWins([
      { fault: 'model_busy', model: GOOD, times: 1, retryAfter: 1 },
    ]);
    const stream = await settledAfter(1_500, opened);
    const result = await settledAfter(100, stream.result());
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      [GOOD, 'lost'],
      [BAD, 'failed'],
      [GOOD, 'failed'],
      [GOOD, 'answered'],
    ]);
    expect(only(events, 'retry')).toMatchObject([{ reason: 'model_busy', delayMs: 1_000 }]);
    expect(gateway.emulator.counters.requests.chat).toBe(4);
  });

  it('no more than the call’s maxRetries: with 1, a re-asked model failing twice with 500 ends the call', async () => {
    const { gateway, events, opened } = await hedgeToBadWins(
      [{ fault: 'upstream_text', model: GOOD, times: 2 }],
      { maxRetries: 1 },
    );
    const failed = opened.catch((error: unknown) => error);
    const error = (await settledAfter(300, failed)) as { code: string; route: { hops: unknown[] } };
    expect(error.code).toBe('upstream_error');
    expect(error.route.hops).toMatchObject([
      { model: GOOD, outcome: 'lost' },
      { model: BAD, outcome: 'failed', reason: 'invalid_structured_output' },
      { model: GOOD, outcome: 'ended', code: 'upstream_error' },
    ]);
    expect(only(events, 'retry')).toHaveLength(1);
    // good: cut, 500, 500 (the one retry the unhedged call would give it too); bad once.
    expect(gateway.emulator.counters.requests.chat).toBe(4);
  });
});

// A hedge whose content cut the first run while that run waited to retry a model (a round after
// its 429 with Retry-After) takes that retry over with its failure and what is left of its wait
// (docs/gateway-protocol.md §4.8): its refused answer asks the model once its Retry-After passed,
// as the unhedged walk does, not at once (rv-5hedge F2). That retry is one resend: its `retry`
// event went when the cut run began the wait, and the winner's round that sends it continues that
// retry and tells none again; before, it was told twice (the second naming the same failure,
// `delayMs` what was left), and the retries metric counted two (rv-6hedge F4). The driven clock
// gives each request's time.
describe('a hedge that won while the cut run waited for a Retry-After', () => {
  hedgesOnDrivenClock();

  /**
   * Over [good, bad], bad's content 85 ms after its request: good's first request stalls (cut at
   * 100 ms), the hedge to bad goes at 30 ms, good's retry at 100 ms is busy for 1 s: the first run
   * waits for it when bad's content cuts it, at 115 ms; bad's answer fails its check. To its result.
   */
  async function cutWhileWaitingToRetry() {
    const { gateway, events, opened } = await hedgedPlaceStream({
      first: GOOD,
      fallbacks: [BAD],
      changed: { [BAD]: { firstChunkMs: 85 } },
      options: { maxRetries: 2, retryBaseDelayMs: 0, firstChunkTimeoutMs: 100 },
      faults: [
        stalledOnceFault(GOOD),
        { fault: 'model_busy', model: GOOD, times: 1, afterRequests: 1, retryAfter: 1 },
      ],
    });
    const result = await settledAfter(
      3_000,
      opened.then((stream) => stream.result()),
    );
    const attempts = only(events, 'attempt');
    expect(attempts.map((attempt) => attempt.model)).toEqual([GOOD, BAD, GOOD, GOOD]);
    return { gateway, events, result, attempts };
  }

  it('asks the model the cut run waited for once its Retry-After passed', async () => {
    const { gateway, events, result, attempts } = await cutWhileWaitingToRetry();
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    // Good's 429 (Retry-After: 1) came at its second request, ~100 ms; bad's refusal at ~115 ms.
    const [, , busy, again] = attempts.map((attempt) => attempt.time);
    expect(again! - busy!).toBeGreaterThanOrEqual(1_000);
    expect(only(events, 'retry').at(-1)).toMatchObject({ reason: 'model_busy' });
    expect(gateway.emulator.counters.requests.chat).toBe(4);
  });

  it('sends that retry with the one retry event told when the wait began', async () => {
    const { events, attempts } = await cutWhileWaitingToRetry();
    const start = attempts[0]!.time;
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
