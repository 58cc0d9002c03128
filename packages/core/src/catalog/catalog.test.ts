import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../client/client';

/** A fetch whose GET /models hangs until its signal aborts; records that signal. */
function hangingModels() {
  const seen: { signal?: AbortSignal; count: number } = { count: 0 };
  const fetch: typeof globalThis.fetch = (_input, init) => {
    seen.count++;
    seen.signal = init?.signal ?? undefined;
    return new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
    });
  };
  return { fetch, seen };
}

describe('the shared catalog look-up (one request for concurrent callers, each with its own deadline)', () => {
  it("honours each caller's signal and deadline; the shared request ends only when no caller remains", async () => {
    const { fetch, seen } = hangingModels();
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
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen.count).toBe(1);
    first.abort('gone');
    expect(await a).toMatchObject({ code: 'aborted' });
    expect(seen.signal?.aborted).toBe(false);
    expect(await b).toMatchObject({ code: 'timeout' });
    expect(seen.signal?.aborted).toBe(false);
    third.abort();
    expect(await c).toMatchObject({ code: 'aborted' });
    expect(seen.signal?.aborted).toBe(true);
    // A later caller starts a new look-up instead of joining the cancelled one.
    const d = new AbortController();
    const later = client.models({ signal: d.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen.count).toBe(2);
    d.abort();
    await later;
  });
});
