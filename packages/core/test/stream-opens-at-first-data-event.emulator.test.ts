import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { caught, hi } from './helpers';

// docs/gateway-protocol.md §5.3, §5.5: a plain chatStream is handed over once its first content
// came (an error object before it, retryable, is retried). Comments, keep-alives and role-only
// chunks before it are not content; the wait is bounded by the bytes it holds, and the call's
// abort still ends it.
const MODEL = 'community/streamer';
const capabilities = ['chat', 'streaming'];
const sse = { 'content-type': 'text/event-stream' };
const encoded = (text: string) => new TextEncoder().encode(text);
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    model: MODEL,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** A client whose POST is answered by `body`'s stream; `pulled` resolves once it was read. */
async function clientWith(body: ReadableStream<Uint8Array>) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const fetch: typeof globalThis.fetch = async (input, init) =>
    init?.method === 'POST' ? new Response(body, { headers: sse }) : gatewayFetch(input, init);
  return createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0, timeoutMs: 10_000 });
}

describe('a plain chatStream opens at its first content', () => {
  it('keep-alive comments, then a role-only chunk, each read alone: it opens at the content after them', async () => {
    const reads = [
      ': keep-alive\n\n: keep-alive\n\n',
      chunk({ role: 'assistant' }),
      `${chunk({ content: 'late words' })}${chunk({}, 'stop')}data: [DONE]\n\n`,
    ];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = reads.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(encoded(next));
      },
    });
    const client = await clientWith(body);
    const stream = await client.chatStream(hi(MODEL), { capabilities });
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    expect(text).toBe('late words');
    expect((await stream.result()).finishReason).toBe('stop');
  });

  it("comments only, then silence: the call's abort ends the wait (aborted)", async () => {
    let commented: () => void = () => {};
    const waiting = new Promise<void>((resolve) => {
      commented = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoded(': keep-alive\n\n'));
        commented();
        return new Promise(() => {});
      },
    });
    const client = await clientWith(body);
    const controller = new AbortController();
    const opening = caught(() =>
      client.chatStream(hi(MODEL), { capabilities, signal: controller.signal }),
    );
    await waiting;
    controller.abort();
    expect(await opening).toMatchObject({ code: 'aborted' });
  });
});
