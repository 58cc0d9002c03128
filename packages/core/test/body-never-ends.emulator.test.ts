// A body that sends a little and never ends, from a `fetch` whose body ignores the abort (a custom
// fetch's, some runtimes' handlers): the call ends at its documented limit (docs/gateway-protocol.md
// §4.7 rule 5) — a whole answer's body at the deadline (its headers were its first content), a
// stream's first bytes at firstChunkTimeoutMs — never later. Time is the subject: the driven clock.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayError } from '../src/index';
import { driveClock, hi, recordingClient, settledAfter, withCatalog } from './helpers';

beforeAll(async () => {
  // The steering chunk loaded on real timers (a module load under vitest waits on timers).
  const { client } = recordingClient(await emulate());
  await client.chat(hi(), { fallbackModels: ['community/plain'] });
});

afterEach(() => {
  vi.useRealTimers();
});

const DEADLINE = 5_000;
const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GatewayError) => error,
  );

/** An answer whose body sends `start` and never closes, nor ends when aborted. */
const neverEnds =
  (start: string, status = 200): typeof fetch =>
  () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(start));
          },
        }),
        { status, headers: { 'content-type': 'application/json' } },
      ),
    );

let hosts = 0;
const clientOf = (fetch: typeof globalThis.fetch, options = {}) =>
  createGatewayClient({
    baseURL: `https://never-ends-${++hosts}.test/v1`,
    apiKey: 'sk-canned',
    fetch: withCatalog(fetch),
    maxRetries: 0,
    timeoutMs: DEADLINE,
    ...options,
  });

describe('a body that never ends', () => {
  it.each([
    ['a 200 JSON answer of blank lines', neverEnds('\n'), {}],
    ['a 200 JSON answer cut in its middle', neverEnds('{"id":'), {}],
    ['a 500 error answer', neverEnds('{"error":', 500), {}],
    ['a 200 JSON answer of blank lines (steered)', neverEnds('\n'), { firstChunkTimeoutMs: 1_000 }],
  ])('%s: chat() fails with timeout at its deadline', async (_, fetch, options) => {
    const client = clientOf(fetch, options);
    driveClock();
    const error = failed(client.chat(hi('m')));
    const settled = await settledAfter(DEADLINE, error);
    expect(settled).toMatchObject({ code: 'timeout' });
    expect(settled?.message).toContain(`deadline of ${DEADLINE} ms`);
  });

  it('a stream answered with JSON that never ends fails at firstChunkTimeoutMs (a stall)', async () => {
    const client = clientOf(neverEnds('{"error":'), { firstChunkTimeoutMs: 1_000 });
    driveClock();
    const error = await settledAfter(1_000, failed(client.chatStream(hi('m'))));
    expect(error).toMatchObject({
      code: 'timeout',
      stall: { phase: 'first-chunk', limitMs: 1_000 },
    });
  });
});
