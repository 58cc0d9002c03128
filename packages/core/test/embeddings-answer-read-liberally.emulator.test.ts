// docs/gateway-protocol.md §6, §12 (read liberally): an embeddings answer whose vectors are base64
// of little-endian float32s (OpenAI's `encoding_format: "base64"`, which some servers send
// unasked) or whose index is a numeric string ("0") is read as the OpenAI-compatible clients read
// it (rv-svc F4); base64 that is no float32 vector is still an invalid_response.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught } from './helpers';

type Item = { index: unknown; embedding: unknown };

/** A client whose embeddings answers are the emulator's, each item rewritten by `rewrite`. */
async function rewriting(rewrite: (item: { index: number; embedding: number[] }) => Item) {
  const gateway = await emulate();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const answer = await gateway.fetch(request);
    if (!request.url.endsWith('/embeddings') || !answer.ok) return answer;
    const body = (await answer.json()) as { data: { index: number; embedding: number[] }[] };
    return Response.json({ ...body, data: body.data.map(rewrite) });
  };
  const plain = createGatewayClient({ ...gateway.connection, retryBaseDelayMs: 0 });
  const client = createGatewayClient({ ...gateway.connection, fetch, retryBaseDelayMs: 0 });
  return { client, plain };
}

const float32Base64 = (vector: number[]) =>
  Buffer.from(new Float32Array(vector).buffer).toString('base64');

const ENGINE = 'multilingual-e5-base';
const TEXTS = ['first', 'second', 'third'];

describe('an embeddings answer read liberally', () => {
  it('base64 float32 vectors are read as their numbers', async () => {
    const { client, plain } = await rewriting((item) => ({
      ...item,
      embedding: float32Base64(item.embedding),
    }));
    const vectors = await client.embedMany(TEXTS, { model: ENGINE });
    const expected = (await plain.embedMany(TEXTS, { model: ENGINE })).map((v) =>
      v.map(Math.fround),
    );
    expect(vectors).toEqual(expected);
  });

  it('an index written as a numeric string is that input position, in order', async () => {
    const { client, plain } = await rewriting((item) => ({ ...item, index: String(item.index) }));
    const answer = await client.embed({ model: ENGINE, input: TEXTS });
    expect(answer.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(answer.data.map((item) => item.embedding)).toEqual(
      await plain.embedMany(TEXTS, { model: ENGINE }),
    );
  });

  it('base64 that is no float32 vector, or an index that is no number, is still refused', async () => {
    for (const rewrite of [
      (item: Item) => ({ ...item, embedding: 'AAE=' }), // 2 bytes: no float32
      (item: Item) => ({ ...item, embedding: 'not base64!' }),
      (item: Item) => ({ ...item, index: 'first' }),
    ]) {
      const { client } = await rewriting(rewrite);
      const error = await caught(() => client.embedMany(TEXTS, { model: ENGINE }));
      expect(error.code).toBe('invalid_response');
    }
  });
});
