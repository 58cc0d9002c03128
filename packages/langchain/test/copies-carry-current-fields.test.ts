// A field set on a GatewayChatModel after it was built is what `invoke` sends: its copies
// (`bindTools`, `withConfig`, and so `withStructuredOutput` and `createAgent`) send it too, never
// the constructor's value.
import { emulate } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { recordingModel, weatherTool } from './helpers';

/** The sampling fields as a model's request carries them. */
const sampling = (body: Record<string, unknown>) => ({
  temperature: body.temperature,
  max_tokens: body.max_tokens,
  reasoning_effort: body.reasoning_effort,
});

/** The changes made to a model after it was built. */
function change(model: GatewayChatModel) {
  model.temperature = 0.9;
  model.maxTokens = 42;
  model.reasoningEffort = 'low';
}

/** A model built with `temperature: 0.2`, then changed. */
async function changedModel() {
  const recording = await recordingModel({ temperature: 0.2, maxRetries: 0 });
  change(recording.model);
  return recording;
}

const CHANGED = { temperature: 0.9, max_tokens: 42, reasoning_effort: 'low' };

describe('a copy of a GatewayChatModel sends its fields as they are now', () => {
  it('invoke, bindTools(...).invoke and withConfig(...).invoke send the changed fields', async () => {
    const { bodies, model } = await changedModel();
    await model.invoke('hi');
    await model.bindTools([weatherTool]).invoke('hi');
    await model.withConfig({ tags: ['t'] }).invoke('hi');
    expect(bodies.map(sampling)).toEqual([CHANGED, CHANGED, CHANGED]);
    const bound = model.bindTools([weatherTool]);
    expect([bound.temperature, bound.maxTokens, bound.reasoningEffort]).toEqual([0.9, 42, 'low']);
  });

  it('withStructuredOutput(...).invoke sends the changed fields', async () => {
    const { bodies, model } = await changedModel();
    const answer = await model
      .withStructuredOutput(z.object({ name: z.string() }))
      .invoke('describe "Ada"');
    expect(typeof answer.name).toBe('string');
    expect(bodies.map(sampling)).toEqual([CHANGED]);
  });

  it('createAgent(...).invoke sends the changed fields at every step', async () => {
    const { bodies, model } = await changedModel();
    const agent = createAgent({ model, tools: [weatherTool] });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'weather for "Kyiv"' }],
    });
    expect(result.messages.at(-1)?.text).toBe('Tool weather returned: sunny in Kyiv');
    expect(bodies.map(sampling)).toEqual([CHANGED, CHANGED]);
  });

  it('an agent made before the change sends the changed fields (it binds at each step)', async () => {
    const { bodies, model } = await recordingModel({ temperature: 0.2, maxRetries: 0 });
    const agent = createAgent({ model, tools: [weatherTool] });
    change(model);
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'weather for "Kyiv"' }],
    });
    expect(result.messages.at(-1)?.text).toBe('Tool weather returned: sunny in Kyiv');
    expect(bodies.map(sampling)).toEqual([CHANGED, CHANGED]);
  });

  it("a steering field set later (fallbackModels) steers a bound copy's call", async () => {
    const gateway = await emulate();
    // Known to lack tools: with no list its bound tools are refused before any request.
    const model = new GatewayChatModel({
      ...gateway.connection,
      model: 'community/plain',
      capabilities: ['chat'],
    });
    model.fallbackModels = ['community/tools'];
    const answer = await model.bindTools([weatherTool]).invoke('weather for "Kyiv"');
    expect(answer.response_metadata.model_name).toBe('community/tools');
    expect(gateway.counters.requests.chat).toBe(1);
  });
});
