/**
 * `ask_model` on an answer with no text says why in its text, as clients hand a model the text
 * alone and an empty success reads like nothing went wrong: a model that asked for tools (none are
 * offered, and `ask_model` runs none) has each call named with its arguments; an empty answer a
 * content filter withheld says so. The structured content is the answer as it came. Through the
 * MCP SDK's Client against the emulator, its answer's message and `finish_reason` changed for a
 * marked prompt.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { askModelOfFile } from './harness';

type Message = { content: string | null; tool_calls?: unknown[] };

/** What the model server answers in place of the emulator's, per prompt. */
const ANSWERS: Record<string, { message: Message; finish_reason: string }> = {
  'weather?': {
    message: {
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Kyiv"}' },
        },
      ],
    },
    finish_reason: 'tool_calls',
  },
  'weather and words?': {
    message: {
      content: 'Let me look.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
      ],
    },
    finish_reason: 'tool_calls',
  },
  'filtered?': { message: { content: '' }, finish_reason: 'content_filter' },
};

const fetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
  const body = (await request.clone().json()) as { messages: { content: string }[] };
  const changed = ANSWERS[body.messages.at(-1)!.content];
  const answer = await globalThis.fetch(request);
  if (changed === undefined) return answer;
  const completion = (await answer.json()) as {
    choices: { finish_reason: string; message: Record<string, unknown> }[];
  };
  const choice = completion.choices[0]!;
  choice.finish_reason = changed.finish_reason;
  choice.message = { role: 'assistant', ...changed.message };
  return Response.json(completion, { headers: answer.headers });
};

const ask = askModelOfFile({ clientOptions: { fetch } });

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : ''));

describe('ask_model on an answer with no text', () => {
  it('tool calls alone: the note names the call and its arguments', async () => {
    const result = await ask({ model: 'community/general', prompt: 'weather?' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      text: '',
      model: 'community/general',
      finish_reason: 'tool_calls',
    });
    expect(texts(result)).toEqual([
      '(the model gave no text (finish_reason tool_calls): it asked to call tool `get_weather` with {"city":"Kyiv"}; ask_model offers the model no tools and runs none: ask again for the answer in text, or ask another model)',
    ]);
  });

  it('text and a tool call: the text, then the note of the call', async () => {
    const result = await ask({ model: 'community/general', prompt: 'weather and words?' });
    expect(texts(result)).toEqual([
      'Let me look.\n\n(the model also asked to call tool `get_weather` with {}; ask_model offers the model no tools and runs none: ask again for the answer in text, or ask another model)',
    ]);
  });

  it('an empty answer a content filter withheld: the note says so', async () => {
    const result = await ask({ model: 'community/general', prompt: 'filtered?' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ text: '', finish_reason: 'content_filter' });
    expect(texts(result)).toEqual([
      "(the model's answer was withheld by a content filter (finish_reason content_filter): reword the prompt or ask another model)",
    ]);
  });

  it('an answer in text: no note', async () => {
    const result = await ask({ model: 'community/general', prompt: 'hi' });
    expect(texts(result)).toEqual(['Echo: hi']);
  });
});
