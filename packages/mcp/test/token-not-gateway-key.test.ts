/**
 * The HTTP bearer token is this server's own secret: the gateway key given as the token is refused
 * before anything listens — by `startHttpServer` (`configuration_error`, field `token`) and by the
 * command (`CliUsageError`, status 2) — and neither message shows the key.
 */
import { Server } from 'node:net';
import { type GatewayError, isGatewayError } from '@infergate/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CliUsageError, runCli } from '../src/cli-main';
import { createGatewayMcpServer, startHttpServer } from '../src/index';
import { type Harness, startHarness } from './harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/** What starting `run` threw; a server it started anyway is closed and the test fails. */
async function refusalOf<T extends { close(): Promise<void> } | undefined>(
  run: () => Promise<T>,
): Promise<unknown> {
  const listen = vi.spyOn(Server.prototype, 'listen');
  try {
    const started = await run().then(
      async (running) => {
        await running?.close();
        return 'started';
      },
      (error: unknown) => error,
    );
    expect(started, 'refused before listening').not.toBe('started');
    expect(listen).not.toHaveBeenCalled();
    return started;
  } finally {
    listen.mockRestore();
  }
}

describe('the bearer token equal to the gateway key', () => {
  it('startHttpServer refuses it (configuration_error, token), not quoting it', async () => {
    const key = harness.gateway.apiKey;
    const error = (await refusalOf(() =>
      startHttpServer(harness.mcp, { port: 0, token: key }),
    )) as GatewayError;
    expect(isGatewayError(error)).toBe(true);
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe('token');
    expect(error.message).toContain('must not be the gateway API key');
    expect(error.message).not.toContain(key);
  });

  it.each([
    ['read from INFERGATE_API_KEY', undefined],
    ['given with its newline (read from a file), as core trims it', '\n'],
  ])('startHttpServer refuses the key the server %s', async (_how, newline) => {
    const key = harness.gateway.apiKey;
    if (newline === undefined) vi.stubEnv('INFERGATE_API_KEY', key);
    const apiKey = newline === undefined ? {} : { apiKey: `${key}${newline}` };
    const gateway = createGatewayMcpServer({
      clientOptions: { baseURL: harness.gateway.baseURL, ...apiKey },
      catalogRefreshMs: 0,
    });
    try {
      const error = (await refusalOf(() =>
        startHttpServer(gateway, { port: 0, token: key }),
      )) as GatewayError;
      expect(error.field).toBe('token');
    } finally {
      vi.unstubAllEnvs();
      await gateway.close();
    }
  });

  it('startHttpServer still takes a token of its own', async () => {
    const server = await startHttpServer(harness.mcp, { port: 0, token: 'a'.repeat(32) });
    await server.close();
  });

  it.each([
    ['--token', (key: string) => [['--token', key], {}] as const],
    ['INFERGATE_MCP_TOKEN', (key: string) => [[], { INFERGATE_MCP_TOKEN: key }] as const],
  ])('the command refuses it given as %s, in one line without the key', async (_, given) => {
    const key = harness.gateway.apiKey;
    const [flags, env] = given(key);
    const error = await refusalOf(() =>
      runCli(
        [
          ...['--http', '--port', '0', '--catalog-refresh', '0'],
          ...['--base-url', harness.gateway.baseURL, '--api-key', key],
          ...flags,
        ],
        env,
        { log: () => {}, print: () => {} },
      ),
    );
    expect(error).toBeInstanceOf(CliUsageError);
    const { message } = error as CliUsageError;
    expect(message).toBe(
      'the bearer token must not be the gateway API key: make one with `openssl rand -hex 24`',
    );
    expect(message).not.toContain(key);
  });
});
