/**
 * `ask_model` with `output_schema` or `json: true` whose answer core refuses: `what_to_do` fits
 * why it failed, read from core's `invalidOutput.reason` (not its wording), and the structured
 * error carries that `reason`. A refusal (OpenAI's `refusal`) is the model declining: reword or
 * ask another model, not simplify the schema; a cut answer: raise max_tokens; JSON that breaks the
 * schema: today's advice. Through the MCP SDK's Client against the emulator, the answer rewritten
 * on the way back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

/** Words in a prompt that make the answer a refusal, cut at the length limit, or off the schema. */
const REFUSE = 'please refuse';
const CUT = 'please cut';
const BREAK = 'please break';

/** The message and finish reason of the answer to a prompt with each of those words. */
const ANSWERS: Record<string, [Record<string, unknown>, string]> = {
  [REFUSE]: [{ content: '{"a":1}', refusal: 'I cannot help with that.' }, 'stop'],
  [CUT]: [{ content: '{"a":' }, 'length'],
  [BREAK]: [{ content: '{"a":"one"}' }, 'stop'],
};

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const sent = await request.clone().text();
  const answer = await globalThis.fetch(request);
  const words = Object.keys(ANSWERS).find((key) => sent.includes(key));
  if (words === undefined) return answer;
  const completion = (await answer.json()) as {
    choices: { finish_reason: string; message: Record<string, unknown> }[];
  };
  const [message, finish] = ANSWERS[words]!;
  completion.choices[0]!.message = { role: 'assistant', ...message };
  completion.choices[0]!.finish_reason = finish;
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch, circuitBreaker: false } });

const SCHEMA = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };

interface ToolError {
  code: string;
  what_to_do: string;
  reason?: string;
}

function errorOf(result: CallToolResult): ToolError {
  expect(result.isError).toBe(true);
  const error = (result.structuredContent as { error: ToolError }).error;
  expect(error.code).toBe('invalid_structured_output');
  // The text the calling model reads says the same.
  expect((result.content[0] as { text: string }).text).toContain(error.what_to_do);
  return error;
}

const REFUSED_TODO =
  'The model refused to answer (issues quotes its words): reword the prompt, or ask another model (fallback_models, or a model from list_models); ';
const CUT_TODO = 'Raise max_tokens (the answer was cut before its JSON ended) and call again.';

describe('ask_model: what_to_do fits why the structured answer failed', () => {
  it('output_schema refused: the model declined; changing the schema will not help', async () => {
    const error = errorOf(
      await ask({ model: 'community/json-schema', prompt: REFUSE, output_schema: SCHEMA }),
    );
    expect(error.reason).toBe('refused');
    expect(error.what_to_do).toBe(`${REFUSED_TODO}changing output_schema will not help.`);
  });

  it('json: true refused: the model declined; passing output_schema will not help', async () => {
    const error = errorOf(
      await ask({ model: 'community/json-object', prompt: REFUSE, json: true }),
    );
    expect(error.reason).toBe('refused');
    expect(error.what_to_do).toBe(`${REFUSED_TODO}passing output_schema will not help.`);
  });

  it('output_schema cut at the length limit: raise max_tokens, by the reason', async () => {
    const error = errorOf(
      await ask({ model: 'community/json-schema', prompt: CUT, output_schema: SCHEMA }),
    );
    expect(error.reason).toBe('cut');
    expect(error.what_to_do).toBe(CUT_TODO);
  });

  it('json: true cut at the length limit: raise max_tokens, by the reason', async () => {
    const error = errorOf(await ask({ model: 'community/json-object', prompt: CUT, json: true }));
    expect(error.reason).toBe('cut');
    expect(error.what_to_do).toBe(CUT_TODO);
  });

  it('JSON that breaks output_schema: the schema advice, reason schema', async () => {
    const error = errorOf(
      await ask({ model: 'community/json-schema', prompt: BREAK, output_schema: SCHEMA }),
    );
    expect(error.reason).toBe('schema');
    expect(error.what_to_do).toMatch(/^The answer did not follow output_schema/);
  });
});
