import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';

// docs/gateway-protocol.md §4.7, §10.3: a structured stream held to its check whose body is cut
// midway (`stream_incomplete` on a 200) is the model's failure, as a whole 200 answer broken off
// midway is (`network_error`): its breaker counts it and opens at its threshold (rv-steer9 F2).
const FAILING = 'community/general';
const FALLBACK = 'community/tools';
const schema = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'x',
    schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
  },
};

/** FAILING's hop of a route. */
const failingModel = (outcome: string, reason: string) => ({ model: FAILING, outcome, reason });

describe('a structured stream cut mid-body', () => {
  it("counts as the model's failure: its breaker opens, the next call skips it", async () => {
    const gateway = await emulate();
    const circuit: string[] = [];
    const client = createGatewayClient({
      ...gateway.connection,
      maxRetries: 0,
      circuitBreaker: { failures: 2, cooldownMs: 60_000, maxCooldownMs: 600_000 },
      onEvent: (event) => {
        if (event.type === 'circuit-open') circuit.push(`${event.type} ${event.model}`);
      },
    });
    gateway.emulator.injectFault({ fault: 'stream_cut', model: FAILING, afterChunks: 3 });
    const request = {
      model: FAILING,
      messages: [{ role: 'user' as const, content: 'give json' }],
      response_format: schema,
    };
    const list = { fallbackModels: [FALLBACK] };
    /** The failing model's hop of one call's route, once the stream ended. */
    const failingHop = async () => {
      const stream = await client.chatStream(request, list);
      await stream.result();
      return stream.route.hops[0];
    };
    for (let i = 0; i < 2; i++) {
      expect(await failingHop()).toEqual(failingModel('failed', 'stream_incomplete'));
    }
    expect(circuit).toEqual([`circuit-open ${FAILING}`]);
    expect(await failingHop()).toEqual(failingModel('skipped', 'circuit_open'));
    await gateway.close();
  });
});
