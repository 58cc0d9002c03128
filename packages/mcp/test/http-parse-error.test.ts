/**
 * A POST whose body is not JSON is answered with JSON-RPC's Parse error code, -32700 (as the MCP
 * SDK's own transport answers), with or without a session. Raw HTTP against the server's
 * Streamable HTTP endpoint, the SDK's client opening the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../src/index';
import { harnessOfFile, MCP_POST_HEADERS } from './harness';

const harness = harnessOfFile();

async function withServer(run: (server: RunningHttpServer) => Promise<void>): Promise<void> {
  const server = await startHttpServer(harness().mcp, { port: 0 });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

/** A POST of `body` with `headers`: its status and JSON-RPC error. */
async function post(url: string, headers: Record<string, string>, body: string) {
  const answer = await fetch(url, { method: 'POST', headers, body });
  return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
}

describe('a POST whose body is not JSON', () => {
  it('is a Parse error (-32700) without a session', () =>
    withServer(async (server) => {
      expect(await post(server.url, MCP_POST_HEADERS, '{nope')).toEqual({
        status: 400,
        json: {
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: the body is not JSON' },
          id: null,
        },
      });
    }));

  it('is a Parse error (-32700) in an open session', () =>
    withServer(async (server) => {
      const transport = new StreamableHTTPClientTransport(new URL(server.url));
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(transport);
      try {
        const answer = await post(
          server.url,
          { ...MCP_POST_HEADERS, 'mcp-session-id': transport.sessionId! },
          '{nope',
        );
        expect(answer).toMatchObject({ status: 400, json: { error: { code: -32700 } } });
        // The session is still open: the refused body broke nothing.
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    }));
});
