// A call's request field for a setting the model names (`max_tokens` as a call option, in the
// call's `modelKwargs`, bound by withConfig or bindTools, or createAgent's modelSettings) is sent
// in place of the model's value, as `ChatOpenAI` sends it, and the traced params say so.

import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

/** What LangChain traces of each chat model run: its invocation params and LangSmith's. */
class Traced extends BaseCallbackHandler {
  name = 'traced';
  runs: Array<{ params: Record<string, unknown>; metadata: Record<string, unknown> }> = [];

  override handleChatModelStart(
    _model: Serialized,
    _messages: unknown,
    _runId: string,
    _parent?: string,
    extra?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    const params = (extra?.invocation_params ?? {}) as Record<string, unknown>;
    this.runs.push({ params, metadata: metadata ?? {} });
  }
}

const sent = (body: Record<string, unknown> | undefined) => ({
  temperature: body?.temperature,
  max_tokens: body?.max_tokens,
});

async function setup() {
  const { bodies, connection } = await recordingGateway();
  const model = new GatewayChatModel('community/general', {
    ...connection,
    temperature: 0.3,
    maxTokens: 50,
  });
  return { bodies, model };
}

describe("a call's field over the model's named setting", () => {
  it('is sent and traced: invoke, stream, withConfig, bindTools', async () => {
    const { bodies, model } = await setup();
    const traced = new Traced();
    const callbacks = [traced];
    const input = 'one two three four five six';
    await model.invoke(input, { max_tokens: 3, callbacks } as never);
    await model.invoke(input, { modelKwargs: { max_tokens: 3, temperature: 0.9 }, callbacks });
    for await (const _ of await model.stream(input, { max_tokens: 3, callbacks } as never));
    await model.withConfig({ max_tokens: 3, callbacks } as never).invoke(input);
    await model.bindTools([], { max_tokens: 3 } as never).invoke(input, { callbacks });
    expect(bodies.map(sent)).toEqual([
      { temperature: 0.3, max_tokens: 3 },
      { temperature: 0.9, max_tokens: 3 },
      { temperature: 0.3, max_tokens: 3 },
      { temperature: 0.3, max_tokens: 3 },
      { temperature: 0.3, max_tokens: 3 },
    ]);
    expect(traced.runs.map(({ params }) => sent(params))).toEqual(bodies.map(sent));
    expect(traced.runs.map(({ metadata }) => metadata.ls_max_tokens)).toEqual([3, 3, 3, 3, 3]);
    expect(traced.runs[1]?.metadata.ls_temperature).toBe(0.9);
    // The call's answer is cut at its own limit.
    expect(
      (await model.invoke(input, { max_tokens: 3 } as never)).response_metadata.finish_reason,
    ).toBe('length');
    // Without a call's field, the model's settings.
    await model.invoke(input);
    expect(sent(bodies.at(-1))).toEqual({ temperature: 0.3, max_tokens: 50 });
  });

  it("a call's field over the model's named user too", async () => {
    const { bodies, connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', { ...connection, user: 'model-user' });
    await model.invoke('hi', { modelKwargs: { user: 'call-user' } });
    await model.invoke('hi');
    expect(bodies.map((body) => body.user)).toEqual(['call-user', 'model-user']);
  });

  it("createAgent's modelSettings", async () => {
    const { bodies, model } = await setup();
    const settings = createMiddleware({
      name: 'settings',
      wrapModelCall: (request, handler) =>
        handler({ ...request, modelSettings: { max_tokens: 3, modelKwargs: { temperature: 0 } } }),
    });
    const agent = createAgent({ model, tools: [], middleware: [settings] });
    await agent.invoke({ messages: [{ role: 'user', content: 'one two three four five six' }] });
    expect(sent(bodies[0])).toEqual({ temperature: 0, max_tokens: 3 });
  });
});
