// With `fallbackModels`, `profile` states what the call can count on whichever listed model answers
// (the capabilities every listed model has): `createAgent` then picks a `responseFormat` strategy
// every hop serves, so the list still serves the agent when the first model is down.
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { answeredBy, askedHowWarm, listedModel, recordingGateway } from './helpers';

describe('profile over a fallback list', () => {
  it('createAgent asks through a tool when a listed model lacks json_schema; a fallback answers', async () => {
    const { emulator, bodies, model } = await listedModel(
      'community/general',
      ['community/tools', 'pool-a/qwen-7b'],
      { maxRetries: 0 },
    );
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    // community/general has json_schema; the listed fallbacks have tools only.
    expect(model.profile).toMatchObject({ toolCalling: true, structuredOutput: false });
    // No tools of the agent's own: the forced call is its structured-output tool's.
    const result = await askedHowWarm(model);
    expect(bodies[0]?.response_format).toBeUndefined();
    expect(bodies[0]?.tool_choice).toBe('required');
    expect(answeredBy(result)).toBe('community/tools');
  });

  it('a list of models that all have json_schema keeps the native strategy', async () => {
    const { model } = await listedModel('community/general', ['combo/soj']);
    // combo/soj has no tools: the profile says so for the call.
    expect(model.profile).toMatchObject({ toolCalling: false, structuredOutput: true });
  });

  it('a model built with new learns the listed models from the catalog its call read', async () => {
    const { connection } = await recordingGateway();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      fallbackModels: ['community/tools'],
    });
    expect(model.profile).toEqual({});
    await model.invoke('hi');
    expect(model.profile).toMatchObject({ toolCalling: true, structuredOutput: false });
  });
});
