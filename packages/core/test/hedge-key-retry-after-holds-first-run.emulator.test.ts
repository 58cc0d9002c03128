import { describe, expect, it } from 'vitest';
import {
  driveClock,
  hedgesOnDrivenClock,
  only,
  settledAfter,
  stalledOnce,
  structuredGateway,
} from './helpers';

// The key's own 429 (`client_concurrency_exceeded`, Retry-After 1 s) a hedge was told holds back
// the first run's retries too (docs/gateway-protocol.md §4.8): nothing goes on the key while its
// Retry-After runs, whichever run of the call heard it. Before, the first run, whose attempt then
// stalled, asked again on the key after its 20 ms backoff (rv-6hedge F3). The driven clock gives
// each request's time.
const SLOW = 'community/so-native';
const OTHER = 'community/so-plain';
const STALL_MS = 200;

/** Over [slow, other]: slow stalls once, the hedge to other at 30 ms gets the key's 429. */
async function hedgedOnLimitedKey(whole: boolean, deadlineMs?: number) {
  const { gateway, client, events } = await structuredGateway(
    {},
    { maxRetries: 1, retryBaseDelayMs: 20, firstChunkTimeoutMs: STALL_MS },
  );
  stalledOnce(gateway.emulator, SLOW);
  gateway.emulator.injectFault({ fault: 'rate_limit', model: OTHER, retryAfter: 1, times: 3 });
  driveClock();
  const request = { model: SLOW, messages: [{ role: 'user' as const, content: 'hi' }] };
  const options = {
    fallbackModels: [OTHER],
    hedge: { afterMs: 30, maxExtra: 1 },
    ...(deadlineMs === undefined ? {} : { timeoutMs: deadlineMs }),
  };
  const call: Promise<unknown> = whole
    ? client.chat(request, options)
    : client.chatStream(request, options).then((stream) => stream.result());
  const outcome = await settledAfter(
    5_000,
    call.then(
      () => 'answered',
      (error) => error.code,
    ),
  );
  const attempts = only(events, 'attempt');
  const start = attempts[0]!.time;
  const asked = attempts.map((attempt) => `${attempt.time - start} ${attempt.model}`);
  return { outcome, asked, retries: only(events, 'retry') };
}

describe.each([
  ['chatStream', false],
  ['chat', true],
])('%s: the key Retry-After a hedge was told', (_, whole) => {
  hedgesOnDrivenClock();

  it("holds the first run's retry until it passed", async () => {
    const { outcome, asked, retries } = await hedgedOnLimitedKey(whole);
    // The key's 429 came at 30 ms: the stalled model is asked again at 1,030 ms, not at 220.
    expect(asked).toEqual([`0 ${SLOW}`, `30 ${OTHER}`, `1030 ${SLOW}`]);
    expect(outcome).toBe('answered');
    expect(retries.map((retry) => [retry.model, retry.delayMs])).toEqual([[SLOW, 830]]);
  });

  it('with no time left for it before the deadline, no retry is sent', async () => {
    const { outcome, asked, retries } = await hedgedOnLimitedKey(whole, 600);
    expect(asked).toEqual([`0 ${SLOW}`, `30 ${OTHER}`]);
    expect(outcome).toBe('timeout');
    expect(retries).toEqual([]);
  });
});
