import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../src';
import { caught, hi, oneSlotClient, streamedReply } from './helpers';

// docs/gateway-protocol.md §5.5, §10.5: a plain stream whose 2xx headers (and some bytes: comments,
// a role-only chunk) came, but that is cut or ends before any content, handed nothing to the
// caller: it is retried on the same model as a stream lost before its first bytes is (a retryable
// `network_error`, within `maxRetries`), its slot given back. Once content came, or with an event
// left unended, nothing is sent again (`stream_incomplete`).
const MODEL = 'community/streamer';
const capabilities = ['chat', 'streaming'];
const encoder = new TextEncoder();
const ROLE_CHUNK = `data: ${JSON.stringify({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: MODEL,
  choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }],
})}\n\n`;
const CONTENT_CHUNK = ROLE_CHUNK.replace('{"role":"assistant"}', '{"content":"Partial"}');

/** A 200 stream that sends `start`, then is cut (`cut`) or ends. */
function stream(start: string, cut: boolean): Response {
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(encoder.encode(start)),
    pull: (controller) =>
      cut ? controller.error(new TypeError('terminated')) : controller.close(),
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** A one-slot client whose first `count` chat requests `answer` answers, the emulator the rest. */
async function clientWith(count: number, answer: () => Response) {
  const gateway = await emulate();
  let left = count;
  let posts = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method === 'POST') {
      posts++;
      if (left-- > 0) return answer();
    }
    return gateway.connection.fetch(input, init);
  };
  const client = oneSlotClient(gateway, fetch);
  return { client, gateway, posts: () => posts };
}

/** The client's one slot came back: another call is answered (a leaked slot: it times out). */
async function slotFree(client: GatewayClient) {
  const again = await client.chat(hi(MODEL), { capabilities, maxRetries: 0 });
  expect(again.answer.text).not.toBe('');
}

describe('chatStream: a stream lost after its headers, before any content', () => {
  it.each([
    ['cut after a comment', () => stream(': processing\n\n', true)],
    ['cut after a role-only chunk', () => stream(ROLE_CHUNK, true)],
    ['ended after a role-only chunk', () => stream(ROLE_CHUNK, false)],
    [
      'ended by [DONE] after a role-only chunk',
      () => stream(`${ROLE_CHUNK}data: [DONE]\n\n`, false),
    ],
  ])('%s: retried on the same model, the whole answer streamed', async (_, answer) => {
    const { client, posts } = await clientWith(1, answer);
    const { text, result } = await streamedReply(client, MODEL, { capabilities });
    expect(text).toBe('Echo: hello there');
    expect(result.text).toBe(text);
    expect(posts()).toBe(2);
    await slotFree(client);
  });

  it('the emulator cutting after its role-only chunk: retried, the whole answer streamed', async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'stream_cut', afterChunks: 1, times: 1 });
    const client = oneSlotClient(gateway, gateway.connection.fetch);
    const { text } = await streamedReply(client, MODEL, { capabilities });
    expect(text).toBe('Echo: hello there');
    expect(gateway.emulator.counters.requests.chat).toBe(2);
  });

  it('counts against maxRetries: every attempt lost, the call fails with network_error', async () => {
    const { client, posts } = await clientWith(3, () => stream(ROLE_CHUNK, true));
    const error = await caught(() => streamedReply(client, MODEL, { capabilities }));
    expect(error.code).toBe('network_error');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toBe('The stream ended before any content');
    expect(posts()).toBe(3);
    await slotFree(client);
  });

  it('maxRetries: 0 sends it once', async () => {
    const { client, posts } = await clientWith(10, () => stream(ROLE_CHUNK, true));
    const error = await caught(() => streamedReply(client, MODEL, { capabilities, maxRetries: 0 }));
    expect(error.code).toBe('network_error');
    expect(posts()).toBe(1);
  });

  it('a cut after content is not retried: the stream fails with stream_incomplete', async () => {
    const { client, posts } = await clientWith(1, () =>
      stream(`${ROLE_CHUNK}${CONTENT_CHUNK}`, true),
    );
    const error = await caught(() => streamedReply(client, MODEL, { capabilities }));
    expect(error.code).toBe('stream_incomplete');
    expect(posts()).toBe(1);
    await slotFree(client);
  });

  it('a cut inside an unended event is not retried (its data may have been content)', async () => {
    const { client, posts } = await clientWith(1, () => stream('data: {"choices":[{"del', true));
    const error = await caught(() => streamedReply(client, MODEL, { capabilities }));
    expect(error.code).toBe('stream_incomplete');
    expect(posts()).toBe(1);
    await slotFree(client);
  });
});
