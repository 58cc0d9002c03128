// `reasoning_effort` set more than one way, sent as @ai-sdk/openai-compatible sends it (it sets its
// named `reasoning_effort` after the raw provider options): the named `reasoningEffort`, else ai@7's
// `reasoning`, over a raw `reasoning_effort` field; the raw field when neither is given.
import { generateText, streamText } from 'ai';
import { expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies } from './providers';

const { gateway } = await providersOnMsw();

it.each([
  {
    name: "ai@7's reasoning over a raw reasoning_effort",
    call: { reasoning: 'high' as const },
    infergate: { reasoning_effort: 'low' },
    sent: 'high',
  },
  {
    name: 'reasoningEffort over a raw reasoning_effort',
    call: {},
    infergate: { reasoningEffort: 'high', reasoning_effort: 'low' },
    sent: 'high',
  },
  {
    name: 'reasoningEffort over reasoning and a raw reasoning_effort',
    call: { reasoning: 'medium' as const },
    infergate: { reasoningEffort: 'max', reasoning_effort: 'low' },
    sent: 'max',
  },
  {
    name: 'a raw reasoning_effort alone',
    call: {},
    infergate: { reasoning_effort: 'low' },
    sent: 'low',
  },
  {
    name: "a raw reasoning_effort with reasoning: 'provider-default' (sends nothing of its own)",
    call: { reasoning: 'provider-default' as const },
    infergate: { reasoning_effort: 'low' },
    sent: 'low',
  },
])('generateText and streamText send $name', async ({ call, infergate, sent }) => {
  const { bodies, settings } = recordingChatBodies();
  const model = gateway(settings)('community/general');
  await generateText({ model, prompt: 'x', ...call, providerOptions: { infergate } });
  await streamText({ model, prompt: 'x', ...call, providerOptions: { infergate } }).consumeStream();
  expect(bodies.map((body) => body.reasoning_effort)).toEqual([sent, sent]);
});
