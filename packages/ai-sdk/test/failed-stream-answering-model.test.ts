// docs/gateway-protocol.md §4.6: without `X-Service-Model`, the answering model is the chunks'
// `model`, also when the stream then fails (an error event after content, `[DONE]` without a
// finish_reason) in the same network read: `response.modelId` used to be the requested model
// then, though a stream that ends well gave the chunks'.
import { chatSse, failingAfterContentSse } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw({});
const POOL = 'pool-a/llama-3-8b';
const content = {
  choices: [{ index: 0, delta: { role: 'assistant', content: 'par' }, finish_reason: null }],
};

const ENDINGS: [string, string][] = [
  [
    'ends well',
    chatSse(POOL, [content, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]),
  ],
  [
    'an error event after content',
    failingAfterContentSse(POOL, { message: 'overloaded', code: 'provider_request_failed' }),
  ],
  ['[DONE] without a finish_reason', chatSse(POOL, [content])],
];

describe("a stream without X-Service-Model: response.modelId is the chunks' model", () => {
  it.each(ENDINGS)('%s', async (_, sse) => {
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
      return new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    };
    const result = streamText({
      model: gateway({ fetch })('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      onError: () => {},
    });
    await result.consumeStream();
    expect((await result.finalStep).response.modelId).toBe(POOL);
  });
});
