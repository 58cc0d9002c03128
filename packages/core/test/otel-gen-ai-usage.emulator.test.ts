import { emulate } from '@infergate/emulator/testing';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { type OtelEventsOptions, otelEvents } from '../src/otel';
import { caught, clientOn, hi } from './helpers';
import { otelRecorder } from './otel-recorder';

/** A chat call recorded by `otelEvents(options)`: its call span and its token histogram points. */
async function recordedChat(options: OtelEventsOptions) {
  const gateway = await emulate();
  const { tracer, meter, spans, points } = otelRecorder();
  const client = clientOn(gateway, { onEvent: otelEvents({ tracer, meter, ...options }) });
  await client.chat(hi());
  const [span] = spans('chat community/general');
  const tokens = await points<Histogram>('gen_ai.client.token.usage');
  await gateway.close();
  return { attributes: span?.attributes ?? {}, tokens };
}

describe('otelEvents({ genAiUsage })', () => {
  it('false: the call span counts its tokens as infergate.usage.*, not gen_ai.usage.* (no double count under the AI SDK span)', async () => {
    const { attributes, tokens } = await recordedChat({ genAiUsage: false });
    expect(Object.keys(attributes).filter((key) => key.startsWith('gen_ai.usage.'))).toEqual([]);
    expect(attributes['infergate.usage.input_tokens']).toBeGreaterThan(0);
    expect(attributes['infergate.usage.output_tokens']).toBeGreaterThan(0);
    // The token metric stays (the AI SDK records none).
    expect(tokens.map((point) => point.attributes['gen_ai.token.type']).sort()).toEqual([
      'input',
      'output',
    ]);
  });

  it('by default: gen_ai.usage.*, as the GenAI conventions name them', async () => {
    const { attributes } = await recordedChat({});
    expect(attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(attributes['infergate.usage.output_tokens']).toBeUndefined();
  });

  it('refuses a value that is not a boolean, naming the option', async () => {
    const error = await caught(() => otelEvents({ genAiUsage: 'no' as unknown as boolean }));
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'configuration_error', field: 'genAiUsage' });
  });
});
