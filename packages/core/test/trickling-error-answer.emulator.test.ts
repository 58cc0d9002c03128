// docs/gateway-protocol.md §10.1, §4.7 rule 5: an error answer (a non-2xx status) whose JSON body
// trickles in is read under the attempt's clock, as a stream's first bytes are: with
// fallbackModels and firstChunkTimeoutMs the attempt fails at the first-chunk limit and the walk
// asks the next model, not the call's deadline. A JSON error body is read for its code up to 1 MiB
// (`ERROR_JSON_READ_BYTES`), not up to maxResponseBytes: one huge error answer is not read whole
// on every retry. Time is the subject: the driven clock.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../src';
import { ERROR_JSON_READ_BYTES } from '../src/http/answer-errors';
import { caught, driveClock, hi, recordingClient, settledAfter } from './helpers';
import { answeringModel, trickled502 } from './trickled-answers';

const GENERAL = 'community/general';
const TOOLS = 'community/tools';
const FIRST_CHUNK_MS = 1_000;
const encoder = new TextEncoder();

beforeAll(async () => {
  // The steering chunk loaded on real timers (a module load under vitest waits on timers).
  const { client } = recordingClient(await emulate());
  await client.chat(hi(), { fallbackModels: [TOOLS] });
});

afterEach(() => {
  vi.useRealTimers();
});

/** A client on the emulator whose chat POSTs for `community/general` get `answer()`. */
async function answeredGeneral(answer: () => Response) {
  const gateway = await emulate();
  const { fetch, sent } = answeringModel(gateway, GENERAL, answer);
  const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0 });
  return { client, sent };
}

const json = { 'content-type': 'application/json' };

/** A 401 whose JSON body's start comes at once, its rest 1 200 ms later (past the first-chunk limit). */
const late401 = () =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"error":{"code":"invalid_api_key",'));
        setTimeout(() => {
          controller.enqueue(encoder.encode('"message":"Invalid API key"}}'));
          controller.close();
        }, 1_200);
      },
    }),
    { status: 401, headers: json },
  );

const steering = {
  fallbackModels: [TOOLS],
  firstChunkTimeoutMs: FIRST_CHUNK_MS,
  timeoutMs: 15_000,
};

const calls = [
  {
    name: 'chat()',
    call: async (c: GatewayClient) => (await c.chat(hi(GENERAL), steering)).servedModel,
  },
  {
    name: 'chatStream()',
    call: async (c: GatewayClient) => {
      const stream = await c.chatStream(hi(GENERAL), steering);
      await stream.result();
      return stream.servedModel;
    },
  },
];

describe('a 502 whose JSON body trickles in', () => {
  it.each(calls)('$name fails over at firstChunkTimeoutMs', async ({ call }) => {
    const { client, sent } = await answeredGeneral(trickled502);
    driveClock();
    const served = await settledAfter(FIRST_CHUNK_MS + 50, call(client));
    expect(served).toBe(TOOLS);
    expect(sent).toEqual([GENERAL, TOOLS]);
  });
});

describe('a status no attempt retries, its JSON body trickling in', () => {
  // (rv-11core: read under the attempt's clock, a 401 became a retried, failed-over stall.)
  it.each(calls)(
    '$name: a 401 stays invalid_api_key, one request, no failover',
    async ({ call }) => {
      const { client, sent } = await answeredGeneral(late401);
      driveClock();
      const error = await settledAfter(
        1_250,
        caught(() => call(client)),
      );
      expect(error).toMatchObject({ code: 'invalid_api_key', status: 401, isRetryable: false });
      expect(error.stall).toBeUndefined();
      expect(sent).toEqual([GENERAL]);
    },
  );
});

describe('a JSON error body larger than 1 MiB', () => {
  it('is read up to ERROR_JSON_READ_BYTES on each attempt, not up to maxResponseBytes', async () => {
    const gateway = await emulate();
    const pulled: number[] = [];
    const chunk = encoder.encode('x'.repeat(64 * 1024));
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if ((init?.method ?? 'GET') === 'GET') return gateway.connection.fetch(input, init);
      const index = pulled.push(0) - 1;
      const start = encoder.encode('{"error":{"code":"model_busy","message":"');
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = pulled[index] === 0 ? start : chunk;
          pulled[index] = (pulled[index] ?? 0) + next.byteLength;
          controller.enqueue(next);
        },
      });
      return new Response(body, { status: 502, headers: { 'content-type': 'application/json' } });
    };
    const client = createGatewayClient({
      ...gateway.connection,
      fetch,
      maxRetries: 1,
      maxResponseBytes: 32 * 1024 * 1024,
    });
    const error = await caught(() => client.chat(hi(GENERAL)));
    // Cut, its JSON not whole: the status's code, its raw body kept up to maxErrorBodyBytes.
    expect(error).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(pulled).toHaveLength(2);
    for (const bytes of pulled) {
      expect(bytes).toBeGreaterThanOrEqual(ERROR_JSON_READ_BYTES);
      expect(bytes).toBeLessThan(ERROR_JSON_READ_BYTES + 3 * chunk.byteLength);
    }
  });
});
