// A listed model the order puts behind one listed after it (rv-steer F5): full, offline, an own
// model the catalog does not list, failing often. A caller who asked for A and got B sees, from
// the route, the events and OpenTelemetry, that A was put back, why, and that it was not tried.
import { emulate } from '@infergate/emulator/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { otelEvents } from '../src/otel';
import { clientOn, hi, only, recordingClient } from './helpers';

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

const types = (events: GatewayEvent[]) =>
  events
    .map((event) => event.type)
    .filter((type) => ['dequeued', 'model-deferred', 'failover', 'attempt'].includes(type));

describe('a listed model put behind one listed after it', () => {
  it('chat: an own model the catalog does not list, deferred, not tried; its event and span event say why', async () => {
    const gateway = await emulate();
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const record = otelEvents({ tracer });
    const { client, events } = recordingClient(gateway, {
      onEvent: (event) => {
        record(event);
        if (event.operation === 'chat') events.push(event);
      },
    });
    const result = await client.chat(hi('my/laptop-model'), {
      fallbackModels: ['community/general'],
    });
    expect(result.route).toEqual({
      requested: ['my/laptop-model', 'community/general'],
      hops: [
        { model: 'my/laptop-model', outcome: 'deferred', reason: 'not_in_catalog' },
        { model: 'community/general', outcome: 'answered' },
      ],
      answeredBy: 'community/general',
    });
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
    const span = exporter.getFinishedSpans().find((each) => each.name.startsWith('chat '));
    expect(
      span?.events.find((event) => event.name === 'infergate.model_deferred')?.attributes,
    ).toEqual({
      'gen_ai.request.model': 'my/laptop-model',
      'infergate.defer.reason': 'not_in_catalog',
      'infergate.defer.ahead': 'community/general',
      'infergate.defer.detail': only(events, 'model-deferred')[0]?.detail,
    });
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
    expect(only(events, 'model-deferred')[1]?.detail).toBe(
      'Model "community/small" is full (1 running, its capacity 1): "community/general", listed after it, is tried first',
    );
    // Neither was sent a request for this call: the held stream's, and this one's on general.
    expect(gateway.emulator.counters.requests.chat).toBe(2);
  });

  it('after a failover: the model passed over for the next one is deferred, after the failover event', async () => {
    const gateway = await gatewayWithStandings();
    const { client, events } = recordingClient(gateway);
    gateway.emulator.injectFault({
      fault: 'model_busy',
      model: 'community/general',
      retryAfter: 3600,
    });
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
