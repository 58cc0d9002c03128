import { emulate } from '@infergate/emulator/testing';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { otelEvents } from '../src/otel';
import { clientOn, hi } from './helpers';
import { otelRecorder } from './otel-recorder';

// The OpenTelemetry GenAI conventions recommend a call span's request attributes: those the request
// body sets are recorded on the call span (chat and embeddings), as sent; none it does not set.

const PARAMETER_ATTRIBUTES = [
  'gen_ai.request.temperature',
  'gen_ai.request.max_tokens',
  'gen_ai.request.top_p',
  'gen_ai.request.seed',
  'gen_ai.request.stop_sequences',
  'gen_ai.request.frequency_penalty',
  'gen_ai.request.presence_penalty',
  'gen_ai.output.type',
  'gen_ai.embeddings.dimension.count',
];

/** A client on its own gateway recording to an in-memory exporter, and its finished spans. */
async function traced() {
  const gateway = await emulate();
  const otel = otelRecorder();
  const client = clientOn(gateway, { onEvent: otelEvents({ tracer: otel.tracer }) });
  return { client, spans: otel.spans, gateway };
}

/** The request parameters' attributes of `span` (those it has). */
function parameterAttributes(span: ReadableSpan | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(span?.attributes ?? {}).filter(([name]) => PARAMETER_ATTRIBUTES.includes(name)),
  );
}

const SET: Partial<ChatRequest> = {
  temperature: 0.3,
  max_tokens: 50,
  top_p: 0.9,
  seed: 4,
  stop: ['\n\n', 'END'],
  frequency_penalty: 0.1,
  presence_penalty: -0.2,
  response_format: { type: 'json_object' },
};

const RECORDED = {
  'gen_ai.request.temperature': 0.3,
  'gen_ai.request.max_tokens': 50,
  'gen_ai.request.top_p': 0.9,
  'gen_ai.request.seed': 4,
  'gen_ai.request.stop_sequences': ['\n\n', 'END'],
  'gen_ai.request.frequency_penalty': 0.1,
  'gen_ai.request.presence_penalty': -0.2,
  'gen_ai.output.type': 'json',
};

describe('otelEvents: the request parameters on the call span', () => {
  it.each([
    ['chat', false],
    ['chatStream', true],
  ])('%s: each one the request sets, as sent', async (_, stream) => {
    const { client, spans, gateway } = await traced();
    const request = { ...hi('community/general', 'say {"a":1}'), ...SET };
    if (stream) await (await client.chatStream(request)).result();
    else await client.chat(request);
    expect(parameterAttributes(spans('chat community/general')[0])).toEqual(RECORDED);
    await gateway.close();
  });

  it('chat: none that the request does not set (no output type without a response_format)', async () => {
    const { client, spans, gateway } = await traced();
    await client.chat(hi());
    const [span] = spans('chat community/general');
    expect(span?.attributes['gen_ai.request.model']).toBe('community/general');
    expect(parameterAttributes(span)).toEqual({});
    await gateway.close();
  });

  it.each([
    [{ type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' } } }, 'json'],
    [{ type: 'text' }, 'text'],
  ] as const)('chat: gen_ai.output.type of response_format %o is %s', async (format, type) => {
    const { client, spans, gateway } = await traced();
    await client.chat({ ...hi('community/general', 'say {"a":1}'), response_format: format });
    expect(spans('chat community/general')[0]?.attributes['gen_ai.output.type']).toBe(type);
    await gateway.close();
  });

  it('chat: a stop sequence given as a string is a list of one', async () => {
    const { client, spans, gateway } = await traced();
    await client.chat({ ...hi(), stop: 'END' });
    expect(parameterAttributes(spans('chat community/general')[0])).toEqual({
      'gen_ai.request.stop_sequences': ['END'],
    });
    await gateway.close();
  });

  it('chat: a stop sequence holding the API key has it redacted', async () => {
    const { client, spans, gateway } = await traced();
    const key = gateway.connection.apiKey;
    await client.chat({ ...hi(), stop: [`before ${key}`] });
    const attributes = spans('chat community/general')[0]?.attributes ?? {};
    const [stop] = attributes['gen_ai.request.stop_sequences'] as string[];
    expect(stop).not.toContain(key);
    expect(stop).toMatch(/^before /);
    await gateway.close();
  });

  it('embeddings: gen_ai.embeddings.dimension.count when dimensions are asked, else none', async () => {
    const { client, spans, gateway } = await traced();
    const model = 'multilingual-e5-base';
    await client.embedMany(['a b', 'c'], { model, dimensions: 256 });
    await client.embedMany(['d'], { model });
    const [asked, plain] = spans(`embeddings ${model}`);
    expect(parameterAttributes(asked)).toEqual({ 'gen_ai.embeddings.dimension.count': 256 });
    expect(parameterAttributes(plain)).toEqual({});
    await gateway.close();
  });
});
