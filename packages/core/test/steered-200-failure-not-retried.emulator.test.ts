import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { caught, hi } from './helpers';

// docs/gateway-protocol.md §4.7, §5.3: a failure a 200 reports instead of an answer is its
// attempt's, retried or not: a whole JSON error object the model is not asked again for (a
// Retry-After above maxRetryAfterMs, a code no retry follows) moves a call with fallbackModels to
// its next model, as the same body with its status does; a plain call fails with it, at once.
const FIRST = 'community/general';
const NEXT = 'community/streamer';
const json = (code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { code, message: `${code} (in a 200)` } }), {
    headers: { 'content-type': 'application/json', ...headers },
  });

async function clientAnswering(first: () => Response) {
  const gateway = await emulate();
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method !== 'POST' || typeof init.body !== 'string')
      return gateway.connection.fetch(input, init);
    const { model } = JSON.parse(init.body) as { model: string };
    sent.push(model);
    return model === FIRST ? first() : gateway.connection.fetch(input, init);
  };
  const client = createGatewayClient({ ...gateway.connection, fetch, circuitBreaker: false });
  return { client, sent };
}

describe('a 200 error object the model is not asked again for', () => {
  it.each([
    [
      'model_busy, its Retry-After above maxRetryAfterMs',
      () => json('model_busy', { 'retry-after': '120' }),
    ],
    ['provider_request_failed', () => json('provider_request_failed')],
  ])(
    '%s: a call with fallbackModels moves on (chat and a stream answered with JSON)',
    async (_, first) => {
      const { client, sent } = await clientAnswering(first);
      const list = { fallbackModels: [NEXT] };
      expect((await client.chat(hi(FIRST), list)).servedModel).toBe(NEXT);
      const stream = await client.chatStream(hi(FIRST), list);
      await stream.result();
      expect(stream.servedModel).toBe(NEXT);
      expect(sent).toEqual([FIRST, NEXT, FIRST, NEXT]);
    },
  );

  it('a plain call fails with it at once, not asked again', async () => {
    const { client, sent } = await clientAnswering(() =>
      json('model_busy', { 'retry-after': '120' }),
    );
    const error = await caught(() => client.chat(hi(FIRST)));
    expect(error).toMatchObject({ code: 'model_busy', isRetryable: false, retryAfterMs: 120_000 });
    expect(sent).toEqual([FIRST]);
  });
});
