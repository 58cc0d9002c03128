/**
 * A model server's 400 (`{"error": {"message", "type", "param", "code"}}`, OpenAI's shape) through
 * `generateText` / `streamText`: `@ai-sdk/openai-compatible`'s `APICallError.data` is the parsed
 * body, so code reads `error.data.error.code`; ours carries the same object at `data.error` (and
 * its own `data.code`, `upstream_error`). The catalog is the emulator's.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createGateway } from '@infergate/ai-sdk';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { APICallError, generateText, type LanguageModel, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatsAnswered } from './answering';

const BASE_URL = 'https://api-call-error.test/v1';
const API_KEY = DEFAULT_KEYS.full;
const MODEL = 'community/general';
const BODY = JSON.stringify({
  error: {
    message: "This model's maximum context length is 8192 tokens.",
    type: 'invalid_request_error',
    param: null,
    code: 'context_length_exceeded',
  },
});

const fetch = chatsAnswered(
  () => new Response(BODY, { status: 400, headers: { 'content-type': 'application/json' } }),
);
const ours = createGateway({ baseURL: BASE_URL, apiKey: API_KEY, fetch })(MODEL);
const anchor = createOpenAICompatible({
  name: 'anchor',
  baseURL: BASE_URL,
  apiKey: API_KEY,
  fetch,
})(MODEL);

async function generated(model: LanguageModel): Promise<APICallError> {
  const error = await generateText({ model, prompt: 'hi', maxRetries: 0 }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  return error as APICallError;
}

async function streamed(model: LanguageModel): Promise<APICallError> {
  const errors: unknown[] = [];
  const result = streamText({
    model,
    prompt: 'hi',
    maxRetries: 0,
    onError: ({ error }) => void errors.push(error),
  });
  await result.consumeStream();
  expect(errors).toHaveLength(1);
  expect(APICallError.isInstance(errors[0]), String(errors[0])).toBe(true);
  return errors[0] as APICallError;
}

const errorOf = (error: APICallError) => (error.data as { error?: unknown } | undefined)?.error;

describe("a model server's error object in APICallError.data", () => {
  it.each([
    ['generateText', generated],
    ['streamText', streamed],
  ])('%s: data.error is what the anchor’s is', async (_name, fail) => {
    const theirs = await fail(anchor);
    const mine = await fail(ours);
    expect(errorOf(theirs)).toMatchObject({ code: 'context_length_exceeded' });
    expect(errorOf(mine)).toEqual(errorOf(theirs));
    expect(mine.message).toBe(theirs.message);
    expect(mine.data).toMatchObject({ code: 'upstream_error', status: 400 });
  });
});
