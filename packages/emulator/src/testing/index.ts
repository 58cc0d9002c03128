export { type BudgetSeen, budgetSeen } from './budget-seen';
export {
  chatChunkJson,
  chatCompletion,
  chatSse,
  failingAfterContentSse,
  idOnlyToolCallsSse,
  indexlessChoicesSse,
  repeatedFinishSse,
  type StreamChunk,
  twoChoicesAnswer,
  twoTextChoicesSse,
  unheadedAnswer,
  weatherCall,
} from './canned-answers';
export { caught } from './caught';
export { CLAIMED_MODEL, withClaimedModel } from './claimed-model';
export {
  CORE_OUTCOMES,
  type CoreDeferReason,
  type CoreErrorCode,
  type CoreOutcome,
  type CoreOutcomeError,
  type CoreOutcomeFailedRoute,
  type CoreOutcomeHop,
  type CoreOutcomeRoute,
  type CoreOutcomeSteering,
  type CoreSkipReason,
  coreOutcomesOf,
} from './core-outcomes';
export { type DrivenClock, drivenClock, type FakeTimers, oneRealTurn } from './driven-clock';
export {
  type DroppedStreamsCheck,
  type DroppedStreamsSeen,
  droppedStreamsCheck,
} from './dropped-streams-check';
export {
  type EmulateAs,
  type EmulatedGateway,
  type EmulateOptions,
  emulate,
  type GatewayConnection,
} from './emulate';
export { withFailingStructuredModels, withJsonModeModels } from './failing-structured-models';
export { hugeErrorIn200 } from './huge-error-in-200';
export { keyEchoingFetch } from './key-echoing-fetch';
export { refusedAfterFinish } from './refused-after-finish';
export {
  chatsAnsweredBy,
  choiceZeroChunk,
  oneMessageAnswer,
  readSplits,
  type ScriptedChatBody,
  sseReadByRead,
  streamedAnswer,
} from './scripted-answers';
export { type SteppedClock, steppedClock } from './stepped-clock';
export {
  partsOnly,
  totalOnly,
  type UsageShape,
  usageReshapedFetch,
  withOffSchemaModel,
} from './usage-shapes';
export * from './wait-for-state';
export { type WatchedChatReads, watchedChatReads } from './watched-chat-reads';
export {
  OFF_SCHEMA_THINKING_PIECES,
  WRAPPED_JSON_MODELS,
  withWrappedJsonModels,
} from './wrapped-json-models';
