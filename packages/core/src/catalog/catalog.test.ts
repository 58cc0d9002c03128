import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from '../client/client';

/**
 * A fetch whose GET /models hangs until its signal aborts; records that signal, and `fetched(n)`
 * resolves once it was called `n` times (the test waits for the call, not for a turn of the loop).
 */
function hangingModels() {
  const seen: { signal?: AbortSignal; count: number } = { count: 0 };
  const waiting: { count: number; resolve: () => void }[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    seen.count++;
    seen.signal = init?.signal ?? undefined;
    for (const wait of waiting.filter((w) => w.count <= seen.count)) wait.resolve();
    return new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
    });
  };
  const fetched = (count: number) =>
    new Promise<void>((resolve) => {
      if (seen.count >= count) resolve();
      else waiting.push({ count, resolve });
    });
  return { fetch, seen, fetched };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the shared catalog look-up (one request for concurrent callers, each with its own deadline)', () => {
  it("honours each caller's signal and deadline; the shared request ends only when no caller remains", async () => {
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { fetch, seen, fetched } = hangingModels();
    const client = createGatewayClient({
      baseURL: 'https://catalog-callers.test/v1',
      apiKey: 'k',
      fetch,
    });
    const first = new AbortController();
    const a = client.models({ signal: first.signal }).catch((e: unknown) => e);
    const b = client.models({ timeoutMs: 30 }).catch((e: unknown) => e);
    const third = new AbortController();
    const c = client.models({ signal: third.signal }).catch((e: unknown) => e);
    await fetched(1);
    expect(seen.count).toBe(1);
    first.abort('gone');
    expect(await a).toMatchObject({ code: 'aborted' });
    expect(seen.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(30);
    expect(await b).toMatchObject({ code: 'timeout' });
    expect(seen.signal?.aborted).toBe(false);
    third.abort();
    expect(await c).toMatchObject({ code: 'aborted' });
    expect(seen.signal?.aborted).toBe(true);
    // A later caller starts a new look-up instead of joining the cancelled one.
    const d = new AbortController();
    const later = client.models({ signal: d.signal }).catch((e: unknown) => e);
    await fetched(2);
    expect(seen.count).toBe(2);
    d.abort();
    await later;
  });
});
