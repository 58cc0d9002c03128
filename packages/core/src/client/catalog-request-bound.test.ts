import { describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from './client';

// As in workerd and edge-runtime, where a promise settled from another request's context is
// cancelled once the request that waits for it has ended.
vi.mock('../call/call-scope', async (original) => ({
  ...(await original<typeof import('../call/call-scope')>()),
  REQUEST_BOUND_IO: true,
}));

/**
 * A fetch whose GET /models answers only when `answer()` is called (or fails when its signal
 * aborts), so the test decides the order, not the machine's speed; counts calls.
 */
function heldModels() {
  const seen = { count: 0 };
  const held: (() => void)[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    seen.count++;
    return new Promise((resolve, reject) => {
      held.push(() => {
        const body = JSON.stringify({ object: 'list', data: [{ id: 'community/general' }] });
        resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
      });
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
    });
  };
  const answer = () => {
    for (const send of held.splice(0)) send();
  };
  return { fetch, seen, answer };
}

describe('the catalog in request-bound runtimes', () => {
  it('shares the cached answer but not a look-up in flight: each call waits on its own request', async () => {
    const { fetch, seen, answer } = heldModels();
    const client = createGatewayClient({
      baseURL: 'https://catalog-request-bound.test/v1',
      apiKey: 'k',
      fetch,
    });
    const patient = client.models();
    // A call whose deadline passes while the look-up is in flight: it must not be waiting on a
    // promise the other call's request settles later, so it sent a request of its own. (The
    // deadline leaves a loaded machine time to send it.)
    const hurried = client.models({ timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(await hurried).toMatchObject({ code: 'timeout' });
    expect(seen.count).toBe(2);
    answer();
    expect((await patient).map((m) => m.id)).toEqual(['community/general']);
    // The answer is cached for every later call.
    await client.models();
    expect(seen.count).toBe(2);
  });
});
