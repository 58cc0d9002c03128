/**
 * Streamable HTTP: the SDK's own client against `startHttpServer`; loopback binding, Host and
 * Origin checks (DNS-rebinding protection) and the optional bearer token.
 */
import { pngWithText } from '@infergate/emulator/fixtures';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BEARER_TOKEN_REQUIRED } from '../src/http-access';
import { type GatewayMcpServer, type RunningHttpServer, startHttpServer } from '../src/index';
import {
  type Harness,
  MCP_POST_HEADERS,
  postJsonRpc,
  RAW_INITIALIZE,
  rawInitialize,
  rawSession,
  startHarness,
  textOf,
} from './harness';

const TOKEN = 'mcp-test-token-0123456789';
let harness: Harness;
let open: RunningHttpServer;
let guarded: RunningHttpServer;
const clients: Client[] = [];

beforeAll(async () => {
  harness = await startHarness({ scenario: { latencyMs: 20 } });
  open = await startHttpServer(harness.mcp, {
    port: 0,
    allowedOrigins: ['http://localhost:5173'],
  });
  guarded = await startHttpServer(harness.mcp, { port: 0, token: TOKEN });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await open.close();
  await guarded.close();
  await harness.close();
});

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

describe('Streamable HTTP', () => {
  it('binds to 127.0.0.1 by default and serves the tools, without file paths', async () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(open.url);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    const ocr = tools.find((tool) => tool.name === 'ocr')!;
    expect(Object.keys(ocr.inputSchema.properties ?? {})).toEqual(['image_url', 'image_base64']);
    const result = await client.callTool({
      name: 'ocr',
      arguments: { image_base64: Buffer.from(pngWithText('over http')).toString('base64') },
    });
    expect(textOf(result)).toBe('over http');
    const models = await client.readResource({ uri: 'infergate://models' });
    expect(models.contents[0]!.mimeType).toBe('application/json');
  });

  it('shares the key budget across HTTP sessions: 20 calls, never more than 4 in flight', async () => {
    const sessions = [await connect(open.url), await connect(open.url)];
    harness.gateway.emulator.resetCounters();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sessions[i % 2]!.callTool({
          name: 'translate',
          arguments: { text: `n${i}`, target_language: 'de' },
        }),
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 20 }, (_, i) => `[de] n${i}`));
    const counters = harness.gateway.emulator.counters;
    expect(counters.maxInflight[harness.gateway.apiKey]).toBeLessThanOrEqual(4);
    expect(counters.concurrencyRejections).toBe(0);
  });

  it('sends progress on the request’s stream', async () => {
    const client = await connect(open.url);
    const messages: string[] = [];
    const result = await client.callTool(
      { name: 'translate', arguments: { text: 'progress', target_language: 'de' } },
      undefined,
      { onprogress: (progress) => messages.push(progress.message ?? '') },
    );
    expect(textOf(result)).toBe('[de] progress');
    expect(messages).toContain('translation: sent to the gateway');
    expect(messages.at(-1)).toBe('translation: answered');
  });

  it('cancels over HTTP: the gateway call is aborted and its slot freed', async () => {
    const client = await connect(open.url);
    harness.gateway.emulator.resetCounters();
    harness.gateway.emulator.injectFault({
      fault: 'slow_headers',
      endpoint: 'translations',
      ms: 120_000,
      times: 1,
    });
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'translate', arguments: { text: 'slow', target_language: 'de' } },
      undefined,
      { signal: controller.signal },
    );
    const key = harness.gateway.apiKey;
    await harness.gateway.until((c) => c.requests.translations === 1 && c.inflight[key] === 1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await harness.mcp.client.budget.whenIdle();
    expect(harness.mcp.client.budget.active).toBe(0);
    await harness.gateway.untilIdle({ key });
  });

  it('refuses a foreign Origin and a DNS-rebound Host before any MCP handling', async () => {
    const before = open.sessions;
    expect(await rawInitialize(open.url, { origin: 'http://evil.example' })).toBe(403);
    expect(await rawInitialize(open.url, { host: 'evil.example' })).toBe(403);
    expect(await rawInitialize(open.url, { host: `evil.example:${new URL(open.url).port}` })).toBe(
      403,
    );
    // Refused before the MCP handling: no session was opened for them.
    expect(open.sessions).toBe(before);
    expect(await rawInitialize(open.url, { origin: 'http://localhost:5173' })).toBe(200);
    expect(await rawInitialize(open.url, {})).toBe(200);
    expect(await rawInitialize(open.url, { host: `localhost:${new URL(open.url).port}` })).toBe(
      200,
    );
  });

  it('compares Host names and origins without regard to case', async () => {
    // Written as a person may write them; clients send them in lower case, or as typed (curl).
    const cased = await startHttpServer(harness.mcp, {
      port: 0,
      allowedHosts: ['LocalHost', 'MCP.Example.com', '::1'],
      allowedOrigins: ['HTTP://LocalHost:5173'],
    });
    try {
      const { port } = new URL(cased.url);
      // The SDK's client sends `Host: localhost:<port>` and the browser-style origin.
      const client = await connect(`http://localhost:${port}/mcp`, {
        origin: 'http://localhost:5173',
      });
      const result = await client.callTool({
        name: 'translate',
        arguments: { text: 'any case', target_language: 'de' },
      });
      expect(textOf(result)).toBe('[de] any case');
      for (const host of [`LOCALHOST:${port}`, 'mcp.example.com', `Mcp.EXAMPLE.com:${port}`]) {
        expect(await rawInitialize(cased.url, { host }), host).toBe(200);
      }
      expect(await rawInitialize(cased.url, { host: `[::1]:${port}` })).toBe(200);
      expect(await rawInitialize(cased.url, { host: 'evil.example' })).toBe(403);
      // Not listed, and not the bound address (127.0.0.1, always allowed).
      expect(await rawInitialize(cased.url, { host: `127.0.0.3:${port}` })).toBe(403);
      expect(
        await rawInitialize(cased.url, {
          host: 'mcp.example.com',
          origin: 'HTTP://LOCALHOST:5173',
        }),
      ).toBe(200);
      expect(
        await rawInitialize(cased.url, {
          host: 'mcp.example.com',
          origin: 'http://localhost:5174',
        }),
      ).toBe(403);
    } finally {
      await cased.close();
    }
  });

  it("accepts the server's own loopback origin, on its port only", async () => {
    const { port } = new URL(open.url);
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const own = `${name}:${port}`;
      expect(await rawInitialize(open.url, { host: own, origin: `http://${own}` })).toBe(200);
      // Another port on the same machine is another origin (another local app's page).
      expect(await rawInitialize(open.url, { host: own, origin: `http://${name}:1` })).toBe(403);
    }
    expect(
      await rawInitialize(open.url, {
        host: `evil.example:${port}`,
        origin: `http://evil.example:${port}`,
      }),
    ).toBe(403);
    expect(
      await rawInitialize(open.url, { host: `localhost:${port}`, origin: 'https://evil.example' }),
    ).toBe(403);
  });

  it('requires the bearer token when one is set', async () => {
    expect(await rawInitialize(guarded.url, {})).toBe(403);
    expect(
      await rawInitialize(guarded.url, { authorization: 'Bearer wrong-token-0000000000' }),
    ).toBe(403);
    expect(await rawInitialize(guarded.url, { authorization: `Bearer ${TOKEN}` })).toBe(200);
    await expect(connect(guarded.url)).rejects.toThrow();
    const client = await connect(guarded.url, { authorization: `Bearer ${TOKEN}` });
    expect((await client.listTools()).tools).toHaveLength(7);
  });

  it('refuses a missing token with a 403 that says to send it, which an OAuth-capable client does not take for OAuth', async () => {
    const refused = await fetch(guarded.url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: RAW_INITIALIZE,
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBeNull();
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      BEARER_TOKEN_REQUIRED,
    );
    // The MCP SDK's client with an OAuth provider (as the Inspector and other OAuth-capable
    // clients connect): a 401 would start its authorization flow; the 403 ends in an error that
    // carries the message, and no OAuth step runs.
    const oauthSteps: string[] = [];
    const authProvider: OAuthClientProvider = {
      redirectUrl: 'http://localhost:6274/oauth/callback',
      clientMetadata: { redirect_uris: ['http://localhost:6274/oauth/callback'] },
      clientInformation: () => {
        oauthSteps.push('clientInformation');
        return undefined;
      },
      tokens: () => undefined,
      saveTokens: () => {
        oauthSteps.push('saveTokens');
      },
      redirectToAuthorization: () => {
        oauthSteps.push('redirectToAuthorization');
      },
      saveCodeVerifier: () => {
        oauthSteps.push('saveCodeVerifier');
      },
      codeVerifier: () => '',
    };
    const client = new Client({ name: 'oauth-capable', version: '1.0.0' });
    const failure = await client
      .connect(new StreamableHTTPClientTransport(new URL(guarded.url), { authProvider }))
      .catch((error: unknown) => error);
    expect(String(failure)).toContain('Authorization: Bearer <token>');
    expect(oauthSteps).toEqual([]);
  });

  it('closes sessions that stay idle', async () => {
    // The idle time is the subject: fake timers run the sweep (setInterval) and move the monotonic
    // clock it reads (performance.now); the sockets stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const idle = await startHttpServer(harness.mcp, { port: 0, sessionIdleMs: 500 });
    try {
      // One request opens the session.
      const session = await rawSession(idle.url);
      expect(session['mcp-session-id']).toBeTruthy();
      expect(idle.sessions).toBe(1);
      vi.advanceTimersByTime(500);
      await vi.waitFor(() => expect(idle.sessions).toBe(0), { timeout: 30_000 });
      const gone = await postJsonRpc(idle.url, session, { id: 9, method: 'tools/list' });
      expect(gone.status).toBe(404);
    } finally {
      vi.useRealTimers();
      await idle.close();
    }
  });

  it('closes the session of an initialize the SDK refused before giving it an id', async () => {
    // Each MCP session this HTTP server makes, to see whether it is still connected.
    const made: McpServer[] = [];
    const counted: GatewayMcpServer = Object.create(harness.mcp, {
      connect: {
        value: async (...args: Parameters<GatewayMcpServer['connect']>) => {
          const server = await harness.mcp.connect(...args);
          made.push(server);
          return server;
        },
      },
    });
    const small = await startHttpServer(counted, { port: 0, maxSessions: 1 });
    try {
      const post = (headers: Record<string, string>) =>
        fetch(small.url, { method: 'POST', headers, body: RAW_INITIALIZE });
      const refused = [
        await post({ 'content-type': 'application/json', accept: 'application/json' }),
        await post({ 'content-type': 'application/json', accept: 'text/event-stream' }),
        await post({ 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }),
      ];
      for (const response of refused) await response.body?.cancel();
      expect(refused.map((response) => response.status)).toEqual([406, 406, 415]);
      expect(made).toHaveLength(3);
      expect(made.filter((server) => server.isConnected())).toHaveLength(0);
      expect(small.sessions).toBe(0);

      const client = await connect(small.url);
      expect((await client.listTools()).tools).toHaveLength(7);
      expect(small.sessions).toBe(1);
      expect(made.filter((server) => server.isConnected())).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('answers only on its path, and refuses requests without a session', async () => {
    const base = new URL(open.url);
    const other = await fetch(new URL('/other', base), { method: 'POST', body: RAW_INITIALIZE });
    expect(other.status).toBe(404);
    const noSession = await fetch(open.url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    const unknown = await fetch(open.url, { headers: { 'mcp-session-id': 'nope' } });
    expect(unknown.status).toBe(404);
  });
});
