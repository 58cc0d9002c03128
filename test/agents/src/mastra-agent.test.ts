/**
 * Mastra's `Agent` (`@mastra/core`) with our AI SDK 7 model (`gateway('…')`, a LanguageModelV4),
 * against the emulator's HTTP server.
 */
import type { GatewayChatLanguageModel } from '@infergate/ai-sdk';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { createTool } from '@mastra/core/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODEL, pointEnvironmentAt } from './emulator-gateway';
import { BOTH_TOOLS_PROMPT, timeIn, weatherIn } from './forecast';

// Mastra's usage telemetry is for its server; a test sends nothing anywhere but the emulator.
process.env.MASTRA_TELEMETRY_DISABLED = '1';

let server: EmulatedGateway;
let gateway: typeof import('@infergate/ai-sdk').gateway;
beforeAll(async () => {
  server = await emulate({ as: 'http' });
  pointEnvironmentAt(server);
  ({ gateway } = await import('@infergate/ai-sdk'));
});
afterAll(() => server.close());
beforeEach(() => server.emulator.resetCounters());

const City = z.object({ city: z.string() });
const tools = {
  get_weather: createTool({
    id: 'get_weather',
    description: 'The current weather in a city',
    inputSchema: City,
    execute: async ({ city }) => weatherIn(city),
  }),
  get_time: createTool({
    id: 'get_time',
    description: 'The local time in a city',
    inputSchema: City,
    execute: async ({ city }) => timeIn(city),
  }),
};

/**
 * Mastra 1.71 types models with the `@ai-sdk/provider` 4.0.17 it bundles, whose finish reasons lack
 * `interrupted` (added later in 4.x): a current V4 model is not assignable to its `model` option,
 * though Mastra runs it. Our model never returns `interrupted`, so a cast is the whole bridge.
 */
const forMastra = (model: GatewayChatLanguageModel) => model as MastraModelConfig;
// Stops compiling once Mastra's bundled types accept our model: drop the cast then.
type NeedsCast = GatewayChatLanguageModel extends MastraModelConfig ? false : true;
export const needsCast: NeedsCast = true;

function cityAgent() {
  return new Agent({
    id: 'city-agent',
    name: 'City agent',
    instructions: 'You answer questions about cities with your tools.',
    model: forMastra(gateway(MODEL)),
    tools,
  });
}

describe('Mastra Agent with gateway()', () => {
  it('calls several tools, then ends with an answer from their results', async () => {
    const result = await cityAgent().generate(BOTH_TOOLS_PROMPT, { maxSteps: 5 });

    expect(result.toolCalls.map((call) => [call.payload.toolName, call.payload.args])).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { city: 'Rome' }],
    ]);
    expect(result.toolResults.map((r) => r.payload.result)).toEqual([
      weatherIn('Rome'),
      timeIn('Rome'),
    ]);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toContain('Tool get_weather returned:');
    expect(result.steps).toHaveLength(2);
    expect(server.counters.requests.chat).toBe(2);
  });

  it('streams the same loop', async () => {
    const stream = await cityAgent().stream(BOTH_TOOLS_PROMPT, { maxSteps: 5 });
    const kinds: string[] = [];
    for await (const chunk of stream.fullStream) kinds.push(chunk.type);

    expect(kinds.filter((kind) => kind === 'tool-result')).toHaveLength(2);
    expect(await stream.text).toContain('Tool get_time returned:');
    expect(server.counters.requests.chat).toBe(2);
  });

  it('ends with structured output built from the tool results', async () => {
    const Forecast = z.object({ city: z.string(), temperatureC: z.number(), sky: z.string() });

    const result = await cityAgent().generate('Use get_weather for "Rome".', {
      maxSteps: 5,
      structuredOutput: { schema: Forecast },
    });

    expect(result.toolCalls.map((call) => call.payload.toolName)).toEqual(['get_weather']);
    expect(result.object).toEqual(weatherIn('Rome'));
  });
});
