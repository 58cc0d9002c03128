import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { driveClock, settledAfter } from './helpers';

// docs/gateway-protocol.md §5.2 and §5.6: after `[DONE]` and the finish a stream reads on only for
// a usage it asked for. One that asked for none (`streamUsage: false`) ends at once though its body
// is kept open (it waited a cut request's grace for a usage that never comes); one whose request
// asks by its own `stream_options` still reads the usage sent after `[DONE]`.

const USAGE = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
const chunk = (model: string, choices: object[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices, ...extra })}\n\n`;
const reads = (model: string) => [
  chunk(model, [{ index: 0, delta: { role: 'assistant', content: 'Hello' } }]),
  chunk(model, [{ index: 0, delta: {}, finish_reason: 'stop' }]),
  'data: [DONE]\n\n',
  chunk(model, [], { usage: USAGE }),
];

/** A client whose chat answers are `reads`, one network read each, the body then left open. */
async function servingOpen() {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, ({ model }) => {
    const queue = reads(model).map((read) => new TextEncoder().encode(read));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next !== undefined) controller.enqueue(next);
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

const ask = (fields: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'community/general',
  messages: [{ role: 'user', content: 'hi' }],
  ...fields,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a stream kept open after [DONE] and its finish', () => {
  it('with streamUsage: false ends at once (no clock moved), the usage after [DONE] not read', async () => {
    const client = await servingOpen();
    driveClock();
    const stream = await settledAfter(0, client.chatStream(ask(), { streamUsage: false }));
    const result = await settledAfter(0, stream.result());
    expect(result.text).toBe('Hello');
    expect(result.usage).toBeUndefined();
  });

  it('with streamUsage: false but the request asking by its own stream_options, reads the usage', async () => {
    const client = await servingOpen();
    driveClock();
    const own = ask({ stream_options: { include_usage: true } });
    const stream = await settledAfter(0, client.chatStream(own, { streamUsage: false }));
    const result = await settledAfter(0, stream.result());
    expect(result.usage).toEqual(USAGE);
  });
});
