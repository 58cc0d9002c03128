export { GatewayChatLanguageModel } from './chat/gateway-chat-language-model';
export * from './common-exports';
export { GatewayEmbeddingModel } from './embedding/gateway-embedding-model';
export { createGateway, type GatewayProvider, gateway } from './provider/gateway-provider';
export { createGatewayTools, type GatewayTools } from './tools/gateway-tools';
export { GatewayTranscriptionModel } from './transcription/gateway-transcription-model';
