/**
 * `similarity` whose two embeddings calls (the query, the texts) come back with vectors of
 * different lengths — each answer right on its own, so core's per-answer checks pass: a gateway
 * error (`invalid_response`) naming the engine and both lengths, as core refuses the same mismatch
 * across one `embedMany`'s batches, not this server's `internal_error`. Through the MCP SDK's
 * Client against the emulator, the query's vector cut short on the way back.
 */
import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';

const QUERY = 'the query';
const SHORT = 256;

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/embeddings')) return globalThis.fetch(request);
  const body = (await request.clone().json()) as { input: string | string[] };
  const answer = await globalThis.fetch(request);
  if ([body.input].flat().join() !== QUERY) return answer;
  const embeddings = (await answer.json()) as { data: { embedding: number[] }[] };
  for (const item of embeddings.data) item.embedding = item.embedding.slice(0, SHORT);
  return Response.json(embeddings, { headers: answer.headers });
};

describe('similarity over vectors of different lengths', () => {
  it('is the engine’s invalid_response naming both lengths', async () => {
    const harness: Harness = await startHarness({ server: { clientOptions: { fetch } } });
    try {
      const client = await harness.connect();
      const result = await client.callTool({
        name: 'similarity',
        arguments: { engine: 'all-minilm-l6-v2', query: QUERY, texts: ['a', 'b'] },
      });
      expect(result.isError).toBe(true);
      const { error } = result.structuredContent as { error: Record<string, unknown> };
      expect(error).toMatchObject({ code: 'invalid_response', model: 'all-minilm-l6-v2' });
      expect(error.message).toMatch(/all-minilm-l6-v2/);
      expect(error.message).toMatch(new RegExp(`\\b${SHORT} for the query, \\d+ for texts\\[0\\]`));
      expect(error.message).not.toContain(`${SHORT} for the query, ${SHORT} `);
    } finally {
      await harness.close();
    }
  });
});
