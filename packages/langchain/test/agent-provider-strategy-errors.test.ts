// createAgent's providerStrategy checks the answer itself: an answer that breaks the schema or is
// not JSON reaches the agent, which raises its StructuredOutputParsingError (as with ChatOpenAI),
// never core's invalid_structured_output from inside the model call. Core still checks the
// answers before the last and moves on from one off the schema.
import { isGatewayError, type ModelCapability } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { createAgent, providerStrategy, StructuredOutputParsingError } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

const Summary = z.object({ summary: z.string(), temp: z.number().optional() });
const ask = { messages: [{ role: 'user' as const, content: 'Summarise "Oslo"' }] };
const json: ModelCapability[] = ['chat', 'streaming', 'tools', 'json_schema'];

async function gateway() {
  return emulate({
    scenario: {
      models: {
        'pool-j/liar': { capabilities: json, jsonAnswers: { offSchemaShare: 1 } },
        'pool-j/broken': { capabilities: json, jsonAnswers: { invalidShare: 1 } },
      },
    },
  });
}

describe("createAgent's providerStrategy with an answer off the schema", () => {
  it.each([
    ['breaks the schema', 'pool-j/liar'],
    ['is not JSON', 'pool-j/broken'],
  ])("raises the agent's StructuredOutputParsingError when the answer %s", async (_, id) => {
    const { connection } = await gateway();
    const model = await GatewayChatModel.create(id, { ...connection, maxRetries: 0 });
    const agent = createAgent({ model, tools: [], responseFormat: providerStrategy(Summary) });
    const error = await caught(agent.invoke(ask));
    expect(error).toBeInstanceOf(StructuredOutputParsingError);
    expect(isGatewayError(error)).toBe(false);
  });

  it('still moves on from an answer off the schema to a fallback model', async () => {
    const { connection } = await gateway();
    const model = await GatewayChatModel.create('pool-j/liar', {
      ...connection,
      fallbackModels: ['community/general'],
    });
    const agent = createAgent({ model, tools: [], responseFormat: providerStrategy(Summary) });
    const result = await agent.invoke(ask);
    expect(Summary.safeParse(result.structuredResponse).success).toBe(true);
  });

  it('leaves a direct call with response_format checked by core', async () => {
    const { connection } = await gateway();
    const model = await GatewayChatModel.create('pool-j/liar', connection);
    const response_format = {
      type: 'json_schema' as const,
      json_schema: { name: 'Summary', schema: z.toJSONSchema(Summary) },
    };
    const error = await caught(model.invoke('Summarise "Oslo"', { response_format }));
    expect(isGatewayError(error) && error.code).toBe('invalid_structured_output');
  });
});
