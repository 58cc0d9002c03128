// docs/gateway-protocol.md §6 (embeddings): what does not reach the engine is told, not dropped
// unseen. A gateway that drops `dimensions` answers vectors of another length: core's
// `invalid_response` naming `dimensions` (an index built for the length asked must not get them).
// `inputType` on an engine that takes none is left out by core's rule: an `unsupported` warning.
import { emulate } from '@infergate/emulator/testing';
import { APICallError, embed, embedMany } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gatewayThrough } from './providers';

const gateway = await emulate({ hooks: { afterEach, afterAll } });

/** The gateway as it might be: it drops `dimensions` from an embeddings request. */
const droppingDimensions: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/embeddings')) return gateway.fetch(request);
  const { dimensions: _, ...body } = await request.json();
  return gateway.fetch(new Request(request, { body: JSON.stringify(body) }));
};

describe('embedMany: vectors of another length than `dimensions` asked', () => {
  it('fails with an APICallError naming `dimensions`, what was asked and what came', async () => {
    const model = gatewayThrough(gateway, droppingDimensions).embeddingModel(
      'multilingual-e5-base',
    );
    const error = await embedMany({
      model,
      values: ['a', 'b'],
      dimensions: 256,
      maxRetries: 0,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    const { data, message, isRetryable } = error as APICallError;
    expect(data).toMatchObject({ code: 'invalid_response', field: 'dimensions' });
    expect(message).toMatch(/has vectors of length 768 where `dimensions: 256` was asked/);
    expect(isRetryable).toBe(false);
  });
});

describe('inputType on an engine that takes none', () => {
  const model = (id: string) => gatewayThrough(gateway, gateway.fetch).embeddingModel(id);
  const query = { infergate: { inputType: 'query' } } as const;

  it('embed and embedMany warn `unsupported` (feature inputType); nothing of it is sent', async () => {
    const one = await embed({
      model: model('all-minilm-l6-v2'),
      value: 'a',
      providerOptions: query,
    });
    const many = await embedMany({
      model: model('all-minilm-l6-v2'),
      values: ['a', 'b'],
      providerOptions: query,
    });
    const warning = {
      type: 'unsupported',
      feature: 'inputType',
      details:
        'inputType "query" is not sent: engine "all-minilm-l6-v2" takes no input type (only the multilingual engine does)',
    };
    expect(one.warnings).toEqual([warning]);
    expect(many.warnings).toEqual([warning]);
  });

  it('the multilingual engine takes it: no warning', async () => {
    const many = await embedMany({
      model: model('multilingual-e5-base'),
      values: ['a'],
      providerOptions: query,
    });
    expect(many.warnings).toEqual([]);
  });
});
