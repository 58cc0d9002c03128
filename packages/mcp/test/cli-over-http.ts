import type { GatewayConnection } from '@infergate/emulator/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runCli } from '../src/cli-main';

/**
 * `infergate-mcp --http` on a free port, started with `flags` against `gateway` (its URL and key),
 * and an MCP client connected to it over HTTP: `use` runs with that client, then both close.
 */
export async function withCliOverHttp<T>(
  gateway: Pick<GatewayConnection, 'baseURL' | 'apiKey'>,
  flags: string[],
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const running = await runCli(
    [
      ...['--http', '--port', '0', '--catalog-refresh', '0', ...flags],
      ...['--base-url', gateway.baseURL, '--api-key', gateway.apiKey],
    ],
    {},
    { log: () => {}, print: () => {} },
  );
  const client = new Client({ name: 'cli', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(running!.url!)));
    return await use(client);
  } finally {
    await client.close();
    await running?.close();
  }
}
