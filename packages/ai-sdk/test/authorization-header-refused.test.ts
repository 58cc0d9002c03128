// docs/gateway-protocol.md §2.3: an `Authorization` header in the provider's or a call's
// `headers` is refused before any request, naming `apiKey` and never quoting the value. The key
// decides the per-key budget; it used to replace the caller's header silently, so the call ran
// (and was billed) under a key the caller did not mean. A call's header is a bad argument of that
// call (`InvalidArgumentError` naming `headers`), not a setting that failed to load: the
// provider's is (`LoadSettingError`).
import { InvalidArgumentError, LoadSettingError } from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { generateText } from 'ai';
import { generateText as generateTextV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { streamErrors } from './failed-calls';
import { providersOnMsw } from './providers';

const { emulator, gateway, gatewayV3 } = await providersOnMsw({});
const OTHER = 'tenant-42-secret-key';
const sent = () => Object.values(emulator.counters.requests).reduce((a, b) => a + b, 0);

function expectRefused(error: unknown) {
  const message = (error as Error).message;
  expect(message).toContain('`Authorization` header is set by `apiKey`');
  expect(message).not.toContain(OTHER);
  expect(JSON.stringify(error)).not.toContain(OTHER);
  expect(sent()).toBe(0);
}

/** A call's header: the call's argument `headers`, core's refusal kept as the cause. */
function expectArgumentRefused(error: unknown) {
  expectRefused(error);
  expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
  expect((error as InvalidArgumentError).argument).toBe('headers');
  const cause = (error as Error).cause;
  expect(isGatewayError(cause) && [cause.code, cause.field]).toEqual([
    'configuration_error',
    'headers',
  ]);
}

/** The provider's header: a setting of `createGateway`. */
function expectSettingRefused(error: unknown) {
  expectRefused(error);
  expect(LoadSettingError.isInstance(error), String(error)).toBe(true);
}

/** A call's settings carrying another key in its `Authorization` header. */
const withOtherKey = {
  prompt: 'hi',
  headers: { Authorization: `Bearer ${OTHER}` },
  maxRetries: 0,
};

describe('an Authorization header', () => {
  it.each([
    [
      "in generateText's headers is refused, nothing sent",
      () => generateText({ model: gateway()('community/general'), ...withOtherKey }),
    ],
    [
      "in ai@6's generateText headers is refused the same way",
      () => generateTextV6({ model: gatewayV3()('community/general'), ...withOtherKey }),
    ],
  ])('%s', async (_name, call) => {
    expectArgumentRefused(await caught(call));
  });

  it("in streamText's headers (any case) fails the stream, nothing sent", async () => {
    const errors = await streamErrors(gateway()('community/general'), {
      headers: { authorization: `Bearer ${OTHER}` },
    });
    expect(errors).toHaveLength(1);
    expectArgumentRefused(errors[0]);
  });

  it("in createGateway's headers is refused, on ai@6 too", async () => {
    const calls: (() => Promise<unknown>)[] = [
      () =>
        generateText({
          model: gateway({ headers: { AUTHORIZATION: OTHER } })('community/general'),
          prompt: 'hi',
          maxRetries: 0,
        }),
      () =>
        generateTextV6({
          model: gatewayV3({ headers: { Authorization: `Bearer ${OTHER}` } })('community/general'),
          prompt: 'hi',
          maxRetries: 0,
        }),
    ];
    for (const call of calls) {
      expectSettingRefused(await caught(call));
    }
  });
});
