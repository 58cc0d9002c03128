// Types of the packed @infergate/mcp (ESM view) fit the MCP SDK's own types.
import { createGatewayClient } from '@infergate/core';
import {
  createGatewayMcpServer,
  type GatewayMcpServer,
  type GatewayToolName,
  type RunningHttpServer,
  serveStdio,
  startHttpServer,
} from '@infergate/mcp';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const server: GatewayMcpServer = createGatewayMcpServer({
  client: createGatewayClient({ baseURL: 'http://x/v1', apiKey: 'k' }),
  roots: ['.'],
  catalogRefreshMs: 0,
});
export const session: McpServer = server.createServer({ files: false });
export const tool: GatewayToolName = 'similarity';
export const http: Promise<RunningHttpServer> = startHttpServer(server, { port: 0 });
export const stdio = serveStdio;
