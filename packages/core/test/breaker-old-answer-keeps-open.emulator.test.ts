// docs/gateway-protocol.md §4.7 (rv-steer12 F3): an answer to a request sent before a model's last
// failure is old news, as a failure sent before its last answer is: a stream begun before an outage
// and ended during it neither resets the breaker's count nor closes it. An answer to a request sent
// after the trip closes it, and so does the probe's. Time is the subject: the clock is driven.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { driveClock, hi, only, recordingClient, settledAfter } from './helpers';

const GENERAL = 'community/general';
const TOOLS = 'community/tools';
const list = { fallbackModels: [TOOLS] };
const COOLDOWN_MS = 60_000;
/** How long the stream sent before the outage stays silent after its first chunks. */
const STALL_MS = 10_000;

beforeAll(async () => {
  // Core loads its steering on first use, and a module load under vitest waits on timers: loaded
  // here, on real ones, before a test fakes them.
  const { client } = recordingClient(await emulate());
  await client.chat(hi(), list);
});

afterEach(() => {
  vi.useRealTimers();
});

/** A client on `gateway` whose breakers open at `failures` failures in a row, its catalog read. */
async function breakerClient(gateway: Awaited<ReturnType<typeof emulate>>, failures: number) {
  const recorded = recordingClient(gateway, {
    circuitBreaker: { failures, cooldownMs: COOLDOWN_MS },
    maxRetries: 0,
  });
  await recorded.client.models();
  return recorded;
}

/**
 * On the driven clock, a stream to `general` sent by `client` while it is healthy: its first
 * chunks read, then silent for STALL_MS.
 */
async function streamSentWhileHealthy(
  gateway: Awaited<ReturnType<typeof emulate>>,
  client: Awaited<ReturnType<typeof breakerClient>>['client'],
) {
  gateway.emulator.injectFault({
    fault: 'stall_stream',
    model: GENERAL,
    afterChunks: 2,
    ms: STALL_MS,
    times: 1,
  });
  driveClock();
  return settledAfter(100, client.chatStream(hi(GENERAL, 'a b c d e f'), list));
}

/**
 * A client whose breakers open at 2 failures: a stream to `general` sent while it is healthy,
 * then an outage of `general` (every new request 502) whose 2 calls open its breaker while the
 * stream is still open.
 */
async function streamSentBeforeTheTrip() {
  const gateway = await emulate();
  const { emulator } = gateway;
  const recorded = await breakerClient(gateway, 2);
  const { client, events } = recorded;
  const old = await streamSentWhileHealthy(gateway, client);
  emulator.injectFault({ fault: 'bad_gateway', model: GENERAL });
  for (let i = 0; i < 2; i++) {
    const failed = await settledAfter(100, client.chat(hi(), list));
    expect(failed.servedModel).toBe(TOOLS);
  }
  expect(only(events, 'circuit-open')).toMatchObject([{ model: GENERAL }]);
  return { ...recorded, emulator, old };
}

describe('an answer to a request sent before the trip (rv-steer12 F3)', () => {
  it('leaves the breaker open: the next call skips the model without a request', async () => {
    const { client, events, emulator, old } = await streamSentBeforeTheTrip();
    // The old stream ends whole during the outage.
    await settledAfter(STALL_MS + 100, old.result());
    expect(old.servedModel).toBe(GENERAL);
    expect(only(events, 'circuit-close')).toEqual([]);
    const before = emulator.counters.requests.chat;
    const next = await settledAfter(100, client.chat(hi(), list));
    expect(next.route.hops).toEqual([
      { model: GENERAL, outcome: 'skipped', reason: 'circuit_open' },
      { model: TOOLS, outcome: 'answered' },
    ]);
    // One request: to tools; none to general.
    expect(emulator.counters.requests.chat - before).toBe(1);
    expect(only(events, 'model-skipped').at(-1)).toMatchObject({
      model: GENERAL,
      reason: 'circuit_open',
    });
    expect(only(events, 'circuit-close')).toEqual([]);
  });

  it('an answer to a request sent after the trip still closes it', async () => {
    const { client, events, emulator, old } = await streamSentBeforeTheTrip();
    emulator.clearFaults();
    // The only candidate (plain does not stream): tried anyway, sent after the trip.
    const after = await settledAfter(
      100,
      client.chatStream(hi(GENERAL), { fallbackModels: ['community/plain'] }),
    );
    await settledAfter(100, after.result());
    expect(after.route.hops).toContainEqual({ model: GENERAL, outcome: 'answered' });
    expect(only(events, 'circuit-probe')).toEqual([]);
    expect(only(events, 'circuit-close')).toMatchObject([{ model: GENERAL }]);
    const next = await settledAfter(100, client.chat(hi(), list));
    expect(next.route.hops).toEqual([{ model: GENERAL, outcome: 'answered' }]);
    await settledAfter(STALL_MS + 100, old.result());
    expect(only(events, 'circuit-close')).toHaveLength(1);
  });

  it('the probe after the cooldown still closes it, the old stream still open', async () => {
    const { client, events, emulator, old } = await streamSentBeforeTheTrip();
    emulator.clearFaults();
    // (The old stream, silent for STALL_MS, resumes meanwhile: old news, nothing closes.)
    await settledAfter(COOLDOWN_MS, old.result());
    expect(only(events, 'circuit-close')).toEqual([]);
    const probed = await settledAfter(100, client.chat(hi(), list));
    expect(probed.route.hops).toEqual([{ model: GENERAL, outcome: 'answered' }]);
    expect(only(events, 'circuit-probe')).toMatchObject([{ model: GENERAL }]);
    expect(only(events, 'circuit-close')).toMatchObject([{ model: GENERAL }]);
    const next = await settledAfter(100, client.chat(hi(), list));
    expect(next.route.hops).toEqual([{ model: GENERAL, outcome: 'answered' }]);
  });
});

describe('an answer sent before a failure, the breaker still closed (rv-26a F1)', () => {
  it('ends the streak: a model failing now and then among overlapping streams never opens', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const { client, events } = await breakerClient(gateway, 2);
    const old = await streamSentWhileHealthy(gateway, client);
    // One failure while the stream is open (the streak at 1 of 2), then the stream answers.
    emulator.injectFault({ fault: 'bad_gateway', model: GENERAL, times: 1 });
    expect((await settledAfter(100, client.chat(hi(), list))).servedModel).toBe(TOOLS);
    await settledAfter(STALL_MS + 100, old.result());
    expect(old.servedModel).toBe(GENERAL);
    // A second failure, after that answer: a streak of one again, not two.
    emulator.injectFault({ fault: 'bad_gateway', model: GENERAL, times: 1 });
    expect((await settledAfter(100, client.chat(hi(), list))).servedModel).toBe(TOOLS);
    expect(only(events, 'circuit-open')).toEqual([]);
    const next = await settledAfter(100, client.chat(hi(), list));
    expect(next.route.hops).toEqual([{ model: GENERAL, outcome: 'answered' }]);
  });
});

describe('an old answer got by a client with a higher threshold (rv-27 F1)', () => {
  it('leaves the breaker another client holds open: its next calls send nothing to the model', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const strict = await breakerClient(gateway, 2);
    const lenient = await breakerClient(gateway, 10);
    const old = await streamSentWhileHealthy(gateway, lenient.client);
    emulator.injectFault({ fault: 'bad_gateway', model: GENERAL });
    for (let i = 0; i < 2; i++) {
      expect((await settledAfter(100, strict.client.chat(hi(), list))).servedModel).toBe(TOOLS);
    }
    expect(only(strict.events, 'circuit-open')).toMatchObject([{ model: GENERAL }]);
    // The lenient client's stream, sent before the outage, ends whole during it.
    await settledAfter(STALL_MS + 100, old.result());
    expect(old.servedModel).toBe(GENERAL);
    const before = emulator.counters.requests.chat;
    for (let i = 0; i < 3; i++) {
      const next = await settledAfter(100, strict.client.chat(hi(), list));
      expect(next.route.hops[0]).toEqual({
        model: GENERAL,
        outcome: 'skipped',
        reason: 'circuit_open',
      });
    }
    expect(emulator.counters.requests.chat - before).toBe(3);
    expect(only(strict.events, 'circuit-open')).toHaveLength(1);
  });
});
