// A snake_case spelling of one of core's client options in `providerOptions.infergate`
// (`circuit_breaker`, `max_retry_after_ms`, `max_concurrency`), a call's or a message's: as a
// request field it would reach the model server and steer nothing. Refused by core's rule (the one
// LangChain's `modelKwargs` has) as `InvalidArgumentError`, before any request, naming the key and
// where the option goes. Other snake_case fields (LiteLLM's `tags`, `cache`, an upstream
// `api_key` / `api_base`, `top_k`) are still sent.
import { InvalidArgumentError, type JSONObject } from '@ai-sdk/provider';
import { isGatewayError } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { generateText, type ModelMessage, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { recordingGatewayOn } from './providers';

const emulated = await emulate({ hooks: { afterEach, afterAll } });
const { bodies, gateway } = recordingGatewayOn(emulated);
const sent = () => Object.values(emulated.counters.requests).reduce((a, b) => a + b, 0);

const PROVIDER_SETTING = 'a provider setting: pass it to `createGateway`';

const CASES = [
  ['circuit_breaker', { failures: 2 }, 'circuitBreaker', PROVIDER_SETTING],
  ['max_retry_after_ms', 1000, 'maxRetryAfterMs', PROVIDER_SETTING],
  ['max_concurrency', 2, 'maxConcurrency', PROVIDER_SETTING],
  ['MAX_CONCURRENCY_PER_KEY', 2, 'maxConcurrencyPerKey', PROVIDER_SETTING],
  ['catalog_ttl_ms', 1000, 'catalogTtlMs', PROVIDER_SETTING],
  ['max_response_bytes', 1024, 'maxResponseBytes', PROVIDER_SETTING],
  ['retry_base_delay_ms', 10, 'retryBaseDelayMs', 'a client option `createGateway` does not take'],
] as const;

function expectRefused(
  error: unknown,
  argument: string,
  key: string,
  option: string,
  goes: string,
) {
  expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
  expect((error as InvalidArgumentError).argument).toBe(argument);
  expect((error as Error).message).toContain(
    `\`${key}\` is no request field: \`${option}\` is ${goes}`,
  );
  const cause = (error as Error).cause;
  expect(isGatewayError(cause) && [cause.code, cause.field]).toEqual([
    'invalid_request_error',
    key,
  ]);
  expect(bodies).toEqual([]);
  expect(sent()).toBe(0);
}

describe('a client option in snake_case in providerOptions.infergate is refused, nothing sent', () => {
  it.each(CASES)('generateText: %s', async (key, value, option, goes) => {
    const error = await caught(
      generateText({
        model: gateway()('community/general'),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: { [key]: value } as JSONObject },
      }),
    );
    expectRefused(error, `providerOptions.infergate.${key}`, key, option, goes);
  });

  it.each(CASES)('streamText: %s', async (key, value, option, goes) => {
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
    expectRefused(errors[0], `providerOptions.infergate.${key}`, key, option, goes);
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
    expectRefused(
      error,
      'message providerOptions.infergate.circuit_breaker',
      'circuit_breaker',
      'circuitBreaker',
      PROVIDER_SETTING,
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
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
      providerOptions: { infergate: fields },
    });
    await result.consumeStream();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).toMatchObject(fields);
  });
});
