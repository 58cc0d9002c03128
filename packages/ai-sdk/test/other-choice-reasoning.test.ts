// An answer with two choices (`providerOptions.infergate.n: 2`, or, streamed, a server sending them
// unasked: a stream asking `n` > 1 is refused, streamed-choices-refused.test.ts):
// the AI SDK's answer is choice 0's, its reasoning as well as its text; choice 1's reasoning never
// joins it, whichever choice comes first. LangChain's mapped-details test checks the same.
import { chatSse } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';

/** Two choices, each thinking then saying; choice 1's pieces come first in each chunk. */
const sse = chatSse(MODEL, [
  {
    choices: [
      {
        index: 1,
        delta: { role: 'assistant', reasoning_content: 'ONE-THINKS ' },
        finish_reason: null,
      },
      {
        index: 0,
        delta: { role: 'assistant', reasoning_content: 'zero-thinks ' },
        finish_reason: null,
      },
    ],
  },
  { choices: [{ index: 1, delta: { reasoning_content: 'ONE-MORE ' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { reasoning_content: 'zero-more' }, finish_reason: null }] },
  {
    choices: [
      { index: 1, delta: { content: 'ONE-SAYS' }, finish_reason: null },
      { index: 0, delta: { content: 'zero-says' }, finish_reason: null },
    ],
  },
  { choices: [{ index: 1, delta: {}, finish_reason: 'length' }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
]);

const choice = (index: number, name: string) => ({
  index,
  message: { role: 'assistant', reasoning_content: `${name}-thinks`, content: `${name}-says` },
  finish_reason: index === 0 ? 'stop' : 'length',
});

/** The chat answers of a server sending two choices; the rest (the catalog) the emulator's. */
const fetch = answeringChats((body) => {
  const headers = { 'x-service-model': MODEL };
  if (body.stream === true) {
    return new Response(sse, { headers: { ...headers, 'content-type': 'text/event-stream' } });
  }
  return Response.json(
    {
      id: 'c1',
      object: 'chat.completion',
      model: MODEL,
      choices: [choice(1, 'ONE'), choice(0, 'zero')],
    },
    { headers },
  );
});

const streamed = { prompt: 'hi' };
const options = { ...streamed, providerOptions: { infergate: { n: 2 } } };

describe("two choices with reasoning: the answer has choice 0's only", () => {
  it('streamText', async () => {
    const result = streamText({ model: gateway({ fetch })(MODEL), ...streamed });
    let reasoning = '';
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'reasoning-delta') reasoning += part.text;
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'error') throw part.error;
    }
    expect(reasoning).toBe('zero-thinks zero-more');
    expect(text).toBe('zero-says');
    expect(await result.reasoningText).toBe('zero-thinks zero-more');
    expect(await result.text).toBe('zero-says');
    expect(await result.finishReason).toBe('stop');
  });

  it('generateText', async () => {
    const result = await generateText({ model: gateway({ fetch })(MODEL), ...options });
    expect(result.reasoningText).toBe('zero-thinks');
    expect(result.text).toBe('zero-says');
    expect(result.finishReason).toBe('stop');
  });
});
