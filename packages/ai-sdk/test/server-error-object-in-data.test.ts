/**
 * A model server's error answer (`{"error": {"message", "code", "type", "param"}}`) reaches
 * `generateText` and `streamText` as an `APICallError` whose `data.error` is that object, where
 * `@ai-sdk/openai-compatible` puts it (its `data` is the parsed body): code switching on
 * `error.data.error.code` finds the server's code; `data.code` stays ours (`upstream_error`), and
 * the key the server echoed is redacted from `data.error` as from the rest.
 */
import { APICallError } from '@ai-sdk/provider';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src';
import { generateError, streamErrors } from './failed-calls';
import { answeringChats } from './providers';

const OVERFLOW = {
  error: {
    message: "This model's maximum context length is 8192 tokens.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};

/** A provider whose chat requests a model server answers 400 with `body`; the catalog is the emulator's. */
function provider(body: object) {
  const emulator = createEmulator();
  return createGateway({
    fetch: answeringChats(
      () => Response.json(body, { status: 400 }),
      (request) => emulator.fetch(request),
    ),
    apiKey: DEFAULT_KEYS.full,
    baseURL: 'https://gateway.test/v1',
  });
}

function dataOf(error: unknown): Record<string, unknown> {
  expect(APICallError.isInstance(error), String(error)).toBe(true);
  return (error as APICallError).data as Record<string, unknown>;
}

describe("a model server's error object as data.error", () => {
  it('generateText: data.error is the server’s, data.code and data.body ours as before', async () => {
    const data = dataOf(await generateError(provider(OVERFLOW)('community/general')));
    expect(data.error).toEqual(OVERFLOW.error);
    expect(data).toMatchObject({ code: 'upstream_error', status: 400, body: OVERFLOW });
  });

  it('streamText: the same in the error part', async () => {
    const errors = await streamErrors(provider(OVERFLOW)('community/general'));
    expect(errors).toHaveLength(1);
    const data = dataOf(errors[0]);
    expect((data.error as { code?: unknown }).code).toBe('context_length_exceeded');
    expect(data.code).toBe('upstream_error');
  });

  it('a key the server echoes is redacted from data.error', async () => {
    const echoed = { error: { ...OVERFLOW.error, message: `bad key ${DEFAULT_KEYS.full}` } };
    const data = dataOf(await generateError(provider(echoed)('community/general')));
    expect((data.error as { code?: unknown }).code).toBe('context_length_exceeded');
    expect(JSON.stringify(data)).not.toContain(DEFAULT_KEYS.full);
    expect(JSON.stringify(data.error)).toContain('bad key');
  });

  it('a body without an error object has no data.error', async () => {
    const data = dataOf(
      await generateError(provider({ detail: 'Engine rejected' })('community/general')),
    );
    expect(data).not.toHaveProperty('error');
    expect(data).toMatchObject({ code: 'upstream_error', body: { detail: 'Engine rejected' } });
  });
});
