import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../index';
import { GatewayEmbeddings } from './gateway-embeddings';

/** The refusal `make` throws, as `code: message`. */
function refusal(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    return isGatewayError(error) ? `${error.code}: ${error.message}` : String(error);
  }
  return 'accepted';
}

describe('GatewayEmbeddings settings', () => {
  it('refuses a dimensions that is not a positive integer as it is made', async () => {
    const { connection } = await emulate();
    expect(
      refusal(
        () => new GatewayEmbeddings({ ...connection, dimensions: '256' as unknown as number }),
      ),
    ).toBe(
      'configuration_error: dimensions (GatewayEmbeddings option) must be an integer ≥ 1, got a string',
    );
    expect(refusal(() => new GatewayEmbeddings({ ...connection, dimensions: 0 }))).toBe(
      'configuration_error: dimensions (GatewayEmbeddings option) must be an integer ≥ 1, got 0',
    );
  });

  it('refuses a maxConcurrency of 0 as it is made, named as its own field', async () => {
    const { connection } = await emulate();
    expect(refusal(() => new GatewayEmbeddings({ ...connection, maxConcurrency: 0 }))).toBe(
      'configuration_error: maxConcurrency (GatewayEmbeddings option) must be an integer ≥ 1, got 0',
    );
  });

  it.each([
    ["LangChain's unbounded default", Number.POSITIVE_INFINITY],
    ['null, not given', null],
  ])('takes good settings and %s, and embeds with them', async (_, maxConcurrency) => {
    const { emulator, connection } = await emulate();
    const embeddings = new GatewayEmbeddings({
      ...connection,
      model: 'multilingual-e5-base',
      dimensions: 256,
      maxConcurrency: maxConcurrency as number,
    });
    const vectors = await embeddings.embedDocuments(['a', 'b']);
    expect(vectors.map((vector) => vector.length)).toEqual([256, 256]);
    expect(emulator.counters.requests.embeddings).toBe(1);
  });
});
