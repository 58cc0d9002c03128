import { caught, emulate } from '@infergate/emulator/testing';
import { tool } from '@langchain/core/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel, isGatewayError } from '../index';

// Tools bound on a model without `tools` are refused the same with or without
// `withStructuredOutput`: core's capability refusal, `missing` and `alternatives` (rv-ai15 F1).
const emulated = await emulate();
afterAll(() => emulated.close());
const weather = tool(async () => 'sunny', {
  name: 'weather',
  description: 'The weather in a city',
  schema: z.object({ city: z.string() }),
});
const Place = z.object({ city: z.string() });
const withTools = (id: string) =>
  new GatewayChatModel(id, { ...emulated.connection, maxRetries: 0 }).bindTools([weather]);

describe('bindTools, then withStructuredOutput, one model', () => {
  it('a model lacking tools: unsupported_model_capability as without the schema', async () => {
    const model = withTools('community/json-schema');
    const plain = await caught(model.invoke('Weather in "Oslo"?'), isGatewayError);
    const structured = model.withStructuredOutput(Place);
    const error = await caught(structured.invoke('Weather in "Oslo"?'), isGatewayError);
    expect(error).toMatchObject({
      code: 'unsupported_model_capability',
      missing: ['tools'],
      alternatives: plain.alternatives,
      message: plain.message,
    });
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
  });

  it('a model with tools and no way to serve the schema beside them: no_model_can_serve', async () => {
    const structured = withTools('combo/t').withStructuredOutput(Place);
    const error = await caught(structured.invoke('Weather in "Oslo"?'), isGatewayError);
    expect(error.code).toBe('no_model_can_serve');
    expect(error.message).toContain('not tools: the request has tools of its own');
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
  });
});
