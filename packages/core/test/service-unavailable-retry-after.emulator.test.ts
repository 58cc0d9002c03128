import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

// docs/gateway-protocol.md §10.5: a retried status that sends a Retry-After longer than
// maxRetryAfterMs (default 60 s) is thrown at once, for the caller to decide.
describe('a 503 whose Retry-After is longer than maxRetryAfterMs', () => {
  it('fails at once, not retryable, with retryAfterMs', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat', retryAfter: 120 });
    const error = await caught(() => client.chat(hi()), isGatewayError);
    expect(error.status).toBe(503);
    expect(error.code).toBe('provider_unavailable');
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.isRetryable).toBe(false);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('is retried as any 503 when it sends no Retry-After', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 1, retryBaseDelayMs: 1 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat', times: 1 });
    const { response } = await client.chat(hi());
    expect(response.choices[0]?.message.content).toBeTruthy();
    expect(emulator.counters.requests.chat).toBe(2);
  });
});
