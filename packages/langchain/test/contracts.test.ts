import { createGatewayClient } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather in a city',
  schema: z.object({ city: z.string() }),
});

describe('LangChain contracts', () => {
  it('content-block streaming (streamEvents without version) keeps usage when a model without streaming answers with a tool call', async () => {
    const { connection } = await emulate();
    // combo/t: tools, no streaming: the whole answer comes as one chunk.
    const model = new GatewayChatModel('combo/t', connection);
    const stream = model.streamEvents('weather for "Kyiv"', { tools: [weather] });
    const events: string[] = [];
    for await (const event of stream) events.push(event.event);
    const output = await stream.output;
    expect(output.tool_calls?.[0]).toMatchObject({ name: 'weather', args: { city: 'Kyiv' } });
    expect(output.usage_metadata?.total_tokens).toBeGreaterThan(0);
    expect(events[0]).toBe('message-start');
    expect(events.at(-1)).toBe('message-finish');
  });

  it("outputVersion 'v1': a tool-call answer has no empty text block, streamed or not", async () => {
    const { connection } = await emulate();
    const model = new GatewayChatModel('community/general', {
      ...connection,
      outputVersion: 'v1',
    }).bindTools([weather]);
    const invoked = await model.invoke('weather for "Kyiv"');
    expect(invoked.content).toEqual([
      expect.objectContaining({ type: 'tool_call', name: 'weather', args: { city: 'Kyiv' } }),
    ]);
    let joined: AIMessageChunk | undefined;
    for await (const chunk of await model.stream('weather for "Kyiv"')) {
      joined = joined ? joined.concat(chunk) : chunk;
    }
    const blocks = joined?.content as { type: string; text?: string; args?: unknown }[];
    expect(blocks.some((block) => block.type === 'text' && block.text === '')).toBe(false);
    expect(blocks).toEqual([
      expect.objectContaining({
        type: 'tool_call_chunk',
        name: 'weather',
        args: '{"city":"Kyiv"}',
      }),
    ]);
    expect(joined?.tool_calls?.[0]).toMatchObject({ name: 'weather', args: { city: 'Kyiv' } });
    const streamingInvoke = new GatewayChatModel('community/general', {
      ...connection,
      outputVersion: 'v1',
      streaming: true,
    }).bindTools([weather]);
    expect((await streamingInvoke.invoke('weather for "Kyiv"')).content).toEqual([
      expect.objectContaining({ type: 'tool_call', args: { city: 'Kyiv' } }),
    ]);
  });

  it('a model built with a shared client serialises with its base URL (never the key)', async () => {
    const { connection } = await emulate();
    const client = createGatewayClient(connection);
    const model = new GatewayChatModel('community/general', { client });
    const json = JSON.stringify(model);
    expect(JSON.parse(json).kwargs.base_url).toBe(client.baseURL);
    expect(json).not.toContain(connection.apiKey);
  });

  it('capabilities learned from the catalog belong to the model id: changing `model` re-checks', async () => {
    const { emulator, connection } = await emulate();
    const model = new GatewayChatModel('community/general', connection);
    await model.invoke('hi');
    expect(model.profile.toolCalling).toBe(true);
    model.model = 'community/plain';
    expect(model.profile).toEqual({});
    const refused = await model
      .invoke('weather for "Kyiv"', { tools: [weather] })
      .catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/community\/plain.*lacks tools/);
    expect(model.profile.toolCalling).toBe(false);
    expect(emulator.counters.requests.chat).toBe(1);
  });
});
