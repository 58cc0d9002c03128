/**
 * `infergate-mcp` started with a wrong key (401 at the first catalog read) or a gateway nobody
 * answers at: a warning on its log naming the code, as a missing key gets one, never the key; and
 * a missing URL or key: a warning naming the one missing (its variable and flag); a deadline
 * ending the retries of an unreachable gateway: a warning naming the attempts' failure, not the
 * deadline. Run in-process
 * (`runCli`) against the emulator; the test waits for the warning line itself.
 */
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli-main';
import { type Harness, startHarness } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const WRONG_KEY = 'ig_wrong_key_0123456789abcdef';

/**
 * `infergate-mcp` with `flags` (stdio on streams nobody writes to, or --http): every log line, and
 * the first warning, once logged.
 */
async function start(flags: string[]) {
  const lines: string[] = [];
  let warned: (line: string) => void = () => {};
  const warning = new Promise<string>((resolve) => {
    warned = resolve;
  });
  const cli = await runCli(
    ['--http', '--port', '0', '--catalog-refresh', '0', ...flags],
    {},
    {
      log: (line) => {
        lines.push(line);
        if (line.includes('warning')) warned(line);
      },
      print: () => {},
    },
  );
  return { cli: cli!, lines, warning };
}

/** The first warning `infergate-mcp` with `flags` logs, then closed. */
async function firstWarning(flags: string[]): Promise<string> {
  const { cli, warning } = await start(flags);
  try {
    return await warning;
  } finally {
    await cli.close();
  }
}

/** A port that refuses connections: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('infergate-mcp at start', () => {
  it('warns when the first catalog read is refused (a wrong key), naming the code, not the key', async () => {
    const line = await firstWarning([
      ...['--base-url', harness.gateway.baseURL, '--api-key', WRONG_KEY],
    ]);
    expect(line).toMatch(/^infergate-mcp: warning: the gateway's catalog could not be read/);
    expect(line).toContain('HTTP 401');
    expect(line).toMatch(/--api-key/);
    expect(line).not.toContain(WRONG_KEY);
  });

  it('warns when the gateway cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const line = await firstWarning(['--base-url', url, '--api-key', harness.gateway.apiKey]);
    expect(line).toContain(
      "warning: the gateway's catalog could not be read at start (network_error)",
    );
  });

  it('warns of nothing when the catalog is read', async () => {
    const { cli, lines } = await start([
      ...['--base-url', harness.gateway.baseURL, '--api-key', harness.gateway.apiKey],
    ]);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    try {
      // A session opens after the first catalog read (connect waits for it), which has then been told.
      await client.connect(new StreamableHTTPClientTransport(new URL(cli.url!)));
      expect((await client.listTools()).tools).toHaveLength(7);
      expect(lines.filter((line) => line.includes('warning'))).toEqual([]);
    } finally {
      await client.close();
      await cli.close();
    }
  });
});

// `--timeout-ms 200` against a port that refuses connections: the first attempt of the first
// catalog read fails with `network_error`, and the call's deadline (200 ms, under the first
// retry's wait of 250 ms at least) ends it during that wait (`timeout`).
describe('infergate-mcp at start, its deadline ending the retries of an unreachable gateway', () => {
  it('warns of network_error, the attempts’ failure, not timeout', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const line = await firstWarning([
      ...['--base-url', url, '--api-key', 'ig_test_key_0123456789abcdef', '--timeout-ms', '200'],
    ]);
    expect(line).toContain("the gateway's catalog could not be read at start (network_error)");
  });
});

describe('infergate-mcp started without its URL or key', () => {
  // (Core reads the variables from the process's environment: blank counts as unset.)
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const unset = () => {
    vi.stubEnv('INFERGATE_BASE_URL', '');
    vi.stubEnv('INFERGATE_API_KEY', '');
  };
  const TAIL = ': every tool will fail with configuration_error';

  const NO_URL = 'no gateway URL (INFERGATE_BASE_URL or --base-url)';
  const NO_KEY = 'no gateway key (INFERGATE_API_KEY or --api-key)';

  it.each([
    [
      'the key alone when only the key is missing',
      () => ['--base-url', harness.gateway.baseURL],
      NO_KEY,
    ],
    [
      'the URL alone when only the URL is missing',
      () => ['--api-key', harness.gateway.apiKey],
      NO_URL,
    ],
    ['both when both are missing', () => [], `${NO_URL} and ${NO_KEY}`],
  ])('names %s', async (_, flags, missing) => {
    unset();
    expect(await firstWarning(flags())).toBe(`infergate-mcp: warning: ${missing}${TAIL}`);
  });
});
