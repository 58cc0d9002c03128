/**
 * `ask_model` with `fallback_models`, every model tried refusing (OpenAI's `refusal`): the
 * advice does not send the caller to another model of those it named (they all declined), but
 * says every model tried failed, the last refusing: reword the prompt or name other models; for
 * `output_schema` and `json: true` alike. One model refusing keeps the usual advice. Through the
 * MCP SDK's Client against the emulator, every answer rewritten to a refusal on the way back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const answer = await globalThis.fetch(request);
  const completion = (await answer.json()) as {
    choices: { finish_reason: string; message: Record<string, unknown> }[];
  };
  completion.choices[0]!.message = { role: 'assistant', content: null, refusal: 'I will not.' };
  completion.choices[0]!.finish_reason = 'stop';
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch, circuitBreaker: false } });

const SCHEMA = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };

function adviceOf(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const error = (result.structuredContent as { error: { reason?: string; what_to_do: string } })
    .error;
  expect(error.reason).toBe('refused');
  expect((result.content[0] as { text: string }).text).toContain(error.what_to_do);
  return error.what_to_do;
}

const EVERY =
  'Every model tried refused or failed its check, the last refusing to answer (issues quotes its words): reword the prompt, or name other models from list_models; ';

describe('ask_model: every model tried refused', () => {
  it.each([
    [
      'output_schema',
      { output_schema: SCHEMA, fallback_models: ['community/json-schema'] },
      'changing output_schema',
    ],
    [
      'json: true',
      { json: true, fallback_models: ['community/json-object'] },
      'passing output_schema',
    ],
  ])('%s with fallback_models: no "ask another model"', async (_, args, change) => {
    const advice = adviceOf(await ask({ model: 'community/general', prompt: 'hi', ...args }));
    expect(advice).toBe(`${EVERY}${change} will not help.`);
    expect(advice).not.toContain('fallback_models');
  });

  it('one model refusing: ask another model, as before', async () => {
    const advice = adviceOf(
      await ask({ model: 'community/json-schema', prompt: 'hi', output_schema: SCHEMA }),
    );
    expect(advice).toContain('ask another model (fallback_models');
  });
});
