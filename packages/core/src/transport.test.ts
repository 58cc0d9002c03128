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

describe('request headers', () => {
  /** A fetch answering `{}` that records the headers of every request it was sent. */
  function recordingFetch() {
    const seen: Headers[] = [];
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers));
      return new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } });
    };
    return { fetch, seen };
  }

  it('sends the client headers, the key, accept and content-type; call headers add to them', async () => {
    const { fetch, seen } = recordingFetch();
    const client = createGatewayClient({
      baseURL: 'https://headers.test/v1',
      apiKey: 'k1',
      fetch,
      headers: { 'X-Team': 'a', Authorization: 'Bearer other', Accept: 'text/plain' },
      catalogTtlMs: 0,
    });
    await client.models({ headers: {} });
    await client.models({ headers: { 'x-call': '1', authorization: 'Bearer call' } });
    await client.models();
    for (const headers of seen) {
      expect(headers.get('x-team')).toBe('a');
      expect(headers.get('authorization')).toBe('Bearer k1');
      expect(headers.get('accept')).toBe('application/json');
    }
    expect(seen.map((headers) => headers.get('x-call'))).toEqual([null, '1', null]);
  });

  it('an invalid client header fails every call with configuration_error before sending', async () => {
    const { fetch, seen } = recordingFetch();
    const client = createGatewayClient({
      baseURL: 'https://headers.test/v1',
      apiKey: 'k1',
      fetch,
      headers: { 'bad header': 'x' },
      catalogTtlMs: 0,
    });
    const callHeaders: (Record<string, string> | undefined)[] = [undefined, {}, { 'x-call': '1' }];
    for (const headers of [...callHeaders, undefined]) {
      const error = await client.models({ headers }).catch((caught: unknown) => caught);
      expect(isGatewayError(error) && error.code).toBe('configuration_error');
      expect(isGatewayError(error) && error.message).toMatch(/^Invalid header in `headers`/);
    }
    expect(seen).toHaveLength(0);
  });
});
