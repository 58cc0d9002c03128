import { caught, chatCompletion, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayError, type GatewayEvent } from '../src';
import { callUsage } from '../src/protocol/call-usage';

// docs/gateway-protocol.md §4.7: a hedged call whose two runs both fail ends with the first run's
// failure, and its route's last hop is that failure (README: "the last hop the failure that ended
// the call"); the hedge's own end (a body not JSON: a failover reason) is a hop where it failed, not after the
// first run's later failures (rv-steer9 F3). Its usage is then counted once (`callUsage`).
const FIRST = 'community/general';
const HEDGE = 'community/tools';
const cutJson = () =>
  new Response('{"id":"c1","choices":[', { headers: { 'content-type': 'application/json' } });

/**
 * A client whose first model answers `first()` only once the hedge's answer (a 200 cut mid-JSON)
 * failed: the hedge is sent while the first run waits, and fails before the first run does.
 */
async function hedgeFailsFirst(first: () => Response) {
  const gateway = await emulate();
  let hedgeFailed: () => void = () => {};
  const failedHedge = new Promise<void>((resolve) => {
    hedgeFailed = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { model?: string };
    if (body.model === HEDGE) return cutJson();
    if (body.model === FIRST) {
      await failedHedge;
      return first();
    }
    return gateway.connection.fetch(input, init);
  };
  const onEvent = (event: GatewayEvent) => {
    if (event.type === 'response' && event.code === 'invalid_response') hedgeFailed();
  };
  const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0, onEvent });
  return { gateway, client };
}

const hedged = { fallbackModels: [HEDGE], hedge: { afterMs: 1, maxExtra: 1 } };

describe('a hedged call whose runs both fail', () => {
  it("ends its route with the failure that ended the call, the hedge's end before it", async () => {
    const badGateway = () =>
      new Response(JSON.stringify({ error: { code: 'all_providers_failed', message: 'x' } }), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      });
    const { gateway, client } = await hedgeFailsFirst(badGateway);
    const error = await caught<GatewayError>(
      client.chat({ model: FIRST, messages: [{ role: 'user', content: 'hi' }] }, hedged),
    );
    expect(error.code).toBe('all_providers_failed');
    expect(error.route?.hops).toEqual([
      { model: HEDGE, outcome: 'failed', reason: 'invalid_response' },
      { model: FIRST, outcome: 'failed', reason: 'all_providers_failed' },
    ]);
    await gateway.close();
  });

  it("counts a structured call's refused answer once when the hedge ended without one", async () => {
    const usage = { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 };
    // An answer that breaks the schema (no `a`): refused, its tokens spent.
    const refused = () =>
      Response.json(chatCompletion(FIRST, '{"b":1}', { usage }), {
        headers: { 'x-service-model': FIRST },
      });
    const { gateway, client } = await hedgeFailsFirst(refused);
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    };
    const error = await caught<GatewayError>(
      client.chat(
        {
          model: FIRST,
          messages: [{ role: 'user', content: 'give json' }],
          response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
        },
        hedged,
      ),
    );
    expect(error.code).toBe('invalid_structured_output');
    const hops = error.route?.hops ?? [];
    expect(hops.at(-1)).toMatchObject({ model: FIRST, usage });
    expect(hops.map((hop) => `${hop.model} ${hop.outcome}`)).toEqual([
      `${HEDGE} failed`,
      `${FIRST} failed`,
    ]);
    expect(callUsage(error.usage, error.route)).toEqual({
      inputTokens: 7,
      outputTokens: 5,
      totalTokens: 12,
    });
    await gateway.close();
  });
});
