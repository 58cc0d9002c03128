// A structured call with n > 1 and `structuredOutput.lastAnswer: 'returned'`: `generate()` gives one
// generation per choice, and a later choice core handed on unchecked carries its own kwargs (the
// forced call it made, every call, the finish the server sent), not choice 0's or none.
import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import type { ChatGeneration } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';

const TOOLS_ONLY = 'community/tools';

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

describe("n > 1, lastAnswer 'returned': a later choice handed on unchecked keeps its own kwargs", () => {
  it('generate(): choice 1 (failing) has its forced call and finish as sent; choice 0 (passing) its own', async () => {
    const gateway = await emulate();
    const fetch = chatsAnsweredBy(gateway.connection, (body) => {
      const name = (body.tools as { function: { name: string } }[])[0]!.function.name;
      const choice = (index: number, args: string) => ({
        index,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [rawCall(`c${index}`, name, args)],
        },
        finish_reason: 'tool_calls',
      });
      const choices = [choice(0, '{"city":"Oslo"}'), choice(1, '{"town":5}')];
      return Response.json({ id: 'r1', object: 'chat.completion', model: body.model, choices });
    });
    const model = new GatewayChatModel(TOOLS_ONLY, {
      ...gateway.connection,
      fetch,
      maxRetries: 0,
      modelKwargs: { n: 2 },
    });
    const result = await model.generate([['Where?']], {
      response_format: PLACE,
      structuredOutput: { lastAnswer: 'returned' },
    } as Parameters<typeof model.generate>[1]);
    const [zero, one] = result.generations[0] as [ChatGeneration, ChatGeneration];
    const kwargs = (generation: ChatGeneration) =>
      (generation.message as AIMessage).additional_kwargs;
    expect(kwargs(zero).parsed).toEqual({ city: 'Oslo' });
    expect(kwargs(one).parsed).toBeUndefined();
    expect(one.text).toBe('{"town":5}');
    expect(kwargs(one).structured_tool_call).toEqual(rawCall('c1', 'place', '{"town":5}'));
    expect(kwargs(one).sent_tool_calls).toEqual([rawCall('c1', 'place', '{"town":5}')]);
    expect(kwargs(one).sent_finish_reason).toBe('tool_calls');
  });
});
