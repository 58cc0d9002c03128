// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription): service tools' runs.
/**
 * `@infergate/core/internal/service-tools`: a service tool's arguments checked and mapped to the
 * service's request, for the adapters' tool runs (their definitions are in
 * `@infergate/core/internal`). An entry of its own so that an app that makes tools at start loads
 * this only when a model calls one. UNSTABLE, as `internal` is.
 */
export { serviceToolArgumentsProblem, serviceToolRequest } from './services/service-tool-arguments';
