/**
 * `@infergate/core`: what applications call — the client factory, the error type and codes, the
 * key budget, the gateway's limits, and the public types. Its declarations are snapshotted in
 * `api/index.d.ts` (test/api-report.test.ts), so a change to this surface is deliberate. Helpers
 * for adapters live in `@infergate/core/internal` (unstable).
 */
export { createGatewayClient, type GatewayClient } from './client';
export type * from './client-types';
export {
  type BudgetAcquireRequest,
  type BudgetLease,
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
export { isMultilingualEngine } from './multilingual-engine';
export { requiredCapabilities } from './validate-chat';
export type * from './wire-types';
