import { emulate } from '@infergate/emulator/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { otelEvents } from '../src/otel';
import { clientOn, hi } from './helpers';

async function traced(options: GatewayClientOptions = {}) {
  const gateway = await emulate();
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer('test');
  const record = otelEvents({ tracer });
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => (ended = resolve));
  const client = clientOn(gateway, {
    onEvent: (event) => {
      record(event);
      if (event.type === 'done' && event.operation === 'chat') ended();
    },
    ...options,
  });
  await client.models();
  /** [model asked for, resend count] of each attempt span, by attempt. */
  const attempts = () =>
    exporter
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
  return { gateway, client, done, attempts };
}

describe('otelEvents: http.request.resend_count', () => {
  it("a hedge's second attempt asks another model: not a resend (0)", async () => {
    const { gateway, client, done, attempts } = await traced();
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: 60_000,
    });
    await client.chat(hi(), {
      fallbackModels: ['community/plain'],
      hedge: { afterMs: 30, maxExtra: 1 },
    });
    await done;
    expect(attempts()).toEqual([
      ['community/general', 0],
      ['community/plain', 0],
    ]);
    await gateway.close();
  });

  it('a failover to another model is not a resend; that model asked again is', async () => {
    const { gateway, client, attempts } = await traced({ maxRetries: 1 });
    gateway.emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat' });
    await client.chat(hi(), { fallbackModels: ['community/reasoner'] }).catch(() => undefined);
    // Each model's first attempt is no resend; the round that asks them again resends.
    expect(attempts().slice(0, 4)).toEqual([
      ['community/general', 0],
      ['community/reasoner', 0],
      ['community/general', 1],
      ['community/reasoner', 1],
    ]);
    await gateway.close();
  });
});
