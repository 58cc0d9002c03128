import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { ERROR_JSON_READ_BYTES } from '../src/http/answer-errors';
import { hi } from './helpers';

// docs/gateway-protocol.md §5.3: a plain chatStream waits for its first data event (an error object
// there is retried), but bytes with no event in them are held at most up to an error body's read;
// past that the stream is handed over and reads on as it always did (no memory grows unbounded
// while a server sends comments only).
const MODEL = 'community/streamer';
const COMMENT = new TextEncoder().encode(`: ${'.'.repeat(64 * 1024 - 4)}\n\n`);
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('a plain chatStream whose server sends comments only', () => {
  it('opens once an error body’s read of them is held, then streams what follows', async () => {
    let pulled = 0;
    let opened = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (opened) {
          controller.enqueue(
            new TextEncoder().encode(
              `${chunk({ content: 'at last' })}${chunk({}, 'stop')}data: [DONE]\n\n`,
            ),
          );
          controller.close();
          return;
        }
        // (Four times the bound, then silence: a wait with no bound never opens.)
        if (pulled >= 4 * ERROR_JSON_READ_BYTES) return new Promise(() => {});
        pulled += COMMENT.byteLength;
        controller.enqueue(COMMENT);
      },
    });
    const gateway = await emulate();
    const { fetch: gatewayFetch } = gateway.connection;
    const fetch: typeof globalThis.fetch = async (input, init) =>
      init?.method === 'POST'
        ? new Response(body, { headers: { 'content-type': 'text/event-stream' } })
        : gatewayFetch(input, init);
    const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0 });
    const stream = await client.chatStream(hi(MODEL), { capabilities: ['chat', 'streaming'] });
    opened = true;
    // (The bound, the chunk that crossed it, and one more the body's own queue pulls ahead.)
    expect(pulled).toBeLessThanOrEqual(ERROR_JSON_READ_BYTES + 2 * COMMENT.byteLength);
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    expect(text).toBe('at last');
  });
});
