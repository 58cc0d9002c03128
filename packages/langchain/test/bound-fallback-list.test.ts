import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src';
import { weatherTool } from './helpers';

/** A model known (its `capabilities` given) to lack tools: its bind-time check applies. */
async function plainModel() {
  const gateway = await emulate();
  const model = new GatewayChatModel({
    ...gateway.connection,
    model: 'community/plain',
    capabilities: ['chat'],
  });
  return { gateway, model };
}

describe("a fallback list bound with the tools is the call's: bindTools does not refuse it", () => {
  it('bindTools(tools, { fallbackModels }) is not refused; the call walks to a model with tools', async () => {
    const { gateway, model } = await plainModel();
    const bound = model.bindTools([weatherTool], { fallbackModels: ['community/tools'] });
    const answer = await bound.invoke('weather for "Kyiv"');
    expect(answer.response_metadata.model_name).toBe('community/tools');
    expect(gateway.counters.requests.chat).toBe(1);
  });

  it("invoke's own list with tools passes core's gate at the call", async () => {
    const { model } = await plainModel();
    const answer = await model.invoke('weather for "Kyiv"', {
      tools: [weatherTool],
      fallbackModels: ['community/tools'],
    });
    expect(answer.response_metadata.model_name).toBe('community/tools');
  });

  it('without a list, bindTools is still refused at once; a bound empty list is no list', async () => {
    const { gateway, model } = await plainModel();
    for (const kwargs of [undefined, { fallbackModels: [] }]) {
      const error = await caught(async () => model.bindTools([weatherTool], kwargs));
      expect(error).toMatchObject({ code: 'unsupported_model_capability', missing: ['tools'] });
    }
    expect(gateway.counters.requests.chat).toBe(0);
  });
});
