import { describe, expect, it } from 'vitest';
import {
  askPlace,
  caught,
  drivenStructured,
  hedgesOnDrivenClock,
  only,
  settledAfter,
} from './helpers';

// A call whose deadline ends it during a round's wait names the failure that wait was for — the
// one the `retry` event names (the first model the round asks again) — not the attempt's that
// ended the round, a refusal no round retries (docs/gateway-protocol.md §4.7, rv-5hedge F3).
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

describe('a deadline reached while a round waits', () => {
  hedgesOnDrivenClock();

  it('ends the call naming the failure the retry event named', async () => {
    // good's 503 fails over to bad, whose answer fails its check: the round retrying good waits
    // its back-off (2 s), the deadline (500 ms) comes first.
    const { client, events } = await drivenStructured(
      {},
      { maxRetries: 1, retryBaseDelayMs: 2_000 },
      [{ fault: 'service_unavailable', model: GOOD, times: 1 }],
    );
    const options = { fallbackModels: [BAD], timeoutMs: 500 };
    const error = await settledAfter(
      1_000,
      caught(() => askPlace(client, GOOD, options)),
    );
    expect(only(events, 'retry')).toMatchObject([{ reason: 'provider_unavailable' }]);
    expect(error.code).toBe('timeout');
    expect(error.cause).toMatchObject({ code: 'provider_unavailable' });
    // (Its message says what it waited to retry after: good's 503, not bad's refusal.)
    expect(error.message).toMatch(/waiting to retry after: No provider is online/);
  });
});
