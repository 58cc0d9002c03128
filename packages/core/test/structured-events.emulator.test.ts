import type { ModelSpec } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayEvent } from '../src/index';
import { otelEvents } from '../src/otel';
import { only } from './helpers';

// Issue 52, visible: the `failover` and `done` events and the OpenTelemetry span say how each hop
// served the schema and whether its answer passed the check.
const schema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const listed = { owned_by: 'service-community', online: true } as const;
const models: Record<string, ModelSpec> = {
  'community/so-claimed': {
    ...listed,
    capabilities: ['chat', 'streaming', 'json_schema'],
    verification: 'provider_claimed',
    jsonAnswers: { offSchemaShare: 1 },
  },
  'community/so-tools': { ...listed, capabilities: ['chat', 'streaming', 'tools'] },
};

const asking = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'place', schema } },
});

async function recorded(recordContent = false) {
  const gateway = await emulate({ scenario: { models } });
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer('test');
  const events: GatewayEvent[] = [];
  const otel = otelEvents({ tracer });
  const client = createGatewayClient({
    ...gateway.connection,
    recordContent,
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
      otel(event);
    },
  });
  const callSpan = () => exporter.getFinishedSpans().find((span) => span.name.startsWith('chat '))!;
  const spans = () => exporter.getFinishedSpans();
  return { client, events, callSpan, spans };
}

describe('structured output in events and OpenTelemetry', () => {
  it('failover says the failed check, done the answering method', async () => {
    const { client, events, callSpan } = await recorded();
    const options = { fallbackModels: ['community/so-tools'] };
    await client.chat(asking('community/so-claimed'), options);
    expect(only(events, 'failover')).toMatchObject([
      {
        from: 'community/so-claimed',
        reason: 'invalid_structured_output',
        structured: { method: 'json_schema', checked: false },
      },
    ]);
    expect(only(events, 'done')).toMatchObject([
      { ok: true, structured: { method: 'tools', checked: true } },
    ]);
    const span = callSpan();
    expect(span.attributes).toMatchObject({
      'infergate.structured_output.method': 'tools',
      'infergate.structured_output.checked': true,
    });
    const failover = span.events.find((event) => event.name === 'infergate.failover');
    expect(failover?.attributes).toMatchObject({
      'infergate.structured_output.method': 'json_schema',
      'infergate.structured_output.checked': false,
    });
  });

  it('a stream: done says how it was served and whether its end passed', async () => {
    const { client, events, callSpan } = await recorded();
    await (await client.chatStream(asking('community/so-tools'))).result();
    await caught((await client.chatStream(asking('community/so-claimed'))).result());
    expect(only(events, 'done')).toMatchObject([
      { ok: true, structured: { method: 'tools', checked: true } },
      { ok: false, structured: { method: 'json_schema', checked: false } },
    ]);
    expect(callSpan().attributes['infergate.structured_output.method']).toBe('tools');
  });

  it('a call whose check failed ends with done saying so', async () => {
    const { client, events, callSpan } = await recorded();
    await caught(client.chat(asking('community/so-claimed')));
    expect(only(events, 'done')).toMatchObject([
      { ok: false, structured: { method: 'json_schema', checked: false } },
    ]);
    expect(callSpan().attributes).toMatchObject({
      'infergate.structured_output.method': 'json_schema',
      'infergate.structured_output.checked': false,
    });
  });

  it('a call without a schema carries none', async () => {
    const { client, events, callSpan } = await recorded();
    await client.chat({ ...asking('community/so-tools'), response_format: undefined });
    expect(only(events, 'done')[0]?.structured).toBeUndefined();
    expect(callSpan().attributes['infergate.structured_output.method']).toBeUndefined();
  });

  it("with recordContent, each attempt whose body is not the call's carries the body it sent", async () => {
    const { client, events, spans } = await recorded(true);
    await client.chat(asking('community/so-claimed'), { fallbackModels: ['community/so-tools'] });
    const start = only(events, 'start')[0]!;
    expect(JSON.parse(start.input!)).toMatchObject({ response_format: { type: 'json_schema' } });
    const [first, second] = only(events, 'attempt');
    // The first hop serves the schema natively: the call's own body, not repeated.
    expect(first?.input).toBeUndefined();
    // The second serves it by a forced tool call: its own body.
    const sent = JSON.parse(second!.input!) as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'community/so-tools',
      tool_choice: { type: 'function', function: { name: 'place' } },
    });
    expect(sent.response_format).toBeUndefined();
    const hop = spans().find(
      (span) =>
        span.name.startsWith('POST ') &&
        span.attributes['gen_ai.request.model'] === 'community/so-tools',
    );
    expect(hop?.attributes['gen_ai.input.messages']).toEqual(expect.any(String));
  });

  it('without recordContent, no attempt carries a body', async () => {
    const { client, events } = await recorded();
    await client.chat(asking('community/so-claimed'), { fallbackModels: ['community/so-tools'] });
    expect(only(events, 'attempt').map((event) => event.input)).toEqual([undefined, undefined]);
  });
});
