/**
 * `@infergate/langchain/tools`: the gateway's services (translation, OCR, speech to text) as
 * LangChain tools. A chat-only app that imports only `GatewayChatModel` never loads them.
 */
export {
  createGatewayTools,
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  type GatewayTool,
  type GatewayToolOptions,
  type MediaResolver,
} from './tools/gateway-tools';
