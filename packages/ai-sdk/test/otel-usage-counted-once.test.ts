// With the AI SDK's telemetry on, its model-call span carries the call's gen_ai.usage.*: core's
// span under it (`otelEvents({ genAiUsage: false })`) names its counts infergate.usage.*, so a
// GenAI backend summing gen_ai.usage.* over chat spans counts the call's tokens once.

import { OpenTelemetry } from '@ai-sdk/otel';
import { otelEvents } from '@infergate/core/otel';
import { emulate } from '@infergate/emulator/testing';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { generateText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from './providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
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

describe('OpenTelemetry: usage counted once with the AI SDK telemetry', () => {
  it('generateText: gen_ai.usage.* summed over the chat spans is the call usage', async () => {
    const model = gateway({ onEvent: otelEvents({ genAiUsage: false }) })('community/general');
    const result = await generateText({
      model,
      prompt: 'hello there',
      experimental_telemetry: { isEnabled: true, integrations: [new OpenTelemetry()] },
    });
    const chats = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const ours = chats.find((span) => 'infergate.budget.id' in span.attributes);
    expect(chats).toHaveLength(2);
    const summed = chats.reduce(
      (total, span) => total + Number(span.attributes['gen_ai.usage.output_tokens'] ?? 0),
      0,
    );
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(summed).toBe(result.usage.outputTokens);
    expect(ours?.attributes['infergate.usage.output_tokens']).toBe(result.usage.outputTokens);
  });
});
