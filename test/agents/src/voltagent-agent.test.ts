/**
 * VoltAgent's `Agent` (`@voltagent/core` 2.x, which takes an AI SDK 6 `LanguageModel`) with our
 * ai@6 model from `@infergate/ai-sdk/v6`, against the emulator's HTTP server, as VoltAgent's docs
 * show it: `new Agent({ name, instructions, model, tools })`, tools from `createTool`.
 */
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import type { Tool } from '@voltagent/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODEL, pointEnvironmentAt } from './emulator-gateway';
import { BOTH_TOOLS_PROMPT, timeIn, weatherIn } from './forecast';

type VoltAgent = typeof import('@voltagent/core');

let server: EmulatedGateway;
let gateway: typeof import('@infergate/ai-sdk/v6').gateway;
let volt: VoltAgent;
beforeAll(async () => {
  server = await emulate({ as: 'http' });
  pointEnvironmentAt(server);
  ({ gateway } = await import('@infergate/ai-sdk/v6'));
  // Outside production, loading @voltagent/core starts refreshing its model registry from
  // models.dev (and writes it to disk); a test sends nothing anywhere but the emulator.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    volt = await import('@voltagent/core');
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
});
afterAll(() => server.close());
beforeEach(() => server.emulator.resetCounters());

const City = z.object({ city: z.string() });

function cityTools(): Tool<typeof City>[] {
  const { createTool } = volt;
  return [
    createTool({
      name: 'get_weather',
      description: 'The current weather in a city',
      parameters: City,
      execute: async ({ city }) => weatherIn(city),
    }),
    createTool({
      name: 'get_time',
      description: 'The local time in a city',
      parameters: City,
      execute: async ({ city }) => timeIn(city),
    }),
  ];
}

function cityAgent() {
  return new volt.Agent({
    name: 'City agent',
    instructions: 'You answer questions about cities with your tools.',
    model: gateway(MODEL),
    tools: cityTools(),
    memory: false, // a test keeps no conversation anywhere
  });
}

describe('VoltAgent Agent with the /v6 gateway()', () => {
  it('generateText: calls several tools, then ends with an answer from their results', async () => {
    const result = await cityAgent().generateText(BOTH_TOOLS_PROMPT, { maxSteps: 5 });

    const calls = result.steps.flatMap((step) => step.toolCalls);
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { city: 'Rome' }],
    ]);
    const results = result.steps.flatMap((step) => step.toolResults);
    expect(results.map((r) => r.output)).toEqual([weatherIn('Rome'), timeIn('Rome')]);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toContain('Tool get_weather returned:');
    expect(result.steps).toHaveLength(2);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(server.counters.requests.chat).toBe(2);
  });

  it('streamText: streams the answer after the tool round', async () => {
    const result = await cityAgent().streamText('Use get_weather for "Kyiv".', { maxSteps: 5 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toContain('Tool get_weather returned:');
    expect(text).toContain('Kyiv');
    expect((await result.usage).totalTokens).toBeGreaterThan(0);
    expect(server.counters.requests.chat).toBe(2);
  });
});
