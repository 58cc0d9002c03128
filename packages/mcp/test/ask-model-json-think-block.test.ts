/**
 * `ask_model` with `json: true` on a reasoning model served without a reasoning parser: its answer
 * starts with a `<think>…</think>` block, then the JSON object. Core reads `json: true` as
 * structured output (any object, by `json_object` alone), so the think block is the answer's
 * reasoning and the object after it passes, as with `output_schema` — and the request still asks
 * `response_format: {type: 'json_object'}`. Through the MCP SDK's Client against the emulator,
 * the model's text rewritten on the way back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

const THOUGHT_THEN_JSON = '<think>The user wants an object with a.</think>\n{"a":1}';

/** The bodies of the chat requests sent, in order. */
const sent: Record<string, unknown>[] = [];
beforeEach(() => {
  sent.length = 0;
});

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  sent.push((await request.clone().json()) as Record<string, unknown>);
  const answer = await globalThis.fetch(request);
  const completion = (await answer.json()) as { choices: { message: { content: string } }[] };
  completion.choices[0]!.message.content = THOUGHT_THEN_JSON;
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : ''));

describe('ask_model json: true after a think block', () => {
  it('the object after the think block passes, the JSON alone', async () => {
    const result = await ask({ model: 'community/general', prompt: 'give a', json: true });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual(['{"a":1}']);
    expect(result.structuredContent).toMatchObject({ text: '{"a":1}', model: 'community/general' });
  });

  it('the request still asks for json_object (not json_schema)', async () => {
    await ask({ model: 'community/general', prompt: 'give a', json: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.response_format).toEqual({ type: 'json_object' });
  });
});
