import { InvalidArgumentError } from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from './providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

/**
 * Input JSON cannot carry reaches the request as the adapter builds it (provider options are sent
 * as extra fields, message provider options on the message): refused before sending, as
 * `InvalidArgumentError` naming the field (not `JSON.stringify`'s raw `TypeError`), through `ai`'s
 * own entry points.
 */
function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { tag: 'x' };
  value.self = value;
  return value;
}

/** The error a call failed with (`streamText` reports it through `onError` and the stream). */
async function failure(run: () => PromiseLike<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function expectRefusal(error: unknown, argument: string): void {
  expect(InvalidArgumentError.isInstance(error)).toBe(true);
  const refusal = error as InvalidArgumentError;
  expect(refusal.argument).toBe(argument);
  expect(isGatewayError(refusal.cause)).toBe(true);
  expect((refusal.cause as { code: string }).code).toBe('invalid_request_error');
  expect(emulator.counters.requests.chat ?? 0).toBe(0);
}

describe('unserialisable input through the AI SDK: a typed refusal naming the field', () => {
  it('generateText: a cyclic provider option (an extra field) → InvalidArgumentError, nothing sent', async () => {
    const error = await failure(() =>
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { metadata: cyclic() } as never },
      }),
    );
    expectRefusal(error, 'metadata.self');
  });

  it('generateText: a BigInt in a provider option → InvalidArgumentError naming it', async () => {
    const error = await failure(() =>
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { metadata: { id: 12n } } as never },
      }),
    );
    expectRefusal(error, 'metadata.id');
  });

  it('streamText: a cyclic provider option → the stream fails with InvalidArgumentError', async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: { metadata: cyclic() } as never },
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await failure(() => result.text);
    expect(errors).toHaveLength(1);
    expectRefusal(errors[0], 'metadata.self');
  });
});
