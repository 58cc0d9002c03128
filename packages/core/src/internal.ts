/**
 * `@infergate/core/internal`: helpers that the infergate adapters (and other integrations) share
 * with core — request building, the capability gate's pieces, stream decoding, usage and finish
 * reason reading, validators. UNSTABLE: no semver promise; any release may change or remove a
 * name. Applications use the main entry (`@infergate/core`).
 */

export { budgetId } from './budget/concurrency-budget';
export { isTimeoutReason } from './call/call-scope';
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
} from './catalog/model-capabilities';
export { ChatAssembler, readChatCompletion } from './chat/assemble-chat';
export { buildChatRequest, type ChatRequestOptions } from './chat/build-chat-request';
export { classifyFinishReason, type FinishReasonKind } from './chat/classify-finish-reason';
export { messageText } from './chat/message-text';
export { ChatStreamDecoder } from './chat/stream/chat-stream-decoder';
export { validateChatRequest } from './chat/validate-chat';
export { normalizeBaseURL } from './client/options';
export { type AudioFormat, detectAudioFormat } from './encoding/audio-format';
export { utf8ByteLength } from './encoding/utf8';
export { invalidRequest } from './errors/errors';
export { parseRetryAfter } from './http/retry-after';
export { readUsage, type UsageCounts } from './protocol/read-usage';
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
} from './services/service-tools';
export { splitBatches } from './services/split-embedding-batches';
export { validateTranslationRequest } from './services/validate-translation';
