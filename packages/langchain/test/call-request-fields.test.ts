// One rule for the options of a call (`invoke`, `stream`, `withConfig`) and those bound by
// `bindTools`: a snake_case key that is none of ours or LangChain's is a request field, each kept
// on its own (a call's `modelKwargs`, which LangChain puts in place of a bound one, drops none);
// the model's own settings, `model_kwargs` and near misses of hinted keys are refused, naming
// where they go, before any request.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

/** The request fields a body carries besides the messages and the model. */
function fieldsOf(body: Record<string, unknown> | undefined): Record<string, unknown> {
  const { messages: _messages, model: _model, ...rest } = body ?? {};
  return rest;
}

describe('request fields given to a call or bound', () => {
  it('bound fields stay when the call (or a withConfig over it) gives modelKwargs', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const bound = model.bindTools([], { max_tokens: 2, top_p: 0.3 } as never);
    await bound.invoke('one two three', { modelKwargs: { user: 'u-1' } });
    await bound.withConfig({ modelKwargs: { user: 'u-2' } }).invoke('one two three');
    expect(fieldsOf(bodies[0])).toEqual({ max_tokens: 2, top_p: 0.3, user: 'u-1' });
    expect(fieldsOf(bodies[1])).toEqual({ max_tokens: 2, top_p: 0.3, user: 'u-2' });
  });

  it("a call's snake_case keys are sent, through invoke and withConfig as through bindTools", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const fields = { max_tokens: 3, reasoning_effort: 'high', top_p: 0.5 };
    await model.invoke('one two three four five', fields as never);
    await model.withConfig(fields as never).invoke('one two three four five');
    await model.bindTools([], fields as never).invoke('one two three four five');
    for (const body of bodies) expect(fieldsOf(body)).toEqual(fields);
    // LangChain's and LangGraph's own keys are never sent.
    await model.invoke('x', { tags: ['t'], metadata: { m: 1 }, runName: 'r' });
    expect(fieldsOf(bodies[3])).toEqual({});
  });
});

describe('refused per call and in bindTools, before any request', () => {
  it.each([
    [{ model_kwargs: { user: 'u' } }, 'model_kwargs', /did you mean `modelKwargs`\?/],
    [{ api_key: 'sk-elsewhere-5678' }, 'api_key', /did you mean `apiKey`\?/],
    [{ temperature: 0.1 }, 'temperature', /model setting.*modelKwargs: \{ temperature/],
    [{ maxTokens: 5 }, 'maxTokens', /model setting.*modelKwargs: \{ max_tokens/],
    [{ sendReasoning: true }, 'sendReasoning', /model setting/],
    [{ capabilities: ['chat'] }, 'capabilities', /model setting/],
    [{ timeoutMS: 1 }, 'timeoutMS', /did you mean `timeoutMs`\? \(?use `timeout`/],
    // (An acronym's snake_case spelling, which is no wire name: not sent.)
    [{ base_url: 'http://elsewhere' }, 'base_url', /did you mean `baseURL`\?/],
  ])('%o', async (options, key, message) => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    for (const run of [
      () => model.invoke('hi', options as never),
      () => model.withConfig(options as never).invoke('hi'),
      () => model.bindTools([], options as never).invoke('hi'),
    ]) {
      const error = await caught(run, isGatewayError);
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBe(key);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('sk-elsewhere');
    }
    expect(bodies).toHaveLength(0);
  });

  it('bindTools refuses a kwarg that is no call option and no snake_case field, pointing to modelKwargs', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    const error = await caught(() => model.bindTools([], { think: true } as never), isGatewayError);
    expect(error.message).toMatch(/`think`.*modelKwargs: \{ think/);
    // A call's options also carry LangGraph's own keys: an unknown camelCase key passes there,
    // also one a letter off a short name of ours (`mode`, `node`: `model`).
    for (const key of ['think', 'mode', 'node']) {
      await expect(model.invoke('hi', { [key]: true } as never)).resolves.toBeDefined();
    }
  });
});

describe("a call's apiKey", () => {
  it('is ignored, as ChatOpenAI ignores it: not refused, not sent', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke('hi', { apiKey: 'sk-elsewhere-5678' } as never);
    expect(bodies).toHaveLength(1);
    expect(JSON.stringify(bodies[0])).not.toContain('sk-elsewhere');
  });
});
