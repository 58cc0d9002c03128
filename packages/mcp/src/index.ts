/**
 * `@infergate/mcp`: the inference gateway's services, models and key budget as a Model Context
 * Protocol server — `createGatewayMcpServer` to embed, `startHttpServer` / `serveStdio` for the
 * transports the `infergate-mcp` command runs.
 */

export type { AddressClass } from './address-class';
export { AllowedRoots, FileAccessError } from './allowed-roots';
export { MODELS_URI, SERVICES_URI } from './catalog-resources';
export {
  availabilityOf,
  type GatewayToolName,
  TOOL_NAMES,
  type ToolAvailability,
} from './catalog-watch';
export { cosineSimilarity } from './embedding-tools';
export {
  createGatewayMcpServer,
  type GatewayMcpServer,
  type GatewayMcpServerOptions,
  type SessionOptions,
} from './gateway-mcp-server';
export {
  type HttpServerOptions,
  type RunningHttpServer,
  startHttpServer,
} from './http-server';
export { type StdioServerOptions, serveStdio } from './stdio-server';
export { toolErrorResult } from './tool-errors';
export {
  type HostResolver,
  type PrivateUrlPolicy,
  type PrivateUrlTarget,
  UrlRefusedError,
} from './url-guard';
