/**
 * A stream asked for and answered with HTTP 200 and a JSON error body (no SSE), as some servers
 * report a failure: the `APICallError` streamText reports carries the server's words, its code and
 * the raw body, as a non-200 error does.
 */
import { APICallError } from '@ai-sdk/provider';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { streamText } from 'ai';
import { expect, it } from 'vitest';
import { createGateway } from '../src';

const BODY = JSON.stringify({
  error: { message: 'The engine ran out of memory', type: 'server_error', code: 'oom' },
});
// Google's OpenAI-compatible endpoint: a one-item list of its error object.
const GOOGLE = JSON.stringify([
  { error: { code: 429, message: 'Resource has been exhausted.', status: 'RESOURCE_EXHAUSTED' } },
]);

/** The errors streamText reports when every chat request is answered 200 with the JSON `body`. */
async function streamErrors(body: string): Promise<unknown[]> {
  const emulator = createEmulator();
  const provider = createGateway({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.endsWith('/chat/completions')) return emulator.fetch(request);
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    },
    apiKey: DEFAULT_KEYS.full,
    baseURL: 'https://gateway.test/v1',
  });
  const errors: unknown[] = [];
  const result = streamText({
    model: provider('community/general'),
    prompt: 'x',
    maxRetries: 0,
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  await result.consumeStream();
  return errors;
}

it('streamText reports the words, code and body of a 200 JSON error answer', async () => {
  const error = (await streamErrors(BODY))[0] as APICallError;
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  expect(error.message).toContain('The engine ran out of memory');
  expect(error.statusCode).toBe(200);
  expect(error.responseBody).toBe(BODY);
  expect(error.data).toMatchObject({ code: 'upstream_error', type: 'server_error' });
});

it("streamText reports Google's one-item error list as the server's failure", async () => {
  const error = (await streamErrors(GOOGLE))[0] as APICallError;
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  expect(error.message).toContain('Resource has been exhausted.');
  expect(error.statusCode).toBe(200);
  expect(error.responseBody).toBe(GOOGLE);
  expect(error.data).toMatchObject({ code: 'upstream_error' });
  expect(error.isRetryable).toBe(false);
});
