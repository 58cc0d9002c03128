/**
 * `@infergate/core/internal`: what the infergate adapters (`@infergate/langchain`,
 * `@infergate/ai-sdk`, `@infergate/mcp`), `@infergate/redis`'s tests and the benchmarks share with
 * core, and nothing else: request building, the capability gate's pieces, stream decoding, usage
 * and finish reason reading, the service tools. UNSTABLE: no semver promise; any release may change
 * or remove a name. Applications use the main entry (`@infergate/core`).
 */
export { budgetId } from './budget/budget-id';
export { callEndedError } from './call/call-scope';
export { capabilitiesOf, capabilityError, checkCapabilities } from './catalog/model-capabilities';
export { readChatCompletion } from './chat/assemble-chat';
export { buildChatRequest, type ChatRequestOptions } from './chat/build-chat-request';
export { classifyFinishReason, type FinishReasonKind } from './chat/classify-finish-reason';
export { mediaPart } from './chat/content-parts';
export { ChatStreamDecoder } from './chat/stream/chat-stream-decoder';
export { utf8ByteLength } from './encoding/utf8';
export { invalidRequest } from './errors/errors';
export { invalidResponse } from './errors/invalid-response';
export { isRetryableWithin, parseRetryAfter, RETRY_DEFAULTS } from './http/retry-policy';
export { ENDPOINTS, isServiceOffered, SERVICE_OF_TOOL } from './protocol/endpoints';
export { readUsage } from './protocol/read-usage';
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
