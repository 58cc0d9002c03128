// docs/gateway-protocol.md §5.2 (after `[DONE]` a body kept open is read on for a cut request's
// grace at most), §5.5 (read before content by the stream's own rules), §2.5 (a stream's slot
// comes back with its body): `[DONE]` before any content, one grace in all, its slot back with it.
import { caught, chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { driveClock, settledAfter } from '../../../test/helpers';
import { isGatewayError } from '../../errors/errors';
import { CUT_REQUEST_GRACE_MS } from '../../http/slot-source';
import { type ChatStreamOptions, createGatewayClient } from '../../index';

const MODEL = 'community/general';
const event = (choices: object[]) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices })}\n\n`;
const ROLE_THEN_DONE = `${event([{ index: 0, delta: { role: 'assistant' } }])}data: [DONE]\n\n`;
const FINISH = event([{ index: 0, delta: {}, finish_reason: 'stop' }]);
/** The finish sent this long after `[DONE]`: inside the grace, past half of it. */
const FINISH_AFTER_MS = 60;

/**
 * A client on the driven clock whose chat answers send `ROLE_THEN_DONE` at once, then the finish
 * `finishAfterMs` later (none when undefined), their body kept open; `sent`: once one was asked.
 */
async function keptOpen(finishAfterMs?: number) {
  const { connection } = await emulate();
  let asked = () => {};
  const sent = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const fetch = chatsAnsweredBy(connection, () => {
    asked();
    const reads = [ROLE_THEN_DONE];
    if (finishAfterMs !== undefined) reads.push(FINISH);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = reads.shift();
        if (next === undefined) return;
        if (next === FINISH) await new Promise((later) => setTimeout(later, finishAfterMs));
        controller.enqueue(new TextEncoder().encode(next));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const client = createGatewayClient({
    ...connection,
    circuitBreaker: false,
    maxRetries: 0,
    fetch,
  });
  await client.models();
  driveClock();
  return { client, sent };
}

const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'hi' }] };
const WAYS: [string, ChatStreamOptions | undefined][] = [
  ['plain', undefined],
  ['steered', { firstChunkTimeoutMs: 5000 }],
];

afterEach(() => {
  vi.useRealTimers();
});

describe.each(WAYS)('[DONE] before any content, the body kept open (%s)', (_, opts) => {
  it('the grace over, the call fails and its slot is back with the body: not a grace later', async () => {
    const { client, sent } = await keptOpen();
    const failed = caught(client.chatStream(ask, opts), isGatewayError);
    await sent;
    const error = await settledAfter(CUT_REQUEST_GRACE_MS, failed);
    expect(error.code).toBe('network_error');
    // (The gateway said `[DONE]`: the request is over, its body let go is no cut request.)
    expect(client.budget.active).toBe(0);
  });

  it('a finish inside the grace: the answer ends one grace after [DONE], its slot back', async () => {
    const { client, sent } = await keptOpen(FINISH_AFTER_MS);
    const opened = client.chatStream(ask, opts);
    await sent;
    const stream = await settledAfter(FINISH_AFTER_MS, opened);
    expect(client.budget.active).toBe(1);
    // (The stream reads on for what is left of the grace, not for a grace of its own.)
    const left = CUT_REQUEST_GRACE_MS - FINISH_AFTER_MS;
    const result = await settledAfter(left, stream.result());
    expect(result.finishReason).toBe('stop');
    expect(client.budget.active).toBe(0);
  });
});
