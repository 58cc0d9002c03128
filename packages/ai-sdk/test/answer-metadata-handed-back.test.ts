// An answer's `providerMetadata.infergate` handed back as the next request's message options (the
// OpenAI Agents SDK turns an answer's provider data into `providerOptions` on its message): what
// the answer said (`requestedModel`, `fallback`, `route`, `usage`, …) is neither a message field
// to send nor a misplaced option to refuse. It was refused (`fallback` read as a near miss of
// `fallbackModels`) and, before that, sent inside the message.
import type { JSONObject } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { expect, it } from 'vitest';
import { providersOnMsw, recordingChatBodies } from './providers';

const { gateway } = await providersOnMsw();

it("a message carrying an earlier answer's provider metadata sends none of it", async () => {
  const first = await generateText({ model: gateway()('community/general'), prompt: 'hi' });
  const metadata = first.providerMetadata?.infergate as JSONObject;
  expect(metadata).toMatchObject({ fallback: false, requestedModel: 'community/general' });

  const { bodies, settings } = recordingChatBodies();
  await generateText({
    model: gateway(settings)('community/general'),
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: first.text,
        providerOptions: { infergate: { ...metadata, name: 'helper' } },
      },
      { role: 'user', content: 'and again' },
    ],
  });
  const [body] = bodies;
  expect(bodies).toHaveLength(1);
  const sent = (body as { messages: Record<string, unknown>[] }).messages[1];
  expect(sent).toEqual({ role: 'assistant', content: first.text, name: 'helper' });
});
