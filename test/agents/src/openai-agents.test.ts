/**
 * The OpenAI Agents SDK (`@openai/agents`) with our AI SDK 7 model through
 * `@openai/agents-extensions`' `aisdk()` adapter, against the emulator's HTTP server.
 */
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { Agent, handoff, run, setTracingDisabled, tool } from '@openai/agents';
import { removeAllTools } from '@openai/agents-core/extensions';
import { aisdk } from '@openai/agents-extensions/ai-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODEL, pointEnvironmentAt } from './emulator-gateway';
import { BOTH_TOOLS_PROMPT, timeIn, weatherIn } from './forecast';

// Traces go to OpenAI's exporter by default; a test sends nothing anywhere but the emulator.
setTracingDisabled(true);

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
const tools = [
  tool({
    name: 'get_weather',
    description: 'The current weather in a city',
    parameters: City,
    execute: async ({ city }) => weatherIn(city),
  }),
  tool({
    name: 'get_time',
    description: 'The local time in a city',
    parameters: City,
    execute: async ({ city }) => timeIn(city),
  }),
];

const INSTRUCTIONS = 'You answer questions about cities with your tools.';

/** The tool calls the run made, as `[name, arguments]`. */
function toolCalls(items: { type: string; rawItem: unknown }[]) {
  return items
    .filter((item) => item.type === 'tool_call_item')
    .map((item) => {
      const raw = item.rawItem as { name: string; arguments: string };
      return [raw.name, JSON.parse(raw.arguments)];
    });
}

describe('OpenAI Agents SDK with aisdk(gateway())', () => {
  it('calls several tools, then ends with an answer from their results', async () => {
    const agent = new Agent({
      name: 'City agent',
      instructions: INSTRUCTIONS,
      model: aisdk(gateway(MODEL)),
      tools,
    });

    const result = await run(agent, BOTH_TOOLS_PROMPT, { maxTurns: 5 });

    expect(toolCalls(result.newItems)).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { city: 'Rome' }],
    ]);
    const outputs = result.newItems
      .filter((item) => item.type === 'tool_call_output_item')
      .map((item) => (item as { output: unknown }).output);
    expect(outputs).toEqual([weatherIn('Rome'), timeIn('Rome')]);
    expect(result.finalOutput).toContain('Tool get_weather returned:');
    expect(result.finalOutput).toContain('Tool get_time returned:');
    expect(server.counters.requests.chat).toBe(2);
  });

  it('streams the same run', async () => {
    const agent = new Agent({ name: 'City agent', model: aisdk(gateway(MODEL)), tools });

    const stream = await run(agent, BOTH_TOOLS_PROMPT, { stream: true, maxTurns: 5 });
    let text = '';
    for await (const chunk of stream.toTextStream()) text += chunk;
    await stream.completed;

    expect(toolCalls(stream.newItems).map(([name]) => name)).toEqual(['get_weather', 'get_time']);
    expect(text).toContain('Tool get_time returned:');
    expect(stream.finalOutput).toBe(text);
    expect(server.counters.requests.chat).toBe(2);
  });

  it('ends with structured output (outputType) built from the tool results', async () => {
    const Forecast = z.object({ city: z.string(), temperatureC: z.number(), sky: z.string() });
    const agent = new Agent({
      name: 'City agent',
      instructions: INSTRUCTIONS,
      model: aisdk(gateway(MODEL)),
      tools,
      outputType: Forecast,
    });

    const result = await run(agent, 'Use get_weather for "Rome".', { maxTurns: 5 });

    expect(toolCalls(result.newItems).map(([name]) => name)).toEqual(['get_weather']);
    expect(result.finalOutput).toEqual(weatherIn('Rome'));
  });

  it('hands off from a triage agent to an agent that runs its tools', async () => {
    const cityAgent = new Agent({
      name: 'city_agent',
      instructions: INSTRUCTIONS,
      model: aisdk(gateway(MODEL)),
      tools,
    });
    // The handoff's tool is named after the agent: `transfer_to_city_agent`. No instructions: the
    // scripted model derives tool-call ids from the message count and the user's text, so the
    // triage's view must differ in length from the city agent's (instructions + the request).
    const triage = new Agent({
      name: 'Triage',
      model: aisdk(gateway(MODEL)),
      // The SDK's own filter: the city agent gets the user's request without the handoff call
      // (the scripted model calls tools only when the conversation ends with the user's words).
      handoffs: [handoff(cityAgent, { inputFilter: removeAllTools })],
    });

    const result = await run(
      triage,
      'Please transfer_to_city_agent: use get_weather and get_time for "Rome".',
      { maxTurns: 5 },
    );

    expect(result.lastAgent?.name).toBe('city_agent');
    expect(toolCalls(result.newItems).map(([name]) => name)).toEqual(['get_weather', 'get_time']);
    expect(result.finalOutput).toContain('Tool get_weather returned:');
    // triage (handoff) → city agent (tools) → city agent (answer).
    expect(server.counters.requests.chat).toBe(3);
  });
});
