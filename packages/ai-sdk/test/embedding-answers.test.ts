// docs/gateway-protocol.md §6: what `embedMany` makes of the answers of the requests core sends
// for it (vectors of one length across them; usage known only when every answer reports it).
import { emulate } from '@infergate/emulator/testing';
import { embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src';

type EmbeddingsAnswer = { data: { embedding: number[] }[]; usage?: unknown };

/** A provider on an emulated gateway whose embeddings answers `rewrite` changes (given the texts sent). */
async function rewritingGateway(rewrite: (answer: EmbeddingsAnswer, input: string[]) => void) {
  const gateway = await emulate();
  return createGateway({
    ...gateway.connection,
    // One batch at a time: the first one answered is the first one sent.
    maxConcurrency: 1,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.endsWith('/embeddings')) return gateway.fetch(request);
      const sent = (await request.clone().json()) as { input: string[] };
      const answer = (await (await gateway.fetch(request)).json()) as EmbeddingsAnswer;
      rewrite(answer, sent.input);
      return Response.json(answer);
    },
  });
}

const VALUES = Array.from({ length: 130 }, (_, i) => `v${i}`);

describe('embedMany over several requests', () => {
  it('refuses vectors whose length differs between the requests (invalid_response)', async () => {
    const gateway = await rewritingGateway((answer, input) => {
      if (input[0] !== 'v0') for (const item of answer.data) item.embedding.pop();
    });
    const model = gateway.embeddingModel('all-minilm-l6-v2');
    const failure = await embedMany({ model, values: VALUES, maxRetries: 0 }).catch((e) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure.message).toContain(
      'The embeddings answer for texts[64..127] has vectors of length 383, where the answer for texts[0..63] of the same call had length 384',
    );
  });

  it('reports usage only when every answer reported it (else unknown: NaN, as ai has it)', async () => {
    const partly = await rewritingGateway((answer, input) => {
      if (input[0] !== 'v0') delete answer.usage;
    });
    const model = partly.embeddingModel('all-minilm-l6-v2');
    const { usage } = await embedMany({ model, values: VALUES, maxRetries: 0 });
    expect(usage.tokens).toBeNaN();
    const fully = await rewritingGateway(() => {});
    const summed = await embedMany({
      model: fully.embeddingModel('all-minilm-l6-v2'),
      values: VALUES,
    });
    // One word per value: the three answers' usage summed.
    expect(summed.usage.tokens).toBe(130);
  });
});
