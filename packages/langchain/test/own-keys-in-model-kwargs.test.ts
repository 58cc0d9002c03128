import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway, weatherTool } from './helpers';
import { refusedKwargs } from './refused-before-sending';

const FIELD = (key: string) =>
  `\`${key}\` is no request field: a model field: give it to \`new GatewayChatModel({ ${key} })\``;
const CALL = (key: string) =>
  `\`${key}\` is no request field: a call option: pass it to invoke's options`;

/**
 * `modelKwargs` are request fields sent as they are: the model's own fields and the call options
 * given there (`apiKey`, `baseURL`, `maxRetries`, `maxTokens`: the gateway reads `max_tokens`)
 * would sit in the request's body doing nothing, an API key where a proxy may log it. Refused, the
 * model's and a call's, before any request, naming where each goes and never the key's value.
 */
describe("the model's fields and call options in modelKwargs are refused, not sent", () => {
  it.each([
    ['apiKey', (key: string) => ({ apiKey: key })],
    ['baseURL', () => ({ baseURL: 'http://elsewhere.test' })],
    ['headers', () => ({ headers: { 'x-org': 'a' } })],
    ['fetch', () => ({ fetch: globalThis.fetch })],
    ['maxRetries', () => ({ maxRetries: 2 })],
    ['maxConcurrency', () => ({ maxConcurrency: 2 })],
    ['maxTokens', () => ({ maxTokens: 5 })],
    ['streaming', () => ({ streaming: true })],
  ])('%s', async (key, kwargsOf) => {
    const { refusals, bodies, apiKey } = await refusedKwargs(kwargsOf);
    for (const [error, code] of refusals) {
      expect(error.code).toBe(code);
      expect(error.field).toBe(key);
      // (A key that is also a call option is named as one in a call's modelKwargs.)
      const both = ['headers', 'maxRetries', 'maxConcurrency'].includes(key);
      expect(error.message).toContain(
        code === 'invalid_request_error' && both ? CALL(key) : FIELD(key),
      );
      expect(error.message).not.toContain(apiKey);
    }
    expect(bodies).toHaveLength(0);
  });

  it("a call option given in a call's modelKwargs is named as one", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const error = await caught(
      () => model.invoke('hi', { modelKwargs: { strict: true } }),
      isGatewayError,
    );
    expect(error.message).toContain(CALL('strict'));
    expect(bodies).toHaveLength(0);
  });

  it('maxTokens points to max_tokens; an API key named in another case is refused too', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const error = await caught(
      () => model.invoke('hi', { modelKwargs: { maxTokens: 5 } }),
      isGatewayError,
    );
    expect(error.message).toContain('or send `max_tokens` in `modelKwargs`');
    const cased = await caught(
      () => model.invoke('hi', { modelKwargs: { apikey: connection.apiKey } }),
      isGatewayError,
    );
    expect(cased.message).toContain('`apiKey` is no request field');
    expect(cased.message).not.toContain(connection.apiKey);
    expect(bodies).toHaveLength(0);
  });

  it('under createAgent, modelKwargs bound by withConfig are refused before any request', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/tools', connection);
    const agent = createAgent({
      model: model.withConfig({ modelKwargs: { apiKey: connection.apiKey } }),
      tools: [weatherTool],
    });
    const error = await caught(
      () => agent.invoke({ messages: [{ role: 'user', content: 'weather for "Kyiv"' }] }),
      isGatewayError,
    );
    expect(error.field).toBe('apiKey');
    expect(error.message).toContain(FIELD('apiKey'));
    expect(error.message).not.toContain(connection.apiKey);
    expect(bodies).toHaveLength(0);
  });

  it('wire names, snake_case and unknown provider fields are still sent', async () => {
    const { bodies, connection } = await recordingGateway();
    const fields = {
      temperature: 0.5,
      seed: 7,
      stop: ['END'],
      user: 'u-1',
      n: 1,
      metadata: { run: 'a' },
      max_tokens: 5,
      top_k: 4,
      think: true,
      verbosity: 'low',
      reasoning: { effort: 'low' },
      // (LiteLLM's request fields that are LangChain's key names too, and its upstream
      // credentials in snake_case.)
      tags: ['team-a'],
      cache: { 'no-cache': true },
      api_key: 'sk-upstream',
      api_base: 'https://upstream.test',
    };
    const model = new GatewayChatModel({
      ...connection,
      model: 'community/general',
      modelKwargs: fields,
    });
    await model.invoke('hi');
    await model.invoke('hi', { modelKwargs: fields });
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).toMatchObject(fields);
  });
});

/**
 * Snake_case keys are request fields, but a snake_case spelling of a client option would reach the
 * model server with nothing steered (`circuit_breaker`): refused naming the option it spells.
 */
describe('snake_case spellings of client options in modelKwargs', () => {
  it.each([
    ['max_response_bytes', 'maxResponseBytes', 1024],
    ['circuit_breaker', 'circuitBreaker', { failures: 2 }],
    ['max_retry_after_ms', 'maxRetryAfterMs', 1000],
    ['catalog_ttl_ms', 'catalogTtlMs', 1000],
  ] as const)('%s is refused as `%s`', async (key, own, given) => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const error = await caught(
      () => model.invoke('hi', { modelKwargs: { [key]: given } }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe(key);
    expect(error.message).toContain(`\`${key}\` is no request field: \`${own}\` is `);
    expect(error.message).not.toContain(connection.apiKey);
    expect(bodies).toHaveLength(0);
  });
});
