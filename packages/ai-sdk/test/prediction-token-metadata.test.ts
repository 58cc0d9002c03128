// usage.completion_tokens_details.accepted_prediction_tokens / rejected_prediction_tokens (a
// predicted output's tokens) read by core's usage reader, and returned as
// providerMetadata.infergate.acceptedPredictionTokens / rejectedPredictionTokens by generateText
// and streamText, the names @ai-sdk/openai-compatible gives them.
import { chatSse } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';
const usage = {
  prompt_tokens: 10,
  completion_tokens: 8,
  total_tokens: 18,
  completion_tokens_details: { accepted_prediction_tokens: 2, rejected_prediction_tokens: 1 },
};

const fetch = answeringChats((body) =>
  body.stream
    ? new Response(
        chatSse(MODEL, [
          { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] },
          { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
          { choices: [], usage },
        ]),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    : Response.json({
        id: 'g',
        object: 'chat.completion',
        model: MODEL,
        choices: [
          { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' },
        ],
        usage,
      }),
);

describe('predicted output tokens in providerMetadata.infergate', () => {
  it('generateText returns acceptedPredictionTokens and rejectedPredictionTokens', async () => {
    const result = await generateText({ model: gateway({ fetch })(MODEL), prompt: 'x' });
    expect(result.providerMetadata?.infergate).toMatchObject({
      acceptedPredictionTokens: 2,
      rejectedPredictionTokens: 1,
    });
  });

  it('streamText returns them too', async () => {
    const result = streamText({ model: gateway({ fetch })(MODEL), prompt: 'x' });
    expect((await result.providerMetadata)?.infergate).toMatchObject({
      acceptedPredictionTokens: 2,
      rejectedPredictionTokens: 1,
    });
  });

  it('leaves them out when the usage has no such count', async () => {
    const result = await generateText({ model: gateway()(MODEL), prompt: 'x' });
    expect(result.providerMetadata?.infergate).not.toHaveProperty('acceptedPredictionTokens');
    expect(result.providerMetadata?.infergate).not.toHaveProperty('rejectedPredictionTokens');
  });
});
