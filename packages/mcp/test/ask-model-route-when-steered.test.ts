/**
 * `ask_model` carries its route exactly when core steered the call: core's answer
 * (`steersCall`, the rule its chat calls go by), not one of this server's. `fallback_models: []`
 * is no list (core does not steer: no route), and a stall timeout set on the client the server
 * makes (`clientOptions`) steers every call (a route, with no tool argument and no server
 * option). Through the MCP SDK's own Client against the emulator, in-process.
 */

import type { GatewayClientOptions } from '@infergate/core';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

const opened: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

/** `ask_model` with `args`, on a server whose client is made with `clientOptions`. */
async function ask(clientOptions: GatewayClientOptions, args: Record<string, unknown>) {
  const gateway: EmulatedGateway = await emulate();
  const mcp = createGatewayMcpServer({
    catalogRefreshMs: 0,
    clientOptions: { ...gateway.connection, ...clientOptions },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  opened.push(async () => {
    await client.close();
    await mcp.close();
    await gateway.close();
  });
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
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      text: 'Echo: hi',
      model: 'community/general',
      route: {
        requested: ['community/general'],
        hops: [{ model: 'community/general', outcome: 'answered' }],
        answeredBy: 'community/general',
      },
    });
  });
});
