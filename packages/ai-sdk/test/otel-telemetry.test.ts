// The AI SDK's OpenTelemetry spans and core's (`@infergate/core/otel`) in one trace: the gateway
// call's span is a child of the AI SDK's model-call span.

import { OpenTelemetry } from '@ai-sdk/otel';
import { otelEvents } from '@infergate/core/otel';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from './providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  trace.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
/** Core's call span (the AI SDK names its model-call span the same way, by the GenAI rules). */
const ours = (name: string) =>
  spans().find((span) => span.name === name && 'infergate.budget.id' in span.attributes);
const parentOf = (span: ReadableSpan) =>
  spans().find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);
/** Span names from `span` up to the root. */
function ancestry(span: ReadableSpan): string[] {
  const names: string[] = [];
  for (let at: ReadableSpan | undefined = span; at; at = parentOf(at)) names.push(at.name);
  return names;
}

const telemetry = { isEnabled: true, integrations: [new OpenTelemetry()] };

describe('OpenTelemetry: AI SDK and core in one trace', () => {
  it('generateText: the gateway call span nests under the AI SDK spans', async () => {
    const model = gateway({ onEvent: otelEvents() })('my/laptop-model');
    const result = await generateText({
      model,
      prompt: 'where am I',
      experimental_telemetry: telemetry,
    });
    const call = ours('chat my/laptop-model');
    expect(call).toBeDefined();
    // Ours, under the AI SDK's model call, its step and its agent (generateText) span.
    expect(ancestry(call!)).toEqual([
      'chat my/laptop-model',
      'chat my/laptop-model',
      'step 1',
      'invoke_agent my/laptop-model',
    ]);
    expect(parentOf(call!)?.attributes['infergate.budget.id']).toBeUndefined();
    const root = spans().find((span) => span.name === 'invoke_agent my/laptop-model');
    expect(call!.spanContext().traceId).toBe(root!.spanContext().traceId);
    expect(call!.attributes).toMatchObject({
      'gen_ai.request.model': 'my/laptop-model',
      'gen_ai.response.model': result.response.modelId,
      'infergate.fallback': true,
    });
    const children = spans().filter(
      (span) => span.parentSpanContext?.spanId === call!.spanContext().spanId,
    );
    // The catalog read core's gate made for this first call is in the call's trace, its child.
    expect(children.map((span) => span.name)).toEqual([
      'models',
      'infergate.queue',
      'POST /chat/completions',
    ]);
  });

  it("streamText with a 429 first: ai retries, one call span of ours per attempt of ai's", async () => {
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 1, retryAfter: 0 });
    const result = streamText({
      model: gateway({ onEvent: otelEvents() })('community/general'),
      prompt: 'hello there',
      experimental_telemetry: telemetry,
    });
    expect(await result.text).toBe('Echo: hello there');
    // `ai` owns retries: each doStream is one call of ours with one request.
    const calls = spans().filter(
      (span) => span.name === 'chat community/general' && 'infergate.budget.id' in span.attributes,
    );
    expect(calls).toHaveLength(2);
    const statuses = calls.map((call) =>
      spans()
        .filter(
          (span) =>
            span.name === 'POST /chat/completions' &&
            span.parentSpanContext?.spanId === call.spanContext().spanId,
        )
        .map((span) => span.attributes['http.response.status_code']),
    );
    expect(statuses.flat().sort()).toEqual([200, 429]);
    const answered = calls[statuses.findIndex((list) => list.includes(200))]!;
    expect(ancestry(answered)).toEqual([
      'chat community/general',
      'chat community/general',
      'step 1',
      'invoke_agent community/general',
    ]);
  });

  it('no exported span holds the API key', async () => {
    await generateText({
      model: gateway({ onEvent: otelEvents() })('community/general'),
      prompt: 'hello there',
      experimental_telemetry: telemetry,
    });
    const exported = JSON.stringify(
      spans().map((span) => ({
        name: span.name,
        attributes: span.attributes,
        events: span.events,
      })),
    );
    expect(exported).toContain('gen_ai.request.model');
    expect(exported).not.toContain(DEFAULT_KEYS.full);
  });
});

// With the AI SDK's telemetry on, its model-call span carries the call's gen_ai.usage.*: core's
// span under it (`otelEvents({ genAiUsage: false })`) names its counts infergate.usage.*, so a
// GenAI backend summing gen_ai.usage.* over chat spans counts the call's tokens once.
describe('OpenTelemetry: usage counted once with the AI SDK telemetry', () => {
  it('generateText: gen_ai.usage.* summed over the chat spans is the call usage', async () => {
    const model = gateway({ onEvent: otelEvents({ genAiUsage: false }) })('community/general');
    const result = await generateText({
      model,
      prompt: 'hello there',
      experimental_telemetry: { isEnabled: true, integrations: [new OpenTelemetry()] },
    });
    const chats = spans().filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const core = chats.find((span) => 'infergate.budget.id' in span.attributes);
    expect(chats).toHaveLength(2);
    const summed = chats.reduce(
      (total, span) => total + Number(span.attributes['gen_ai.usage.output_tokens'] ?? 0),
      0,
    );
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(summed).toBe(result.usage.outputTokens);
    expect(core?.attributes['infergate.usage.output_tokens']).toBe(result.usage.outputTokens);
  });
});
