export type { GatewayModel, GatewayService, ModelCapability } from '@infergate/core';
export { UnsupportedModelCapabilityError } from './check-model-capabilities';
export { GatewayChatLanguageModel } from './gateway-chat-language-model';
export type { GatewayChatModelId, GatewayChatModelSettings } from './gateway-chat-options';
export {
  GatewayEmbeddingModel,
  type GatewayEmbeddingOptions,
  MAX_EMBEDDING_INPUT_BYTES_PER_CALL,
  MAX_EMBEDDINGS_PER_CALL,
} from './gateway-embedding-model';
export {
  createGateway,
  type GatewayProvider,
  type GatewayProviderSettings,
  gateway,
} from './gateway-provider';
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
} from './gateway-services';
export {
  createGatewayTools,
  type GatewayTools,
  type OcrToolInput,
  type OcrToolOptions,
  type TranscribeToolInput,
  type TranscribeToolOptions,
  type TranslateToolInput,
  type TranslateToolOptions,
} from './gateway-tools';
export {
  GatewayTranscriptionModel,
  type GatewayTranscriptionOptions,
} from './gateway-transcription-model';
