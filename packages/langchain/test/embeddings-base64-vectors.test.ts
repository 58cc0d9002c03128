// docs/gateway-protocol.md §6, §12 (read liberally): GatewayEmbeddings reads vectors sent as base64
// of little-endian float32s, and an index written as a numeric string, as OpenAIEmbeddings does
// (rv-svc F4; core's rule).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings } from '../src/index';
import { intercepting } from './helpers';

const float32Base64 = (vector: number[]) =>
  Buffer.from(new Float32Array(vector).buffer).toString('base64');

describe('GatewayEmbeddings on a server that sends base64 vectors and string indexes', () => {
  it('embedDocuments and embedQuery read them', async () => {
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request, emulator) => {
      if (!request.url.endsWith('/embeddings')) return undefined;
      const answer = await emulator.fetch(request);
      const body = (await answer.json()) as { data: { index: number; embedding: number[] }[] };
      const data = body.data.map((item) => ({
        index: String(item.index),
        embedding: float32Base64(item.embedding),
      }));
      return Response.json({ ...body, data });
    });
    const model = 'multilingual-e5-base';
    const embeddings = new GatewayEmbeddings({ ...connection, model });
    const plain = new GatewayEmbeddings({ ...gateway.connection, model });
    const texts = ['one', 'two', 'three'];
    const expected = (await plain.embedDocuments(texts)).map((v) => v.map(Math.fround));
    expect(await embeddings.embedDocuments(texts)).toEqual(expected);
    expect(await embeddings.embedQuery('one')).toEqual(
      (await plain.embedQuery('one')).map(Math.fround),
    );
  });
});
