/**
 * `startHttpServer` refuses an option value of the wrong type or out of range before anything
 * listens: `configuration_error` naming the option, what was given and the rule. A string where a
 * list belongs would weaken the DNS-rebinding check; a short token is guessed; the token's value
 * is never in the message.
 */
import { Server } from 'node:net';
import { type GatewayError, isGatewayError } from '@infergate/core';
import { describe, expect, it, vi } from 'vitest';
import { type HttpServerOptions, startHttpServer } from '../src/index';
import { harnessOfFile } from './harness';

const harness = harnessOfFile();

/** The refusal of `options`; a server that started anyway is closed and the test fails. */
async function refusalOf(options: Record<string, unknown>): Promise<GatewayError> {
  const listen = vi.spyOn(Server.prototype, 'listen');
  const outcome = await startHttpServer(harness().mcp, {
    port: 0,
    ...options,
  } as HttpServerOptions).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  expect(isGatewayError(outcome), `refused: ${JSON.stringify(options)}`).toBe(true);
  expect(listen).not.toHaveBeenCalled();
  return outcome as GatewayError;
}

describe('startHttpServer option values', () => {
  it.each([
    [
      { allowedHosts: 'mcp.internal.example.com' },
      'allowedHosts',
      'must be an array of non-empty strings',
      'got a string',
    ],
    [
      { allowedHosts: ['ok.example', ''] },
      'allowedHosts',
      'must be an array of non-empty strings',
      'got an array',
    ],
    [
      { allowedOrigins: 'http://app.example' },
      'allowedOrigins',
      'must be an array of non-empty strings',
      'got a string',
    ],
    [{ maxSessions: 0 }, 'maxSessions', 'must be an integer from 1 to', 'got 0'],
    [{ maxSessions: -1 }, 'maxSessions', 'must be an integer from 1 to', 'got -1'],
    [{ sessionIdleMs: -5 }, 'sessionIdleMs', 'must be an integer of ms from 0 to', 'got -5'],
    [{ port: 'abc' }, 'port', 'must be an integer from 0 to 65535', 'got a string'],
    [{ port: 70_000 }, 'port', 'must be an integer from 0 to 65535', 'got 70000'],
    [{ port: 1.5 }, 'port', 'must be an integer from 0 to 65535', 'got 1.5'],
    [{ path: 'mcp' }, 'path', 'must be a path starting with "/"', 'got "mcp"'],
  ])('refuses %j', async (options, field, rule, given) => {
    const error = await refusalOf(options);
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe(field);
    expect(error.message).toContain(`${field} (startHttpServer option) ${rule}`);
    expect(error.message).toContain(given);
  });

  it.each([
    ['zq7x', 'got a string of 4 characters'],
    [' '.repeat(20), 'got a string of 20 characters (blank)'],
    [' secret-secret-secret ', 'got a string of 22 characters (spaces at an end)'],
  ])('refuses the token %j without showing it', async (token, given) => {
    const error = await refusalOf({ token });
    expect(error.code).toBe('configuration_error');
    expect(error.field).toBe('token');
    expect(error.message).toContain(
      'token (startHttpServer option) must be a string of at least 16 characters',
    );
    expect(error.message).toContain(given);
    if (token.trim() !== '') expect(error.message).not.toContain(token.trim());
  });

  it('names a token of another type by its type alone', async () => {
    const error = await refusalOf({ token: 918_273_645_546_372 });
    expect(error.field).toBe('token');
    expect(error.message).toContain('got a number');
    expect(error.message).not.toContain('918273645');
  });

  it('takes the values the README documents', async () => {
    const server = await startHttpServer(harness().mcp, {
      port: 0,
      path: '/mcp',
      token: 'a-token-of-16-ch',
      allowedHosts: ['localhost', '127.0.0.1'],
      allowedOrigins: ['http://localhost:5173'],
      maxSessions: 1,
      sessionIdleMs: 0,
    });
    await server.close();
  });
});
