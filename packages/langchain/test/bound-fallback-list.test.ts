import { caught, emulate } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { weatherTool } from './helpers';

/** A model known (its `capabilities` given) to lack tools. */
async function plainModel() {
  const gateway = await emulate();
  const model = new GatewayChatModel({
    ...gateway.connection,
    model: 'community/plain',
    capabilities: ['chat'],
  });
  return { gateway, model };
}

describe('bound tools on a model without them: the call, with its fallback list, decides', () => {
  it('bindTools(tools, { fallbackModels }): the call walks to a model with tools', async () => {
    const { gateway, model } = await plainModel();
    const bound = model.bindTools([weatherTool], { fallbackModels: ['community/tools'] });
    const answer = await bound.invoke('weather for "Kyiv"');
    expect(answer.response_metadata.model_name).toBe('community/tools');
    expect(gateway.counters.requests.chat).toBe(1);
  });

  it("bindTools(tools), then invoke's own list: the call walks to a model with tools", async () => {
    const { model } = await plainModel();
    const answer = await model
      .bindTools([weatherTool])
      .invoke('weather for "Kyiv"', { fallbackModels: ['community/tools'] });
    expect(answer.response_metadata.model_name).toBe('community/tools');
  });

  it("createAgent over model.withConfig({ fallbackModels }): the binding's list counts", async () => {
    const { model } = await plainModel();
    const agent = createAgent({
      model: model.withConfig({ fallbackModels: ['community/tools'] }),
      tools: [weatherTool],
    });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'weather for "Kyiv"' }],
    });
    const toolAnswers = result.messages.filter((message) => message.type === 'tool');
    expect(toolAnswers.map((message) => message.content)).toEqual(['sunny in Kyiv']);
  });

  it('with no list, the call is refused before any chat request, naming the models with tools', async () => {
    const { gateway, model } = await plainModel();
    for (const kwargs of [undefined, { fallbackModels: [] }]) {
      const error = await caught(model.bindTools([weatherTool], kwargs).invoke('weather?'));
      expect(error).toMatchObject({ code: 'unsupported_model_capability', missing: ['tools'] });
      expect((error as Error).message).toContain('community/tools');
    }
    expect(gateway.counters.requests.chat).toBe(0);
  });
});
