/**
 * The HTTP transport's session cap holds while the gateway is slow: a session counts from the
 * moment its `initialize` is accepted, not once the first catalog read let it be handled.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayMcpServer, type GatewayMcpServer, startHttpServer } from '../src/index';
import { type Harness, RAW_INITIALIZE, startHarness } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

interface Answer {
  status: number;
  /** The session an accepted initialize opened. */
  session?: string;
  /** A refusal's JSON-RPC error message. */
  message?: string;
}

/** A raw request to the endpoint (`initialize` unless told otherwise). */
function send(
  url: string,
  { method = 'POST', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status === 200) {
          // The answer's stream may stay open: the status and session are all this test needs.
          res.destroy();
          return resolve({ status, session: res.headers['mcp-session-id'] as string | undefined });
        }
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status, message: body ? JSON.parse(body).error?.message : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? RAW_INITIALIZE : undefined);
  });
}

describe('the HTTP session cap under a slow catalog', () => {
  it('130 concurrent initializes open at most maxSessions; the rest get 503', async () => {
    // GET /capabilities is held until the test releases it: the server's first catalog read,
    // which `connect` waits for, is as slow as the test needs.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowCatalog: typeof fetch = async (input, init) => {
      if (
        new URL(input instanceof Request ? input.url : String(input)).pathname.endsWith(
          '/capabilities',
        )
      ) {
        await held;
      }
      return fetch(input, init);
    };
    const mcp: GatewayMcpServer = createGatewayMcpServer({
      catalogRefreshMs: 0,
      clientOptions: {
        baseURL: harness.gateway.baseURL,
        apiKey: harness.gateway.apiKey,
        fetch: slowCatalog,
      },
    });
    const http = await startHttpServer(mcp, { port: 0 });
    try {
      let refused = 0;
      const answers = await Promise.all(
        Array.from({ length: 130 }, () =>
          send(http.url).then((answer) => {
            // Once every initialize beyond the cap has been refused, the catalog answers.
            if (answer.status === 503 && ++refused === 30) release();
            return answer;
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(100);
      expect(answers.filter((answer) => answer.status === 503)).toEqual(
        Array.from({ length: 30 }, () => ({
          status: 503,
          message:
            'Too many open sessions: 100 open of at most 100 (maxSessions); retry after 60 s, or end an unused session (DELETE with its mcp-session-id)',
        })),
      );
      expect(http.sessions).toBe(100);
      // The cap is on open sessions: one closed makes space for one, and for one only.
      const session = answers.find((answer) => answer.session !== undefined)!.session!;
      expect(
        (await send(http.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status,
      ).toBe(200);
      expect(http.sessions).toBe(99);
      expect((await send(http.url)).status).toBe(200);
      expect((await send(http.url)).status).toBe(503);
    } finally {
      release();
      await http.close();
      await mcp.close();
    }
  });

  it('gives the slot back when an initialize is refused before it opens a session', async () => {
    const mcp = createGatewayMcpServer({
      catalogRefreshMs: 0,
      clientOptions: { baseURL: harness.gateway.baseURL, apiKey: harness.gateway.apiKey },
    });
    const http = await startHttpServer(mcp, { port: 0, maxSessions: 1 });
    try {
      // The MCP SDK refuses an initialize that does not accept both JSON and an event stream.
      expect((await send(http.url, { headers: { accept: 'application/json' } })).status).toBe(406);
      expect(http.sessions).toBe(0);
      expect((await send(http.url)).status).toBe(200);
      expect((await send(http.url)).status).toBe(503);
    } finally {
      await http.close();
      await mcp.close();
    }
  });
});
