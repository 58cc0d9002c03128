// One check of `providerOptions.infergate` for what is no request field, at the call and on a
// message or part: a near miss of a call setting (`fallbackModel`, `chunkTimeoutMS`), a provider
// setting (`timeoutMs`, `circuitBreaker`), `maxRetries`, ai's own settings (`tools`, and OpenAI's
// older `functions` / `function_call`, which as fields would bypass ai's running of the tools).
// Refused before anything is sent; a message's own fields (`name`) are still sent.
import type { JSONObject } from '@ai-sdk/provider';
import { generateText, type ModelMessage } from 'ai';
import { expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies } from './providers';

const { gateway } = await providersOnMsw();

const legacyFunction = { name: 'other', parameters: { type: 'object', properties: {} } };

async function refusal(call: { infergate?: JSONObject; messages?: ModelMessage[] }) {
  const { bodies, settings } = recordingChatBodies();
  const error = await generateText({
    model: gateway(settings)('community/tools'),
    ...(call.messages ? { messages: call.messages } : { prompt: 'x' }),
    maxRetries: 0,
    ...(call.infergate && { providerOptions: { infergate: call.infergate } }),
  }).catch((failure: unknown) => failure);
  expect(bodies).toEqual([]);
  return error as Error & { argument?: string };
}

it.each([
  ['functions', [legacyFunction], /pass `tools` to generateText/],
  ['function_call', { name: 'other' }, /pass `toolChoice` to generateText/],
])('a call refuses %s, naming the ai setting', async (key, value, hint) => {
  const error = await refusal({ infergate: { [key]: value } as JSONObject });
  expect(error).toMatchObject({
    name: 'AI_InvalidArgumentError',
    argument: `providerOptions.infergate.${key}`,
  });
  expect(error.message).toMatch(hint);
});

it.each([
  ['timeoutMs', 100, /provider setting/],
  ['circuitBreaker', { threshold: 3 }, /provider setting/],
  ['maxRetries', 1, /not taken here/],
  ['fallbackModel', 'community/general', /did you mean `fallbackModels`/],
  ['chunkTimeoutMS', 100, /did you mean `chunkTimeoutMs`/],
  ['tools', [], /pass `tools` to generateText/],
  ['functions', [legacyFunction], /pass `tools` to generateText/],
])('a message refuses %s as the call does', async (key, value, hint) => {
  const infergate = { [key]: value } as JSONObject;
  const atCall = await refusal({ infergate });
  const onMessage = await refusal({
    messages: [{ role: 'user', content: 'x', providerOptions: { infergate } }],
  });
  const onPart = await refusal({
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'x', providerOptions: { infergate } }] },
    ],
  });
  for (const error of [atCall, onMessage, onPart]) {
    expect(error.name).toBe('AI_InvalidArgumentError');
    expect(error.message).toMatch(hint);
  }
  expect(onMessage.argument).toBe(`message providerOptions.infergate.${key}`);
});

it("sends a message's own fields", async () => {
  const { bodies, settings } = recordingChatBodies();
  await generateText({
    model: gateway(settings)('community/tools'),
    messages: [{ role: 'user', content: 'x', providerOptions: { infergate: { name: 'ana' } } }],
  });
  expect(bodies[0]?.messages).toEqual([{ role: 'user', content: 'x', name: 'ana' }]);
});
