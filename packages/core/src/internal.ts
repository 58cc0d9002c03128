/**
 * `@infergate/core/internal`: what the sources of the published infergate packages
 * (`@infergate/langchain`, `@infergate/ai-sdk`, `@infergate/mcp`, `@infergate/redis`),
 * `@infergate/redis`'s tests, the runtime matrix (test/runtimes) and the benchmarks share with core, and nothing else: request
 * building, the option checks, the capability gate's pieces, stream decoding, usage and finish
 * reason reading, base64, the service tools, redacting the key, the monotonic clock every timing
 * is measured on. UNSTABLE: no semver promise; any release may change or remove a name. Applications use the main entry
 * (`@infergate/core`). test/internal-surface.test.ts checks that every name has such a user.
 */
export { budgetId } from './budget/budget-id';
export { redisUrlFault } from './budget/redis-url-form';
export { REQUEST_BOUND_TIMING } from './budget/request-bound-semaphore';
export {
  CALL_OPTIONS,
  checkCallOptions,
  readCapabilityList,
  refuseCallOptionsInRequest,
} from './call/call-options';
export { callEndedError } from './call/call-scope';
export { withDeadlineStarted } from './call/deadline-start';
export { joinedSignal } from './call/joined-signal';
export { monotonicNow } from './call/monotonic-clock';
export {
  describeGiven,
  type EveryKey,
  kindOf,
  type ListsEveryKey,
  optionKeys,
  readFlags,
  readNumber,
  refusal,
  refuseNearMisses,
  refuseOptionsInRequestFields,
  refuseUnknownOptions,
} from './call/option-groups';
export { readHedge } from './call/steering-option-values';
export { MAX_TIMEOUT_MS } from './call/timer-limit';
export { RECHECK_MIN_MS } from './catalog/catalog-watch';
export { failedReadPath } from './catalog/failed-read';
export { capabilitiesOf, checkCapabilities } from './catalog/model-capabilities';
export {
  buildChatRequest,
  type ChatRequestOptions,
  streamedChatRequest,
} from './chat/build-chat-request';
export { classifyFinishReason, type FinishReasonKind } from './chat/classify-finish-reason';
export { mediaPart } from './chat/content-parts';
export { readMessagePieces } from './chat/read-message-parts';
export { namingSendReasoning, sendsReasoningBack } from './chat/reasoning-sent-back';
export {
  isBlankArguments,
  readToolArguments,
  type ToolArguments,
} from './chat/tool-arguments';
export {
  thoughtSignatureContent,
  thoughtSignatureOf,
  toolCallOf,
} from './chat/tool-call-extra';
export { validateChatRequest } from './chat/validate-chat';
export { steersCall } from './client/client';
export {
  apiKeyOrEnv,
  normalizeBaseURL,
  refuseClientOptionsInRequestFields,
  settingsFound,
} from './client/options';
export { withSettingNames } from './client/setting-names';
export { encodeBase64 } from './encoding/base64-bytes';
export { utf8ByteLength } from './encoding/utf8';
export { closeMatches } from './errors/close-names';
export { errorFacts, invalidRequest, keyKeptOut } from './errors/errors';
export { clip, escapeControl, quotedName } from './errors/escape-control';
export { invalidResponse } from './errors/invalid-response';
export { lazily } from './errors/load-lazily';
export { redactKey, redactValue } from './errors/redact-secret';
export { isWorthNewCall } from './errors/retryable-failure';
export { isRetryableWithin, RETRY_DEFAULTS } from './http/retry-policy';
export { callUsage } from './protocol/call-usage';
export { ENDPOINTS, isServiceOffered, SERVICE_OF_TOOL } from './protocol/endpoints';
export { joinTextParts } from './protocol/joined-text';
export { readUsage } from './protocol/read-usage';
export { sentRequest } from './protocol/sent-request';
export { asksSeveralChoices } from './protocol/several-choices';
export {
  type OcrToolArguments,
  type ServiceToolName,
  type ServiceToolOptions,
  serviceToolDefinition,
  type ToolParametersSchema,
  type TranscribeToolArguments,
  type TranslateToolArguments,
} from './services/service-tools';
export { runSiblingRequests } from './services/sibling-requests';
export {
  type ListedCapabilities,
  listedCapabilities,
  planChatCall,
  streamsOptionally,
} from './steering/chat-call-plan';
export {
  readCircuitBreaker,
  readSteering,
  refuseUnsentHedge,
  refuseUnsentModelHedge,
} from './steering/steering-options';
