// docs/gateway-protocol.md §5.3, §10.4: a 200 answer that cannot be used — a body that is not
// JSON, an error body instead of an answer, an error event in its stream — fails with its
// headers (`responseHeaders`: its `x-request-id` is what support asks for), redacted of the key
// and without `set-cookie`, as an error answer's are; they used to be dropped. Without
// `X-Service-Model`, a stream that fails after a chunk named the model names that model, as a
// stream that ends well does (§4.6), not the one sent.
import { emulate, failingAfterContentSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { caught, clientOn, hi } from './helpers';

const HEADERS = {
  'content-type': 'application/json',
  'x-request-id': 'req-1',
  'set-cookie': 'session=s1',
};

/** The emulator for everything, but `answer` for the chat completions. */
async function answering(answer: (key: string) => Response) {
  const gateway = await emulate();
  const key = gateway.connection.apiKey;
  const fetch: typeof globalThis.fetch = (input, init) =>
    new Request(input, init).url.endsWith('/chat/completions')
      ? Promise.resolve(answer(key))
      : gateway.fetch(input, init);
  return { gateway, client: clientOn(gateway, { fetch, maxRetries: 0 }) };
}

describe('a 200 answer that cannot be used keeps its headers', () => {
  it.each([
    ['a body that is not JSON', '{"id": "c1", "choi', 'invalid_response'],
    [
      'an error body instead of an answer',
      JSON.stringify({ error: { message: 'overloaded', code: 'provider_request_failed' } }),
      'provider_request_failed',
    ],
  ])('chat: %s', async (_, body, code) => {
    const { gateway, client } = await answering(
      (key) => new Response(body, { headers: { ...HEADERS, 'x-echo': `Bearer ${key}` } }),
    );
    const error = await caught(() => client.chat(hi()));
    expect(error).toMatchObject({ code, status: 200 });
    expect(error.responseHeaders).toMatchObject({
      'x-request-id': 'req-1',
      'content-type': 'application/json',
      'x-echo': 'Bearer [redacted]',
    });
    expect(error.responseHeaders).not.toHaveProperty('set-cookie');
    await gateway.close();
  });

  it("chatStream: an error event after content; the error and the stream name the chunks' model", async () => {
    const sse = failingAfterContentSse('pool-a/llama-3-8b', {
      message: 'upstream overloaded',
      code: 'provider_request_failed',
    });
    const { gateway, client } = await answering(
      () =>
        new Response(sse, {
          headers: { ...HEADERS, 'content-type': 'text/event-stream' },
        }),
    );
    const stream = await client.chatStream(hi());
    const error = await caught(() => stream.result());
    expect(error).toMatchObject({
      code: 'provider_request_failed',
      status: 200,
      servedModel: 'pool-a/llama-3-8b',
    });
    expect(error.responseHeaders).toMatchObject({
      'x-request-id': 'req-1',
      'content-type': 'text/event-stream',
    });
    expect(error.responseHeaders).not.toHaveProperty('set-cookie');
    expect(stream.servedModel).toBe('pool-a/llama-3-8b');
    await gateway.close();
  });
});
