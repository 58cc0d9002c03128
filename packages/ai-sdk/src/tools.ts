/**
 * `@infergate/ai-sdk/tools`: the gateway's services as AI SDK tools, for apps that build them from
 * services of their own. Also exported from the main entry (and as `gateway.tools`).
 */
export type * from './tools/gateway-service-types';
export type * from './tools/gateway-tool-options';
export { createGatewayTools, type GatewayTools } from './tools/gateway-tools';
