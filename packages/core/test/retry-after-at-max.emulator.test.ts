import { emulate } from '@infergate/emulator/testing';
import { afterEach, expect, it, vi } from 'vitest';
import { clientOn, hi } from './helpers';

// core README: a Retry-After up to `maxRetryAfterMs` is waited, then the request is retried; only
// a longer one fails at once. The limit itself is a wait worth taking.
afterEach(() => {
  vi.useRealTimers();
});

it.each(['rate_limit', 'model_busy'] as const)(
  'a %s whose Retry-After equals maxRetryAfterMs is waited, then retried',
  async (fault) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetryAfterMs: 3_000 });
    const { emulator } = gateway;
    emulator.injectFault({ fault, endpoint: 'chat', times: 1, retryAfter: 3 });
    const call = client.chat(hi());
    const outcome = call.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(2_999);
    expect(emulator.counters.requests.chat).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('answered');
    expect(emulator.counters.requests.chat).toBe(2);
  },
);
