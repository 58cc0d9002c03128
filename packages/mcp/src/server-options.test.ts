import { createGatewayClient, isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayMcpServer, type GatewayMcpServerOptions } from './gateway-mcp-server';

const clientOptions = { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'ig-test-key-0000' };

/** The configuration_error that `options` get at creation: its field and message. */
async function refusal(
  options: Record<string, unknown>,
): Promise<{ field?: string; message: string }> {
  const error = await caught(
    () =>
      createGatewayMcpServer({
        catalogRefreshMs: 0,
        ...options,
      } as GatewayMcpServerOptions).close(),
    isGatewayError,
  );
  expect(error.code).toBe('configuration_error');
  return { field: error.field, message: error.message };
}

describe('createGatewayMcpServer options', () => {
  const cases: [Record<string, unknown>, string][] = [
    [
      { roots: '/tmp' },
      'roots (createGatewayMcpServer option) must be an array of directory paths (["/data"]), got a string',
    ],
    [{ roots: [''] }, 'roots (createGatewayMcpServer option) must be an array'],
    [
      { allowUrls: 'no' },
      'allowUrls (createGatewayMcpServer option) must be true or false, got a string',
    ],
    [
      { allowPrivateUrls: 1 },
      'allowPrivateUrls (createGatewayMcpServer option) must be true, false or a function',
    ],
    [
      { mediaFetch: 'x' },
      'mediaFetch (createGatewayMcpServer option) must be a fetch function, got a string',
    ],
    [{ resolveHost: {} }, 'resolveHost (createGatewayMcpServer option) must be a function'],
    [{ name: 5 }, 'name (createGatewayMcpServer option) must be a non-empty string, got 5'],
    [
      { catalogRefreshMs: -1 },
      'catalogRefreshMs (createGatewayMcpServer option) must be an integer of ms from 0 to 2147483647, got -1',
    ],
    [{ catalogRefreshMs: 2 ** 31 }, 'to 2147483647, got 2147483648'],
    [{ catalogRefreshMs: 1.5 }, 'got 1.5'],
    [
      { queueProgressMs: -5 },
      'queueProgressMs (createGatewayMcpServer option) must be an integer of ms from 0 to 2147483647, got -5',
    ],
    [
      { catalogRefreshMs: 'x' },
      'catalogRefreshMs (createGatewayMcpServer option) must be an integer of ms from 0',
    ],
    [
      { clientOptions: 'http://x' },
      "clientOptions (createGatewayMcpServer option) must be an object of createGatewayClient's options, got a string",
    ],
  ];
  it.each(cases)(
    'refuses %o, naming the option, what was given and the rule',
    async (options, words) => {
      const refused = await refusal({ clientOptions, ...options });
      expect(refused).toEqual({
        field: Object.keys(options)[0],
        message: expect.stringContaining(words),
      });
    },
  );

  it('refuses client and clientOptions together (the options would be ignored)', async () => {
    const client = createGatewayClient(clientOptions);
    expect(await refusal({ client, clientOptions })).toEqual({
      field: 'clientOptions',
      message:
        'client and clientOptions (createGatewayMcpServer options) cannot both be given: clientOptions configure the client the server makes when no client is given; pass one of them',
    });
  });

  it('gives no hint from Object.prototype for an unknown key', async () => {
    const { message } = await refusal({ clientOptions, toString: 5 });
    expect(message).not.toContain('function');
    expect(message).toContain('unknown option `toString` in createGatewayMcpServer');
  });
});
