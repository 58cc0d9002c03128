/**
 * Over Streamable HTTP, a POST body over 40 MiB is refused with 413 and `Connection: close`, and
 * its connection ends cleanly: the client's next call (on a new connection) is answered.
 */
import { Agent } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../src/index';
import { type Harness, RAW_INITIALIZE, rawRequest, startHarness, textOf } from './harness';

const OVER_LIMIT = 41 * 1024 * 1024;
let harness: Harness;
let server: RunningHttpServer;
beforeAll(async () => {
  harness = await startHarness();
  server = await startHttpServer(harness.mcp, { port: 0 });
});
afterAll(async () => {
  await server.close();
  await harness.close();
});

/** A POST through `agent`; `chunks` are sent without a Content-Length (chunked). */
const post = (
  agent: Agent,
  headers: Record<string, string>,
  chunks: readonly (string | Buffer)[],
) => rawRequest(server.url, { agent, headers, body: chunks });

describe('the HTTP body limit', () => {
  it('refuses a call over 40 MiB by its Content-Length; the next call is answered', async () => {
    const client = new Client({ name: 'body-limit', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const huge = client.callTool({
        name: 'ocr',
        arguments: { image_base64: 'A'.repeat(OVER_LIMIT) },
      });
      await expect(huge).rejects.toThrow(/Request body over 41943040 bytes/);
      for (let i = 0; i < 3; i += 1) {
        const next = await client.callTool({
          name: 'translate',
          arguments: { text: 'x', target_language: 'de' },
        });
        expect(textOf(next)).toBe('[de] x');
      }
    } finally {
      await client.close();
    }
  });

  it('refuses a chunked body once past 40 MiB, closes the connection; the next request works', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const init = await post(agent, {}, [RAW_INITIALIZE]);
      expect(init.status).toBe(200);
      const session = init.headers['mcp-session-id'] as string;
      const chunk = Buffer.alloc(1024 * 1024, 'A');
      const parts = [
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ocr","arguments":{"image_base64":"',
        ...Array.from({ length: 41 }, () => chunk),
        '"}}}',
      ];
      const huge = await post(agent, { 'mcp-session-id': session }, parts);
      expect(huge.status).toBe(413);
      expect(huge.headers.connection).toBe('close');
      expect(huge.text).toContain('Request body over 41943040 bytes');
      const list = await post(agent, { 'mcp-session-id': session }, [
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      ]);
      expect(list.status).toBe(200);
      expect(list.text).toContain('"translate"');
    } finally {
      agent.destroy();
    }
  });
});
