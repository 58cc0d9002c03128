/**
 * AI SDK 7's agent class (`ToolLoopAgent`, also exported as `Experimental_Agent`) with our
 * provider's `gateway('…')` model, against the emulator's HTTP server.
 */
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { Output, stepCountIs, ToolLoopAgent, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODEL, pointEnvironmentAt } from './emulator-gateway';
import { BOTH_TOOLS_PROMPT, timeIn, weatherIn } from './forecast';

let server: EmulatedGateway;
// The default provider reads INFERGATE_* on first use, so it is imported once they are set.
let gateway: typeof import('@infergate/ai-sdk').gateway;
beforeAll(async () => {
  server = await emulate({ as: 'http' });
  pointEnvironmentAt(server);
  ({ gateway } = await import('@infergate/ai-sdk'));
});
afterAll(() => server.close());
beforeEach(() => server.emulator.resetCounters());

const tools = {
  get_weather: tool({
    description: 'The current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => weatherIn(city),
  }),
  get_time: tool({
    description: 'The local time in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => timeIn(city),
  }),
};

describe('ToolLoopAgent with gateway()', () => {
  it('calls several tools, then ends the loop with an answer from their results', async () => {
    const agent = new ToolLoopAgent({
      model: gateway(MODEL),
      instructions: 'You answer questions about cities with your tools.',
      tools,
      stopWhen: stepCountIs(5),
    });

    const result = await agent.generate({ prompt: BOTH_TOOLS_PROMPT });

    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { city: 'Rome' }],
    ]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      weatherIn('Rome'),
      timeIn('Rome'),
    ]);
    // The loop ended on its own (a text answer), not on the step limit.
    expect(result.finishReason).toBe('stop');
    expect(result.text).toContain('Tool get_weather returned:');
    expect(result.text).toContain('Tool get_time returned:');
    expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
    expect(server.counters.requests.chat).toBe(2);
  });

  it('streams the same loop', async () => {
    const agent = new ToolLoopAgent({ model: gateway(MODEL), tools, stopWhen: stepCountIs(5) });

    const result = await agent.stream({ prompt: BOTH_TOOLS_PROMPT });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);

    expect(kinds.filter((kind) => kind === 'tool-result')).toHaveLength(2);
    expect(await result.text).toContain('Tool get_time returned:');
    expect(await result.finishReason).toBe('stop');
    expect(server.counters.requests.chat).toBe(2);
  });

  it('ends with structured output built from the tool results', async () => {
    const Forecast = z.object({ city: z.string(), temperatureC: z.number(), sky: z.string() });
    const agent = new ToolLoopAgent({
      model: gateway(MODEL),
      tools,
      output: Output.object({ schema: Forecast }),
      stopWhen: stepCountIs(5),
    });

    const result = await agent.generate({ prompt: 'Use get_weather for "Rome".' });

    expect(result.steps[0]!.toolCalls.map((call) => call.toolName)).toEqual(['get_weather']);
    expect(result.output).toEqual(weatherIn('Rome'));
    expect(server.counters.requests.chat).toBe(2);
  });

  it('answers with structured output directly when no tool is needed', async () => {
    const Reply = z.object({ answer: z.string() });
    const agent = new ToolLoopAgent({
      model: gateway(MODEL),
      tools,
      output: Output.object({ schema: Reply }),
    });

    const result = await agent.generate({ prompt: 'Say "hello"' });

    expect(result.steps).toHaveLength(1);
    expect(result.output).toEqual({ answer: 'hello' });
  });
});
