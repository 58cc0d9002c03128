import { describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from './client';

// As in workerd and edge-runtime, where a promise settled from another request's context is
// cancelled once the request that waits for it has ended.
vi.mock('./call-scope', async (original) => ({
  ...(await original<typeof import('./call-scope')>()),
  REQUEST_BOUND_IO: true,
}));

/** A fetch whose GET /models answers after `delayMs` (or when its signal aborts); counts calls. */
function slowModels(delayMs: number) {
  const seen = { count: 0 };
  const fetch: typeof globalThis.fetch = (_input, init) => {
    seen.count++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const body = JSON.stringify({ object: 'list', data: [{ id: 'community/general' }] });
        resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
      }, delayMs);
      init?.signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(init.signal?.reason);
        },
        { once: true },
      );
    });
  };
  return { fetch, seen };
}

describe('the catalog in request-bound runtimes', () => {
  it('shares the cached answer but not a look-up in flight: each call waits on its own request', async () => {
    const { fetch, seen } = slowModels(60);
    const client = createGatewayClient({
      baseURL: 'https://catalog-request-bound.test/v1',
      apiKey: 'k',
      fetch,
    });
    const patient = client.models();
    // A call whose deadline passes while the look-up is in flight: it must not be waiting on a
    // promise the other call's request settles later.
    const hurried = client.models({ timeoutMs: 20 }).catch((e: unknown) => e);
    expect(await hurried).toMatchObject({ code: 'timeout' });
    expect((await patient).map((m) => m.id)).toEqual(['community/general']);
    expect(seen.count).toBe(2);
    // The answer is cached for every later call.
    await client.models();
    expect(seen.count).toBe(2);
  });
});
