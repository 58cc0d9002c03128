// A schema call with tools of its own to a model whose capabilities are unknown (its catalog entry
// gives no capabilities list), through ai's generateText tool loop with `Output.object`, against
// the emulator: core picks the method by the listed models' rule (docs/gateway-protocol.md §4.8
// item 1), so `tools` — first in the allowed methods — is not used over the request's own tools
// (its forced call would keep them from being called), and the agent's tool step runs.
import type { ScenarioInput } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { generateText, Output, stepCountIs, tool } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';
import { WEATHER_TOOL } from './weather-tool';

/** The default scenario's model that serves everything, here listed without its capabilities. */
const UNSAID = 'community/general';
const scenario: ScenarioInput = { models: { [UNSAID]: { listing: 'no_capabilities' } } };
const emulated = await emulate({ scenario, hooks: { afterEach, afterAll } });

describe('a schema call with its own tools, to a model of unknown capabilities', () => {
  it('is not served by a forced tool: the weather tool runs, then the object comes', async () => {
    const bodies: { tool_choice?: unknown; response_format?: { type: string } }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/chat/completions')) bodies.push(await request.clone().json());
      return emulated.fetch(request);
    };
    const gateway = createGateway({ baseURL: emulated.baseURL, apiKey: emulated.apiKey, fetch });
    let ran = 0;
    const result = await generateText({
      model: gateway(UNSAID),
      tools: {
        weather: tool({
          ...WEATHER_TOOL,
          execute: async (input) => {
            ran++;
            return WEATHER_TOOL.execute(input);
          },
        }),
      },
      stopWhen: stepCountIs(4),
      output: Output.object({ schema: z.object({ city: z.string() }) }),
      prompt: 'Use weather for "Oslo"',
      providerOptions: {
        infergate: { structuredOutput: { methods: ['tools', 'json_schema', 'json_object'] } },
      },
    });
    expect(ran).toBe(1);
    expect(result.steps).toHaveLength(2);
    expect(result.output).toEqual({ city: expect.any(String) });
    // Served natively each step, never by forcing the schema's tool.
    for (const body of bodies) {
      expect(body.tool_choice ?? 'auto').toBe('auto');
      expect(body.response_format?.type).toBe('json_schema');
    }
  });
});
