import { join } from 'node:path';

/**
 * Script text for the child processes of `runWithGc`: `collectUntil(done)` collects, then gives
 * the event loop a turn for the finalizers' callbacks, until `done()` holds — a wait on the state,
 * not on a count of sleeps. Its 20 s bound is only a safety net.
 */
export const COLLECT_UNTIL = `
const collectUntil = async (done) => {
  const end = performance.now() + 20_000;
  while (!done() && performance.now() < end) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
};
`;

const dist = (name: string) => JSON.stringify(join(import.meta.dirname, '..', 'dist', name));

/**
 * The opening of a `runWithGc` script that traces core's built client: `collectUntil`,
 * `createGatewayClient`, and `otel` (`otelEvents` on a tracer whose finished spans `exporter`
 * keeps).
 */
export const TRACED_DIST = `${COLLECT_UNTIL}
const { createGatewayClient } = await import(${dist('index.js')});
const { otelEvents } = await import(${dist('otel.js')});
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
const otel = otelEvents({ tracer });
`;
