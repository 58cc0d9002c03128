// The provider passes `maxResponseBytes` to core: an answer larger than it fails with
// response_too_large, a stream's total size included (its default of 32 MiB bounded B6's stream).
import { APICallError, generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const prompt = 'word '.repeat(200);

describe('maxResponseBytes', () => {
  it('generateText: an answer over the limit is response_too_large, naming the limit', async () => {
    const model = gateway({ maxResponseBytes: 512 })('community/general');
    const error = await generateText({ model, prompt, maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error), String(error)).toBe(true);
    expect((error as APICallError).data).toMatchObject({ code: 'response_too_large' });
    expect((error as Error).message).toContain('maxResponseBytes (512 bytes)');
  });

  it('streamText: a stream past the limit ends in an error part, not a short answer', async () => {
    let error: unknown;
    const result = streamText({
      model: gateway({ maxResponseBytes: 512 })('community/streamer'),
      prompt,
      maxRetries: 0,
      onError: (event) => {
        error = event.error;
      },
    });
    await result.consumeStream();
    expect(APICallError.isInstance(error), String(error)).toBe(true);
    expect((error as APICallError).data).toMatchObject({ code: 'response_too_large' });
    expect(await Promise.resolve(result.text).catch(() => '')).not.toBe(`Echo: ${prompt}`);
  });

  it('a larger limit reads the same answer whole', async () => {
    const model = gateway({ maxResponseBytes: 1 << 20 })('community/general');
    expect((await generateText({ model, prompt })).text).toBe(`Echo: ${prompt}`);
  });
});
