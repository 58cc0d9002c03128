// docs/gateway-protocol.md §4.8: a structured call with `modelKwargs: { n: 2 }` through
// `generate()`: every choice is read by the model's method and checked (core decides; the adapter
// maps), so no generation carries a forced call or a choice that breaks the schema.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'place', schema } };

interface Sent {
  model: string;
  tools?: { function: { name: string } }[];
}

/** A model whose whole answers have two choices, each a forced call with `args[i]`. */
async function twoForcedCalls(args: [string, string]) {
  const gateway = await emulate();
  const connection = intercepting(gateway, async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = (await request.json()) as Sent;
    const name = body.tools?.[0]?.function.name ?? 'place';
    const choices = args.map((text, index) => ({
      index,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${index}`, type: 'function', function: { name, arguments: text } }],
      },
      finish_reason: 'tool_calls',
    }));
    return Response.json({
      id: 'x',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices,
    });
  });
  const kwargs = { modelKwargs: { n: 2 }, disableStreaming: true };
  return new GatewayChatModel('community/tools', { ...connection, ...kwargs });
}

describe('generate() with n 2 asking for structured output: every choice checked', () => {
  it('each generation is its JSON, no forced call', async () => {
    const model = await twoForcedCalls(['{"city":"Oslo"}', '{"city":"Rome"}']);
    const result = await model.generate([['Where?']], { response_format: responseFormat });
    const generations = result.generations[0]!;
    expect(generations.map((generation) => generation.text)).toEqual([
      '{"city":"Oslo"}',
      '{"city":"Rome"}',
    ]);
    for (const generation of generations) {
      expect(
        (generation as unknown as { message: { tool_calls?: unknown[] } }).message.tool_calls,
      ).toEqual([]);
    }
  });

  it('a choice 1 that breaks the schema fails the call, naming the choice', async () => {
    const model = await twoForcedCalls(['{"city":"Oslo"}', '{"town":5}']);
    const error = await model.generate([['Where?']], { response_format: responseFormat }).then(
      () => undefined,
      (caught: unknown) => caught as { code?: string; message: string },
    );
    expect(error?.code).toBe('invalid_structured_output');
    expect(error?.message).toContain('in choice 1 that fails its check');
  });
});
