/**
 * An `initialize` beyond `maxSessions` is refused with 503, a `Retry-After` and a JSON-RPC error
 * naming the limit and how many are open: through the MCP SDK's own client, and plain fetch.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { harnessOfFile, MCP_POST_HEADERS, RAW_INITIALIZE } from '../test/harness';
import { startHttpServer } from './http-server';
import { SESSION_RETRY_AFTER_S } from './http-sessions';

const harness = harnessOfFile();

const TOO_MANY =
  'Too many open sessions: 1 open of at most 1 (maxSessions); retry after 60 s, or end an unused session (DELETE with its mcp-session-id)';

describe('the HTTP server at its session limit', () => {
  it('answers 503 with Retry-After and a JSON-RPC error naming the limit and the count', async () => {
    const server = await startHttpServer(harness().mcp, { port: 0, maxSessions: 1 });
    const first = new Client({ name: 'first', version: '1.0.0' });
    const second = new Client({ name: 'second', version: '1.0.0' });
    try {
      await first.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      expect(server.sessions).toBe(1);

      const refused = await fetch(server.url, {
        method: 'POST',
        headers: MCP_POST_HEADERS,
        body: RAW_INITIALIZE,
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe(String(SESSION_RETRY_AFTER_S));
      expect(SESSION_RETRY_AFTER_S).toBe(60);
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: TOO_MANY },
        id: null,
      });

      // The SDK's client surfaces the status and the message as it reads them.
      const error = await second
        .connect(new StreamableHTTPClientTransport(new URL(server.url)))
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(503);
      expect((error as Error).message).toContain(TOO_MANY);
      expect(server.sessions).toBe(1);
    } finally {
      await second.close();
      await first.close();
      await server.close();
    }
  });
});
