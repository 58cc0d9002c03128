// Types of the packed @infergate/mcp from its CommonJS view (`require` condition, .d.cts files).
import { createGatewayMcpServer, type GatewayMcpServer, startHttpServer } from '@infergate/mcp';

export const server: GatewayMcpServer = createGatewayMcpServer({ catalogRefreshMs: 0 });
export const http = startHttpServer(server, { host: '127.0.0.1', token: 'a-token-of-16-chars' });
