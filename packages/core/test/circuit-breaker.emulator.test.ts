// Per-model circuit breakers (issues 46, 53): a listed model that keeps failing is planned around
// for a cooldown, then probed once. The observations are shared per key, base URL and model; each
// client judges them with its own thresholds. Cooldowns pass on core's clock, moved by hand.
import { emulate } from '@infergate/emulator/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from '../src/index';
import { otelEvents } from '../src/otel';
import {
  clientsSharingEvents,
  DEFAULT_KEYS,
  hi,
  only,
  recordingClient,
  steppedClockEachTest,
} from './helpers';

const list = { fallbackModels: ['community/streamer'] };
// A cooldown no loaded machine lets pass between two calls: only the moved clock ends it.
const breaker = { failures: 2, cooldownMs: 60_000, maxCooldownMs: 600_000 };

const steppedClock = steppedClockEachTest();

describe('circuit breakers of calls with fallbackModels', () => {
  it('open after N failures in a row: calls skip the model without a request', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    for (let i = 0; i < 2; i++) {
      const result = await client.chat(hi(), list);
      expect(result.servedModel).toBe('community/streamer');
    }
    expect(only(events, 'circuit-open')).toMatchObject([
      { model: 'community/general', cooldownMs: 60_000 },
    ]);
    const before = emulator.counters.requests.chat;
    const result = await client.chat(hi(), list);
    expect(result.route.hops).toEqual([
      { model: 'community/general', outcome: 'skipped', reason: 'circuit_open' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(emulator.counters.requests.chat - before).toBe(1);
    expect(only(events, 'model-skipped').at(-1)).toMatchObject({ reason: 'circuit_open' });
  });

  it('try a model failing often, never in a row, after the others; a minute later it is first again', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    // 1 request in 3 answered 502: never 2 in a row, so its breaker never trips.
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', every: 3 });
    const route = async () => (await client.chat(hi(), list)).route;
    const firstTried = async () =>
      (await route()).hops.find((hop) => hop.outcome !== 'deferred')?.model;
    for (let i = 0; i < 10; i++) expect(await firstTried()).toBe('community/general');
    const before = emulator.counters.requests.chat;
    // Put behind the next one, and the route says so.
    expect((await route()).hops).toEqual([
      { model: 'community/general', outcome: 'deferred', reason: 'fails_often' },
      { model: 'community/streamer', outcome: 'answered' },
    ]);
    expect(emulator.counters.requests.chat - before).toBe(1);
    clock.ahead(60_001);
    expect(await firstTried()).toBe('community/general');
  });

  it('after the cooldown one probe goes through; its success closes the breaker', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    expect((await client.chat(hi(), list)).route.hops[0]?.outcome).toBe('skipped');
    clock.ahead(60_001);
    // Healed: the probe answers, and the model is used again.
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
    const circuit = events.flatMap((event) =>
      event.type.startsWith('circuit-') && 'model' in event
        ? [{ type: event.type, model: event.model }]
        : [],
    );
    expect(circuit).toEqual([
      { type: 'circuit-open', model: 'community/general' },
      { type: 'circuit-probe', model: 'community/general' },
      { type: 'circuit-close', model: 'community/general' },
    ]);
  });

  it('the probe is tried first even when its model fails often: the probe is the point of the call', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, {
      circuitBreaker: { failures: 2, cooldownMs: 5_000, failureShare: 0.1 },
    });
    const { emulator } = gateway;
    // 8 answers, then 2 failures: the breaker trips with 2 of its last 10 outcomes failed (20 %).
    emulator.injectFault({
      fault: 'bad_gateway',
      model: 'community/general',
      afterRequests: 8,
      times: 2,
    });
    for (let i = 0; i < 10; i++) await client.chat(hi(), list);
    expect(only(events, 'circuit-open')).toHaveLength(1);
    // Within the minute its failures count for: it fails often, yet its probe goes first.
    clock.ahead(5_001);
    const probed = await client.chat(hi(), list);
    expect(probed.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    expect(only(events, 'circuit-close')).toHaveLength(1);
  });

  it('a failed probe opens it again, for twice the cooldown', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/general' });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    clock.ahead(60_001);
    await client.chat(hi(), list);
    expect(only(events, 'circuit-open').map((event) => event.cooldownMs)).toEqual([
      60_000, 120_000,
    ]);
    clock.ahead(60_001);
    expect((await client.chat(hi(), list)).route.hops[0]?.outcome).toBe('skipped');
  });

  it('never skips the only candidate: the caller asked for it', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: breaker, maxRetries: 0 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/streamer', times: 2 });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list).catch(() => undefined);
    // Both breakers are open: neither is skipped, the call is tried as asked.
    const result = await client.chat(hi(), list);
    expect(result.route.hops.some((hop) => hop.outcome === 'skipped')).toBe(false);
    expect(result.servedModel).toBe('community/general');
  });

  it("does not count a caller's 4xx, a busy model or a plain call", async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'model_busy', model: 'community/general', times: 4 });
    for (let i = 0; i < 4; i++) await client.chat(hi(), list);
    expect(only(events, 'circuit-open')).toEqual([]);
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 2 });
    await client.chat(hi(), { maxRetries: 0 }).catch(() => undefined);
    await client.chat(hi(), { maxRetries: 0 }).catch(() => undefined);
    expect(only(events, 'circuit-open')).toEqual([]);
  });

  it('circuitBreaker: false turns them off', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: false });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 5 });
    for (let i = 0; i < 5; i++) await client.chat(hi(), list);
    expect(emulator.counters.requests.chat).toBe(10);
  });

  it('is shared by the clients of one key and base URL in a realm', async () => {
    const gateway = await emulate();
    const { client } = recordingClient(gateway, { circuitBreaker: breaker });
    const { emulator, baseURL } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    const other = createGatewayClient({
      baseURL,
      apiKey: DEFAULT_KEYS.full,
      fetch: emulator.fetch,
      circuitBreaker: breaker,
    });
    const result = await other.chat(hi(), list);
    expect(result.route.hops[0]).toMatchObject({ outcome: 'skipped', reason: 'circuit_open' });
  });
});

describe('breakers: shared observations, each client its own thresholds (issue 53)', () => {
  it("a strict client's trip never closes the model for a client with the default settings", async () => {
    const gateway = await emulate();
    const { another } = clientsSharingEvents(gateway);
    const { emulator } = gateway;
    const strict = another({ circuitBreaker: { failures: 1, cooldownMs: 60_000 } });
    const lenient = another();
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    expect((await strict.chat(hi(), list)).servedModel).toBe('community/streamer');
    expect((await strict.chat(hi(), list)).route.hops[0]?.outcome).toBe('skipped');
    // The default client has seen one failure of its 3: it still sends, and the answer closes the
    // breaker for the strict one too (an answer is the model's health, whoever got it).
    const result = await lenient.chat(hi(), list);
    expect(result.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    expect((await strict.chat(hi(), list)).servedModel).toBe('community/general');
  });

  it('each client counts its own cooldown from the shared failures', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { another } = clientsSharingEvents(gateway);
    const { emulator } = gateway;
    const patient = another({ circuitBreaker: { failures: 1, cooldownMs: 60_000 } });
    const eager = another({ circuitBreaker: { failures: 1, cooldownMs: 5_000 } });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    await patient.chat(hi(), list);
    clock.ahead(5_001);
    expect((await patient.chat(hi(), list)).route.hops[0]?.outcome).toBe('skipped');
    expect((await eager.chat(hi(), list)).servedModel).toBe('community/general');
  });

  it('are kept per base URL, its path included: one route failing leaves the other alone', async () => {
    const gateway = await emulate();
    const { emulator, baseURL } = gateway;
    const origin = new URL(baseURL).origin;
    const on = (path: string) =>
      createGatewayClient({
        baseURL: `${origin}${path}`,
        apiKey: DEFAULT_KEYS.full,
        fetch: emulator.fetch,
        circuitBreaker: { failures: 1, cooldownMs: 60_000 },
      });
    const eu = on('/eu/v1');
    const us = on('/us/v1');
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    await eu.chat(hi(), list);
    expect((await eu.chat(hi(), list)).route.hops[0]?.outcome).toBe('skipped');
    expect((await us.chat(hi(), list)).route.hops[0]).toEqual({
      model: 'community/general',
      outcome: 'answered',
    });
  });
});

describe('breakers: a burst is one trip, one probe at a time (issue 53)', () => {
  it('8 concurrent failures trip once: one cooldown, and the healed model is probed after it', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, {
      circuitBreaker: { failures: 3, cooldownMs: 1_000 },
      maxRetries: 0,
    });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', model: 'community/general', times: 8 });
    const burst = Array.from({ length: 8 }, () => client.chat(hi(), list));
    for (const result of await Promise.all(burst)) {
      expect(result.servedModel).toBe('community/streamer');
    }
    // Every call was planned before the first failure; the 4 that got the key's slots first asked
    // the model and failed (one trip, however many fail after it), the 4 that got a slot after the
    // trip read the breaker again at their first hop and left the model out (rv-steer F4).
    expect(emulator.counters.requests.chat).toBe(12);
    expect(only(events, 'model-skipped')).toHaveLength(4);
    expect(only(events, 'circuit-open').map((event) => event.cooldownMs)).toEqual([1_000]);
    clock.ahead(1_001);
    // The model healed (the rule's requests left unused: the calls that skipped it).
    emulator.clearFaults();
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
    expect(only(events, 'circuit-probe')).toHaveLength(1);
    expect(only(events, 'circuit-close')).toHaveLength(1);
  });

  it('a probe that outlasts the cooldown is still the only one in flight', async () => {
    const clock = steppedClock();
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, {
      circuitBreaker: { failures: 1, cooldownMs: 1_000 },
    });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    await client.chat(hi(), list);
    clock.ahead(1_001);
    // The probe's request is held by the gateway for longer than many cooldowns.
    emulator.injectFault({
      fault: 'slow_headers',
      model: 'community/general',
      ms: 60_000,
      times: 1,
    });
    const stop = new AbortController();
    const probe = client.chat(hi(), { ...list, signal: stop.signal }).catch((error) => error);
    await gateway.untilRequests(3);
    expect(emulator.counters.requests.chat).toBe(3);
    const asked = () => emulator.counters.requests.chat;
    for (let round = 0; round < 3; round++) {
      clock.ahead(5_000);
      const before = asked();
      const calls = await Promise.all(Array.from({ length: 4 }, () => client.chat(hi(), list)));
      for (const result of calls) {
        expect(result.route.hops[0]).toMatchObject({ outcome: 'skipped', reason: 'circuit_open' });
      }
      expect(asked() - before).toBe(4);
    }
    expect(only(events, 'circuit-probe')).toHaveLength(1);
    stop.abort();
    await probe;
    // The probe ended without an answer or a model failure: the next call takes the probe.
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
    expect(only(events, 'circuit-probe')).toHaveLength(2);
  });

  it('a failure of a request sent before the model last answered is not counted', async () => {
    const gateway = await emulate();
    const { events, another } = clientsSharingEvents(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    let handOver!: () => void;
    const held = new Promise<void>((resolve) => {
      handOver = resolve;
    });
    let chats = 0;
    const client = another({
      circuitBreaker: { failures: 1, cooldownMs: 60_000 },
      // The first chat answer (the 502) reaches the client only when the test says so.
      fetch: async (input, init) => {
        const response = await emulator.fetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        if (url.endsWith('/chat/completions') && ++chats === 1) await held;
        return response;
      },
    });
    const late = client.chat(hi(), list);
    await vi.waitFor(() => expect(chats).toBe(1), { timeout: 10_000 });
    // Sent after it, answered before its failure arrives.
    expect((await client.chat(hi(), list)).servedModel).toBe('community/general');
    handOver();
    expect((await late).route.hops[0]).toMatchObject({
      model: 'community/general',
      outcome: 'failed',
    });
    expect(only(events, 'circuit-open')).toEqual([]);
    expect((await client.chat(hi(), list)).route.hops[0]?.outcome).toBe('answered');
  });
});

describe('breakers in OpenTelemetry', () => {
  it('a probe and the close it brings are span events beside circuit_open', async () => {
    const clock = steppedClock();
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const gateway = await emulate();
    const { client } = recordingClient(gateway, {
      circuitBreaker: { failures: 1, cooldownMs: 60_000 },
      onEvent: otelEvents({ tracer }),
    });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    await client.chat(hi(), list);
    clock.ahead(60_001);
    await client.chat(hi(), list);
    const calls = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat '));
    const circuit = calls.map((span) =>
      span.events
        .filter((event) => event.name.startsWith('infergate.circuit_'))
        .map((event) => [event.name, event.attributes?.['gen_ai.request.model']]),
    );
    expect(circuit).toEqual([
      [['infergate.circuit_open', 'community/general']],
      [
        ['infergate.circuit_probe', 'community/general'],
        ['infergate.circuit_close', 'community/general'],
      ],
    ]);
  });
});
