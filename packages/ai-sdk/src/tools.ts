/**
 * `@infergate/ai-sdk/tools`: the gateway's services as AI SDK tools, for apps that build them from
 * services of their own. Also exported from the main entry (and as `gateway.tools`).
 */
export type {
  GatewayBinaryInput,
  GatewayOcrInput,
  GatewayOcrResult,
  GatewayServiceCallOptions,
  GatewayServices,
  GatewayTranscribeInput,
  GatewayTranscribeResult,
  GatewayTranslateInput,
  GatewayTranslateResult,
} from './tools/gateway-services';
export {
  createGatewayTools,
  type GatewayTools,
  type OcrToolInput,
  type OcrToolOptions,
  type TranscribeToolInput,
  type TranscribeToolOptions,
  type TranslateToolInput,
  type TranslateToolOptions,
} from './tools/gateway-tools';
