export { ChatAssembler, readChatCompletion } from './assemble-chat';
export { type AudioFormat, detectAudioFormat } from './audio-format';
export { buildChatRequest, type ChatRequestOptions } from './build-chat-request';
export { ChatStreamDecoder } from './chat-stream-decoder';
export { classifyFinishReason, type FinishReasonKind } from './classify-finish-reason';
export { createGatewayClient } from './client';
export {
  type BudgetAcquireRequest,
  type BudgetLease,
  budgetId,
  createInProcessBudget,
  type KeyBudget,
} from './concurrency-budget';
export {
  CLIENT_ERROR_CODES,
  GATEWAY_ERROR_CODES,
  type GatewayClientErrorCode,
  GatewayError,
  type GatewayErrorCode,
  type GatewayErrorOptions,
  type GatewayServerErrorCode,
  invalidRequest,
  isGatewayError,
  isGatewayServerErrorCode,
} from './errors';
// Observability (issue 17): the client's `onEvent` events. OpenTelemetry is in `@infergate/core/otel`.
export type {
  GatewayAttemptEvent,
  GatewayDequeuedEvent,
  GatewayDoneEvent,
  GatewayEvent,
  GatewayEventBase,
  GatewayEventHandler,
  GatewayFallbackEvent,
  GatewayOperation,
  GatewayQueuedEvent,
  GatewayReleasedEvent,
  GatewayResponseEvent,
  GatewayRetryEvent,
  GatewayStartEvent,
} from './gateway-events';
export { LANGUAGE_CODE, LIMITS } from './limits';
export { messageText } from './message-text';
export {
  type CapabilityCheck,
  type CapabilityErrorOptions,
  capabilitiesOf,
  capabilityError,
  checkCapabilities,
  describeNeeds,
  isOwnModelId,
  missingCapabilities,
  modelsWithCapabilities,
} from './model-capabilities';
export { normalizeBaseURL } from './options';
export { readUsage, type UsageCounts } from './read-usage';
export { parseRetryAfter } from './retry-after';
export {
  type OcrToolArguments,
  type ServiceToolArguments,
  type ServiceToolDefinition,
  type ServiceToolName,
  type ServiceToolOptions,
  type ServiceToolRequests,
  serviceToolArgumentsProblem,
  serviceToolDefinition,
  serviceToolRequest,
  type ToolParametersSchema,
  type TranscribeToolArguments,
  type TranslateToolArguments,
} from './service-tools';
export { splitBatches } from './split-embedding-batches';
export type * from './types';
export { utf8ByteLength } from './utf8';
export { requiredCapabilities, validateChatRequest } from './validate-chat';
export { isMultilingualEngine } from './validate-embeddings';
export { validateTranslationRequest } from './validate-translation';
