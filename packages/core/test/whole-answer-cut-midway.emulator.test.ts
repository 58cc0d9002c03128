import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayEvent } from '../src';
import { caught, hi, only } from './helpers';

// docs/gateway-protocol.md §4.7 (a failure before any content reached the caller moves a steered
// call on; a breaker counts a model's failures), §10.3, §10.5: a whole 200 answer whose body's
// connection fails midway (mid-JSON) is its attempt's failure: the breaker is never told it
// answered and counts it, a call with `fallbackModels` asks the next model, the attempt's
// `response` says failed; a plain call fails with it (`network_error`, not retried), as before.
// A stub answers CUT's requests; the emulator the rest.

const CUT = 'community/general';
const NEXT = 'community/streamer';
const HALF = '{"id":"c1","object":"chat.completion","model":"community/general","choices":[{"ind';

/** A 200 JSON answer whose body sends half an answer, then its connection fails. */
function cutAnswer(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(HALF));
      controller.error(new TypeError('terminated'));
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

async function clientOverCut() {
  const gateway = await emulate();
  const asked: string[] = [];
  const events: GatewayEvent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.method !== 'POST') return gateway.connection.fetch(input, init);
    const { model } = JSON.parse(String(init.body)) as { model: string };
    asked.push(model);
    return model === CUT ? cutAnswer() : gateway.connection.fetch(input, init);
  };
  const client = createGatewayClient({
    ...gateway.connection,
    fetch,
    maxRetries: 0,
    circuitBreaker: { failures: 1, cooldownMs: 60_000, maxCooldownMs: 600_000 },
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
    },
  });
  return { client, asked, events };
}

describe('a whole 200 answer whose connection fails midway', () => {
  it('moves a call with fallbackModels on to the next model; its response says failed', async () => {
    const { client, asked, events } = await clientOverCut();
    const result = await client.chat(hi(CUT), { fallbackModels: [NEXT] });
    expect(result.servedModel).toBe(NEXT);
    expect(asked).toEqual([CUT, NEXT]);
    expect(result.route.hops[0]).toMatchObject({ model: CUT, outcome: 'failed' });
    const responses = only(events, 'response').map(({ attempt, ok }) => ({ attempt, ok }));
    expect(responses).toEqual([
      { attempt: 1, ok: false },
      { attempt: 2, ok: true },
    ]);
  });

  it('is counted by its breaker as a failure, never as an answer', async () => {
    const { client, asked } = await clientOverCut();
    await client.chat(hi(CUT), { fallbackModels: [NEXT] });
    asked.length = 0;
    const result = await client.chat(hi(CUT), { fallbackModels: [NEXT] });
    expect(result.route.hops[0]).toMatchObject({
      model: CUT,
      outcome: 'skipped',
      reason: 'circuit_open',
    });
    expect(asked).toEqual([NEXT]);
  });

  it('a plain call fails with the cut read, its done event not ok', async () => {
    const { client, events } = await clientOverCut();
    const error = await caught(() => client.chat(hi(CUT)));
    expect(error).toMatchObject({ code: 'network_error', status: 200, isRetryable: false });
    expect(only(events, 'response').map(({ ok }) => ok)).toEqual([false]);
    expect(only(events, 'done').map(({ ok }) => ok)).toEqual([false]);
  });
});
