/**
 * `infergate-mcp --timeout-ms N` against a port that refuses connections: the first attempt of the
 * first catalog read fails with `network_error`, and the call's deadline (200 ms, under the first
 * retry's wait of 250 ms at least) ends it during that wait (`timeout`). The start-up warning names
 * the cause, `network_error`, not the deadline. Run in-process (`runCli`); the test waits for the
 * warning line itself.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli-main';

/** A port that refuses connections: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The first warning `infergate-mcp` with `flags` logs (over --http), then closed. */
async function firstWarning(flags: string[]): Promise<string> {
  let warned: (line: string) => void = () => {};
  const warning = new Promise<string>((resolve) => {
    warned = resolve;
  });
  const log = (line: string) => {
    if (line.includes('warning')) warned(line);
  };
  const cli = await runCli(
    ['--http', '--port', '0', '--catalog-refresh', '0', ...flags],
    {},
    {
      log,
      print: () => {},
    },
  );
  try {
    return await warning;
  } finally {
    await cli!.close();
  }
}

describe('infergate-mcp at start, its deadline ending the retries of an unreachable gateway', () => {
  it('warns of network_error, the attempts’ failure, not timeout', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const line = await firstWarning([
      ...['--base-url', url, '--api-key', 'ig_test_key_0123456789abcdef', '--timeout-ms', '200'],
    ]);
    expect(line).toContain("the gateway's catalog could not be read at start (network_error)");
  });
});
