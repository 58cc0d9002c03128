// docs/gateway-protocol.md §3, §6: while GET /capabilities is down, GatewayEmbeddings fails as
// that read did, its message naming GET /capabilities (core's rule), not as if the embeddings
// request had failed: it was never sent (rv-svc F7).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings } from '../src/index';
import { intercepting } from './helpers';

describe('GatewayEmbeddings while GET /capabilities is down', () => {
  it('embedQuery and embedDocuments name GET /capabilities in the error', async () => {
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request) =>
      request.url.endsWith('/capabilities')
        ? new Response('Service Unavailable', { status: 503 })
        : undefined,
    );
    const embeddings = new GatewayEmbeddings({
      ...connection,
      model: 'multilingual-e5-base',
      maxRetries: 0,
    });
    for (const call of [() => embeddings.embedQuery('a'), () => embeddings.embedDocuments(['a'])]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'upstream_error', status: 503 });
      expect((error as Error).message).toMatch(
        /^GET \/capabilities, read to find the embedding engine, failed \(nothing was embedded\)/,
      );
    }
    expect(gateway.emulator.counters.requests.embeddings).toBe(0);
  });
});
