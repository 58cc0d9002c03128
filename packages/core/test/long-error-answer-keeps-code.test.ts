import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayClient, type GatewayEvent } from '../src';
import { caught, hi } from './helpers';

// docs/gateway-protocol.md §10.1, §10.3: an error answer (a non-2xx status) whose JSON is longer
// than `maxErrorBodyBytes` keeps its gateway code and Retry-After, read from the whole JSON (within
// `maxResponseBytes`): the code does not depend on the length of the server's words. Its raw body
// is still kept up to `maxErrorBodyBytes`, the cut marked. The emulator serves the catalog and the
// later attempts; a hostile fetch answers the first chat POST with the long 429.
const MODEL = 'community/general';
const json = { 'content-type': 'application/json' };
const busy = (words: string) => JSON.stringify({ error: { code: 'model_busy', message: words } });
const LONG = busy('z'.repeat(300 * 1024));
const SHORT = busy('every copy is busy');
const cutNote = (limit: number) =>
  `…\n[infergate: error body cut after ${limit} bytes (maxErrorBodyBytes)]`;

/** A client whose first `refusals` chat POSTs are answered 429 with `body` (Retry-After: 1). */
async function refusedWith(body: string, options: { maxRetries: number; refusals?: number }) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  let posts = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if ((init?.method ?? 'GET') === 'GET') return gatewayFetch(input, init);
    posts++;
    if (posts > (options.refusals ?? 1)) return gatewayFetch(input, init);
    return new Response(body, { status: 429, headers: { ...json, 'retry-after': '1' } });
  };
  const events: GatewayEvent[] = [];
  const client = createGatewayClient({
    ...gateway.connection,
    maxRetries: options.maxRetries,
    fetch,
    onEvent: (event) => events.push(event),
  });
  return { client, events, posts: () => posts };
}

const calls = [
  {
    name: 'chat()',
    call: async (c: GatewayClient) =>
      (await c.chat(hi(MODEL))).response.choices[0]?.message.content,
  },
  {
    name: 'chatStream()',
    call: async (c: GatewayClient) => (await (await c.chatStream(hi(MODEL))).result()).text,
  },
];

afterEach(() => {
  vi.useRealTimers();
});

describe('a 429 model_busy whose message is 300 KiB', () => {
  it.each(calls)('$name: keeps its code and Retry-After; its body is cut', async ({ call }) => {
    const { client } = await refusedWith(LONG, { maxRetries: 0 });
    const error = await caught(() => call(client));
    expect(error).toMatchObject({
      code: 'model_busy',
      status: 429,
      retryAfterMs: 1000,
      isRetryable: true,
      message: `${'z'.repeat(8192)}…`,
    });
    const kept = 64 * 1024;
    expect(error.body?.endsWith(cutNote(kept)), error.body?.slice(-120)).toBe(true);
    expect(error.body?.length).toBeLessThanOrEqual(kept + cutNote(kept).length);
    // (Its parsed data only when kept whole, as a 200's error.)
    expect(error.data).toBeUndefined();
    expect(JSON.stringify(error).length).toBeLessThan(80 * 1024);
  });

  it('the kept bound is the client’s maxErrorBodyBytes', async () => {
    const gateway = await emulate();
    const fetch: typeof globalThis.fetch = async (input, init) =>
      (init?.method ?? 'GET') === 'GET'
        ? gateway.connection.fetch(input, init)
        : new Response(LONG, { status: 502, headers: json });
    const client = createGatewayClient({
      ...gateway.connection,
      maxRetries: 0,
      maxErrorBodyBytes: 1024,
      fetch,
    });
    const error = await caught(() => client.chat(hi(MODEL)));
    // (A 502 with the gateway's code: that code, not `upstream_error`.)
    expect(error).toMatchObject({ code: 'model_busy', status: 502 });
    expect(error.body).toBe(`${LONG.slice(0, 1024)}${cutNote(1024)}`);
  });

  it.each(calls)('$name: is retried after its Retry-After, as a short one', async ({ call }) => {
    for (const body of [SHORT, LONG]) {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { client, events, posts } = await refusedWith(body, { maxRetries: 1 });
      const answer = call(client);
      await vi.advanceTimersByTimeAsync(999);
      expect(posts()).toBe(1);
      const retry = events.find((event) => event.type === 'retry');
      expect(retry).toMatchObject({ delayMs: 1000, reason: 'model_busy', status: 429 });
      await vi.advanceTimersByTimeAsync(1);
      expect(await answer).toBe('Echo: hello there');
      expect(posts()).toBe(2);
      vi.useRealTimers();
    }
  });
});
