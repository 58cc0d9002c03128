/**
 * What both provider entries export besides their own provider and models: the main entry (ai@7)
 * and `/v6` (ai@6) share settings, options, services, tool options, errors and catalog types.
 */
export type {
  CallOptions,
  ChatRoute,
  ChatRouteHop,
  FailedChatRoute,
  FailoverReason,
  GatewayModel,
  GatewayService,
  HedgeOptions,
  ModelCapability,
  ModelSkipReason,
  SteeringOptions,
  StructuredOutputFailure,
  StructuredOutputIssue,
  StructuredOutputMethod,
} from '@infergate/core';
export type { GatewayChatOptions } from './chat/chat-provider-options';
export type { GatewayChatModelId, GatewayChatModelSettings } from './chat/gateway-chat-options';
export { InvalidStructuredOutputError } from './chat/invalid-structured-output-error';
export type { GatewayProviderMetadata } from './chat/provider-metadata';
export { UnsupportedModelCapabilityError } from './chat/unsupported-model-capability-error';
export {
  MAX_EMBEDDING_INPUT_BYTES_PER_CALL,
  MAX_EMBEDDINGS_PER_CALL,
} from './embedding/gateway-embedding-model';
export type { GatewayEmbeddingOptions } from './embedding/gateway-embedding-options';
export type { GatewayCatalog } from './provider/gateway-catalog';
export type { GatewayProviderBase } from './provider/gateway-provider-base';
export type { GatewayProviderSettings } from './provider/gateway-provider-settings';
export type * from './tools/gateway-service-types';
export type * from './tools/gateway-tool-options';
export type { GatewayTranscriptionOptions } from './transcription/gateway-transcription-options';
