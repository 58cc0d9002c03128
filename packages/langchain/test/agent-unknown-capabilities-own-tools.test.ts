// `createAgent` with tools and a native `responseFormat` on a model whose capabilities are unknown
// (its catalog entry gives no capabilities list), allowed `tools` first, against the emulator:
// core picks the method by the listed models' rule (docs/gateway-protocol.md §4.8 item 1), so the
// schema is not served by a forced tool over the agent's own tools, and the weather tool runs.
import type { ScenarioInput } from '@infergate/emulator';
import { createAgent, providerStrategy } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { recordingGateway, weatherTool } from './helpers';

/** The default scenario's model that serves everything, here listed without its capabilities. */
const UNSAID = 'community/general';
const scenario: ScenarioInput = { models: { [UNSAID]: { listing: 'no_capabilities' } } };
const Place = z.object({ city: z.string() });

describe('createAgent on a model of unknown capabilities, tools allowed first', () => {
  it('runs its own tool: the schema is asked natively, never by a forced tool', async () => {
    const { bodies, connection } = await recordingGateway<{
      tool_choice?: unknown;
      response_format?: { type: string };
    }>(scenario);
    const model = new GatewayChatModel(UNSAID, {
      ...connection,
      structuredOutput: { methods: ['tools', 'json_schema', 'json_object'] },
    });
    const agent = createAgent({
      model,
      tools: [weatherTool],
      responseFormat: providerStrategy(Place),
    });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'Use weather for "Oslo"' }],
    });
    expect(result.messages.some((message) => message.getType() === 'tool')).toBe(true);
    expect(result.structuredResponse).toEqual({ city: expect.any(String) });
    for (const body of bodies) {
      expect(body.tool_choice ?? 'auto').toBe('auto');
      expect(body.response_format?.type).toBe('json_schema');
    }
  });
});
