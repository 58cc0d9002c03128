// docs/gateway-protocol.md §4.7 (rv-steer F4): a breaker that opens while a call is under way is
// read again at the call's later hops and its hedge: the model is left out (a `circuit_open` skip
// in the route and a `model-skipped` event), not sent the call's next attempt or its one hedge.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { driveClock, hi, only, recordingClient, settledAfter, untilEvents } from './helpers';

/** Far longer than any test: a first chunk that never comes by itself. */
const FOREVER = 60_000;
const GENERAL = 'community/general';
const TOOLS = 'community/tools';
const STREAMER = 'community/streamer';
const list = { fallbackModels: [TOOLS, STREAMER] };

beforeAll(async () => {
  // Core loads its steering on first use, and a module load under vitest waits on timers: loaded
  // here, on real ones, before a test fakes them.
  const { client } = recordingClient(await emulate());
  await client.chat(hi(), { fallbackModels: ['community/plain'], hedge: { afterMs: 1000 } });
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A client whose breakers open at one failure, on a gateway where `general` never sends its first
 * chunk and `tools` answers 502; `opened(call)` starts `call`, waits for its first request, then
 * has another call fail on `tools` (its breaker opens) and returns the first call's promise.
 */
async function toolsOpensMidCall() {
  const gateway = await emulate();
  const { emulator } = gateway;
  const recorded = recordingClient(gateway, {
    circuitBreaker: { failures: 1, cooldownMs: FOREVER },
    maxRetries: 0,
  });
  const { client, events } = recorded;
  await client.models();
  emulator.injectFault({ fault: 'stall_first_chunk', model: GENERAL, ms: FOREVER });
  emulator.injectFault({ fault: 'bad_gateway', model: TOOLS });
  driveClock();
  const opened = async <T>(call: () => Promise<T>) => {
    const first = call();
    await untilEvents(events, (seen) => only(seen, 'attempt').length > 0);
    const other = client.chat(hi(TOOLS), { fallbackModels: ['community/plain'] });
    await settledAfter(0, other);
    expect(only(events, 'circuit-open')).toMatchObject([{ model: TOOLS }]);
    // (Wrapped: an async function returning the promise would wait for it.)
    return { first };
  };
  return { ...recorded, emulator, opened };
}

describe('a breaker that opens while a call is under way', () => {
  it('leaves its model out of the walk after a stall', async () => {
    const { client, events, emulator, opened } = await toolsOpensMidCall();
    const { first } = await opened(() =>
      client.chatStream(hi(), { ...list, firstChunkTimeoutMs: 300 }),
    );
    const stream = await settledAfter(300, first);
    await settledAfter(0, stream.result());
    expect(stream.route.hops).toEqual([
      { model: GENERAL, outcome: 'failed', reason: 'first_chunk_stall' },
      { model: TOOLS, outcome: 'skipped', reason: 'circuit_open' },
      { model: STREAMER, outcome: 'answered' },
    ]);
    expect(only(events, 'model-skipped')).toMatchObject([{ model: TOOLS, reason: 'circuit_open' }]);
    // tools had one request: the other call's, the one that opened its breaker.
    expect(emulator.counters.requests.chat).toBe(4);
  });

  it('sends its hedge to a healthy model not tried yet, not to the open one', async () => {
    const { client, events, opened } = await toolsOpensMidCall();
    const { first } = await opened(() =>
      client.chatStream(hi(), { ...list, hedge: { afterMs: 300 } }),
    );
    const stream = await settledAfter(300, first);
    await settledAfter(0, stream.result());
    expect(only(events, 'hedge').filter((event) => event.phase === 'sent')).toMatchObject([
      { model: STREAMER },
    ]);
    expect(only(events, 'model-skipped')).toMatchObject([{ model: TOOLS, reason: 'circuit_open' }]);
    expect(stream.route.hops).toContainEqual({
      model: TOOLS,
      outcome: 'skipped',
      reason: 'circuit_open',
    });
    expect(stream.route.answeredBy).toBe(STREAMER);
  });
});
