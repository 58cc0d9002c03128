import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

const { emulator } = await emulate({
  as: 'msw',
  scenario: { latencyMs: 2 },
  baseURL: 'https://msw-gateway.test/v1',
  hooks: { afterEach, afterAll },
});

describe('through msw and the global fetch', () => {
  it('chats, streams and keeps 4 in flight for 50 concurrent calls', async () => {
    // No `fetch` option: the client uses globalThis.fetch, looked up at call time (msw patches it).
    const client = createGatewayClient({
      baseURL: 'https://msw-gateway.test/',
      apiKey: DEFAULT_KEYS.full,
    });
    const stream = await client.chatStream({
      model: 'community/general',
      messages: [{ role: 'user', content: 'via msw' }],
    });
    expect((await stream.result()).text).toBe('Echo: via msw');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.chat({ model: 'community/general', messages: [{ role: 'user', content: `m${i}` }] }),
      ),
    );
    expect(results).toHaveLength(50);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });

  it('maps a dropped connection to network_error', async () => {
    const client = createGatewayClient({
      baseURL: 'https://msw-gateway.test/v1',
      apiKey: DEFAULT_KEYS.full,
      maxRetries: 1,
      retryBaseDelayMs: 0,
    });
    await expect(
      client.chat(
        { model: 'community/general', messages: [{ role: 'user', content: 'x' }] },
        { headers: { 'X-Emulator-Fault': 'drop_connection' } },
      ),
    ).rejects.toMatchObject({ code: 'network_error' });
    expect(emulator.counters.requests.chat).toBe(2);
  });
});
