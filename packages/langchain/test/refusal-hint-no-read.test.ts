// A capability refusal's `create` hint and the `profile` learnt from it come from what core's gate
// read to refuse (the capabilities on its error): never a catalog read after the call failed, which
// with `catalogTtlMs: 0` would be a fresh request that could fail, hang or replace the refusal.
import { createGatewayClient } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

describe('a capability refusal (catalogTtlMs: 0): no request after the call failed', () => {
  it('the create hint, from the refusal alone: one GET /models, the call’s', async () => {
    const { emulator, connection } = await emulate();
    const client = createGatewayClient({ ...connection, catalogTtlMs: 0 });
    const model = new GatewayChatModel('community/json-schema', { client });
    // createAgent's tool strategy for responseFormat (the model's profile empty when it read it).
    const agent = createAgent({ model, tools: [], responseFormat: z.object({ city: z.string() }) });
    const refused = agent.invoke({ messages: [{ role: 'user', content: 'hi' }] });
    await expect(refused).rejects.toMatchObject({
      code: 'unsupported_model_capability',
      missing: ['tools'],
      message: expect.stringContaining('GatewayChatModel.create'),
    });
    expect(emulator.counters.requests.models).toBe(1);
    expect(emulator.counters.requests.chat).toBe(0);
    // The profile is learnt from the refusal all the same.
    expect(model.profile.toolCalling).toBe(false);
    expect(model.profile.structuredOutput).toBe(true);
  });

  it('a refused stream: its one catalog read, the refusal as core made it', async () => {
    const { emulator, connection } = await emulate();
    const client = createGatewayClient({ ...connection, catalogTtlMs: 0 });
    const model = new GatewayChatModel('community/plain', { client, streaming: true });
    const read = async () => {
      for await (const _chunk of await model.stream('hi')) {
        // read to the end
      }
    };
    await expect(read()).rejects.toMatchObject({
      code: 'unsupported_model_capability',
      missing: ['streaming'],
    });
    expect(emulator.counters.requests.models).toBe(1);
    expect(model.profile.toolCalling).toBe(false);
  });

  it('a catalog that fails after the refusal changes nothing: the refusal is the error', async () => {
    const { emulator, connection } = await emulate();
    const client = createGatewayClient({ ...connection, catalogTtlMs: 0, maxRetries: 0 });
    const model = new GatewayChatModel('community/plain', { client, streaming: true });
    // Every GET /models after the first fails.
    emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'models',
      retryAfter: 0,
      afterRequests: 1,
    });
    await expect(model.invoke('hi')).rejects.toMatchObject({
      code: 'unsupported_model_capability',
    });
    expect(emulator.counters.requests.models).toBe(1);
  });
});
