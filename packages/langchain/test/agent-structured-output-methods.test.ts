// `profile.structuredOutput` (native JSON-schema output, which `createAgent` reads to pick how it
// asks for `responseFormat`) follows the model's `structuredOutput.methods`: a model allowed only
// `tools` reports false, so `createAgent` asks through a tool of its own beside the agent's tools
// instead of a native request that the allowed methods cannot serve.
import { emulate } from '@infergate/emulator/testing';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { recordingGateway } from './helpers';

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather in a city',
  schema: z.object({ city: z.string() }),
});
const Summary = z.object({ summary: z.string() });
const ask = { messages: [{ role: 'user' as const, content: 'Use weather for "Kyiv"' }] };

describe('createAgent with responseFormat and structuredOutput.methods', () => {
  it('finishes a run with tools when the model allows only tools', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/general', {
      ...connection,
      structuredOutput: { methods: ['tools'] },
    });
    expect(model.profile.structuredOutput).toBe(false);
    const agent = createAgent({ model, tools: [weather], responseFormat: Summary });
    const result = await agent.invoke(ask);
    // The weather tool ran, then the structured-response tool gave the answer.
    expect(result.messages.some((message) => message.text === 'sunny in Kyiv')).toBe(true);
    expect(Summary.safeParse(result.structuredResponse).success).toBe(true);
    // Asked through a tool of LangChain's (its tool strategy), beside the agent's own.
    expect(bodies[0]?.response_format).toBeUndefined();
    const toolNames = ((bodies[0]?.tools ?? []) as { function: { name: string } }[]).map(
      (entry) => entry.function.name,
    );
    expect(toolNames).toContain('weather');
    expect(toolNames.length).toBe(2);
  });

  it('keeps native output for a model that allows json_schema', async () => {
    const gateway = await emulate();
    const model = await GatewayChatModel.create('community/general', {
      ...gateway.connection,
      structuredOutput: { methods: ['tools', 'json_schema'] },
    });
    expect(model.profile.structuredOutput).toBe(true);
    const agent = createAgent({ model, tools: [weather], responseFormat: Summary });
    const result = await agent.invoke(ask);
    expect(Summary.safeParse(result.structuredResponse).success).toBe(true);
  });
});
