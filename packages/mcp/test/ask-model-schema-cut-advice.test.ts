/**
 * `ask_model` with `output_schema` whose answer the model server cut at `max_tokens` before its
 * JSON ended (`finish_reason` `length`): `what_to_do` says to raise `max_tokens`, as core's
 * message does, not to change the model or the schema. Through the MCP SDK's Client against the
 * emulator, the answer cut on the way back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

/** `max_tokens` of an answer reported cut, its JSON cut too. */
const CUT = 41;

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const body = (await request.clone().json()) as { max_tokens?: number };
  const answer = await globalThis.fetch(request);
  if (body.max_tokens !== CUT) return answer;
  const completion = (await answer.json()) as {
    choices: { finish_reason: string; message: { content: string } }[];
  };
  completion.choices[0]!.finish_reason = 'length';
  completion.choices[0]!.message.content = '{"answer":"Ec';
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

const SCHEMA = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };

function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; what_to_do: string } }).error;
}

describe('ask_model output_schema cut at max_tokens', () => {
  it('advises raising max_tokens', async () => {
    const error = errorOf(
      await ask({
        model: 'community/general',
        prompt: 'hi',
        output_schema: SCHEMA,
        max_tokens: CUT,
      }),
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.what_to_do).toBe(
      'Raise max_tokens (the answer was cut before its JSON ended) and call again.',
    );
  });
});
