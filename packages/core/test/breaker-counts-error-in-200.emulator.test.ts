import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { hi } from './helpers';

// docs/gateway-protocol.md §4.7, §5.3: a listed model whose whole answers are 200s reporting a
// model failure (`provider_unavailable` in an error object) fails in a row: its breaker opens as it
// would on the same code answered as a 503. The answer is told to the breaker only once taken
// (accepted, then read for a failure reported instead): never an answer, then its failure.
const FAILING = 'community/general';
const FALLBACK = 'community/streamer';
const unavailable = JSON.stringify({
  error: { code: 'provider_unavailable', message: 'no provider (in a 200)' },
});

describe('a model answering its failures in 200s', () => {
  it('trips its breaker: the next call skips it without a request', async () => {
    const gateway = await emulate();
    const asked: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const body =
        typeof init?.body === 'string' ? (JSON.parse(init.body) as { model?: string }) : {};
      if (body.model) asked.push(body.model);
      if (body.model === FAILING) {
        return new Response(unavailable, { headers: { 'content-type': 'application/json' } });
      }
      return gateway.connection.fetch(input, init);
    };
    const client = createGatewayClient({
      ...gateway.connection,
      fetch,
      maxRetries: 0,
      circuitBreaker: { failures: 2, cooldownMs: 60_000, maxCooldownMs: 600_000 },
    });
    const list = { fallbackModels: [FALLBACK] };
    for (let i = 0; i < 2; i++)
      expect((await client.chat(hi(FAILING), list)).servedModel).toBe(FALLBACK);
    asked.length = 0;
    const result = await client.chat(hi(FAILING), list);
    expect(result.route.hops).toEqual([
      { model: FAILING, outcome: 'skipped', reason: 'circuit_open' },
      { model: FALLBACK, outcome: 'answered' },
    ]);
    expect(asked).toEqual([FALLBACK]);
  });
});
