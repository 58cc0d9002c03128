// docs/gateway-protocol.md §10.5: a 408, a 409 and a 5xx other than 501 / 505 are retryable
// (a model server's own status passes through the gateway, §10.3), so `ai` retries them as it
// would with its own providers; they used to be `isRetryable: false`, one request and done.
import { APICallError } from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});

/**
 * A fetch answering the first `times` chat requests with `status` (and `Retry-After: 0`, which
 * `ai` waits instead of its own backoff), the rest through the emulator.
 */
function failingFirst(status: number, times = 1): typeof globalThis.fetch {
  let left = times;
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions') || left-- <= 0) return globalThis.fetch(request);
    return Response.json(
      { error: { message: `status ${status}` } },
      { status, headers: { 'retry-after': '0', 'x-request-id': 'req-1' } },
    );
  };
}

const caughtFrom = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => error,
  );

describe('a status a retry may fix', () => {
  it.each([408, 409, 520, 522, 524, 529])(
    '%i is retryable: generateText retries it and is answered',
    async (status) => {
      const model = gateway({ fetch: failingFirst(status) })('community/general');
      const once = await caughtFrom(
        generateText({
          model: gateway({ fetch: failingFirst(status) })('community/general'),
          prompt: 'hi',
          maxRetries: 0,
        }),
      );
      expect(APICallError.isInstance(once)).toBe(true);
      expect(once).toMatchObject({ statusCode: status, isRetryable: true });
      const chats = emulator.counters.requests.chat;
      const result = await generateText({ model, prompt: 'hi', maxRetries: 1 });
      expect(result.text).toBeTruthy();
      expect(emulator.counters.requests.chat).toBe(chats + 1);
    },
  );

  it('streamText retries a 529 before the stream began', async () => {
    const model = gateway({ fetch: failingFirst(529) })('community/general');
    const result = streamText({ model, prompt: 'hi', maxRetries: 1 });
    expect(await result.text).toBeTruthy();
  });
});

describe('a status a resend cannot change', () => {
  it.each([501, 505, 422])('%i stays final: one request', async (status) => {
    const error = await caughtFrom(
      generateText({
        model: gateway({ fetch: failingFirst(status) })('community/general'),
        prompt: 'hi',
      }),
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: status, isRetryable: false });
  });
});
