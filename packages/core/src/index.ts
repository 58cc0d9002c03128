/**
 * `@infergate/core`: what applications call — the client factory, the error type and codes, the
 * key budget, the gateway's limits, and the public types. Its declarations are snapshotted in
 * `api/index.d.ts` (test/api-report.test.ts), so a change to this surface is deliberate. Helpers
 * for adapters live in `@infergate/core/internal` (unstable).
 */

export {
  type BudgetAcquireRequest,
  type BudgetLease,
  createInProcessBudget,
  type KeyBudget,
} from './budget/concurrency-budget';
export { requiredCapabilities } from './chat/validate-chat';
export { createGatewayClient, type GatewayClient } from './client/client';
export type * from './client/client-types';
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
} from './errors/errors';
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
} from './events/gateway-events';
export { LANGUAGE_CODE, LIMITS } from './protocol/limits';
export { isMultilingualEngine } from './protocol/multilingual-engine';
export type * from './protocol/wire-types';
