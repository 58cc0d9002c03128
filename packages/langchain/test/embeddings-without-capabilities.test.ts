// docs/gateway-protocol.md §3, §6: while GET /capabilities is down, GatewayEmbeddings with its
// engine named embeds (core's rule: the engine named is used by the rules its id gives, the
// gateway judges it; rv-svc F7).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings } from '../src/index';
import { intercepting } from './helpers';

describe('GatewayEmbeddings while GET /capabilities is down', () => {
  it('embedQuery and embedDocuments are sent when the engine is named', async () => {
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
    expect((await embeddings.embedQuery('a')).length).toBeGreaterThan(0);
    expect(await embeddings.embedDocuments(['a', 'b'])).toHaveLength(2);
    expect(gateway.emulator.counters.requests.embeddings).toBe(2);
  });
});
