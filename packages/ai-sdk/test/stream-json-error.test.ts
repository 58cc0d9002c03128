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

it('streamText reports the words, code and body of a 200 JSON error answer', async () => {
  const emulator = createEmulator();
  const provider = createGateway({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.endsWith('/chat/completions')) return emulator.fetch(request);
      return new Response(BODY, { status: 200, headers: { 'content-type': 'application/json' } });
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
  const error = errors[0] as APICallError;
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  expect(error.message).toContain('The engine ran out of memory');
  expect(error.statusCode).toBe(200);
  expect(error.responseBody).toBe(BODY);
  expect(error.data).toMatchObject({ code: 'upstream_error', type: 'server_error' });
});
