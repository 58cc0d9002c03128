/**
 * `ask_model` with `json: true` refused: the answer as given is cut at a code point (never half
 * an emoji, a lone surrogate strict JSON readers refuse), what is left out counted in characters
 * (code points), not UTF-16 units. Through the MCP SDK's Client against the emulator, the model's
 * text replaced on the way back by a long one, an emoji where the cut falls.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

const ANSWER = `${'x'.repeat(1999)}${'😀'.repeat(5)} not json`;

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const answer = await globalThis.fetch(request);
  const completion = (await answer.json()) as { choices: { message: { content: string } }[] };
  completion.choices[0]!.message.content = ANSWER;
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

describe('ask_model json: true refused: the capped text cut at a code point', () => {
  it('no half emoji; the rest counted in characters', async () => {
    const result: CallToolResult = await ask({
      model: 'community/general',
      prompt: 'hi',
      json: true,
    });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent as { error: { code: string; text: string } };
    expect(error.code).toBe('invalid_structured_output');
    // Five emoji and " not json" left out: 14 characters.
    expect(error.text).toBe(`${'x'.repeat(1999)}… (14 more characters)`);
    expect(error.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
