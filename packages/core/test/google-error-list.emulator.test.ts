// Google's OpenAI-compatible endpoint can answer a chat call with a 200 whose JSON body is a
// one-item list of its error object: the server's failure (its words, the raw body), streamed or
// whole, not an `invalid_response`.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

const GOOGLE =
  '[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]';

/** A client whose chat requests are answered 200 with the JSON `body`; the rest is the emulator's. */
async function answeredWith(body: string) {
  const gateway = await emulate();
  return clientOn(gateway, {
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    },
  });
}

describe("Google's one-item error list in a 200 answer", () => {
  it("is the server's failure, streamed or whole: its words, the raw body and list", async () => {
    const client = await answeredWith(GOOGLE);
    // (Its numeric code 429 is read as that status's: `model_busy`, retryable.)
    const failure = {
      code: 'model_busy',
      message: 'Resource has been exhausted (e.g. check quota).',
      status: 200,
      body: GOOGLE,
      data: [{ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } }],
      isRetryable: true,
    };
    const streamed = await caught(client.chatStream(hi()), isGatewayError);
    expect(streamed).toMatchObject(failure);
    const whole = await caught(client.chat(hi()), isGatewayError);
    expect(whole).toMatchObject(failure);
  });

  it('a list of two, or of an item without an error object, is still invalid_response', async () => {
    for (const body of [`[${GOOGLE.slice(1, -1)},${GOOGLE.slice(1, -1)}]`, '[{"error":"quota"}]']) {
      const client = await answeredWith(body);
      expect(await caught(client.chatStream(hi()), isGatewayError)).toMatchObject({
        code: 'invalid_response',
        body,
      });
      expect(await caught(client.chat(hi()), isGatewayError)).toMatchObject({
        code: 'invalid_response',
        body,
      });
    }
  });
});
