// docs/gateway-protocol.md §3 (the catalog), §6 (embeddings), §12.7 (the engine by its id): while
// GET /capabilities is down, an embeddings call that names its engine goes on, by the rules the
// engine's id gives, and the gateway judges the engine, as translate and ocr go on (rv-svc F7).
// Without an engine named there is none to pick: the failure names GET /capabilities.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught } from './helpers';

/** A client whose GET /capabilities answers 503, the rest the emulator's. */
async function capabilitiesDown() {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/capabilities')) {
      return new Response('Service Unavailable', { status: 503 });
    }
    return gateway.fetch(request);
  };
  const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0 });
  return { client, emulator: gateway.emulator };
}

describe('embeddings while GET /capabilities is down', () => {
  it('an engine named: embed and embedMany are sent', async () => {
    const { client, emulator } = await capabilitiesDown();
    const answer = await client.embed({ model: 'multilingual-e5-base', input: 'a' });
    expect(answer.data[0]?.embedding.length).toBeGreaterThan(0);
    const vectors = await client.embedMany(['a', 'b'], { model: 'multilingual-e5-base' });
    expect(vectors).toHaveLength(2);
    expect(emulator.counters.requests.embeddings).toBe(2);
  });

  it("an engine named: the limits its id gives still apply (the multilingual engine's 32 768 bytes)", async () => {
    const { client, emulator } = await capabilitiesDown();
    const error = await caught(() =>
      client.embed({ model: 'multilingual-e5-base', input: 'x'.repeat(32_769) }),
    );
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'input' });
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('no engine named: the 503 says it was GET /capabilities, nothing embedded', async () => {
    const { client, emulator } = await capabilitiesDown();
    const error = await caught(() => client.embed({ input: 'a' }));
    expect(error).toMatchObject({ code: 'upstream_error', status: 503 });
    expect(error.message).toMatch(/^GET \/capabilities, read to find the embedding engine, failed/);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });
});
