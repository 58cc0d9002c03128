import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { otelEvents } from '../src/otel';
import { hi } from './helpers';
import { chatHedgedPastStall, clientUntilChatDone, otelRecorder } from './otel-recorder';

async function traced(options: GatewayClientOptions = {}) {
  const gateway = await emulate();
  const { tracer, spans } = otelRecorder();
  const record = otelEvents({ tracer });
  const { client, done } = clientUntilChatDone(gateway, record, options);
  await client.models();
  /** [model asked for, resend count] of each attempt span, by attempt. */
  const attempts = () =>
    spans('POST /chat/completions')
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
    await chatHedgedPastStall(gateway, client);
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
