export {
  type ChatRoute,
  type ChatRouteHop,
  type FailedChatRoute,
  type FailoverReason,
  GatewayError,
  type HedgeOptions,
  type HopStructuredOutput,
  type InvalidStructuredOutput,
  isGatewayError,
  type ModelSkipReason,
  type SteeringOptions,
  type StructuredOutputIssue,
  type StructuredOutputMethod,
  type StructuredOutputOptions,
} from '@infergate/core';
export { GatewayChatModel } from './chat_models/gateway-chat-model';
export type {
  GatewayChatModelCallOptions,
  GatewayChatModelFields,
  GatewayResponseFormat,
} from './chat_models/gateway-chat-model-options';
export type { GatewayResponseMetadata } from './converters/response-metadata';
export { GatewayEmbeddings, type GatewayEmbeddingsFields } from './embeddings/gateway-embeddings';
export {
  GatewayAudioTranscriptLoader,
  type GatewayAudioTranscriptLoaderFields,
} from './loaders/gateway-audio-transcript-loader';
export { GatewayOcrLoader, type GatewayOcrLoaderFields } from './loaders/gateway-ocr-loader';
export {
  GatewayTranslator,
  type GatewayTranslatorFields,
  type TranslatorInput,
} from './runnables/gateway-translator';
export {
  createGatewayTools,
  createOcrTool,
  createTranscribeTool,
  createTranslateTool,
  type GatewayTool,
  type GatewayToolOptions,
  type MediaResolver,
} from './tools/gateway-tools';
export type { ClientTuning, GatewayConnectionFields } from './utils/client';
