import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { AssembledToolCall, ChatMessage, ChatRequest } from '../src/index';
import { toolCallOf } from '../src/internal';
import { clientOn } from './helpers';

const MODEL = 'community/general';
const tools = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
];
const ASK: ChatMessage = { role: 'user', content: 'call get_weather for "Rome"' };

/** The tool loop's second request, the call replayed by `replay`. */
function nextStep(call: AssembledToolCall, extra: unknown): ChatRequest {
  return {
    model: MODEL,
    tools,
    messages: [
      ASK,
      {
        role: 'assistant',
        content: null,
        tool_calls: [toolCallOf(call.id, call.name, call.arguments, extra)],
      },
      { role: 'tool', tool_call_id: call.id, name: 'get_weather', content: 'sunny' },
    ],
  };
}

describe('a Gemini tool loop through core (emulator, gemini dialect)', () => {
  const gemini = () => emulate({ scenario: { models: { [MODEL]: { dialect: 'gemini' } } } });

  it.each([false, true])(
    'the call keeps its signature, and the next step passes with it sent back (streamed: %s)',
    async (streamed) => {
      const client = clientOn(await gemini());
      const first = { model: MODEL, tools, messages: [ASK] };
      const answer = streamed
        ? await (await client.chatStream(first)).result()
        : (await client.chat(first)).answer;
      const [call] = answer.toolCalls;
      expect(call?.extraContent).toEqual({
        google: { thought_signature: expect.any(String) },
      });
      const next = await client.chat(nextStep(call!, call!.extraContent));
      expect(next.answer.text).toContain('sunny');
    },
  );

  it("without it, Gemini's 400 comes back as upstream_error with Gemini's words", async () => {
    const client = clientOn(await gemini());
    const { answer } = await client.chat({ model: MODEL, tools, messages: [ASK] });
    const error = await caught(client.chat(nextStep(answer.toolCalls[0]!, undefined)));
    expect(error).toMatchObject({ code: 'upstream_error', status: 400 });
    expect(error.message).toMatch(/^Function call is missing a thought_signature/);
  });
});
