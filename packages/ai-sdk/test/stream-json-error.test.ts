/**
 * A stream asked for and answered with HTTP 200 and a JSON error body (no SSE), as some servers
 * report a failure: the `APICallError` streamText reports carries the server's words, its code and
 * the raw body, as a non-200 error does.
 */
import { APICallError } from '@ai-sdk/provider';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { expect, it } from 'vitest';
import { createGateway } from '../src';
import { streamErrors } from './failed-calls';
import { answeringChats } from './providers';

const BODY = JSON.stringify({
  error: { message: 'The engine ran out of memory', type: 'server_error', code: 'oom' },
});
// Google's OpenAI-compatible endpoint: a one-item list of its error object.
const GOOGLE = JSON.stringify([
  { error: { code: 429, message: 'Resource has been exhausted.', status: 'RESOURCE_EXHAUSTED' } },
]);

/** The errors streamText reports when every chat request is answered 200 with the JSON `body`. */
function streamErrorsOf(body: string): Promise<unknown[]> {
  const emulator = createEmulator();
  const provider = createGateway({
    fetch: answeringChats(
      () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
      (request) => emulator.fetch(request),
    ),
    apiKey: DEFAULT_KEYS.full,
    baseURL: 'https://gateway.test/v1',
  });
  return streamErrors(provider('community/general'));
}

it.each([
  {
    name: 'streamText reports the words, code and body of a 200 JSON error answer',
    body: BODY,
    words: 'The engine ran out of memory',
    more: { data: { code: 'upstream_error', type: 'server_error' } },
  },
  {
    name: "streamText reports Google's one-item error list as the server's failure",
    body: GOOGLE,
    words: 'Resource has been exhausted.',
    // (Its numeric code 429 is read as that status's: `model_busy`, retryable.)
    more: { data: { code: 'model_busy' }, isRetryable: true },
  },
])('$name', async ({ body, words, more }) => {
  const error = (await streamErrorsOf(body))[0] as APICallError;
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  expect(error.message).toContain(words);
  // (`data` matched in part: the fields named, as `toMatchObject` does.)
  expect(error).toMatchObject({ statusCode: 200, responseBody: body, ...more });
});
