// A snake_case spelling of any of core's client options is refused as a request field by core's one
// rule (the AI SDK's `providerOptions.infergate` has it too): in `modelKwargs`, the model's or a
// call's, also those a model takes as its own fields (`max_concurrency`, `stream_usage`), and
// among a call's options, whose snake_case keys are request fields (`circuit_breaker`). Each would
// reach the model server and steer nothing: refused before any request, naming where it goes (a
// call's `stream_usage`: the call option `streamUsage`, a model's: the model field).
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';
import { refusedKwargs } from './refused-before-sending';

const CLIENT = 'a client option: pass `client: createGatewayClient({…})`';
const FIELD = (option: string) =>
  `a model field: give it to \`new GatewayChatModel({ ${option} })\``;
const CALL = (option: string) => `a call option: pass \`{ ${option} }\` with the call`;
/** Where `option` goes, given to a call (`invalid_request_error`) or to a model: a call option to the call. */
const goesFrom = (option: string, code: string) =>
  code === 'invalid_request_error' && option === 'streamUsage' ? CALL(option) : FIELD(option);

describe('a client option the model takes, in snake_case in modelKwargs', () => {
  it.each([
    ['max_concurrency', 2, 'maxConcurrency'],
    ['MAX_CONCURRENCY_PER_KEY', 2, 'maxConcurrencyPerKey'],
    ['stream_usage', false, 'streamUsage'],
    ['record_content', true, 'recordContent'],
  ] as const)("%s is refused, the model's and a call's", async (key, value, option) => {
    const { refusals, bodies, apiKey } = await refusedKwargs(() => ({ [key]: value }));
    for (const [error, code] of refusals) {
      expect(error.code).toBe(code);
      expect(error.field).toBe(key);
      expect(error.message).toContain(
        `\`${key}\` is no request field: \`${option}\` is ${goesFrom(option, code)}`,
      );
      expect(error.message).not.toContain(apiKey);
    }
    expect(bodies).toHaveLength(0);
  });
});

describe("a client option in snake_case among a call's options", () => {
  it.each([
    ['circuit_breaker', { failures: 2 }, 'circuitBreaker', CLIENT],
    ['max_retry_after_ms', 1000, 'maxRetryAfterMs', CLIENT],
    ['max_concurrency', 2, 'maxConcurrency', FIELD('maxConcurrency')],
  ] as const)(
    '%s is refused by invoke, withConfig and bindTools',
    async (key, value, option, goes) => {
      const { bodies, connection } = await recordingGateway();
      const model = new GatewayChatModel('community/general', connection);
      const options = { [key]: value } as never;
      for (const run of [
        () => model.invoke('hi', options),
        () => model.withConfig(options).invoke('hi'),
        () => model.bindTools([], options).invoke('hi'),
      ]) {
        const error = await caught(run, isGatewayError);
        expect(error.code).toBe('invalid_request_error');
        expect(error.field).toBe(key);
        expect(error.message).toContain(`\`${key}\` is no request field: \`${option}\` is ${goes}`);
      }
      expect(bodies).toHaveLength(0);
    },
  );

  it("other snake_case call options are still sent (LiteLLM's upstream fields)", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const fields = { top_k: 4, api_base: 'https://upstream.test', tags_filter: ['a'] };
    await model.invoke('hi', fields as never);
    expect(bodies[0]).toMatchObject(fields);
  });
});
