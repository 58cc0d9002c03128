// docs/gateway-protocol.md §4.7, §5.3: a steered stream that fails after its first content reached
// the caller is the model's failure, as a whole 200 answer broken off midway is: the breaker is
// told the stream's outcome at its end, not at its handover (rv-steer9 F4). A probe handed a
// stream is held until the stream ends; the caller's own stop says nothing of the model.
import type { GatewayEvent } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { steppedClockEachTest } from './helpers';

const FAILING = 'community/general';
const FALLBACK = 'community/tools';
const list = { fallbackModels: [FALLBACK] };
const request = { model: FAILING, messages: [{ role: 'user' as const, content: 'one two three' }] };

const steppedClock = steppedClockEachTest();

async function setUp(failures: number) {
  const gateway = await emulate();
  const circuit: string[] = [];
  /** Resolved as the circuit events are (`untilCircuit`). */
  const waiting: { entry: string; resolve: () => void }[] = [];
  const untilCircuit = (entry: string) =>
    new Promise<void>((resolve) => {
      if (circuit.includes(entry)) resolve();
      else waiting.push({ entry, resolve });
    });
  const client = createGatewayClient({
    ...gateway.connection,
    maxRetries: 0,
    retryBaseDelayMs: 0,
    circuitBreaker: { failures, cooldownMs: 60_000, maxCooldownMs: 600_000 },
    onEvent: (event: GatewayEvent) => {
      if (!event.type.startsWith('circuit-') || !('model' in event)) return;
      const entry = `${event.type} ${event.model}`;
      circuit.push(entry);
      for (const wait of waiting) if (wait.entry === entry) wait.resolve();
    },
  });
  return { gateway, client, circuit, untilCircuit, emulator: gateway.emulator };
}

/** A stream of the call, read to its end: its error's code (undefined: it ended whole). */
async function streamed(client: ReturnType<typeof createGatewayClient>) {
  const stream = await client.chatStream(request, list);
  const code = await stream.result().then(
    () => undefined,
    (error: { code: string }) => error.code,
  );
  return { code, route: stream.route };
}

describe('a steered stream failing after its first content', () => {
  it.each([
    ['stream_error', 'provider_request_failed'],
    ['stream_cut', 'stream_incomplete'],
    ['malformed_event', 'provider_protocol_error'],
  ] as const)(
    "%s counts as the model's failure: its breaker opens, the next call skips it",
    async (fault, code) => {
      const { gateway, client, circuit, emulator } = await setUp(2);
      emulator.injectFault({ fault, model: FAILING, afterChunks: 2 });
      for (let i = 0; i < 2; i++) {
        const { code: got, route } = await streamed(client);
        expect(got).toBe(code);
        expect(route.hops).toEqual([{ model: FAILING, outcome: 'ended', code }]);
      }
      expect(circuit).toEqual([`circuit-open ${FAILING}`]);
      const { code: last, route } = await streamed(client);
      expect(last).toBeUndefined();
      expect(route.hops).toEqual([
        { model: FAILING, outcome: 'skipped', reason: 'circuit_open' },
        { model: FALLBACK, outcome: 'answered' },
      ]);
      await gateway.close();
    },
  );

  it('does not reset the streak: 502, 502, a stream failing midway, 502 opens at the 4th', async () => {
    const { gateway, client, circuit, emulator } = await setUp(4);
    emulator.injectFault({ fault: 'bad_gateway', model: FAILING, times: 2 });
    for (let i = 0; i < 2; i++) await client.chat(request, list);
    emulator.injectFault({ fault: 'stream_error', model: FAILING, afterChunks: 2, times: 1 });
    expect((await streamed(client)).code).toBe('provider_request_failed');
    expect(circuit).toEqual([]);
    emulator.injectFault({ fault: 'bad_gateway', model: FAILING, times: 1 });
    await client.chat(request, list);
    expect(circuit).toEqual([`circuit-open ${FAILING}`]);
    await gateway.close();
  });
});

describe("a stream holding its model's probe", () => {
  /** The model tripped (two 502s), its cooldown passed, healed: the next call is its probe. */
  async function tripped() {
    const setup = await setUp(2);
    const clock = steppedClock();
    setup.emulator.injectFault({ fault: 'bad_gateway', model: FAILING, times: 2 });
    for (let i = 0; i < 2; i++) await setup.client.chat(request, list);
    expect(setup.circuit).toEqual([`circuit-open ${FAILING}`]);
    clock.ahead(60_001);
    setup.circuit.length = 0;
    return setup;
  }

  it('that ends whole closes the breaker', async () => {
    const { gateway, client, circuit } = await tripped();
    const { code, route } = await streamed(client);
    expect(code).toBeUndefined();
    expect(route.hops).toEqual([{ model: FAILING, outcome: 'answered' }]);
    expect(circuit).toEqual([`circuit-probe ${FAILING}`, `circuit-close ${FAILING}`]);
    await gateway.close();
  });

  it('that fails midway is a failed probe: the breaker opens again for twice as long', async () => {
    const { gateway, client, circuit, emulator } = await tripped();
    emulator.injectFault({ fault: 'stream_error', model: FAILING, afterChunks: 2, times: 1 });
    expect((await streamed(client)).code).toBe('provider_request_failed');
    expect(circuit).toEqual([`circuit-probe ${FAILING}`, `circuit-open ${FAILING}`]);
    const { route } = await streamed(client);
    expect(route.hops[0]).toEqual({ model: FAILING, outcome: 'skipped', reason: 'circuit_open' });
    await gateway.close();
  });

  it("stopped by its caller's abort midway is not counted: the next call takes the probe", async () => {
    const { gateway, client, circuit, emulator } = await tripped();
    // (A body that stalls after its first chunks: the caller stops while it is open.)
    emulator.injectFault({ fault: 'stall_stream', model: FAILING, afterChunks: 2, ms: 600_000 });
    const stream = await client.chatStream(request, list);
    for await (const event of stream) {
      if (event.type === 'text-delta') break;
    }
    expect(circuit).toEqual([`circuit-probe ${FAILING}`]);
    const caller = new AbortController();
    const next = await client.chatStream(request, { ...list, signal: caller.signal });
    const read = async () => {
      for await (const event of next) {
        if (event.type === 'text-delta') caller.abort();
      }
    };
    await expect(read()).rejects.toMatchObject({ code: 'aborted' });
    emulator.clearFaults();
    // Neither stop counted: each released the probe, neither closed nor opened the breaker.
    expect(circuit).toEqual([`circuit-probe ${FAILING}`, `circuit-probe ${FAILING}`]);
    const { code } = await streamed(client);
    expect(code).toBeUndefined();
    expect(circuit.slice(2)).toEqual([`circuit-probe ${FAILING}`, `circuit-close ${FAILING}`]);
    await gateway.close();
  });

  it('whole but never read settles the probe as its body ends', async () => {
    const { gateway, client, circuit, untilCircuit } = await tripped();
    const stream = await client.chatStream(request, list);
    // Not read: the read-ahead takes the body to its end, the answer is whole.
    await untilCircuit(`circuit-close ${FAILING}`);
    expect(circuit).toEqual([`circuit-probe ${FAILING}`, `circuit-close ${FAILING}`]);
    await stream.cancel();
    await gateway.close();
  });
});
