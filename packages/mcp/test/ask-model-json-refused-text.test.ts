/**
 * `ask_model` with `json: true` refused (`invalid_structured_output`): the answer as given comes
 * with the refusal, cut at 2,000 characters (as core keeps it on the error), so a long answer does
 * not flood the model's context; cut at a code point (never half an emoji, a lone surrogate strict
 * JSON readers refuse), what is left out counted in characters (code points), not UTF-16 units.
 * Through the MCP SDK's Client against the emulator, the model's text replaced on the way back by a
 * long one that is not JSON.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

/** The text the model's answer is replaced by, set by each test. */
let answerText = '';

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const answer = await globalThis.fetch(request);
  const completion = (await answer.json()) as { choices: { message: { content: string } }[] };
  completion.choices[0]!.message.content = answerText;
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

/** `ask_model` json: true answered `text`: its refusal, `invalid_structured_output`. */
async function refusedAnswering(text: string) {
  answerText = text;
  const result: CallToolResult = await ask({
    model: 'community/general',
    prompt: 'hi',
    json: true,
  });
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as { error: { code: string; text: string } };
  expect(error.code).toBe('invalid_structured_output');
  return { result, error };
}

describe('ask_model json: true refused: the answer as given, capped', () => {
  it('2,000 characters of it, and how many more', async () => {
    const LONG = `Here it is: ${'x'.repeat(9000)}`;
    const { result, error } = await refusedAnswering(LONG);
    expect(error.text).toBe(`${LONG.slice(0, 2000)}… (${LONG.length - 2000} more characters)`);
    const blocks = result.content.map((block) => (block.type === 'text' ? block.text : ''));
    expect(blocks[1]).toBe(`The answer as given:\n${error.text}`);
    expect(JSON.stringify(result).length).toBeLessThan(10_000);
  });

  it('cut at a code point: no half emoji; the rest counted in characters', async () => {
    const { error } = await refusedAnswering(`${'x'.repeat(1999)}${'😀'.repeat(5)} not json`);
    // Five emoji and " not json" left out: 14 characters.
    expect(error.text).toBe(`${'x'.repeat(1999)}… (14 more characters)`);
    expect(error.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
