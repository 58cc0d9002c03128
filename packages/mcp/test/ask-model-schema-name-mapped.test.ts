/**
 * `ask_model`'s `output_schema_name` (and the schema's `title`, its default) go to core as they
 * are: core's rule alone decides how a name is sent (docs/gateway-protocol.md §4.8), so "Movie
 * review" is sent as `Movie_review`, on a model serving the schema natively and on one serving it
 * by a forced tool, not refused by the server before core sees it. Through the MCP SDK's Client
 * against the emulator; the bodies the gateway got are recorded on the way.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { askModelOfFile, textOf } from './harness';

const REVIEW = {
  type: 'object',
  properties: { title: { type: 'string' }, stars: { type: 'integer' } },
  required: ['title', 'stars'],
};

const bodies: Record<string, unknown>[] = [];
const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (request.url.endsWith('/chat/completions')) bodies.push(await request.clone().json());
  return globalThis.fetch(request);
};

const ask = askModelOfFile({ clientOptions: { fetch } });
beforeEach(() => {
  bodies.length = 0;
});

describe('ask_model: a schema named "Movie review"', () => {
  it.each([
    ['community/json-schema', { response_format: { json_schema: { name: 'Movie_review' } } }],
    ['community/tools', { tool_choice: { type: 'function', function: { name: 'Movie_review' } } }],
  ] as const)(
    '%s, by output_schema_name: answered, sent as "Movie_review"',
    async (model, sent) => {
      const result = await ask({
        model,
        prompt: 'Review "Solaris" (1972).',
        output_schema: REVIEW,
        output_schema_name: 'Movie review',
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect((result.structuredContent as { output: unknown }).output).toMatchObject({
        title: expect.any(String),
        stars: expect.any(Number),
      });
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).toMatchObject(sent);
    },
  );

  it('by the schema title: sent as "Movie_review", not the default name', async () => {
    const result = await ask({
      model: 'community/json-schema',
      prompt: 'Review "Solaris" (1972).',
      output_schema: { ...REVIEW, title: 'Movie review' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(bodies[0]).toMatchObject({ response_format: { json_schema: { name: 'Movie_review' } } });
  });
});
