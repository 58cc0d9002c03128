// Core's options given in `providerOptions.infergate` (a call's or a message's) used to reach the
// model server as request fields and do nothing (a `signal` aborting nothing). Refused by core's
// rule (the one LangChain's `modelKwargs` has) as `InvalidArgumentError`, before any request,
// naming the key and where the option goes, in this provider's words (`abortSignal` for `signal`,
// not core's "second argument" of `client.chat`):
// - a client option in snake_case (`circuit_breaker`, `max_retry_after_ms`, …): a provider setting;
// - a call option this provider does not take (`signal`, `onResponse`, a stream's `rawChunks`);
// - a client option `createGateway` does not take (`retryBaseDelayMs`, `maxErrorBodyBytes`: `ai`
//   does the retries), in snake_case here or given to `createGateway` as it is or in snake_case,
//   saying what to do instead, in the one set of words the camelCase refusal here has.
// Other snake_case fields (LiteLLM's `tags`, `cache`, an upstream `api_key` / `api_base`,
// `top_k`) are still sent.
import {
  InvalidArgumentError,
  type JSONObject,
  type JSONValue,
  LoadSettingError,
} from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, type ModelMessage, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);
const sent = () => Object.values(emulated.counters.requests).reduce((a, b) => a + b, 0);

const PROVIDER_SETTING = 'a provider setting: pass it to `createGateway`';
const NOT_TAKEN = 'a client option `createGateway` does not take';
const RETRIES =
  '(`ai` does the retries, waiting its own backoff: pass `maxRetries` to generateText / streamText)';
const ERROR_BODY = "(an error keeps up to 64 KiB of its body, core's default)";

const noRequestField = (key: string, option: string, goes: string) =>
  `\`${key}\` is no request field: \`${option}\` is ${goes}`;
const callOption = (key: string) => `\`${key}\` in providerOptions.infergate is a call option`;

/** Each key refused in `providerOptions.infergate`, its value, and what the refusal says. */
const CASES: [key: string, value: JSONValue, ...says: string[]][] = [
  [
    'circuit_breaker',
    { failures: 2 },
    noRequestField('circuit_breaker', 'circuitBreaker', PROVIDER_SETTING),
  ],
  [
    'max_retry_after_ms',
    1000,
    noRequestField('max_retry_after_ms', 'maxRetryAfterMs', PROVIDER_SETTING),
  ],
  ['max_concurrency', 2, noRequestField('max_concurrency', 'maxConcurrency', PROVIDER_SETTING)],
  [
    'MAX_CONCURRENCY_PER_KEY',
    2,
    noRequestField('MAX_CONCURRENCY_PER_KEY', 'maxConcurrencyPerKey', PROVIDER_SETTING),
  ],
  ['catalog_ttl_ms', 1000, noRequestField('catalog_ttl_ms', 'catalogTtlMs', PROVIDER_SETTING)],
  [
    'max_response_bytes',
    1024,
    noRequestField('max_response_bytes', 'maxResponseBytes', PROVIDER_SETTING),
  ],
  [
    'retry_base_delay_ms',
    10,
    noRequestField('retry_base_delay_ms', 'retryBaseDelayMs', `${NOT_TAKEN} ${RETRIES}`),
  ],
  [
    'max_error_body_bytes',
    10,
    noRequestField('max_error_body_bytes', 'maxErrorBodyBytes', `${NOT_TAKEN} ${ERROR_BODY}`),
  ],
  ['signal', 1, callOption('signal'), 'pass `abortSignal` to generateText / streamText'],
  ['onResponse', 1, callOption('onResponse'), 'this provider does not'],
  ['rawChunks', true, callOption('rawChunks'), 'this provider does not'],
  ['assemble', true, callOption('assemble'), 'this provider does not'],
];

/** The error of a call with `infergate` as its provider options: thrown, or streamText's one. */
async function refusal(via: 'generateText' | 'streamText', infergate: JSONObject) {
  const call = {
    model: gateway()('community/general'),
    prompt: 'hi',
    maxRetries: 0,
    providerOptions: { infergate },
  };
  if (via === 'generateText') return caught(generateText(call));
  const errors: unknown[] = [];
  await streamText({ ...call, onError: ({ error }) => void errors.push(error) }).consumeStream();
  expect(errors).toHaveLength(1);
  return errors[0];
}

/** Refused as ai's InvalidArgumentError on `argument`, by core's rule (its cause), nothing sent. */
function expectRefused(error: unknown, argument: string, key: string, says: string[]) {
  expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
  expect((error as InvalidArgumentError).argument).toBe(argument);
  const { message, cause } = error as Error;
  for (const words of says) expect(message).toContain(words);
  expect(message).not.toContain('second argument');
  expect(isGatewayError(cause) && [cause.code, cause.field]).toEqual([
    'invalid_request_error',
    key,
  ]);
  expect(bodies).toEqual([]);
  expect(sent()).toBe(0);
}

describe("core's options in providerOptions.infergate are refused, nothing sent", () => {
  it.each(
    (['generateText', 'streamText'] as const).flatMap((via) =>
      CASES.map(([key, value, ...says]) => ({ via, key, value, says })),
    ),
  )('$via: $key', async ({ via, key, value, says }) => {
    const error = await refusal(via, { [key]: value });
    expectRefused(error, `providerOptions.infergate.${key}`, key, says);
  });

  it("on a message's providerOptions.infergate too", async () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: 'hi',
        providerOptions: { infergate: { circuit_breaker: { failures: 2 } } },
      },
    ];
    const error = await caught(
      generateText({ model: gateway()('community/general'), messages, maxRetries: 0 }),
    );
    expectRefused(error, 'message providerOptions.infergate.circuit_breaker', 'circuit_breaker', [
      noRequestField('circuit_breaker', 'circuitBreaker', PROVIDER_SETTING),
    ]);
  });

  it('the camelCase refusal of a client option createGateway does not take has the same words', async () => {
    const error = await refusal('generateText', { retryBaseDelayMs: 10 });
    expect((error as Error).message).toContain(`not taken here ${RETRIES}`);
  });
});

describe('a client option createGateway does not take, given to createGateway', () => {
  it.each([
    ['retryBaseDelayMs', 'retryBaseDelayMs', RETRIES],
    ['retry_base_delay_ms', 'retryBaseDelayMs', RETRIES],
    ['maxErrorBodyBytes', 'maxErrorBodyBytes', ERROR_BODY],
    ['max_error_body_bytes', 'maxErrorBodyBytes', ERROR_BODY],
  ])('%s: LoadSettingError saying what to do instead', async (key, option, instead) => {
    const error = await caught(() => gateway({ [key]: 10 } as never));
    expect(LoadSettingError.isInstance(error), String(error)).toBe(true);
    expect(error.message).toBe(
      `unknown option \`${key}\` in createGateway — \`${option}\` is ${NOT_TAKEN} ${instead}`,
    );
  });
});

describe('other snake_case request fields in providerOptions.infergate', () => {
  it('are sent as given (LiteLLM tags, cache, upstream credentials, provider fields)', async () => {
    const fields = {
      top_k: 4,
      think: true,
      // (LiteLLM's request fields, and its upstream credentials and retries in snake_case.)
      tags: ['team-a'],
      cache: { 'no-cache': true },
      api_key: 'sk-upstream',
      api_base: 'https://upstream.test',
      base_url: 'https://upstream.test',
      max_retries: 2,
    };
    await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: fields },
    });
    await streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: fields },
    }).consumeStream();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).toMatchObject(fields);
  });
});
