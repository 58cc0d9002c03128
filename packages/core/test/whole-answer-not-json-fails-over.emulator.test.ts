// docs/gateway-protocol.md §4.7 rule 3 (failover at once), §10.3 (a body that is not JSON): a whole
// 2xx answer whose body is not JSON (the emulator's `truncated_json`: cut in half) is its
// attempt's failure, read within the attempt, so a call with fallbackModels moves to its next
// model at once (reason `invalid_response`), as a stream's unreadable event does; never asked
// again of the same model. Without a list the call fails as it always did: `invalid_response`,
// its message and kept body unchanged.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayError } from '../src';
import { caught, hi } from './helpers';

const CUT = 'community/general';
const NEXT = 'community/json-schema';

async function cutOnce() {
  const gateway = await emulate();
  const client = createGatewayClient({ ...gateway.connection, circuitBreaker: false });
  gateway.emulator.injectFault({ fault: 'truncated_json', model: CUT });
  return { gateway, client };
}

describe('a whole 200 answer cut mid-JSON', () => {
  it('moves a call with fallbackModels to its next model at once', async () => {
    const { gateway, client } = await cutOnce();
    const answer = await client.chat(hi(CUT), { fallbackModels: [NEXT] });
    expect(answer.servedModel).toBe(NEXT);
    expect(answer.route?.hops).toEqual([
      expect.objectContaining({ model: CUT, outcome: 'failed', reason: 'invalid_response' }),
      expect.objectContaining({ model: NEXT, outcome: 'answered' }),
    ]);
    expect(gateway.counters.requests.chat).toBe(2);
  });

  it('is not asked again of a model: every model cut ends the call after one round', async () => {
    const { gateway, client } = await cutOnce();
    gateway.emulator.injectFault({ fault: 'truncated_json', model: NEXT });
    const error = (await caught(() =>
      client.chat(hi(CUT), { fallbackModels: [NEXT] }),
    )) as GatewayError;
    expect(error.code).toBe('invalid_response');
    expect(error.route?.hops).toEqual([
      expect.objectContaining({ model: CUT, outcome: 'failed', reason: 'invalid_response' }),
      expect.objectContaining({ model: NEXT, outcome: 'failed', reason: 'invalid_response' }),
    ]);
    expect(gateway.counters.requests.chat).toBe(2);
  });

  it("counts for the model's circuit breaker: a breaker of one failure skips it next", async () => {
    const gateway = await emulate();
    const breaker = { failures: 1, cooldownMs: 60_000 };
    const client = createGatewayClient({ ...gateway.connection, circuitBreaker: breaker });
    gateway.emulator.injectFault({ fault: 'truncated_json', model: CUT });
    await client.chat(hi(CUT), { fallbackModels: [NEXT] });
    const next = await client.chat(hi(CUT), { fallbackModels: [NEXT] });
    expect(next.route?.hops[0]).toMatchObject({
      model: CUT,
      outcome: 'skipped',
      reason: 'circuit_open',
    });
    expect(gateway.counters.requests.chat).toBe(3);
  });

  it('fails a plain call (no list) with invalid_response, as it always did', async () => {
    const { gateway, client } = await cutOnce();
    const error = (await caught(() => client.chat(hi(CUT)))) as GatewayError;
    expect(error).toMatchObject({
      code: 'invalid_response',
      status: 200,
      isRetryable: false,
      message: "The gateway's /chat/completions answer is not valid JSON (application/json)",
    });
    expect(error.body).toMatch(/^\{/);
    expect(gateway.counters.requests.chat).toBe(1);
  });
});
