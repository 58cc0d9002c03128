import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from './client';
import { isGatewayError } from './errors';

/** A fetch that never answers (until its signal aborts) and counts the requests it was sent. */
function stuckFetch() {
  const sent = { count: 0 };
  const fetch: typeof globalThis.fetch = (_input, init) => {
    sent.count++;
    return new Promise((_resolve, reject) => {
      const signal = init?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { fetch, sent };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a call handed a slot after its deadline', () => {
  it('gives the slot back and fails with timeout without sending a request', async () => {
    vi.useFakeTimers();
    const { fetch, sent } = stuckFetch();
    const client = createGatewayClient({
      baseURL: 'https://queued-deadline.test/v1',
      apiKey: 'k',
      fetch,
      maxConcurrency: 1,
      timeoutMs: 100,
    });
    // Equal deadlines: the running call's timer fires first and frees the slot, which is handed to
    // the next queued call before that call's own timer (due in the same millisecond) has fired.
    const calls = Array.from({ length: 3 }, () =>
      client.translate({ input: 'hi', target_language: 'uk' }).catch((error: unknown) => error),
    );
    await vi.advanceTimersByTimeAsync(100);
    const errors = await Promise.all(calls);
    expect(errors.map((error) => (isGatewayError(error) ? error.code : error))).toEqual([
      'timeout',
      'timeout',
      'timeout',
    ]);
    expect(sent.count).toBe(1);
    expect(client.budget.isIdle).toBe(true);
  });
});
