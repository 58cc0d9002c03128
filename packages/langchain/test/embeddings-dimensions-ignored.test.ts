// docs/gateway-protocol.md §6: a gateway that drops `dimensions` (the spec does not show the field)
// answers vectors of the engine's own length; GatewayEmbeddings fails with core's
// `invalid_response` naming `dimensions` rather than return them for an index of the length asked.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings } from '../src/index';
import { intercepting } from './helpers';

describe('GatewayEmbeddings with `dimensions` the gateway drops', () => {
  it('embedDocuments and embedQuery fail naming `dimensions`, what was asked and what came', async () => {
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request) => {
      if (!request.url.endsWith('/embeddings')) return undefined;
      const { dimensions: _, ...body } = await request.json();
      return gateway.fetch(new Request(request, { body: JSON.stringify(body) }));
    });
    const embeddings = new GatewayEmbeddings({
      ...connection,
      model: 'multilingual-e5-base',
      dimensions: 256,
    });
    for (const call of [
      () => embeddings.embedDocuments(['a', 'b']),
      () => embeddings.embedQuery('a'),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'invalid_response', field: 'dimensions' });
      expect((error as Error).message).toMatch(
        /^The embeddings answer has vectors of length 768 where `dimensions: 256` was asked/,
      );
    }
  });
});
