// Core's OpenTelemetry spans (`@infergate/core/otel`) under LangChain: the gateway call's span is a
// child of the span active when the chain ran, through LangChain's own async context.

import { createGatewayClient } from '@infergate/core';
import { otelEvents } from '@infergate/core/otel';
import { emulate } from '@infergate/emulator/testing';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { API_KEY } from './helpers';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('app');

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => context.disable());
beforeEach(() => exporter.reset());

async function tracedModel() {
  const { connection } = await emulate();
  const client = createGatewayClient({ ...connection, onEvent: otelEvents({ tracer }) });
  return new GatewayChatModel({ client, model: 'my/laptop-model' });
}

const spans = () => exporter.getFinishedSpans();
const one = (name: string): ReadableSpan => {
  const found = spans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('OpenTelemetry: core spans under LangChain', () => {
  it('invoke, stream and a prompt | model chain: ours is a child of the active span', async () => {
    const model = await tracedModel();
    const chain = ChatPromptTemplate.fromTemplate('Say {word}').pipe(model);
    await tracer.startActiveSpan('app.invoke', async (span) => {
      await model.invoke('hello');
      span.end();
    });
    await tracer.startActiveSpan('app.stream', async (span) => {
      for await (const _chunk of await model.stream('hello')) {
        // read to the end
      }
      span.end();
    });
    await tracer.startActiveSpan('app.chain', async (span) => {
      await chain.invoke({ word: 'hi' });
      span.end();
    });
    const ours = spans().filter((span) => span.name === 'chat my/laptop-model');
    expect(ours).toHaveLength(3);
    const parents = ours.map(
      (span) =>
        spans().find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId)
          ?.name,
    );
    expect(parents.sort()).toEqual(['app.chain', 'app.invoke', 'app.stream']);
    const invoke = ours.find(
      (span) => span.parentSpanContext?.spanId === one('app.invoke').spanContext().spanId,
    );
    expect(invoke?.attributes).toMatchObject({
      'gen_ai.request.model': 'my/laptop-model',
      'gen_ai.response.model': 'pool-a/llama-3-8b',
      'infergate.fallback': true,
    });
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain(API_KEY);
  });
});
