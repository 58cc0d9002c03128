import {
  type DataPoint,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { GatewayClient } from '../src/client/client';
import type { GatewayClientOptions } from '../src/client/options';
import type { GatewayEvent } from '../src/index';
import { clientOn, hi } from './helpers';

/** A metric reader that collects when the test asks (`reader.collect()`). */
export class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The data points of the metric `name`, from one collection. */
export function pointsOf<T = unknown>(
  resourceMetrics: ResourceMetrics,
  name: string,
): DataPoint<T>[] {
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints as DataPoint<T>[]);
}

/**
 * A tracer whose finished spans stay in memory and a meter read on demand: what `otelEvents` is
 * given in a test, and what the test reads back.
 */
export function otelRecorder() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  const reader = new TestReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
  return {
    provider,
    tracer,
    meter,
    reader,
    /** The finished spans, those named `name` when given. */
    spans: (name?: string): ReadableSpan[] =>
      exporter.getFinishedSpans().filter((span) => name === undefined || span.name === name),
    /** Forgets the spans finished so far. */
    reset: (): void => exporter.reset(),
    /** The data points of the metric `name` now. */
    points: async <T = unknown>(name: string): Promise<DataPoint<T>[]> =>
      pointsOf<T>((await reader.collect()).resourceMetrics, name),
  };
}

/**
 * A client on `gateway` whose events go to `record`, and `done`: resolves with its first chat
 * call's `done` event (the spans of a call end by then, even an attempt cut after the answer).
 */
export function clientUntilChatDone(
  gateway: Parameters<typeof clientOn>[0],
  record: (event: GatewayEvent) => void,
  options: GatewayClientOptions = {},
): { client: GatewayClient; done: Promise<void> } {
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => (ended = resolve));
  const client = clientOn(gateway, {
    onEvent: (event) => {
      record(event);
      if (event.type === 'done' && event.operation === 'chat') ended();
    },
    ...options,
  });
  return { client, done };
}

/**
 * A chat call hedged past a stall: community/general sends no first chunk, so after 30 ms a hedge
 * asks community/plain, which answers (the first attempt is cut).
 */
export async function chatHedgedPastStall(
  gateway: { emulator: { injectFault(rule: object): unknown } },
  client: GatewayClient,
): Promise<void> {
  gateway.emulator.injectFault({
    fault: 'stall_first_chunk',
    model: 'community/general',
    ms: 60_000,
  });
  await client.chat(hi(), {
    fallbackModels: ['community/plain'],
    hedge: { afterMs: 30, maxExtra: 1 },
  });
}
