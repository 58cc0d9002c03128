// docs/gateway-protocol.md §4.6: without `X-Service-Model`, the answering model is the body's
// `model` — a whole answer's, or a stream's chunks' — on generateText and streamText alike.
import { unheadedAnswer } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const POOL = 'pool-a/llama-3-8b';

/** The pool model's chat answers, with no X-Service-Model header; the rest the emulator's. */
const fetch = answeringChats((body) => unheadedAnswer(POOL, body.stream === true));

describe('the answering model without X-Service-Model', () => {
  it("is the chunks' model on streamText, as the body's on generateText", async () => {
    const model = gateway({ fetch })('community/general');
    const whole = await generateText({ model, prompt: 'x' });
    expect(whole.response.modelId).toBe(POOL);
    expect(whole.providerMetadata?.infergate).toMatchObject({ servedModel: POOL, fallback: true });
    const streamed = streamText({ model, prompt: 'x' });
    expect(await streamed.text).toBe('hi');
    expect((await streamed.response).modelId).toBe(POOL);
    expect((await streamed.providerMetadata)?.infergate).toMatchObject({
      requestedModel: 'community/general',
      servedModel: POOL,
      fallback: true,
      route: { answeredBy: POOL },
    });
  });
});
