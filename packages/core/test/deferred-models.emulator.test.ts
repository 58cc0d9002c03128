// A listed model the order puts behind one listed after it (rv-steer F5): full, offline, an own
// model the catalog does not list, failing often. A caller who asked for A and got B sees, from
// the route, the events and OpenTelemetry, that A was put back, why, and that it was not tried.
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClientOptions, GatewayEvent } from '../src/index';
import { otelEvents } from '../src/otel';
import {
  clientOn,
  DEFAULT_KEYS,
  driveClock,
  faulted,
  hi,
  only,
  recordingClient,
  routeThrough,
  settledAfter,
} from './helpers';
import { otelRecorder } from './otel-recorder';

/**
 * A gateway with `community/small`, one request at a time, streaming slowly, and `pool-a/idle`,
 * reported without a node (`available_nodes: 0`).
 */
async function gatewayWithStandings() {
  return emulate({
    scenario: {
      streamChunkDelayMs: 5,
      models: {
        'community/small': { capabilities: ['chat', 'streaming'], capacity: 1 },
        'pool-a/idle': { capabilities: ['chat', 'streaming'], copies: 0, pool: 'pool-a' },
      },
    },
  });
}

/**
 * `recordingClient` on `gateway` (then `options`) whose chat events OpenTelemetry records too
 * (`otelEvents`), and the attributes of the `infergate.model_deferred` span events of its finished
 * chat spans.
 */
function tracedClient(gateway: EmulatedGateway, options: GatewayClientOptions = {}) {
  const { tracer, spans } = otelRecorder();
  const record = otelEvents({ tracer });
  const { client, events } = recordingClient(gateway, {
    ...options,
    onEvent: (event) => {
      record(event);
      if (event.operation === 'chat') events.push(event);
    },
  });
  const deferredSpanEvents = () =>
    spans()
      .filter((span) => span.name.startsWith('chat '))
      .flatMap((span) => span.events.filter((event) => event.name === 'infergate.model_deferred'))
      .map((event) => event.attributes);
  return { client, events, deferredSpanEvents };
}

const types = (events: GatewayEvent[]) =>
  events
    .map((event) => event.type)
    .filter((type) => ['dequeued', 'model-deferred', 'failover', 'attempt'].includes(type));

describe('a listed model put behind one listed after it', () => {
  it('chat: an own model the catalog does not list, deferred, not tried; its event and span event say why', async () => {
    const gateway = await emulate();
    const { client, events, deferredSpanEvents } = tracedClient(gateway);
    const result = await client.chat(hi('my/laptop-model'), {
      fallbackModels: ['community/general'],
    });
    expect(result.route).toEqual(
      routeThrough(
        { model: 'my/laptop-model', outcome: 'deferred', reason: 'not_in_catalog' },
        { model: 'community/general', outcome: 'answered' },
      ),
    );
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    expect(only(events, 'model-deferred')).toMatchObject([
      {
        model: 'my/laptop-model',
        reason: 'not_in_catalog',
        ahead: 'community/general',
        detail:
          'Model "my/laptop-model" is an own model the catalog does not list: "community/general", listed after it, is tried first',
      },
    ]);
    // Told once the model to try is chosen (its slot held), before its attempt.
    expect(types(events)).toEqual(['dequeued', 'model-deferred', 'attempt']);
    expect(deferredSpanEvents()).toEqual([
      {
        'gen_ai.request.model': 'my/laptop-model',
        'infergate.defer.reason': 'not_in_catalog',
        'infergate.defer.ahead': 'community/general',
        'infergate.defer.detail': only(events, 'model-deferred')[0]?.detail,
      },
    ]);
  });

  it('chatStream: an offline and a full model listed first, both deferred for the free one', async () => {
    const gateway = await gatewayWithStandings();
    const { client, events } = recordingClient(gateway);
    // community/small is full: our own stream runs on it.
    const held = await client.chatStream(hi('community/small', 'a b c d e f g h i j'));
    const stream = await client.chatStream(hi('pool-a/idle'), {
      fallbackModels: ['community/small', 'community/general'],
    });
    expect(stream.route.hops).toEqual([
      { model: 'pool-a/idle', outcome: 'deferred', reason: 'offline' },
      { model: 'community/small', outcome: 'deferred', reason: 'full' },
      { model: 'community/general', outcome: 'answered' },
    ]);
    await stream.result();
    await held.result();
    expect(
      only(events, 'model-deferred').map(({ model, reason, ahead }) => ({ model, reason, ahead })),
    ).toEqual([
      { model: 'pool-a/idle', reason: 'offline', ahead: 'community/general' },
      { model: 'community/small', reason: 'full', ahead: 'community/general' },
    ]);
    // (The snapshot was read by this call: its age is a few ms, under a second.)
    expect(only(events, 'model-deferred')[1]?.detail).toBe(
      'Model "community/small" was full at the catalog read 0 s ago (1 running, ours counted now; capacity 1): "community/general", listed after it, is tried first',
    );
    // Neither was sent a request for this call: the held stream's, and this one's on general.
    expect(gateway.emulator.counters.requests.chat).toBe(2);
  });

  it('after a failover: the model passed over for the next one is deferred, after the failover event', async () => {
    const { client, events } = await faulted(
      { fault: 'model_busy', retryAfter: 3600 },
      {},
      gatewayWithStandings(),
    );
    const held = await client.chatStream(hi('community/small', 'a b c d e f g h i j'));
    const start = events.length;
    const result = await client.chat(hi(), {
      fallbackModels: ['community/small', 'community/plain'],
      maxRetries: 0,
    });
    await held.result();
    expect(result.route.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason: 'model_busy' },
      { model: 'community/small', outcome: 'deferred', reason: 'full' },
      { model: 'community/plain', outcome: 'answered' },
    ]);
    expect(types(events.slice(start))).toEqual([
      'dequeued',
      'attempt',
      'dequeued',
      'failover',
      'model-deferred',
      'attempt',
    ]);
  });

  it('nothing deferred when the first listed model is tried first, or one listed after it is put back', async () => {
    const gateway = await gatewayWithStandings();
    const { client, events } = recordingClient(gateway);
    const first = await client.chat(hi(), { fallbackModels: ['community/streamer'] });
    // An offline model listed after the chosen one was passed over by no one.
    const later = await client.chat(hi(), { fallbackModels: ['pool-a/idle'] });
    expect(first.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    expect(later.route.hops).toEqual([{ model: 'community/general', outcome: 'answered' }]);
    expect(only(events, 'model-deferred')).toEqual([]);
  });

  it('a call without steering reports no deferral (its route has one hop)', async () => {
    const gateway = await gatewayWithStandings();
    const client = clientOn(gateway);
    const result = await client.chat(hi('pool-a/idle'));
    expect(result.route.hops).toEqual([{ model: 'pool-a/idle', outcome: 'answered' }]);
  });
});

/** Far longer than any test: a stall the hedge must beat, never one that ends by itself. */
const FOREVER = 60_000;

/**
 * A client recording its chat events and their spans, on a gateway whose `my/desk-model` is offline
 * (unlisted) and whose `community/general` holds its first chunk for ever: a call to it hedged after 50 ms (on the driven clock) hedges.
 */
async function hedgeOverHeldGeneral() {
  const gateway = await emulate({ scenario: { models: { 'my/desk-model': { online: false } } } });
  gateway.emulator.injectFault({
    fault: 'stall_first_chunk',
    model: 'community/general',
    ms: FOREVER,
  });
  const { client, events, deferredSpanEvents } = tracedClient(gateway);
  return { client, events, emulator: gateway.emulator, deferredSpanEvents };
}

const hedgeTypes = (events: GatewayEvent[]) =>
  events
    .map((event) => (event.type === 'hedge' ? `hedge ${event.phase}` : event.type))
    .filter((type) => ['dequeued', 'model-deferred', 'attempt', 'hedge sent'].includes(type));

/** An own model listed before the hedge's, not tried: the hop, event and span event a walk gives. */
const PASSED_OVER_BY_HEDGE = {
  model: 'my/desk-model',
  reason: 'not_in_catalog',
  ahead: 'community/streamer',
  detail:
    'Model "my/desk-model" is an own model the catalog does not list: "community/streamer", listed after it, is tried first',
};

describe("a hedge's pick passes over a listed model as a walk's does (rv-events F1)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const options = {
    fallbackModels: ['my/desk-model', 'community/streamer'],
    hedge: { afterMs: 50, maxExtra: 1 },
  };
  /** The route of such a call: the own model deferred, the held first run lost to the hedge. */
  const HEDGED_PAST_DESK_MODEL = [
    { model: 'my/desk-model', outcome: 'deferred', reason: 'not_in_catalog' },
    { model: 'community/general', outcome: 'lost' },
    { model: 'community/streamer', outcome: 'answered' },
  ];

  it("chat: the own model listed before the hedge's is a deferred hop, event and span event", async () => {
    const { client, events, emulator, deferredSpanEvents } = await hedgeOverHeldGeneral();
    driveClock();
    const result = await settledAfter(50, client.chat(hi(), options));
    expect(result.route.hops).toEqual(HEDGED_PAST_DESK_MODEL);
    expect(only(events, 'model-deferred')).toMatchObject([PASSED_OVER_BY_HEDGE]);
    // Told once the hedge's slot is held, before its attempt (as after a failover).
    expect(hedgeTypes(events)).toEqual([
      'dequeued',
      'attempt',
      'hedge sent',
      'dequeued',
      'model-deferred',
      'attempt',
    ]);
    expect(deferredSpanEvents()).toEqual([
      {
        'gen_ai.request.model': 'my/desk-model',
        'infergate.defer.reason': 'not_in_catalog',
        'infergate.defer.ahead': 'community/streamer',
        'infergate.defer.detail': PASSED_OVER_BY_HEDGE.detail,
      },
    ]);
    // The own model was sent nothing.
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it("chatStream: the same deferral on the stream's route and events", async () => {
    const { client, events, deferredSpanEvents } = await hedgeOverHeldGeneral();
    driveClock();
    const stream = await settledAfter(50, client.chatStream(hi(), options));
    expect(stream.route.hops).toEqual(HEDGED_PAST_DESK_MODEL);
    await settledAfter(0, stream.result());
    expect(only(events, 'model-deferred')).toMatchObject([PASSED_OVER_BY_HEDGE]);
    expect(deferredSpanEvents()).toMatchObject([
      { 'gen_ai.request.model': 'my/desk-model', 'infergate.defer.ahead': 'community/streamer' },
    ]);
  });

  it("once per round: the walk's later pick does not report it again, nor with another ahead", async () => {
    const { client, events, emulator } = await hedgeOverHeldGeneral();
    // The hedge stalls too; the first run's first-chunk stall moves it on to community/plain.
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/streamer', ms: FOREVER });
    driveClock();
    const answered = client.chat(hi(), {
      fallbackModels: ['my/desk-model', 'community/streamer', 'community/plain'],
      hedge: { afterMs: 50, maxExtra: 1 },
      firstChunkTimeoutMs: 200,
    });
    const result = await settledAfter(200, answered);
    expect(result.route.hops).toEqual([
      { model: 'my/desk-model', outcome: 'deferred', reason: 'not_in_catalog' },
      { model: 'community/general', outcome: 'failed', reason: 'first_chunk_stall' },
      { model: 'community/streamer', outcome: 'lost' },
      { model: 'community/plain', outcome: 'answered' },
    ]);
    expect(only(events, 'model-deferred')).toMatchObject([PASSED_OVER_BY_HEDGE]);
  });
});

describe('a full deferral says how old the count it was judged on is (rv-events F3)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * `community/small` (capacity 1) as the catalog read it while another key's stream ran on it,
   * that stream over since and the clock 12 s on: the snapshot, fresh still, says full.
   */
  async function fullAtAnOldRead() {
    const gateway = await gatewayWithStandings();
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/small',
      // (Past its first content: a plain stream opens there, not at its role-only chunk.)
      afterChunks: 2,
      ms: FOREVER,
    });
    driveClock();
    const { client, events, deferredSpanEvents } = tracedClient(gateway, { catalogTtlMs: 60_000 });
    const other = clientOn(gateway, { apiKey: DEFAULT_KEYS.nofallback });
    const running = await settledAfter(20, other.chatStream(hi('community/small')));
    const [listed] = (await settledAfter(20, client.models())).filter(
      (model) => model.id === 'community/small',
    );
    expect(listed?.inflight).toBe(1);
    await running.cancel();
    await vi.advanceTimersByTimeAsync(12_000);
    const spanDetails = () =>
      deferredSpanEvents().map((attributes) => attributes?.['infergate.defer.detail']);
    return { client, events, spanDetails };
  }

  const DETAIL =
    'Model "community/small" was full at the catalog read 12 s ago (1 running, ours counted now; capacity 1): "community/general", listed after it, is tried first';
  const steered = { fallbackModels: ['community/general'] };

  it("chat: its event and span event say the count is the read's, 12 s ago", async () => {
    const { client, events, spanDetails } = await fullAtAnOldRead();
    const result = await settledAfter(20, client.chat(hi('community/small'), steered));
    expect(result.route.hops[0]).toEqual({
      model: 'community/small',
      outcome: 'deferred',
      reason: 'full',
    });
    expect(only(events, 'model-deferred').map(({ detail }) => detail)).toEqual([DETAIL]);
    expect(spanDetails()).toEqual([DETAIL]);
  });

  it('chatStream: the same detail', async () => {
    const { client, events } = await fullAtAnOldRead();
    const stream = await settledAfter(20, client.chatStream(hi('community/small'), steered));
    await settledAfter(100, stream.result());
    expect(stream.route.hops[0]).toMatchObject({ model: 'community/small', reason: 'full' });
    expect(only(events, 'model-deferred').map(({ detail }) => detail)).toEqual([DETAIL]);
  });
});
