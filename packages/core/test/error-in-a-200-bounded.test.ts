import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../src';
import { busyIn200, busyIn200Read, caught, errorObjectText, hi } from './helpers';

// docs/gateway-protocol.md §5.3, §10.3: an error a 200 reports (its whole JSON body, a stream's
// error event) is bounded as an error answer's is — the message quotes at most 8192 characters of
// the server's words, the raw body is kept up to `maxErrorBodyBytes` with the cut marked — and its
// code is read from the whole JSON, whatever the words' length. The emulator serves the catalog;
// a stub answers the calls with the bytes.
const MODEL = 'community/general';
const WORDS = 'y'.repeat(4 * 1024 * 1024);
const BIG = errorObjectText('provider_protocol_error', WORDS);
const json = { 'content-type': 'application/json' };
const cutNote = (limit: number) =>
  `…\n[infergate: error body cut after ${limit} bytes (maxErrorBodyBytes)]`;

/** A client whose calls other than the catalog's are answered by `answer` (`posts` counts them). */
async function answeredBy(
  answer: () => Response,
  options: { maxErrorBodyBytes?: number; maxRetries?: number } = {},
) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const posts: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if ((init?.method ?? 'GET') === 'GET') return gatewayFetch(input, init);
    posts.push(new URL(String(input)).pathname);
    return answer();
  };
  const client = createGatewayClient({ ...gateway.connection, maxRetries: 0, ...options, fetch });
  return { client, posts };
}

const sse = (...events: string[]) =>
  new Response(events.map((data) => `data: ${data}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
const role = JSON.stringify({
  object: 'chat.completion.chunk',
  model: MODEL,
  choices: [{ index: 0, delta: { role: 'assistant' } }],
});

async function streamed(client: GatewayClient) {
  const stream = await client.chatStream(hi(MODEL));
  for await (const _ of stream);
}

describe('an error a 200 reports, 4 MiB of words', () => {
  it.each([
    {
      name: 'chat(), a whole JSON answer',
      answer: () => new Response(BIG, { headers: json }),
      call: (c: GatewayClient) => c.chat(hi(MODEL)),
    },
    {
      name: 'chatStream(), a whole JSON answer',
      answer: () => new Response(BIG, { headers: json }),
      call: streamed,
    },
    {
      name: 'chatStream(), an error event mid-stream',
      answer: () => sse(role, BIG, '[DONE]'),
      call: streamed,
    },
  ])(
    '$name: keeps its code, a bounded message and a body cut at maxErrorBodyBytes',
    async ({ answer, call }) => {
      for (const limit of [undefined, 1024]) {
        const { client } = await answeredBy(answer, { maxErrorBodyBytes: limit });
        const error = await caught(() => call(client));
        expect(error.code).toBe('provider_protocol_error');
        expect(error.message).toBe(`${'y'.repeat(8192)}…`);
        // (A stream's error event too: its decoder is given the client's bound.)
        const kept = limit ?? 64 * 1024;
        expect(error.body?.endsWith(cutNote(kept)), error.body?.slice(-120)).toBe(true);
        expect(error.body?.length).toBeLessThanOrEqual(kept + cutNote(kept).length);
        expect(error.data).toBeUndefined();
        expect(JSON.stringify(error).length).toBeLessThan(16 * 1024);
      }
    },
  );

  it('a small one is kept whole, with its parsed data', async () => {
    const small = errorObjectText('provider_protocol_error', 'the engine failed');
    const { client } = await answeredBy(() => new Response(small, { headers: json }));
    const error = await caught(() => client.chat(hi(MODEL)));
    expect(error).toMatchObject({
      code: 'provider_protocol_error',
      body: small,
      data: JSON.parse(small),
    });
  });
});

describe('a service answered 200 with the gateway error object', () => {
  const wav = new Uint8Array(64);
  wav.set(new TextEncoder().encode('RIFF'), 0);
  wav.set(new TextEncoder().encode('WAVE'), 8);
  const busy = () => busyIn200('engine busy, retry');
  it.each([
    { name: 'chat', call: (c: GatewayClient) => c.chat(hi(MODEL)) },
    {
      name: 'translate',
      call: (c: GatewayClient) => c.translate({ input: 'hi', target_language: 'uk' }),
    },
    {
      name: 'embed',
      call: (c: GatewayClient) => c.embed({ input: ['hi'], model: 'all-minilm-l6-v2' }),
    },
    { name: 'ocr', call: (c: GatewayClient) => c.ocr({ image: new Uint8Array([1, 2, 3]) }) },
    { name: 'transcribe', call: (c: GatewayClient) => c.transcribe({ audio: wav }) },
  ])(
    '$name reads its code, words and Retry-After; retryable as the status would be (maxRetries 0: sent once)',
    async ({ call }) => {
      // (Its retries, as a 429's: test/error-in-200-retried.emulator.test.ts.)
      const { client, posts } = await answeredBy(busy, { maxRetries: 0 });
      const error = await caught(() => call(client));
      expect(error).toMatchObject({ ...busyIn200Read('engine busy, retry'), isRetryable: true });
      expect(posts).toHaveLength(1);
    },
  );
});
