// docs/gateway-protocol.md §6, §12 (read liberally): embedMany reads vectors sent as base64 of
// little-endian float32s, and an index written as a numeric string (which the
// openai-compatible anchor reads too), by core's rule (rv-svc F4).
import { emulate } from '@infergate/emulator/testing';
import { embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src';

const float32Base64 = (vector: number[]) =>
  Buffer.from(new Float32Array(vector).buffer).toString('base64');

describe('embedMany on a server that sends base64 vectors and string indexes', () => {
  it('reads them as their numbers, in input order', async () => {
    const gateway = await emulate();
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const answer = await gateway.fetch(request);
      if (!request.url.endsWith('/embeddings')) return answer;
      const body = (await answer.json()) as { data: { index: number; embedding: number[] }[] };
      const data = body.data.map((item) => ({
        index: String(item.index),
        embedding: float32Base64(item.embedding),
      }));
      return Response.json({ ...body, data });
    };
    const values = ['one', 'two', 'three'];
    const embed = (settings: { fetch: typeof globalThis.fetch }) =>
      embedMany({
        model: createGateway({ ...gateway.connection, ...settings }).embeddingModel(
          'multilingual-e5-base',
        ),
        values,
      });
    const { embeddings: plain } = await embed({ fetch: gateway.fetch });
    const { embeddings } = await embed({ fetch });
    expect(embeddings).toEqual(plain.map((vector) => vector.map(Math.fround)));
  });
});
