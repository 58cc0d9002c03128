// `tools`, `tool_choice` and `response_format` in providerOptions.infergate are ai's own call
// settings (`tools`, `toolChoice`, `output: Output.object(…)`), which ai maps and acts on: as
// request fields they would override the call's own (silently) or bypass ai's running of the
// tools and its check of the answer. Refused before anything is sent, naming the ai setting to
// use, whether or not the call sets it too.
import { generateText, Output, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOnMsw, recordingChatBodies, refusedBeforeSending } from './providers';

const { gateway } = await providersOnMsw();

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});
const wireTool = {
  type: 'function',
  function: { name: 'other', parameters: { type: 'object', properties: {} } },
};
const wireFormat = {
  type: 'json_schema',
  json_schema: { name: 'other', schema: { type: 'object', properties: {} } },
};

describe("ai's own call settings in providerOptions.infergate", () => {
  it.each([
    ['tools', [wireTool], /pass `tools` to generateText/, { tools: { weather } }],
    [
      'tool_choice',
      'none',
      /pass `toolChoice` to generateText/,
      { tools: { weather }, toolChoice: 'required' as const },
    ],
    [
      'response_format',
      wireFormat,
      /Output\.object/,
      { output: Output.object({ schema: z.object({ city: z.string() }) }) },
    ],
    ['response_format', { type: 'json_object' }, /Output\.json\(\)/, {}],
    ['tools', [wireTool], /pass `tools` to generateText/, {}],
  ])('%s (%j) refused before sending, naming the ai setting', (key, value, hint, call) =>
    refusedBeforeSending(`providerOptions.infergate.${key}`, hint, (settings) =>
      generateText({
        model: gateway(settings)('community/tools'),
        prompt: 'Weather in Lviv?',
        maxRetries: 0,
        ...call,
        providerOptions: { infergate: { [key]: value } },
      }),
    ),
  );

  it("the call's own settings are still sent as ai maps them", async () => {
    const { bodies, settings } = recordingChatBodies();
    await generateText({
      model: gateway(settings)('community/tools'),
      prompt: 'Weather in Lviv?',
      tools: { weather },
      toolChoice: 'required',
      providerOptions: { infergate: { parallel_tool_calls: false } },
    });
    expect(bodies[0]).toMatchObject({
      tools: [{ type: 'function', function: { name: 'weather' } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
  });
});
