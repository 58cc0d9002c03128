// A client option of core's that `createGateway` does not take (`retryBaseDelayMs`,
// `maxErrorBodyBytes`: `ai` does the retries), given in snake_case in `providerOptions.infergate`
// or to `createGateway` as it is or in snake_case, is refused saying what to do instead, in the
// one set of words the camelCase refusal in `providerOptions.infergate` has; nothing is sent.
import { InvalidArgumentError, type JSONObject, LoadSettingError } from '@ai-sdk/provider';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);

const RETRIES =
  '(`ai` does the retries, waiting its own backoff: pass `maxRetries` to generateText / streamText)';
const ERROR_BODY = "(an error keeps up to 64 KiB of its body, core's default)";

const CASES = [
  ['retry_base_delay_ms', 'retryBaseDelayMs', RETRIES],
  ['max_error_body_bytes', 'maxErrorBodyBytes', ERROR_BODY],
] as const;

function expectSaysInstead(error: unknown, key: string, option: string, instead: string) {
  expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
  expect((error as Error).message).toContain(
    `\`${key}\` is no request field: \`${option}\` is a client option \`createGateway\` does not take ${instead}`,
  );
  expect(bodies).toEqual([]);
  expect(emulated.counters.requests.chat).toBe(0);
}

describe('a client option createGateway does not take, in snake_case in providerOptions.infergate', () => {
  it.each(CASES)('generateText: %s says what to do instead', async (key, option, instead) => {
    const error = await caught(
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { [key]: 10 } as JSONObject },
      }),
    );
    expectSaysInstead(error, key, option, instead);
  });

  it.each(CASES)('streamText: %s says what to do instead', async (key, option, instead) => {
    const errors: unknown[] = [];
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: { [key]: 10 } as JSONObject },
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expectSaysInstead(errors[0], key, option, instead);
  });

  it('the camelCase refusal has the same words', async () => {
    const error = await caught(
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { retryBaseDelayMs: 10 } },
      }),
    );
    expect(error.message).toContain(`not taken here ${RETRIES}`);
  });
});

describe('the same given to createGateway', () => {
  it.each([
    ['retryBaseDelayMs', 'retryBaseDelayMs', RETRIES],
    ['retry_base_delay_ms', 'retryBaseDelayMs', RETRIES],
    ['maxErrorBodyBytes', 'maxErrorBodyBytes', ERROR_BODY],
    ['max_error_body_bytes', 'maxErrorBodyBytes', ERROR_BODY],
  ])('%s: LoadSettingError saying what to do instead', async (key, option, instead) => {
    const error = await caught(() => gateway({ [key]: 10 } as never));
    expect(LoadSettingError.isInstance(error), String(error)).toBe(true);
    expect(error.message).toBe(
      `unknown option \`${key}\` in createGateway — \`${option}\` is a client option \`createGateway\` does not take ${instead}`,
    );
  });
});
