/**
 * For the tests of a structured call with n > 1 through `generate()`: a model whose answer has one
 * choice per given argument string, each the forced call, and what each generation carries.
 */
import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import type { ChatGeneration } from '@langchain/core/outputs';
import { GatewayChatModel, type GatewayChatModelCallOptions } from '../src';

/** A tool call as the server sends it. */
export const rawCall = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

/** A `response_format` asking for a place: `{ city: string }`. */
export const PLACE = {
  type: 'json_schema',
  json_schema: {
    name: 'place',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/**
 * `community/tools` with `modelKwargs: { n: 2 }`, its answer one choice per entry of `args`: choice
 * i the forced call `c<i>` with `args[i]`, then (given `alsoCalled`, `[name, args]`) a call `x<i>`
 * to that tool, its finish `tool_calls`.
 */
export async function forcedChoicesModel(
  args: readonly string[],
  alsoCalled?: readonly [name: string, args: string],
) {
  const gateway = await emulate();
  const fetch = chatsAnsweredBy(gateway.connection, (body) => {
    const name = (body.tools as { function: { name: string } }[])[0]!.function.name;
    const choices = args.map((text, index) => {
      const calls = [rawCall(`c${index}`, name, text)];
      if (alsoCalled) calls.push(rawCall(`x${index}`, ...alsoCalled));
      const message = { role: 'assistant', content: null, tool_calls: calls };
      return { index, message, finish_reason: 'tool_calls' };
    });
    return Response.json({ id: 'r1', object: 'chat.completion', model: body.model, choices });
  });
  const fields = { ...gateway.connection, fetch, maxRetries: 0, modelKwargs: { n: 2 } };
  return new GatewayChatModel('community/tools', fields);
}

/** `model.generate()` asked 'Where?' for a `PLACE` (and `options`): its first two generations. */
export async function placeGenerations(
  model: GatewayChatModel,
  options: Partial<GatewayChatModelCallOptions> = {},
): Promise<[ChatGeneration, ChatGeneration]> {
  const result = await model.generate([['Where?']], {
    response_format: PLACE,
    ...options,
  } as Parameters<typeof model.generate>[1]);
  return result.generations[0] as [ChatGeneration, ChatGeneration];
}

/** A generation's message's `additional_kwargs`. */
export const kwargsOf = (generation: ChatGeneration) =>
  (generation.message as AIMessage).additional_kwargs;
