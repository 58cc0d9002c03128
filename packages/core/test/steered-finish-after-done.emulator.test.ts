import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { driveClock, settledAfter } from './helpers';

// docs/gateway-protocol.md §5.2 and §4.7: a steered plain stream (a model left to fall back to)
// that reaches `[DONE]` before any content reads on after it by the plain stream's one rule: a
// finish sent after `[DONE]` (an empty answer) is the answer, not a stream that ended before any
// content and moved on to the next model (a second paid request); a body kept open with none
// coming is read on for a cut request's grace, then the next model is asked.

const FIRST = 'community/general';
const NEXT = 'community/json-object';
const chunk = (model: string, delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const role = (model: string) => chunk(model, { role: 'assistant' });
const finish = (model: string) => chunk(model, {}, 'stop');
const whole = (model: string) => [
  chunk(model, { role: 'assistant', content: 'Hi' }),
  finish(model),
  DONE,
];

/**
 * A client whose chat answers are `reads(model)`, one network read each (then the body ends, or
 * is left open when `open`), and the models its chat requests named, in order.
 */
async function serving(reads: (model: string) => string[], open = false) {
  const { connection } = await emulate();
  const sent: string[] = [];
  const fetch = chatsAnsweredBy(connection, ({ model }) => {
    sent.push(model);
    const queue = reads(model).map((read) => new TextEncoder().encode(read));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next !== undefined) controller.enqueue(next);
        else if (!open || model !== FIRST) controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const client = createGatewayClient({ ...connection, circuitBreaker: false, fetch });
  return { client, sent };
}

const ask: ChatRequest = { model: FIRST, messages: [{ role: 'user', content: 'hi' }] };
const FALLBACK = { fallbackModels: [NEXT], streamUsage: false };

beforeAll(async () => {
  // The steering module loads on first use, and a module load under vitest waits on timers:
  // loaded here, on real ones, before a test drives the clock.
  const { client } = await serving(whole);
  await (await client.chatStream(ask, FALLBACK)).result();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a steered plain stream whose [DONE] came before any content', () => {
  it('reads a finish sent after [DONE]: the (empty) answer, the next model not asked', async () => {
    const { client, sent } = await serving((model) =>
      model === FIRST ? [role(model), DONE, finish(model)] : whole(model),
    );
    const result = await (await client.chatStream(ask, FALLBACK)).result();
    expect(result.text).toBe('');
    expect(result.finishReason).toBe('stop');
    expect(sent).toEqual([FIRST]);
  });

  it('its body kept open: the finish after [DONE] hands the answer over at once', async () => {
    const { client, sent } = await serving(
      (model) => (model === FIRST ? [role(model), DONE, finish(model)] : whole(model)),
      true,
    );
    driveClock();
    const stream = await settledAfter(0, client.chatStream(ask, FALLBACK));
    expect(sent).toEqual([FIRST]);
    // (Handed over at once; the answer, with no usage in, ends at the plain stream's grace.)
    const result = await settledAfter(CUT_REQUEST_GRACE_MS, stream.result());
    expect(result.finishReason).toBe('stop');
    expect(sent).toEqual([FIRST]);
  });

  it('its body kept open, no finish coming: read on for the grace, then the next model', async () => {
    const { client, sent } = await serving(
      (model) => (model === FIRST ? [role(model), DONE] : whole(model)),
      true,
    );
    driveClock();
    const opened = client.chatStream(ask, FALLBACK);
    let settled = false;
    void opened.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 1);
    expect(settled).toBe(false);
    expect(sent).toEqual([FIRST]);
    const stream = await settledAfter(1, opened);
    const result = await settledAfter(0, stream.result());
    expect(result.text).toBe('Hi');
    expect(sent).toEqual([FIRST, NEXT]);
  });

  it('[DONE] then the body ends with no finish: the next model, as before', async () => {
    const { client, sent } = await serving((model) =>
      model === FIRST ? [role(model), DONE] : whole(model),
    );
    const result = await (await client.chatStream(ask, FALLBACK)).result();
    expect(result.text).toBe('Hi');
    expect(sent).toEqual([FIRST, NEXT]);
  });
});
