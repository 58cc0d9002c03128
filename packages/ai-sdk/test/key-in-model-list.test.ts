/**
 * A key pasted into `fallbackModels` or `model` (a configuration mix-up) is redacted from the
 * error, and from onEvent events and OpenTelemetry spans too: model ids, skip details, span names.
 */
import { inspect } from 'node:util';
import { otelEvents } from '@infergate/core/otel';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { generateText } from 'ai';
import { expect, it } from 'vitest';
import { createGateway } from '../src';

const KEY = DEFAULT_KEYS.full;

it('a key given as a model id shows in no onEvent event and no span', async () => {
  const emulator = createEmulator();
  emulator.injectFault({ fault: 'model_busy', model: 'community/general', retryAfter: 3600 });
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer('t');
  const record = otelEvents({ tracer });
  const events: unknown[] = [];
  const gateway = createGateway({
    baseURL: 'https://gw.test/v1',
    apiKey: KEY,
    fetch: emulator.fetch,
    onEvent: (event) => {
      events.push(event);
      record(event);
    },
  });
  const failures = [
    await generateText({
      model: gateway('community/general', { fallbackModels: [KEY] }),
      prompt: 'x',
      maxRetries: 0,
    }).catch((error: unknown) => error),
    await generateText({ model: gateway(KEY), prompt: 'x', maxRetries: 0 }).catch(
      (error: unknown) => error,
    ),
  ];
  // (The AI SDK's own APICallError keeps the request body it was given: `requestBodyValues`.)
  for (const failure of failures) expect((failure as Error).message).not.toContain(KEY);
  expect(events.some((event) => (event as { type: string }).type === 'model-skipped')).toBe(true);
  expect(inspect(events, { depth: 10 })).not.toContain(KEY);
  const spans = exporter.getFinishedSpans();
  expect(spans.length).toBeGreaterThan(0);
  for (const span of spans) {
    const shown = inspect([span.name, span.attributes, span.events], { depth: 10 });
    expect(shown).not.toContain(KEY);
  }
  expect(spans.map((span) => span.name)).toContain('chat [redacted]');
});
