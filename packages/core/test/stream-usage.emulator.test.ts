import type { ScenarioInput } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions } from '../src/client/options';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

/** A client whose fetch records each chat request's JSON body before the emulator answers. */
async function recording(options: GatewayClientOptions = {}, scenario: ScenarioInput = {}) {
  const bodies: Record<string, unknown>[] = [];
  const gateway = await emulate({ scenario });
  const client = clientOn(gateway, {
    ...options,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/chat/completions')) bodies.push(await request.clone().json());
      return gateway.emulator.fetch(request);
    },
  });
  return { client, bodies };
}

describe('usage in a stream (docs/gateway-protocol.md §5.6)', () => {
  it('asks for usage by default, so a server that sends it only when asked does', async () => {
    const { client, bodies } = await recording();
    const stream = await client.chatStream(hi());
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('usage');
    expect((await stream.result()).usage).toEqual({
      prompt_tokens: 2,
      completion_tokens: 3,
      total_tokens: 5,
    });
    expect(bodies[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  // The emulator's default (`gateway`) dialect is the spec's order: the finish chunk, usage in
  // it, is the last before [DONE]; `openai` sends a usage-only chunk after it. Both are read.
  it.each(['gateway', 'openai'] as const)('reads the usage in the %s order', async (dialect) => {
    const { client } = await recording({}, { models: { 'community/general': { dialect } } });
    const stream = await client.chatStream(hi());
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('usage');
    const result = await stream.result();
    expect(result.finishReason).toBe('stop');
    expect(result.usage?.total_tokens).toBe(5);
  });

  it('never asks in a call that does not stream', async () => {
    const { client, bodies } = await recording();
    await client.chat(hi());
    expect(bodies[0]).not.toHaveProperty('stream_options');
    expect(bodies[0]).not.toHaveProperty('stream');
  });

  it('streamUsage: false on the client sends no stream_options, and the stream has no usage', async () => {
    const { client, bodies } = await recording({ streamUsage: false });
    const stream = await client.chatStream(hi());
    const result = await stream.result();
    expect(result.text).toBe('Echo: hello there');
    expect(result.usage).toBeUndefined();
    expect(bodies[0]).not.toHaveProperty('stream_options');
  });

  it("a call's streamUsage overrides the client's, either way", async () => {
    const optedOut = await recording({ streamUsage: false });
    const asked = await optedOut.client.chatStream(hi(), { streamUsage: true });
    expect((await asked.result()).usage?.total_tokens).toBe(5);
    expect(optedOut.bodies[0]).toMatchObject({ stream_options: { include_usage: true } });

    const byDefault = await recording();
    const unasked = await byDefault.client.chatStream(hi(), { streamUsage: false });
    expect((await unasked.result()).usage).toBeUndefined();
    expect(byDefault.bodies[0]).not.toHaveProperty('stream_options');
  });

  it("the request's own stream_options is sent as given", async () => {
    const { client, bodies } = await recording();
    const stream = await client.chatStream({
      ...hi(),
      stream_options: { include_usage: false },
    });
    expect((await stream.result()).usage).toBeUndefined();
    expect(bodies[0]?.stream_options).toEqual({ include_usage: false });
  });

  it('refuses a streamUsage that is not a boolean, before sending', async () => {
    const { client, bodies } = await recording();
    const error = await caught(
      () => client.chatStream(hi(), { streamUsage: 'no' as unknown as boolean }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.message).toBe('streamUsage (call option) must be a boolean, got string');
    expect(bodies).toHaveLength(0);
    await expect(recording({ streamUsage: 0 as unknown as boolean })).rejects.toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        message: 'streamUsage (client option) must be a boolean, got 0',
      }),
    );
  });
});
