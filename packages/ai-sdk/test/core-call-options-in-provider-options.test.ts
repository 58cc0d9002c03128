// Core's call options that this provider does not take (`signal`, `onResponse`, a stream's
// `rawChunks` and `assemble`) given in `providerOptions.infergate`: they used to be sent to the
// model server as request fields and do nothing (a `signal` aborting nothing). Refused by core's
// rule as `InvalidArgumentError`, before any request, in this provider's words (`abortSignal` for
// `signal`), not core's "second argument" of `client.chat`.
import { InvalidArgumentError, type JSONObject } from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);

const CASES = [
  ['signal', 1, 'pass `abortSignal` to generateText / streamText'],
  ['onResponse', 1, 'this provider does not'],
  ['rawChunks', true, 'this provider does not'],
  ['assemble', true, 'this provider does not'],
] as const;

function expectRefused(error: unknown, key: string, goes: string) {
  expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
  expect((error as InvalidArgumentError).argument).toBe(`providerOptions.infergate.${key}`);
  const message = (error as Error).message;
  expect(message).toContain(`\`${key}\` in providerOptions.infergate is a call option`);
  expect(message).toContain(goes);
  expect(message).not.toContain('second argument');
  const cause = (error as Error).cause;
  expect(isGatewayError(cause) && [cause.code, cause.field]).toEqual([
    'invalid_request_error',
    key,
  ]);
  expect(bodies).toEqual([]);
}

describe("core's call options in providerOptions.infergate are refused, nothing sent", () => {
  it.each(CASES)('generateText: %s', async (key, value, goes) => {
    const error = await caught(
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { [key]: value } as JSONObject },
      }),
    );
    expectRefused(error, key, goes);
  });

  it.each(CASES)('streamText: %s', async (key, value, goes) => {
    const errors: unknown[] = [];
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: { [key]: value } as JSONObject },
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expectRefused(errors[0], key, goes);
  });
});
