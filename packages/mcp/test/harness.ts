import { mkdtemp, rm } from 'node:fs/promises';
import { type Agent, type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayClientOptions } from '@infergate/core';
import type { ScenarioInput } from '@infergate/emulator';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import {
  createGatewayMcpServer,
  type GatewayMcpServer,
  type GatewayMcpServerOptions,
  type RunningHttpServer,
  startHttpServer,
} from '../src/index';
import { ensureBuilt, stdioClientTransport } from './spawn-cli';

/** Every JSON-RPC message that crossed a transport, as sent (to check what never appears). */
export const wire: string[] = [];

export interface Harness {
  gateway: EmulatedGateway;
  mcp: GatewayMcpServer;
  /** A directory that is the server's only allowed root. */
  root: string;
  /** Outside the root (for traversal tests). */
  outside: string;
  connect(): Promise<Client>;
  close(): Promise<void>;
}

/**
 * The file's harness (`startHarness()`), started before its tests and closed after them, the
 * mocks restored after each test: `const harness = harnessOfFile();`, then `harness().mcp`.
 */
export function harnessOfFile(options: Parameters<typeof startHarness>[0] = {}): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterAll(() => harness?.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return () => harness!;
}

/**
 * The file's harness (`harnessOfFile()`) and one SDK client connected to it in memory before the
 * file's tests: `const { harness, client } = connectedHarnessOfFile();`, then `client().callTool(…)`.
 */
export function connectedHarnessOfFile(options: Parameters<typeof startHarness>[0] = {}): {
  harness: () => Harness;
  client: () => Client;
} {
  const harness = harnessOfFile(options);
  let client: Client | undefined;
  beforeAll(async () => {
    client = await harness().connect();
  });
  return { harness, client: () => client! };
}

/**
 * `ask_model` called through one SDK client, connected before the file's tests to the file's own
 * harness (`startHarness({ server })`, closed after them): `const ask = askModelOfFile({ … })`.
 */
export function askModelOfFile(server: Partial<GatewayMcpServerOptions>) {
  let harness: Harness | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    harness = await startHarness({ server });
    client = await harness.connect();
  });
  afterAll(() => harness?.close());
  return async (args: Record<string, unknown>) =>
    (await client!.callTool({ name: 'ask_model', arguments: args })) as CallToolResult;
}

/** How an SDK client reaches the gateway MCP server. */
export type McpTransport = 'in-memory' | 'http' | 'stdio';

/**
 * The file's harness (`startHarness(options)`), also served over Streamable HTTP, started before
 * its tests (the bin built for stdio) and closed after them with every client in `clients`:
 * `connectOver(transport)` connects an SDK client in memory, over HTTP, or to the built bin spawned
 * as a desktop client does (on the harness's root, with the gateway and the client's key).
 */
export function transportsOfFile(options: Parameters<typeof startHarness>[0] = {}) {
  let harness: Harness | undefined;
  let http: RunningHttpServer | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    ensureBuilt();
    harness = await startHarness(options);
    http = await startHttpServer(harness.mcp, { port: 0 });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await http?.close();
    await harness?.close();
  });
  const connectOver = async (transport: McpTransport, name = 'test-client'): Promise<Client> => {
    if (transport === 'in-memory') return harness!.connect();
    const client = new Client({ name, version: '1.0.0' });
    const { baseURL, apiKey } = harness!.gateway;
    const key = options.server?.clientOptions?.apiKey ?? apiKey;
    await client.connect(
      transport === 'http'
        ? new StreamableHTTPClientTransport(new URL(http!.url))
        : stdioClientTransport(harness!.root, { baseURL, apiKey: key }),
    );
    clients.push(client);
    return client;
  };
  return { harness: () => harness!, clients, connectOver };
}

/** The emulator's HTTP server, a gateway MCP server on it, and SDK clients over in-memory pairs. */
export async function startHarness(
  options: { scenario?: ScenarioInput; server?: Partial<GatewayMcpServerOptions> } = {},
): Promise<Harness> {
  const gateway = await emulate({ as: 'http', scenario: options.scenario });
  const base = await mkdtemp(join(tmpdir(), 'infergate-mcp-'));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(root);
  await mkdir(outside);
  const mcp = createGatewayMcpServer({
    roots: [root],
    catalogRefreshMs: 0,
    ...options.server,
    // No retries: a test sees the gateway's first answer.
    clientOptions: {
      baseURL: gateway.baseURL,
      apiKey: gateway.apiKey,
      maxRetries: 0,
      ...options.server?.clientOptions,
    },
  });
  const clients: Client[] = [];
  return {
    gateway,
    mcp,
    root,
    outside,
    async connect() {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      for (const transport of [clientSide, serverSide]) {
        const send = transport.send.bind(transport);
        transport.send = (message, sendOptions) => {
          wire.push(JSON.stringify(message));
          return send(message, sendOptions);
        };
      }
      await mcp.connect(serverSide);
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(clientSide);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await mcp.close();
      await gateway.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  return first?.type === 'text' ? first.text : '';
}

/**
 * An `ask_model` result that is community/general's echo of 'hi', asked with no list, and carries
 * its route: through `hops`, answered by community/general.
 */
export function expectEchoRouted(
  result: CallToolResult,
  ...hops: { model: string; outcome: string }[]
): void {
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    text: 'Echo: hi',
    model: 'community/general',
    route: { requested: ['community/general'], hops, answeredBy: 'community/general' },
  });
}

/** A raw MCP `initialize` request body, for tests that speak HTTP without the SDK's client. */
export const RAW_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

/** What a POST to the MCP endpoint sends: a JSON body, its answer taken as JSON or an SSE stream. */
export const MCP_POST_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** An answer `rawRequest` read to its end. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A request by node:http, which lets a test send what fetch does not (`Host`, `OPTIONS` with an
 * `Origin`, a body in chunks without a Content-Length) through the agent it picks:
 * `MCP_POST_HEADERS` with `headers` over them, each chunk of `body` written in turn, the answer
 * read to its end.
 */
export function rawRequest(
  url: string,
  {
    method = 'POST',
    headers = {},
    body = [],
    agent,
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: readonly (string | Buffer)[];
    agent?: Agent;
  } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { ...MCP_POST_HEADERS, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.once('error', reject);
    for (const chunk of body) req.write(chunk);
    req.end();
  });
}

/**
 * A session opened with raw HTTP (no GET stream, unlike the SDK's client), its `initialize`
 * answered: the headers of a POST on it.
 */
export async function rawSession(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: 'POST',
    headers: MCP_POST_HEADERS,
    body: RAW_INITIALIZE,
  });
  expect(init.status).toBe(200);
  await init.body?.cancel();
  return { ...MCP_POST_HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id')! };
}

/** A raw JSON-RPC `message` POSTed with `headers` (a raw session's). */
export const postJsonRpc = (
  url: string,
  headers: Record<string, string>,
  message: Record<string, unknown>,
  signal?: AbortSignal,
) =>
  fetch(url, {
    method: 'POST',
    headers,
    signal,
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });

/** The status of a raw POST of `initialize` with the given headers (node:http lets the test set `Host`). */
export async function rawInitialize(url: string, headers: Record<string, string>): Promise<number> {
  return (await rawRequest(url, { headers, body: [RAW_INITIALIZE] })).status;
}

/**
 * A Streamable HTTP server closing the sessions idle for `idleMs`, whose idle sweep the test runs
 * itself (`sweep()`, the function the server gave `setInterval`).
 */
export async function serverWithManualSweep(
  mcp: GatewayMcpServer,
  idleMs: number,
): Promise<{ server: RunningHttpServer; sweep: () => void }> {
  const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
  const server = await startHttpServer(mcp, { port: 0, sessionIdleMs: idleMs });
  const call = setIntervalSpy.mock.calls.find(([, delay]) => delay === idleMs);
  setIntervalSpy.mockRestore();
  expect(call, 'the idle sweep is armed').toBeDefined();
  return { server, sweep: call![0] as () => void };
}

/** `ask_model` with `args` and progress asked for: its result and each progress message, in order. */
export async function askWithProgress(
  client: Client,
  args: Record<string, unknown>,
): Promise<{ result: CallToolResult; steps: string[] }> {
  const steps: string[] = [];
  const result = (await client.callTool({ name: 'ask_model', arguments: args }, undefined, {
    onprogress: (progress) => steps.push(progress.message ?? ''),
  })) as CallToolResult;
  return { result, steps };
}

/**
 * A Streamable HTTP server on the file's harness for each test, the gateway holding every chat
 * request until `release()` (idempotent) or the test's end, which waits for the gateway to idle.
 */
export function heldChatServerOfFile(harness: () => Harness): {
  server: RunningHttpServer;
  release: () => void;
} {
  const held = {} as { server: RunningHttpServer; release: () => void };
  beforeEach(async () => {
    held.server = await startHttpServer(harness().mcp, { port: 0 });
    harness().gateway.reset();
    held.release = harness().gateway.hold('chat');
  });
  afterEach(async () => {
    held.release();
    await held.server.close();
    await harness().gateway.untilIdle();
  });
  return held;
}

/** Until `sent` chat requests came (past the catalog reads before them), `inflight` of them held. */
export const untilChatsHeld = (harness: () => Harness, sent: number, inflight = sent) =>
  harness().gateway.until(
    (counters) =>
      counters.requests.chat === sent && counters.inflight[harness().gateway.apiKey] === inflight,
  );

/**
 * The emulator in-process (its fetch, no socket, so a moved clock is all that passes), a gateway
 * MCP server on it (no catalog refresh, `server` over that; its client on the emulator's connection,
 * `clientOptions` over it) and one SDK client over an in-memory pair. `close()` closes all three.
 */
export async function inMemoryServer(
  server: Partial<Omit<GatewayMcpServerOptions, 'clientOptions'>> = {},
  clientOptions: GatewayClientOptions = {},
): Promise<{
  gateway: EmulatedGateway;
  mcp: GatewayMcpServer;
  client: Client;
  close(): Promise<void>;
}> {
  const gateway = await emulate();
  const mcp = createGatewayMcpServer({
    catalogRefreshMs: 0,
    ...server,
    clientOptions: { ...gateway.connection, ...clientOptions },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    gateway,
    mcp,
    client,
    async close() {
      await client.close();
      await mcp.close();
      await gateway.close();
    },
  };
}

/**
 * For the file's tests that drive the clock: `inMemoryServer` (no retries unless `maxRetries`
 * says), started before the tests and closed after them.
 * `warm` makes the first calls (through `client()`) on real timers: what loads on first use
 * (core's steering) waits on timers under vitest, so it loads before a test fakes them. Each test
 * starts with no faults and zeroed counters, and ends on real timers.
 */
export function inMemoryServerOfFile(options: {
  server?: Partial<Omit<GatewayMcpServerOptions, 'clientOptions'>>;
  maxRetries?: number;
  warm: () => Promise<unknown>;
}): { gateway: () => EmulatedGateway; mcp: () => GatewayMcpServer; client: () => Client } {
  let opened: Awaited<ReturnType<typeof inMemoryServer>> | undefined;
  beforeAll(async () => {
    opened = await inMemoryServer(options.server, { maxRetries: options.maxRetries ?? 0 });
    await options.warm();
  });
  afterAll(() => opened?.close());
  beforeEach(() => {
    opened!.gateway.emulator.clearFaults();
    opened!.gateway.emulator.resetCounters();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return { gateway: () => opened!.gateway, mcp: () => opened!.mcp, client: () => opened!.client };
}
