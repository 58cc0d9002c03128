/** A gateway that does not answer holds up no client: the handshake completes, every tool is offered. */
import { createServer, type Server, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayMcpServer } from '../src/index';

let silent: Server;
const sockets: Socket[] = [];
let url: string;
beforeAll(async () => {
  // Accepts connections and never answers.
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`;
});
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  silent.close();
});

describe('an unresponsive gateway', () => {
  it('does not hold up the MCP handshake beyond a few seconds', async () => {
    const mcp = createGatewayMcpServer({
      clientOptions: { baseURL: url, apiKey: 'ig-test-key-0000', maxRetries: 0 },
      catalogRefreshMs: 0,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.listTools()).tools).toHaveLength(7);
    await client.close();
    await mcp.close();
    // Without the bound, connect waits for the catalog read's own 30 s deadline.
  }, 20_000);
});
