/**
 * The MCP SDK's own refusals echo what a caller sent — `Tool <name> not found` as a failed tool
 * result, `Resource <uri> not found` as a JSON-RPC error — and never pass through this server's
 * message writers: a gateway key pasted as a tool name or into a resource URI still leaves
 * redacted, as every message a session sends is (its transport's `send`), over every transport
 * the server is served by. The ids a client matches its answers by come back as it sent them.
 * Through the MCP SDK's Client (in memory, Streamable HTTP, and the stdio bin) and raw stdio lines,
 * against the emulator.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveStdio } from '../src/index';
import { RAW_INITIALIZE, textOf, transportsOfFile, wire } from './harness';

const key = 'sk_live_Abc123Def456Ghi789';

const { harness, clients, connectOver } = transportsOfFile({
  scenario: { keys: { [key]: {} } },
  server: { clientOptions: { apiKey: key } },
});

describe.each(['in-memory', 'http', 'stdio'] as const)('over %s', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectOver(transport);
  }, 60_000);

  it('a tool named by the key: the SDK’s "not found" names it redacted', async () => {
    const result = (await client.callTool({ name: key, arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Tool [redacted] not found');
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('a resource URI holding the key: the SDK’s JSON-RPC error names it redacted', async () => {
    const error = await client.readResource({ uri: `infergate://models/${key}` }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error?.message).toContain('Resource infergate://models/[redacted] not found');
    expect(error?.message).not.toContain(key);
  });
});

describe('what crosses the wire', () => {
  it('no answer the server sent (in memory) holds the key', async () => {
    const client = await harness().connect();
    await client.callTool({ name: key, arguments: {} });
    await client.readResource({ uri: `infergate://models/${key}` }).catch(() => undefined);
    // (The harness records both sides: the client's requests hold the key it sent.)
    const answers = wire.filter((message) => /^\{"(?:result|error|jsonrpc)"/.test(message));
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((message) => message.includes(key))).toEqual([]);
  });

  it('a session made by createServer() and connected by the caller is redacted too', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = harness().mcp.createServer();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    const result = (await client.callTool({ name: key, arguments: {} })) as CallToolResult;
    expect(textOf(result)).toContain('Tool [redacted] not found');
  });

  /** Serves raw stdio lines, sends `tools/call` of a tool named by the key with `id`, and reads its answer line. */
  async function rawCall(id: string): Promise<string> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    let answered: (line: string) => void = () => {};
    const answer = new Promise<string>((resolve) => {
      answered = resolve;
    });
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = out.split('\n').find((line) => line.includes('not found'));
      if (found) answered(found);
    });
    const stdio = await serveStdio(harness().mcp, { stdin, stdout });
    stdin.write(`${RAW_INITIALIZE}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const params = { name: key, arguments: {} };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`);
    const line = await answer;
    stdin.end();
    await stdio.closed;
    return line;
  }

  it('raw stdio: the answer line holds no key', async () => {
    const line = await rawCall('req-7');
    expect(line).not.toContain(key);
    const message = JSON.parse(line) as { id: string; result: CallToolResult };
    expect(message.id).toBe('req-7');
    expect(textOf(message.result)).toContain('Tool [redacted] not found');
  });

  it('raw stdio: a request id the client chose is sent back as it came, even the key', async () => {
    // (The client matches its answer by it: a changed id would leave the call unanswered.)
    const message = JSON.parse(await rawCall(key)) as { id: string; result: CallToolResult };
    expect(message.id).toBe(key);
    expect(textOf(message.result)).toContain('Tool [redacted] not found');
  });
});
