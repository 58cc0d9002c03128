import { emulate } from '@infergate/emulator/testing';
import {
  type DataPoint,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { otelEventsHandler } from '../src/otel/otel-events';
import { clientOn, hi } from './helpers';

/** Collects on demand. */
class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const sum = (metrics: ResourceMetrics, name: string) =>
  metrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints as DataPoint<number>[])
    .reduce((total, point) => total + point.value, 0);

describe('otelEvents past its cap of open calls', () => {
  it('forgets no queued call, and gives back what a forgotten call counted', async () => {
    const gateway = await emulate();
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const reader = new TestReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
    // A cap of two open calls, so that each call begun past it makes the handler choose.
    const otel = otelEventsHandler({ tracer, meter }, 2);
    const queued: number[] = [];
    const waits = new Set<() => void>();
    const onEvent = (event: GatewayEvent) => {
      otel(event);
      if (event.type === 'queued') queued.push(event.callId);
      for (const wait of waits) wait();
    };
    const untilQueued = (count: number) =>
      new Promise<void>((resolve) => {
        const wait = () => {
          if (queued.length < count) return;
          waits.delete(wait);
          resolve();
        };
        waits.add(wait);
        wait();
      });
    // One slot: the first call holds it, the others wait in the client's queue.
    const client = clientOn(gateway, { onEvent, maxConcurrency: 1 });
    await client.models();
    exporter.reset();
    const release = gateway.hold();
    const calls = [client.chat(hi())];
    await gateway.untilHeld(1);
    // Two begun at once: at the third's start, the second has not asked for a slot yet.
    calls.push(client.chat(hi()), client.chat(hi()));
    await untilQueued(3);
    calls.push(client.chat(hi()));
    await untilQueued(4);
    // While they run: the third call's start forgot the first (holding its slot, given back), not
    // the second (on its way to the queue); the fourth's forgot none (every other one waiting).
    const running = (await reader.collect()).resourceMetrics;
    expect(sum(running, 'infergate.client.calls.queued')).toBe(3);
    expect(sum(running, 'infergate.client.slots.in_use')).toBe(0);
    release();
    await Promise.all(calls);

    const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => span.attributes['infergate.abandoned'] ?? false)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const after = (await reader.collect()).resourceMetrics;
    expect(sum(after, 'infergate.client.calls.queued')).toBe(0);
    expect(sum(after, 'infergate.client.slots.in_use')).toBe(0);
    await gateway.close();
  });
});
