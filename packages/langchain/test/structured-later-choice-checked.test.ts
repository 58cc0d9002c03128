// A structured call with n > 1: `generate()` gives one generation per choice, and a later choice
// that passed core's check carries its own kwargs (its checked value as `parsed`, the forced call,
// every call the server sent in it, the finish as sent), as choice 0's does and as a later choice
// handed on unchecked does: `ChatOpenAI`'s generation 1 lists each call the server sent in it.
import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import type { ChatGeneration } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';

const rawCall = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

const PLACE = {
  type: 'json_schema',
  json_schema: {
    name: 'place',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** `community/tools` with n = 2, each choice the forced call with its `args`, then `lookup`. */
async function modelAnswering(args: readonly string[]) {
  const gateway = await emulate();
  const fetch = chatsAnsweredBy(gateway.connection, (body) => {
    const name = (body.tools as { function: { name: string } }[])[0]!.function.name;
    const choices = args.map((text, index) => ({
      index,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [rawCall(`c${index}`, name, text), rawCall(`x${index}`, 'lookup', '{"q":1}')],
      },
      finish_reason: 'tool_calls',
    }));
    return Response.json({ id: 'r1', object: 'chat.completion', model: body.model, choices });
  });
  const fields = { ...gateway.connection, fetch, maxRetries: 0, modelKwargs: { n: 2 } };
  return new GatewayChatModel('community/tools', fields);
}

const kwargs = (generation: ChatGeneration) => (generation.message as AIMessage).additional_kwargs;

describe('n > 1: a later choice that passed its check keeps its own kwargs', () => {
  it.each([
    ['checked', {}],
    ["lastAnswer 'returned'", { structuredOutput: { lastAnswer: 'returned' } }],
  ])('%s: generation 1 has its parsed value and every call sent in it', async (_, asked) => {
    const model = await modelAnswering(['{"city":"Oslo"}', '{"city":"Rome"}']);
    const result = await model.generate([['Where?']], {
      response_format: PLACE,
      ...asked,
    } as Parameters<typeof model.generate>[1]);
    const [zero, one] = result.generations[0] as [ChatGeneration, ChatGeneration];
    expect(kwargs(zero).parsed).toEqual({ city: 'Oslo' });
    expect(one.text).toBe('{"city":"Rome"}');
    expect(kwargs(one).parsed).toEqual({ city: 'Rome' });
    expect(kwargs(one).structured_tool_call).toEqual(rawCall('c1', 'place', '{"city":"Rome"}'));
    expect(kwargs(one).sent_tool_calls).toEqual([
      rawCall('c1', 'place', '{"city":"Rome"}'),
      rawCall('x1', 'lookup', '{"q":1}'),
    ]);
    expect(kwargs(one).sent_finish_reason).toBe('tool_calls');
  });
});
