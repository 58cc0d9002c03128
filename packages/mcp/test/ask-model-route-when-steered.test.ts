/**
 * `ask_model` carries its route exactly when core steered the call: core's answer
 * (`steersCall`, the rule its chat calls go by), not one of this server's. `fallback_models: []`
 * is no list (core does not steer: no route), and a stall timeout set on the client the server
 * makes (`clientOptions`) steers every call (a route, with no tool argument and no server
 * option). Through the MCP SDK's own Client against the emulator, in-process.
 */

import type { GatewayClientOptions } from '@infergate/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { expectEchoRouted, inMemoryServer } from './harness';

const opened: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

/** `ask_model` with `args`, on a server whose client is made with `clientOptions`. */
async function ask(clientOptions: GatewayClientOptions, args: Record<string, unknown>) {
  const { client, close } = await inMemoryServer({}, clientOptions);
  opened.push(close);
  const arguments_ = { model: 'community/general', prompt: 'hi', ...args };
  return (await client.callTool({ name: 'ask_model', arguments: arguments_ })) as CallToolResult;
}

describe('ask_model shows its route exactly when core steered the call', () => {
  it('fallback_models: [] is no list: core does not steer, the result has no route', async () => {
    const result = await ask({}, { fallback_models: [] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      text: 'Echo: hi',
      model: 'community/general',
    });
    expect(result.structuredContent).not.toHaveProperty('route');
  });

  it('a stall timeout of the client steers the call: the result has its route', async () => {
    const result = await ask({ firstChunkTimeoutMs: 5_000 }, {});
    expectEchoRouted(result, { model: 'community/general', outcome: 'answered' });
  });
});
