/**
 * `@infergate/core/internal`: helpers that the infergate adapters (and other integrations) share
 * with core — request building, the capability gate's pieces, stream decoding, usage and finish
 * reason reading, validators. UNSTABLE: no semver promise; any release may change or remove a
 * name. Applications use the main entry (`@infergate/core`).
 */
export { ChatAssembler, readChatCompletion } from './assemble-chat';
export { type AudioFormat, detectAudioFormat } from './audio-format';
export { buildChatRequest, type ChatRequestOptions } from './build-chat-request';
export { isTimeoutReason } from './call-scope';
export { ChatStreamDecoder } from './chat-stream-decoder';
export { classifyFinishReason, type FinishReasonKind } from './classify-finish-reason';
export { budgetId } from './concurrency-budget';
export { invalidRequest } from './errors';
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
export { utf8ByteLength } from './utf8';
export { validateChatRequest } from './validate-chat';
export { validateTranslationRequest } from './validate-translation';
