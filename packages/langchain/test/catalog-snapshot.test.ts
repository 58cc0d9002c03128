// The catalog is a snapshot (docs/gateway-protocol.md §3.3): `GatewayChatModel.create` reads it
// first (so `profile` is known up front) but leaves it to core's gate, which reads the current one
// at each call; an entry without a capabilities list is unknown (sent, profile `{}`); and a model
// that serves a schema only through json_object reports `structuredOutput`, so `createAgent` asks
// natively and core serves it.
import { createGatewayClient } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { recordingGateway, weatherTool } from './helpers';

describe('GatewayChatModel.create warms the catalog, it does not freeze it', () => {
  it('after the catalog changes, the gate and profile follow it', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    const client = createGatewayClient(gateway.connection);
    const created = await GatewayChatModel.create('community/plain', { client });
    expect(created.profile).toMatchObject({ toolCalling: false, structuredOutput: false });
    // The gateway now lists tools and json_schema for the model; the snapshot is read again.
    emulator.scenario.models['community/plain']!.capabilities = ['chat', 'tools', 'json_schema'];
    client.refreshCatalog();
    const answer = await created.bindTools([weatherTool]).invoke('weather for "Kyiv"?');
    expect(answer.tool_calls?.[0]?.name).toBe('weather');
    expect(emulator.counters.requests.chat).toBe(1);
    expect(created.profile).toMatchObject({ toolCalling: true, structuredOutput: true });
  });
});

describe('an entry without a capabilities list', () => {
  it('is unknown: invoke sends it, profile stays {}', async () => {
    const gateway = await emulate({
      scenario: { models: { 'x/unsaid': { capabilities: ['tools'], listing: 'no_capabilities' } } },
    });
    const model = await GatewayChatModel.create('x/unsaid', gateway.connection);
    expect(model.profile).toEqual({});
    const answer = await model.bindTools([weatherTool]).invoke('weather for "Kyiv"?');
    expect(answer.tool_calls?.[0]?.name).toBe('weather');
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    expect(model.profile).toEqual({});
  });
});

describe('createAgent with responseFormat on a model with json_object only', () => {
  it('asks natively (profile.structuredOutput) and core serves the schema by json_object', async () => {
    const { bodies, connection } = await recordingGateway();
    const model = await GatewayChatModel.create('community/json-object', connection);
    expect(model.profile.structuredOutput).toBe(true);
    const Summary = z.object({ summary: z.string() });
    const agent = createAgent({ model, tools: [], responseFormat: Summary });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'hi' }] });
    expect(Summary.safeParse(result.structuredResponse).success).toBe(true);
    // No tool of LangChain's: the provider strategy's request, served the model's way.
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.tools).toBeUndefined();
    expect(bodies[0]?.response_format).toEqual({ type: 'json_object' });
  });

  it('a model with tools keeps the tool strategy (json_object is not preferred over it)', async () => {
    const { connection } = await recordingGateway();
    const model = await GatewayChatModel.create('combo/to', connection);
    expect(model.profile).toMatchObject({ toolCalling: true, structuredOutput: false });
  });
});
