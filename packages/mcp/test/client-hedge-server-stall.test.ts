/**
 * A hedge ask_model's calls could never send is the server's setup, wherever its parts come from:
 * the client's hedge (`clientOptions.hedge`) against the server's stall timeout is refused when the
 * server is made, as the mirror case is; and the one core finds only at a call (a `client` given
 * keeps its deadline to itself) is told as the server's `configuration_error`, not as an argument
 * the model should fix. Through the MCP SDK's Client against the emulator.
 */
import { createGatewayClient } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

const OFFLINE = { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-offline-0000' };

describe("a hedge ask_model's calls could never send", () => {
  it("from clientOptions, against the server's stall timeout: refused at creation", () => {
    expect(() =>
      createGatewayMcpServer({
        catalogRefreshMs: 0,
        firstChunkTimeoutMs: 100,
        clientOptions: { ...OFFLINE, hedge: { afterMs: 200 } },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        field: 'clientOptions.hedge.afterMs',
        message:
          "clientOptions.hedge.afterMs (server option) (200, clientOptions) is not less than firstChunkTimeoutMs (100, the server's): the stall moves the call on before the hedge is due",
      }),
    );
  });

  it("from clientOptions, under the server's longer stall timeout: accepted", () => {
    const server = createGatewayMcpServer({
      catalogRefreshMs: 0,
      firstChunkTimeoutMs: 1000,
      clientOptions: { ...OFFLINE, hedge: { afterMs: 200 } },
    });
    return server.close();
  });

  it("found at a call (a client given): the server's configuration_error", async () => {
    const gateway = await emulate();
    const client = createGatewayClient({ ...gateway.connection, timeoutMs: 1000 });
    const server = createGatewayMcpServer({
      catalogRefreshMs: 0,
      hedge: { afterMs: 5000 },
      client,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const sdk = new Client({ name: 'test-client', version: '1.0.0' });
    await sdk.connect(clientSide);
    const result = (await sdk.callTool({
      name: 'ask_model',
      arguments: { model: 'community/general', prompt: 'hi' },
    })) as CallToolResult;
    await sdk.close();
    await server.close();
    await gateway.close();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: {
        code: 'configuration_error',
        field: 'hedge.afterMs',
        message:
          "hedge.afterMs (server option) (5000, the server's) is not less than timeoutMs (1000, the client's): the hedge would never be sent",
        what_to_do:
          "This MCP server's own setup is wrong (its option hedge.afterMs, not an argument of the tool): tell the person who runs it; retrying will not help.",
      },
    });
    expect(gateway.emulator.counters.requests.chat).toBe(0);
  });
});
