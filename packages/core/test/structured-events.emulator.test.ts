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
const models = {
  'community/so-claimed': {
    ...listed,
    capabilities: ['chat', 'streaming', 'json_schema'],
    verification: 'provider_claimed',
    jsonAnswers: { offSchemaShare: 1 },
  },
  'community/so-tools': { ...listed, capabilities: ['chat', 'streaming', 'tools'] },
} as const;

const asking = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'place', schema } },
});

async function recorded() {
  const gateway = await emulate({ scenario: { models } });
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer('test');
  const events: GatewayEvent[] = [];
  const otel = otelEvents({ tracer });
  const client = createGatewayClient({
    ...gateway.connection,
    onEvent: (event) => {
      if (event.operation === 'chat') events.push(event);
      otel(event);
    },
  });
  const callSpan = () => exporter.getFinishedSpans().find((span) => span.name.startsWith('chat '))!;
  return { client, events, callSpan };
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
});
