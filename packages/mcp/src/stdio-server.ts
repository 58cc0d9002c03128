// docs/gateway-protocol.md §11 (a 23 MiB image or audio file, as base64, fits in one stdio
// message).
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { GatewayMcpServer } from './gateway-mcp-server';

export interface StdioServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

/** A JSON-RPC line may hold a 23 MiB file as base64 (~31 MiB); the SDK's default is 10 MiB. */
const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

/**
 * Serves one MCP session over stdin/stdout, with `*_path` arguments (files under the allowed
 * roots). Resolves once connected; `closed` resolves when the client closes stdin.
 */
export async function serveStdio(
  gateway: GatewayMcpServer,
  options: StdioServerOptions = {},
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout, {
    maxBufferSize: MAX_MESSAGE_BYTES,
  });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    stdin.once('end', resolve);
  });
  const server = await gateway.connect(transport, { files: true });
  return { closed, close: () => server.close() };
}
