import { emulate } from '@infergate/emulator/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { otelEvents } from '../src/otel';
import { clientOn, hi } from './helpers';

describe('otelEvents: http.request.resend_count', () => {
  it('counts resends of one request: a failover to another model is not one, that model asked again is', async () => {
    const gateway = await emulate();
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const client = clientOn(gateway, { onEvent: otelEvents({ tracer }), maxRetries: 1 });
    await client.models();
    gateway.emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat' });
    await client.chat(hi(), { fallbackModels: ['community/reasoner'] }).catch(() => undefined);
    const attempts = exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'POST /chat/completions')
      .sort(
        (a, b) =>
          Number(a.attributes['infergate.attempt']) - Number(b.attributes['infergate.attempt']),
      )
      .map((span) => [
        span.attributes['gen_ai.request.model'],
        span.attributes['http.request.resend_count'],
      ]);
    // Each model's first attempt is no resend; the round that asks them again resends.
    expect(attempts.slice(0, 4)).toEqual([
      ['community/general', 0],
      ['community/reasoner', 0],
      ['community/general', 1],
      ['community/reasoner', 1],
    ]);
    await gateway.close();
  });
});
