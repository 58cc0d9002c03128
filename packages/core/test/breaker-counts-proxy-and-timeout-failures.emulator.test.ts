// Model failures the circuit breaker counts though no other test answers them (found by a mutation
// review of core): a 504 whatever its body (a proxy's HTML page), and the gateway's
// request_timeout (408). Two in a row open the circuit: the next call skips the model.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { clientOn, hi, only, recordingClient } from './helpers';

const isChat = (input: RequestInfo | URL) =>
  (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).endsWith(
    '/chat/completions',
  );

/** `fetch`, its chat requests to `community/general` answered by `answer`. */
function answeringGeneral(
  answer: () => Response,
  fetch: typeof globalThis.fetch,
): typeof globalThis.fetch {
  return (input, init) =>
    isChat(input) && String(init?.body).includes('"community/general"')
      ? Promise.resolve(answer())
      : fetch(input, init);
}

describe("the circuit breaker's model failures", () => {
  const list = { fallbackModels: ['community/streamer'] };
  const breaker = { failures: 2, cooldownMs: 60_000, maxCooldownMs: 600_000 };

  it("a 504 counts, whatever its body (a proxy's page): two open the circuit", async () => {
    const gateway = await emulate();
    const fetch = answeringGeneral(
      () =>
        new Response('<html>504 Gateway Time-out</html>', {
          status: 504,
          headers: { 'content-type': 'text/html' },
        }),
      gateway.fetch,
    );
    const { client, events } = recordingClient(gateway, {
      fetch,
      circuitBreaker: breaker,
      maxRetries: 0,
    });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    const result = await client.chat(hi(), list);
    expectSkippedAsOpen(result);
    expect(only(events, 'circuit-open')).toHaveLength(1);
    await gateway.close();
  });

  it("the gateway's request_timeout (408) counts: two open the circuit", async () => {
    const gateway = await emulate();
    const error = {
      message: 'the provider timed out',
      type: 'timeout_error',
      code: 'request_timeout',
    };
    const fetch = answeringGeneral(() => Response.json({ error }, { status: 408 }), gateway.fetch);
    const client = clientOn(gateway, { fetch, circuitBreaker: breaker, maxRetries: 0 });
    for (let i = 0; i < 2; i++) await client.chat(hi(), list);
    const result = await client.chat(hi(), list);
    expectSkippedAsOpen(result);
    await gateway.close();
  });
});

/** The call's first hop, the breaker's model, was skipped: its circuit is open. */
function expectSkippedAsOpen(result: { route: { hops: readonly unknown[] } }): void {
  expect(result.route.hops[0]).toEqual({
    model: 'community/general',
    outcome: 'skipped',
    reason: 'circuit_open',
  });
}
