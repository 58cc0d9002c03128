/**
 * `@infergate/ai-sdk/v6`: the provider for AI SDK 6 (`ai@6`, `LanguageModelV3`). The same
 * settings, requests, capability checks, errors and services as the main entry, whose V4 models
 * it runs; ai@7 accepts these models too (it wraps V3 models), but the main entry is the one for it.
 */
export * from './common-exports';
export { GatewayChatLanguageModelV3 } from './v3/gateway-chat-language-model-v3';
export { GatewayEmbeddingModelV3 } from './v3/gateway-embedding-model-v3';
export { createGateway, type GatewayProviderV3, gateway } from './v3/gateway-provider-v3';
export type { GatewayToolsV3 } from './v3/gateway-tools-v3';
export { GatewayTranscriptionModelV3 } from './v3/gateway-transcription-model-v3';
