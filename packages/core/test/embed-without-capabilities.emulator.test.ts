// docs/gateway-protocol.md §3 (the catalog), §6 (embeddings): while GET /capabilities is down, an
// embeddings call fails as that read did, its message naming GET /capabilities: the embeddings
// request was never sent, and an error that reads as its own would send the caller looking at the
// wrong endpoint (rv-svc F7). With or without an engine named: the list tells a gone engine.
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

const CALLS = [
  ['embed, engine named', { model: 'multilingual-e5-base' }],
  ['embed, no engine named', {}],
] as const;

describe('embeddings while GET /capabilities is down', () => {
  it.each(CALLS)('%s: the 503, naming GET /capabilities; nothing embedded', async (_, named) => {
    const { client, emulator } = await capabilitiesDown();
    const error = await caught(() => client.embed({ ...named, input: 'a' }));
    expect(error).toMatchObject({ code: 'upstream_error', status: 503, isRetryable: true });
    expect(error.message).toBe(
      'GET /capabilities, read to find the embedding engine, failed (nothing was embedded): Gateway answered HTTP 503: Service Unavailable',
    );
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('embedMany names it too', async () => {
    const { client } = await capabilitiesDown();
    const error = await caught(() =>
      client.embedMany(['a', 'b'], { model: 'multilingual-e5-base' }),
    );
    expect(error.message).toMatch(/^GET \/capabilities, read to find the embedding engine, failed/);
  });
});
