/**
 * A server bound to loopback, the bind written in any case or form (`LOCALHOST`,
 * `0:0:0:0:0:0:0:1`) or any address of 127.0.0.0/8, keeps DNS-rebinding protection on (only
 * loopback names in `Host`) and answers its own address; the command warns about a missing token
 * by the same rule.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli-main';
import { startHttpServer } from '../src/index';
import { harnessOfFile, rawInitialize } from './harness';

const harness = harnessOfFile();

describe('a loopback bind in any spelling', () => {
  it.each(['LOCALHOST', 'Localhost', '0:0:0:0:0:0:0:1', '127.0.0.2'])(
    'bound to %s: a rebound Host is refused, its own address and origin answered',
    async (host) => {
      const server = await startHttpServer(harness().mcp, { port: 0, host });
      try {
        const { host: own, port } = new URL(server.url);
        expect(await rawInitialize(server.url, { host: `attacker.example:${port}` })).toBe(403);
        expect(
          await rawInitialize(server.url, {
            host: `attacker.example:${port}`,
            origin: `http://attacker.example:${port}`,
          }),
        ).toBe(403);
        expect(await rawInitialize(server.url, { host: own })).toBe(200);
        expect(await rawInitialize(server.url, { host: own, origin: `http://${own}` })).toBe(200);
      } finally {
        await server.close();
      }
    },
  );

  it('the bound address stays allowed beside a given allowedHosts list', async () => {
    const server = await startHttpServer(harness().mcp, {
      port: 0,
      host: '127.0.0.2',
      allowedHosts: ['mcp.example'],
    });
    try {
      const { port } = new URL(server.url);
      expect(await rawInitialize(server.url, { host: `127.0.0.2:${port}` })).toBe(200);
      expect(await rawInitialize(server.url, { host: 'mcp.example' })).toBe(200);
      expect(await rawInitialize(server.url, { host: `localhost:${port}` })).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('the command warns about serving without --token off loopback only, by the same rule', async () => {
    const warnings = async (host: string) => {
      const lines: string[] = [];
      const running = await runCli(
        [
          ...['--http', '--port', '0', '--host', host, '--catalog-refresh', '0'],
          ...['--base-url', harness().gateway.baseURL, '--api-key', harness().gateway.apiKey],
        ],
        {},
        { log: (line) => lines.push(line), print: () => {} },
      );
      await running?.close();
      return lines.filter((line) => line.includes('without --token'));
    };
    expect(await warnings('LOCALHOST')).toEqual([]);
    expect(await warnings('0:0:0:0:0:0:0:1')).toEqual([]);
    expect(await warnings('127.0.0.2')).toEqual([]);
    expect(await warnings('0.0.0.0')).toHaveLength(1);
  });
});
