export type { GatewayModel, GatewayService, ModelCapability } from '@infergate/core';
export { GatewayChatLanguageModel } from './chat/gateway-chat-language-model';
export type { GatewayChatModelId, GatewayChatModelSettings } from './chat/gateway-chat-options';
export { UnsupportedModelCapabilityError } from './chat/unsupported-model-capability-error';
export {
  GatewayEmbeddingModel,
  type GatewayEmbeddingOptions,
  MAX_EMBEDDING_INPUT_BYTES_PER_CALL,
  MAX_EMBEDDINGS_PER_CALL,
} from './embedding/gateway-embedding-model';
export { createGateway, type GatewayProvider, gateway } from './provider/gateway-provider';
export type { GatewayProviderBase } from './provider/gateway-provider-base';
export type { GatewayProviderSettings } from './provider/gateway-provider-settings';
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
export {
  GatewayTranscriptionModel,
  type GatewayTranscriptionOptions,
} from './transcription/gateway-transcription-model';
