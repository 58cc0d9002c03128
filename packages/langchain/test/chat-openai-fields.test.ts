// What a user coming from ChatOpenAI passes: the common sampling fields and the call options
// `parallel_tool_calls` and `seed` are sent; ChatOpenAI's other names are refused, never ignored.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel, type GatewayChatModelFields } from '../src/index';
import { recordingGateway, recordingModel } from './helpers';

const thrown = (run: () => unknown) => caught(run, isGatewayError);

describe("ChatOpenAI's fields and call options", () => {
  it('sends frequencyPenalty, presencePenalty, logitBias and user as their request fields', async () => {
    const { bodies, model } = await recordingModel({
      frequencyPenalty: 0.5,
      presencePenalty: 0.3,
      logitBias: { '50256': -100 },
      user: 'u-1',
      modelKwargs: { user: 'from-kwargs', top_k: 5 },
    });
    await model.invoke('hi');
    expect(bodies[0]).toMatchObject({
      frequency_penalty: 0.5,
      presence_penalty: 0.3,
      logit_bias: { '50256': -100 },
      user: 'u-1', // the named field wins over modelKwargs
      top_k: 5,
    });
    expect(model.invocationParams()).toMatchObject({ frequency_penalty: 0.5, user: 'u-1' });
  });

  it('sends the call options parallel_tool_calls (with tools) and seed, from invoke, withConfig and bindTools', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', { ...connection, seed: 1 });
    // (`parallel_tool_calls` goes only with tools: parallel-tool-calls-only-with-tools.test.ts.)
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: {} } }];
    await model.invoke('hi', { tools, parallel_tool_calls: false, seed: 7 });
    await model.withConfig({ tools, parallel_tool_calls: false, seed: 8 }).invoke('hi');
    await model.bindTools(tools, { parallel_tool_calls: true, seed: 9 }).invoke('hi');
    await model.invoke('hi');
    expect(bodies.map(({ parallel_tool_calls, seed }) => ({ parallel_tool_calls, seed }))).toEqual([
      { parallel_tool_calls: false, seed: 7 },
      { parallel_tool_calls: false, seed: 8 },
      { parallel_tool_calls: true, seed: 9 },
      { parallel_tool_calls: undefined, seed: 1 },
    ]);
  });

  it.each([
    ['maxCompletionTokens', 50, /use `maxTokens`/],
    ['n', 2, /one choice/],
    ['logprobs', true, /modelKwargs: \{ logprobs: true \}/],
    ['topLogprobs', 2, /modelKwargs: \{ top_logprobs/],
    ['verbosity', 'low', /modelKwargs: \{ verbosity/],
    ['reasoning', { effort: 'low' }, /use `reasoningEffort`/],
    ['openAIApiKey', 'sk-1', /use `apiKey`/],
    ['supportsStrictToolCalling', true, /use `strict`/],
    ['promptCacheRetention', '24h', /modelKwargs: \{ prompt_cache_retention/],
    ['promptCacheOptions', { mode: 'explicit' }, /modelKwargs: \{ prompt_cache_options/],
    ['__includeRawResponse', true, /raw body is not kept/],
    ['organization', 'org-1', /no organization is sent/],
    ['zdrEnabled', true, /chat completions only/],
    ['prefixMessages', [], /messages first/],
  ])(
    "refuses ChatOpenAI's field %s at construction, saying what to use",
    async (key, value, hint) => {
      const { connection, bodies } = await recordingGateway();
      const fields = { model: 'community/general', ...connection, [key]: value };
      const error = await thrown(() => new GatewayChatModel(fields as GatewayChatModelFields));
      expect(error.code).toBe('configuration_error');
      expect(error.field).toBe(key);
      expect(error.message).toContain(`\`${key}\``);
      expect(error.message).toMatch(hint);
      expect(bodies).toHaveLength(0);
    },
  );

  it.each([
    ['verbosity', 'low'],
    ['n', 2],
    ['logprobs', true],
    ['maxCompletionTokens', 10],
    ['service_tier', 'flex'],
    ['promptCacheRetention', '24h'],
    ['functions', []],
  ])(
    "refuses ChatOpenAI's %s as a call option (invoke and withConfig), before any request",
    async (key, value) => {
      const { connection, bodies } = await recordingGateway();
      const model = new GatewayChatModel('community/general', connection);
      for (const run of [
        () => model.invoke('hi', { [key]: value } as never),
        () => model.withConfig({ [key]: value } as never).invoke('hi'),
      ]) {
        const error = await thrown(run);
        expect(error.code).toBe('invalid_request_error');
        expect(error.field).toBe(key);
        expect(error.message).toContain(`\`${key}\``);
      }
      expect(bodies).toHaveLength(0);
    },
  );

  it("refuses ChatOpenAI's `options` call option (OpenAI's request options), naming ours", async () => {
    const { connection, bodies } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const options = { options: { headers: { 'x-request-tag': 'tenant-42' } } };
    for (const run of [
      () => model.invoke('hi', options as never),
      () => model.withConfig(options as never).invoke('hi'),
      () => model.bindTools([], options as never).invoke('hi'),
    ]) {
      const error = await thrown(run);
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBe('options');
      expect(error.message).toMatch(/call options `headers`/);
    }
    expect(bodies).toHaveLength(0);
  });
});
