/**
 * `@infergate/core`: what applications call — the client factory, the error type and codes, the
 * key budget, the gateway's limits, and the public types, each listed by name. Its declarations are
 * kept in `api/core.api.md` (test/api-report.test.ts), so a change to this surface is deliberate.
 * Helpers for adapters live in `@infergate/core/internal` (unstable).
 */

export { createInProcessBudget } from './budget/in-process-budget';
export type {
  BudgetAcquireRequest,
  BudgetLease,
  ConcurrencyBudgetState,
  KeyBudget,
} from './budget/key-budget';
export type { CallOptions, GatewayResponseInfo } from './call/call-options';
export type { GatewayHeaders } from './call/option-groups';
export {
  CIRCUIT_BREAKER_OPTIONS,
  type CircuitBreakerOptions,
  HEDGE_OPTIONS,
  type HedgeOptions,
  type OptionField,
  type OptionGroup,
  STEERING_OPTIONS,
  STRUCTURED_OUTPUT_OPTIONS,
  type SteeringOptions,
  type StructuredLastAnswer,
  type StructuredOutputOptions,
  TIMEOUT_OPTIONS,
  type TimeoutOptions,
} from './call/option-groups';
export type { CatalogWatch } from './catalog/catalog-watch';
export type { CheckModelOptions } from './catalog/resolve-model';
export type { ChatCallOptions, ChatStreamOptions } from './chat/chat-calls';
export { requiredCapabilities } from './chat/validate-chat';
export { createGatewayClient, type GatewayClient } from './client/client';
export { BUDGET_OPTIONS, type BudgetOptions, type GatewayClientOptions } from './client/options';
export { isContextOverflow } from './errors/context-overflow';
export {
  CLIENT_ERROR_CODES,
  GATEWAY_ERROR_CODES,
  type GatewayClientErrorCode,
  GatewayError,
  type GatewayErrorCode,
  type GatewayErrorOptions,
  type GatewayServerErrorCode,
  type GatewayStall,
  isGatewayError,
  isGatewayServerErrorCode,
  type StallPhase,
} from './errors/errors';
// Observability: the client's `onEvent` events. OpenTelemetry is in `@infergate/core/otel`.
export type {
  GatewayAttemptEvent,
  GatewayCircuitCloseEvent,
  GatewayCircuitOpenEvent,
  GatewayCircuitProbeEvent,
  GatewayDequeuedEvent,
  GatewayDoneEvent,
  GatewayEntrySkippedEvent,
  GatewayEvent,
  GatewayEventBase,
  GatewayEventHandler,
  GatewayFailoverEvent,
  GatewayFallbackEvent,
  GatewayHedgeEvent,
  GatewayHedgeSkippedEvent,
  GatewayModelDeferredEvent,
  GatewayModelSkippedEvent,
  GatewayOperation,
  GatewayQueuedEvent,
  GatewayReleasedEvent,
  GatewayRequestParameters,
  GatewayResponseEvent,
  GatewayRetryEvent,
  GatewayStartEvent,
  HedgeSkipReason,
} from './events/gateway-events';
export type {
  AssembledAudio,
  AssembledChat,
  AssembledImage,
  AssembledToolCall,
  ChatResult,
  ChatStream,
  ChatStreamEvent,
  StructuredResult,
  UncheckedStructured,
} from './protocol/chat-result-types';
export type {
  ChatRoute,
  ChatRouteHop,
  DeferReason,
  FailedChatRoute,
  FailoverReason,
  HopStructuredOutput,
  InvalidStructuredOutput,
  ModelSkipReason,
  SkippedModel,
  StandardSchemaLike,
  StructuredOutputFailure,
  StructuredOutputIssue,
  StructuredOutputMethod,
} from './protocol/chat-route';
export { LANGUAGE_CODE, LIMITS } from './protocol/limits';
export { isMultilingualEngine } from './protocol/multilingual-engine';
export type { UsageCounts } from './protocol/read-usage';
export type {
  AudioLike,
  ChatChoice,
  ChatChunkChoice,
  ChatCompletionChunk,
  ChatCompletionResponse,
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatRole,
  ChatTool,
  EmbeddingData,
  EmbeddingEngine,
  EmbeddingInputType,
  EmbeddingsRequest,
  EmbeddingsResponse,
  GatewayErrorBody,
  GatewayList,
  GatewayModel,
  GatewayService,
  ModelCapability,
  ModelOwner,
  OcrRequest,
  OcrResponse,
  ResponseFormat,
  ServiceId,
  ToolCall,
  ToolCallDelta,
  ToolChoice,
  TranscriptionRequest,
  TranscriptionResponse,
  TranslationRequest,
  TranslationResponse,
  Usage,
} from './protocol/wire-types';
export type { EmbedManyOptions } from './services/service-calls';
export { resolveSteering } from './steering/steering-options';
