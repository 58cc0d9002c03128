/**
 * A key that is also in the base URL's path (a gateway behind a proxy that routes by key) is
 * redacted from the `APICallError`'s `url`, its JSON and its inspected form, as core and LangChain
 * redact it from theirs (issue 53, defect 12).
 */
import { inspect } from 'node:util';
import { APICallError } from '@ai-sdk/provider';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { generateText } from 'ai';
import { expect, it } from 'vitest';
import { createGateway } from '../src';

it("redacts the key from APICallError's url, JSON and inspected form", async () => {
  const emulator = createEmulator();
  emulator.injectFault({ fault: 'model_busy', retryAfter: 3600 });
  const key = DEFAULT_KEYS.full;
  const provider = createGateway({
    baseURL: `https://proxy.test/tenants/${key}/v1`,
    apiKey: key,
    fetch: emulator.fetch,
  });
  const error = await generateText({
    model: provider('community/general'),
    prompt: 'x',
    maxRetries: 0,
  }).catch((e: unknown) => e);
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  const call = error as APICallError;
  expect(call.statusCode).toBe(429);
  // (The fault answers every endpoint: the 429 is the gate's catalog read's, reported against it.)
  expect(call.url).toBe('https://proxy.test/tenants/[redacted]/v1/models');
  expect(JSON.stringify(call)).not.toContain(key);
  expect(inspect(call, { showHidden: true, depth: 10 })).not.toContain(key);
});
