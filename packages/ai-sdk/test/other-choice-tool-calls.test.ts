// An answer with two choices (`providerOptions.infergate.n: 2`, or, streamed, a server sending them
// unasked: a stream asking `n` > 1 is refused, streamed-choices-refused.test.ts): the step's tool calls are choice 0's, whole (docs/gateway-protocol.md §4.3), as
// @ai-sdk/openai-compatible gives them; choice 1's pieces never join them. Core decides; the
// adapter maps.
import { twoChoicesAnswer } from '@infergate/emulator/testing';
import { generateText, jsonSchema, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';

/** The chat answers of a server sending two choices; the rest (the catalog) the emulator's. */
const fetch = answeringChats((body) => twoChoicesAnswer(MODEL, body.stream === true));

// No execute: the step ends with its calls.
const tools = {
  weather: {
    inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }),
  },
};
const KYIV = { toolCallId: 'call_a', toolName: 'weather', input: { city: 'Kyiv' } };
const streamed = { prompt: 'weather in Kyiv', tools };
const options = { ...streamed, providerOptions: { infergate: { n: 2 } } };

describe('two choices with tool calls', () => {
  it("streamText: one call, choice 0's, its input whole", async () => {
    const result = streamText({ model: gateway({ fetch })(MODEL), ...streamed });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-call' || part.type === 'tool-error') parts.push(part.type);
    }
    expect(parts).toEqual(['tool-call']);
    const calls = await result.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject(KYIV);
    expect(calls[0]?.invalid).toBeFalsy();
  });

  it("generateText: one call, choice 0's", async () => {
    const result = await generateText({ model: gateway({ fetch })(MODEL), ...options });
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject(KYIV);
  });
});
