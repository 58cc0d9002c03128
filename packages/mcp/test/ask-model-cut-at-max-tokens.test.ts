/**
 * `ask_model` on an answer the model server cut at `max_tokens` (`finish_reason` `length`): the
 * text says so, since clients hand a model the text alone and a cut answer reads like a whole
 * one. Plain text gets the note after the answer (as the fallback note); with `json` the note is
 * a second text block, the first the JSON alone; JSON that the cut left unparsable is refused with
 * advice to raise `max_tokens`. Through the MCP SDK's Client against the emulator; a JSON answer
 * cut is the emulator's answer with its `finish_reason` (and, for one marker, its text) changed.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

/** `max_tokens` of a JSON answer reported cut whose JSON is whole. */
const CUT_WHOLE = 40;
/** `max_tokens` of a JSON answer reported cut whose JSON is cut too. */
const CUT_BROKEN = 41;

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const body = (await request.clone().json()) as { max_tokens?: number; stream?: boolean };
  const marked = body.max_tokens === CUT_WHOLE || body.max_tokens === CUT_BROKEN;
  if (!marked || body.stream) return globalThis.fetch(request);
  const answer = await globalThis.fetch(request);
  const completion = (await answer.json()) as {
    choices: { finish_reason: string; message: { content: string } }[];
  };
  const choice = completion.choices[0]!;
  choice.finish_reason = 'length';
  if (body.max_tokens === CUT_BROKEN) choice.message.content = '{"answer":"Ec';
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : ''));

const NOTE = '(cut at max_tokens: the answer is incomplete; raise max_tokens to get all of it)';

describe('ask_model on an answer cut at max_tokens', () => {
  it('plain text: the note follows the answer in its text', async () => {
    const result = await ask({
      model: 'community/general',
      prompt: 'hi there friend how are you today',
      max_tokens: 2,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ finish_reason: 'length' });
    const cut = (result.structuredContent as { text: string }).text;
    expect(texts(result)).toEqual([`${cut}\n\n${NOTE}`]);
  });

  it('an answer not cut: no note', async () => {
    const result = await ask({ model: 'community/general', prompt: 'hi' });
    expect(result.structuredContent).toMatchObject({ finish_reason: 'stop' });
    expect(texts(result)).toEqual(['Echo: hi']);
  });

  it('json: true, the JSON whole: the JSON alone, then the note', async () => {
    const result = await ask({
      model: 'community/general',
      prompt: 'hi',
      json: true,
      max_tokens: CUT_WHOLE,
    });
    expect(result.isError).toBeFalsy();
    const [answer, ...rest] = texts(result);
    // (The emulator answers the schema core states for json: true, any object: `{}`.)
    expect(JSON.parse(answer!)).toEqual({});
    expect(rest).toEqual([NOTE]);
  });

  it('json: true, the JSON cut: refused, advised to raise max_tokens', async () => {
    const result = await ask({
      model: 'community/general',
      prompt: 'hi',
      json: true,
      max_tokens: CUT_BROKEN,
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: 'invalid_structured_output',
        message:
          'community/general answered structured output (method json_object) that fails its check: the answer is not JSON (at position 13): it was cut at the length limit (finish_reason "length"); raise max_tokens',
        model: 'community/general',
        text: '{"answer":"Ec',
        what_to_do: 'Raise max_tokens (the answer was cut before its JSON ended) and call again.',
      },
    });
  });
});
