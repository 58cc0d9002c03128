/**
 * `ask_model` with `output_schema` and `fallback_models` whose one model asked fails the check (the
 * listed fallback skipped: it has no way to serve a schema): `what_to_do` names other models in
 * fallback_models rather than telling the model to add fallback_models, which the call had. Through
 * the MCP SDK's Client against the emulator, the answer rewritten on the way back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

/** Words in a prompt that make the answer a refusal, or JSON off the schema. */
const REFUSE = 'please refuse';
const BREAK = 'please break';

const MESSAGES: Record<string, Record<string, unknown>> = {
  [REFUSE]: { content: '{"a":1}', refusal: 'I cannot help with that.' },
  [BREAK]: { content: '{"a":"one"}' },
};

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const sent = await request.clone().text();
  const answer = await globalThis.fetch(request);
  const words = Object.keys(MESSAGES).find((key) => sent.includes(key));
  if (words === undefined) return answer;
  const completion = (await answer.json()) as {
    choices: { finish_reason: string; message: Record<string, unknown> }[];
  };
  completion.choices[0]!.message = { role: 'assistant', ...MESSAGES[words] };
  completion.choices[0]!.finish_reason = 'stop';
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch, circuitBreaker: false } });

const SCHEMA = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };

/** The fallback lacks every way to serve a schema: skipped, never sent the call. */
const listed = (prompt: string) => ({
  model: 'community/json-schema',
  prompt,
  output_schema: SCHEMA,
  fallback_models: ['community/plain'],
});

function adviceOf(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as {
    error: { code: string; what_to_do: string; route: { hops: { outcome: string }[] } };
  };
  expect(error.code).toBe('invalid_structured_output');
  expect(error.route.hops.map((hop) => hop.outcome)).toEqual(['skipped', 'failed']);
  expect(error.what_to_do).not.toMatch(/add fallback_models/);
  return error.what_to_do;
}

describe('what_to_do of a structured answer refused when the call had fallback_models', () => {
  it('JSON that breaks the schema: other models in fallback_models', async () => {
    expect(adviceOf(await ask(listed(BREAK)))).toBe(
      'The answer did not follow output_schema (issues says where): name other models in fallback_models, choose a model with json_schema from list_models, simplify the schema, or say more about it in the prompt.',
    );
  });

  it('a refusal: a model not named yet', async () => {
    expect(adviceOf(await ask(listed(REFUSE)))).toBe(
      'The model refused to answer (issues quotes its words): reword the prompt, or ask another model (a model from list_models not named yet); changing output_schema will not help.',
    );
  });
});
