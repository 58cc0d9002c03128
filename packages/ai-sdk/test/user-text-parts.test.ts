// A user message of several text parts (docs/gateway-protocol.md §4.1): useChat's `parts`, through
// convertToModelMessages, reach the model as separate texts, through `generateText` and `streamText`.

import { convertToModelMessages, generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway, gatewayV3 } = await providersOnMsw();

const messages = await convertToModelMessages([
  {
    role: 'user',
    parts: [
      { type: 'text', text: 'What is' },
      { type: 'text', text: '2+2?' },
    ],
  },
]);

describe('a user message of several text parts', () => {
  it('is sent as one string whose parts stay a line apart, never glued (generateText)', async () => {
    const result = await generateText({
      model: gateway()('community/general'),
      messages,
      include: { requestBody: true },
    });
    const body = result.request.body as { messages: { content: unknown }[] };
    expect(body.messages[0]?.content).toBe('What is\n2+2?');
    // The emulator's scripted model echoes what it read.
    expect(result.text).toContain('What is\n2+2?');
  });

  it('is sent alike through streamText and the AI SDK 6 entry', async () => {
    const streamed = streamText({ model: gateway()('community/general'), messages });
    expect(await streamed.text).toContain('What is\n2+2?');
    const v6 = await generateText({ model: gatewayV3()('community/general'), messages });
    expect(v6.text).toContain('What is\n2+2?');
  });
});
