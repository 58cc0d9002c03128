// A stream whose chunks carry two choices without `index` (a server that omits it): a choice
// without one is at its position in the chunk, so the step is the first choice's, its text and its
// tool call alone, as @ai-sdk/openai-compatible reads it; the other's call is never run. Core
// decides; the adapter maps.
import { indexlessChoicesSse, weatherCall } from '@infergate/emulator/testing';
import { jsonSchema, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';
const both = (deltas: object[], finish: string) => indexlessChoicesSse(MODEL, deltas, finish);
const serving = (sse: string) =>
  answeringChats(() => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }));

describe('streamText, two choices per chunk without index', () => {
  it("the first choice's text only", async () => {
    const fetch = serving(both([{ content: 'The answer is yes.' }, { content: 'No.' }], 'stop'));
    const result = streamText({ model: gateway({ fetch })(MODEL), prompt: 'yes or no?' });
    expect(await result.text).toBe('The answer is yes.');
  });

  it("the first choice's tool call only", async () => {
    const fetch = serving(
      both(
        [
          { tool_calls: [weatherCall('call_a', 'Oslo')] },
          { tool_calls: [weatherCall('call_b', 'Rome')] },
        ],
        'tool_calls',
      ),
    );
    const tools = {
      weather: {
        inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }),
      },
    };
    const result = streamText({ model: gateway({ fetch })(MODEL), prompt: 'weather?', tools });
    const calls = await result.toolCalls;
    expect(calls.map((each) => [each.toolCallId, each.input])).toEqual([
      ['call_a', { city: 'Oslo' }],
    ]);
  });
});
