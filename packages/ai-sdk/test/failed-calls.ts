// The failure of one chat call made without retries, as many tests check it: the error
// `generateText` rejects with, or the errors `streamText` reports once its stream is read.
import { caught } from '@infergate/emulator/testing';
import { generateText, type LanguageModel, streamText } from 'ai';

/** What a test adds to the call (prompt 'x' and `maxRetries: 0` are always set). */
interface More {
  headers?: Record<string, string | undefined>;
}

/** The error `generateText` rejects with; fails the test when the call answers. */
export function generateError(model: LanguageModel, more: More = {}): Promise<Error> {
  return caught(generateText({ model, prompt: 'x', maxRetries: 0, ...more }));
}

/** Every error `streamText` reports to `onError`, its stream read to the end. */
export async function streamErrors(model: LanguageModel, more: More = {}): Promise<unknown[]> {
  const errors: unknown[] = [];
  const result = streamText({
    model,
    prompt: 'x',
    maxRetries: 0,
    ...more,
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  await result.consumeStream();
  return errors;
}
