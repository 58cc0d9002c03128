// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription): service tools' runs.
/**
 * `@infergate/core/internal/service-tools`: a service tool's arguments checked and mapped to the
 * service's request, for the adapters' tool runs (their definitions are in
 * `@infergate/core/internal`). An entry of its own so that an app that makes tools at start loads
 * this only when a model calls one. Also core's refusal of a field named as an adapter's caller
 * gave it (`withCallerFieldNames`, for the service helpers), every check a tool call passes
 * before the network (`serviceToolCallProblem`), the translation's language check for a caller
 * that fixes the languages up front (`validateTranslationLanguages`), `embedMany`'s checks run
 * without a call (`checkEmbedMany`), the engine an embeddings object keeps
 * (`EmbeddingEnginePin`) and its settings' check as it is made (`checkEmbeddingsSettings`), the vectors an `embedMany` retried as a whole keeps between its tries
 * (`KEPT_VECTORS`; `FAILED_BATCHES`: which of its requests were sent and failed), the options an engine does not take (`droppedEmbeddingOptions`): code the adapters load with a service call, kept out of a chat-only
 * app's start. UNSTABLE, as `internal` is.
 */

export { withCallerFieldNames } from './services/caller-field-names';
export { checkEmbedMany } from './services/check-embed-many';
export {
  type DroppedEmbeddingOption,
  droppedEmbeddingOptions,
} from './services/dropped-embedding-options';
export { EmbeddingEnginePin } from './services/embedding-engine-pin';
export { checkEmbeddingsSettings } from './services/embeddings-settings';
export { FAILED_BATCHES, type FailedBatchesOption } from './services/in-flight-kept';
export { KEPT_VECTORS, type KeptVectorsOption } from './services/kept-vectors';
export {
  serviceToolArgumentsProblem,
  serviceToolCallProblem,
  serviceToolRequest,
} from './services/service-tool-arguments';
export { validateTranslationLanguages } from './services/service-tools';
