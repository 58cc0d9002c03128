// docs/gateway-protocol.md §10.3 (an error keeps the headers of the answer it came from), §5.3:
// every error made of a 200 that cannot be used carries its headers (its `x-request-id`): a
// `/models` answer of the wrong shape, a chat stream cut after content or ended by `[DONE]`
// without a finish (`stream_incomplete`) (rv-fix2 F5).
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { caught, clientOn } from './helpers';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const CONTENT = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'community/general', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] })}\n\n`;

/** A client whose requests to `path` get `body` (200, `x-request-id: req-77`). */
async function answering(path: string, body: () => BodyInit, type = 'application/json') {
  const gateway = await emulate();
  closers.push(() => gateway.close());
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith(path)) return gateway.fetch(input, init);
    return new Response(body(), { headers: { 'content-type': type, 'x-request-id': 'req-77' } });
  };
  return clientOn(gateway, { fetch, maxRetries: 0 });
}

const streamed = async (client: Awaited<ReturnType<typeof answering>>) => {
  const stream = await client.chatStream({
    model: 'community/general',
    messages: [{ role: 'user', content: 'x' }],
  });
  for await (const _ of stream);
};

describe("an unusable 200's error keeps its headers", () => {
  it('GET /models of the wrong shape', async () => {
    const client = await answering('/models', () => '{"data": 5}');
    const error = await caught(() => client.models());
    expect(error.code).toBe('invalid_response');
    expect(error.responseHeaders?.['x-request-id']).toBe('req-77');
  });

  it('a chat stream ended by [DONE] without a finish', async () => {
    const client = await answering(
      '/chat/completions',
      () => `${CONTENT}data: [DONE]\n\n`,
      'text/event-stream',
    );
    const error = await caught(() => streamed(client));
    expect(error.code).toBe('stream_incomplete');
    expect(error.responseHeaders?.['x-request-id']).toBe('req-77');
  });

  it('a chat stream cut after content', async () => {
    // Its content read first, the connection lost at the next read.
    const body = () => {
      let pulls = 0;
      return new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (pulls++ === 0) controller.enqueue(new TextEncoder().encode(CONTENT));
            else controller.error(new TypeError('terminated'));
          },
        },
        { highWaterMark: 0 },
      );
    };
    const client = await answering('/chat/completions', body, 'text/event-stream');
    const error = await caught(() => streamed(client));
    expect(error.code).toBe('stream_incomplete');
    expect(error.responseHeaders?.['x-request-id']).toBe('req-77');
  });
});
