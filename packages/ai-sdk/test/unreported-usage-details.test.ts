// A usage without `prompt_tokens_details` / `completion_tokens_details` (vLLM, llama.cpp, Ollama)
// reports 0 cached and 0 reasoning tokens, as `@ai-sdk/openai-compatible` reads the same bytes and
// as the uncached input and the text are computed: a sum over them (a cost) stays a number. They
// used to be undefined (NaN in such a sum). No usage at all leaves every count undefined.
import { generateText, streamText } from 'ai';
import { generateText as generateTextV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway, gatewayV3 } = await providersOnMsw({});
const usage = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 };
const answer = (withUsage: boolean) => ({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'community/general',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  ...(withUsage ? { usage } : {}),
});
const sse = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage },
]
  .map(
    (chunk) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'community/general', ...chunk })}\n\n`,
  )
  .join('');

function answering(withUsage = true): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
    if ((await request.json()).stream === true) {
      return new Response(`${sse}data: [DONE]\n\n`, {
        headers: { 'content-type': 'text/event-stream' },
      });
    }
    return Response.json(answer(withUsage));
  };
}

describe('usage without cache and reasoning details', () => {
  it('generateText and streamText: 0 cached, 0 reasoning', async () => {
    const model = gateway({ fetch: answering() })('community/general');
    const whole = await generateText({ model, prompt: 'x' });
    const streamed = streamText({ model, prompt: 'x' });
    for (const got of [whole.usage, await streamed.usage]) {
      expect(got.inputTokenDetails).toMatchObject({ noCacheTokens: 5, cacheReadTokens: 0 });
      expect(got.outputTokenDetails).toMatchObject({ textTokens: 7, reasoningTokens: 0 });
      expect(got.inputTokenDetails.cacheWriteTokens).toBeUndefined();
    }
  });

  it('ai@6 (/v6): cachedInputTokens and reasoningTokens 0 too', async () => {
    const model = gatewayV3({ fetch: answering() })('community/general');
    const { usage: got } = await generateTextV6({ model, prompt: 'x' });
    expect(got).toMatchObject({ cachedInputTokens: 0, reasoningTokens: 0 });
    expect(got.inputTokenDetails).toMatchObject({ cacheReadTokens: 0 });
  });

  it('no usage at all: the counts stay undefined', async () => {
    const model = gateway({ fetch: answering(false) })('community/general');
    const { usage: got } = await generateText({ model, prompt: 'x' });
    expect(got.inputTokens).toBeUndefined();
    expect(got.inputTokenDetails.cacheReadTokens).toBeUndefined();
    expect(got.outputTokenDetails.reasoningTokens).toBeUndefined();
  });
});
