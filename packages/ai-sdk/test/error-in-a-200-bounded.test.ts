/**
 * An error a 200 reports (a whole JSON body, a stream's error event) reaches `generateText` and
 * `streamText` bounded as an error answer's does: 8192 characters of the server's words in the
 * message, the raw body up to `maxErrorBodyBytes` (64 KiB), however long the words are; and a key
 * pasted as the model id is redacted from the request body the `APICallError` keeps.
 */
import { APICallError } from '@ai-sdk/provider';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { hugeErrorIn200 } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src';
import { generateError, streamErrors } from './failed-calls';
import { answeringChats } from './providers';

const KEPT = 64 * 1024 + 100;

function provider(answer: () => Response) {
  const emulator = createEmulator();
  return createGateway({
    fetch: answeringChats(answer, (request) => emulator.fetch(request)),
    apiKey: DEFAULT_KEYS.full,
    baseURL: 'https://gateway.test/v1',
  });
}

function expectBounded(error: unknown): void {
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  const failure = error as APICallError;
  expect(failure.message).toBe(`${'y'.repeat(8192)}…`);
  expect(failure.responseBody?.length).toBeLessThan(KEPT);
  expect(failure.data).toMatchObject({ code: 'provider_protocol_error' });
  expect(JSON.stringify(failure).length).toBeLessThan(3 * KEPT);
}

describe('an error a 200 reports, 4 MiB of words', () => {
  it('generateText: a whole JSON answer', async () => {
    const gateway = provider(() => hugeErrorIn200('json'));
    expectBounded(await generateError(gateway('community/general')));
  });

  it('streamText: an error event mid-stream', async () => {
    const gateway = provider(() => hugeErrorIn200('stream'));
    const errors = await streamErrors(gateway('community/general'));
    expect(errors).toHaveLength(1);
    expectBounded(errors[0]);
  });
});

describe('a key pasted as the model id', () => {
  const key = DEFAULT_KEYS.full;
  const gateway = () =>
    createGateway({
      fetch: (input, init) => createEmulator().fetch(new Request(input, init)),
      apiKey: key,
      baseURL: 'https://gateway.test/v1',
    });

  it('is redacted from the request body of the APICallError of generateText', async () => {
    const error = await generateError(gateway()(`my/${key}`));
    expect(APICallError.isInstance(error), String(error)).toBe(true);
    expect((error as APICallError).requestBodyValues).toMatchObject({ model: 'my/[redacted]' });
    expect(JSON.stringify(error)).not.toContain(key);
  });

  it("is redacted from streamText's error part", async () => {
    const result = streamText({
      model: gateway()(`my/${key}`),
      prompt: 'x',
      maxRetries: 0,
      onError: () => {},
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect((errors[0] as APICallError).requestBodyValues).toMatchObject({ model: 'my/[redacted]' });
    expect(JSON.stringify(errors[0])).not.toContain(key);
  });
});
