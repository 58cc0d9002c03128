import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { driveClock, settledAfter } from './helpers';

// docs/gateway-protocol.md §5.2 and §5.6: after `[DONE]` a stream reads on by one rule, whether it
// asked for a usage or not: until the body ends, or the finish and a usage are in, or a cut
// request's grace (100 ms) passed. A usage a server sends unasked after `[DONE]` (`streamUsage:
// false`) is the answer's, as ai's own OpenAI-compatible provider reads it; a body kept open with
// no usage coming ends at the grace.

const USAGE = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
const chunk = (model: string, choices: object[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices, ...extra })}\n\n`;
const answer = (model: string) => [
  chunk(model, [{ index: 0, delta: { role: 'assistant', content: 'Hello' } }]),
  chunk(model, [{ index: 0, delta: {}, finish_reason: 'stop' }]),
  'data: [DONE]\n\n',
];
const withLateUsage = (model: string) => [...answer(model), chunk(model, [], { usage: USAGE })];

/** A client whose chat answers are `reads`, one network read each, the body then ended or left open. */
async function serving(reads: (model: string) => string[], open: boolean) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, ({ model }) => {
    const queue = reads(model).map((read) => new TextEncoder().encode(read));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next !== undefined) controller.enqueue(next);
        else if (!open) controller.close();
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

describe('a stream that asked for no usage (streamUsage: false), after [DONE] and its finish', () => {
  it('reads a usage the server sends unasked after [DONE]', async () => {
    const client = await serving(withLateUsage, false);
    const stream = await client.chatStream(ask(), { streamUsage: false });
    const result = await stream.result();
    expect(result.text).toBe('Hello');
    expect(result.usage).toEqual(USAGE);
  });

  it('its body kept open: ends at once once the unasked usage came (no clock moved)', async () => {
    const client = await serving(withLateUsage, true);
    driveClock();
    const stream = await settledAfter(0, client.chatStream(ask(), { streamUsage: false }));
    const result = await settledAfter(0, stream.result());
    expect(result.usage).toEqual(USAGE);
  });

  it('its body kept open and no usage coming: read on for the grace, then the answer as it is', async () => {
    const client = await serving(answer, true);
    driveClock();
    const stream = await settledAfter(0, client.chatStream(ask(), { streamUsage: false }));
    const ended = stream.result();
    let settled = false;
    void ended.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 1);
    expect(settled).toBe(false);
    const result = await settledAfter(1, ended);
    expect(result.text).toBe('Hello');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toBeUndefined();
  });

  it('with the request asking by its own stream_options: the usage is read as well', async () => {
    const client = await serving(withLateUsage, true);
    driveClock();
    const own = ask({ stream_options: { include_usage: true } });
    const stream = await settledAfter(0, client.chatStream(own, { streamUsage: false }));
    const result = await settledAfter(0, stream.result());
    expect(result.usage).toEqual(USAGE);
  });
});
