// `ai` owns the retries (one attempt per model call in core, docs/gateway-protocol.md §10.5): the
// catalog read a call's gate makes is part of that one attempt, so `maxRetries: n` sends n + 1
// GET /models to a gateway that keeps failing it, not (n + 1) × core's own retries.
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});

/** Sends the call, returns its error (a stream's through `onError`). */
async function failure(
  kind: 'generateText' | 'streamText',
  settings: object,
  maxRetries: number,
): Promise<unknown> {
  const model = gateway()('community/general', settings); // a fresh provider: no cached catalog
  if (kind === 'generateText') {
    return generateText({ model, prompt: 'hi', maxRetries }).then(
      () => undefined,
      (error: unknown) => error,
    );
  }
  let error: unknown;
  const result = streamText({
    model,
    prompt: 'hi',
    maxRetries,
    onError: ({ error: e }) => {
      error = e;
    },
  });
  await result.consumeStream();
  return error;
}

describe("a call's catalog read follows ai's maxRetries", () => {
  it.each([
    ['generateText', {}],
    ['streamText', {}],
    ['generateText', { fallbackModels: ['community/tools'] }],
    ['streamText', { fallbackModels: ['community/tools'] }],
  ] as const)('%s %o: maxRetries 0 and 2 send 1 and 3 GET /models', async (kind, settings) => {
    for (const maxRetries of [0, 2]) {
      emulator.resetCounters();
      emulator.clearFaults();
      // (Retry-After: 0, which ai honours: its retries come at once.)
      emulator.injectFault({ fault: 'rate_limit', endpoint: 'models', retryAfter: 0 });
      const error = await failure(kind, settings, maxRetries);
      expect(error).toBeInstanceOf(Error);
      expect(emulator.counters.requests.models).toBe(maxRetries + 1);
      expect(emulator.counters.requests.chat).toBe(0);
    }
  });
});
