// docs/gateway-protocol.md §10.5 (which failures are retried), §5.3 and §5.5 (nothing is replayed
// once an answer has begun, except a stream lost before its first bytes).
/**
 * Which failures are retryable: the half of core's retry policy that `GatewayError` applies when
 * it is made, so its `isRetryable` is decided here and nowhere else. How long to wait before the
 * next attempt, and the retry defaults, are the other half (http/retry-policy.ts); which failures
 * move a steered call to its next model, the steering's (steering/failover-reason.ts).
 */

/**
 * The longest `Retry-After` worth waiting for, unless the client sets `maxRetryAfterMs`: `ai` and
 * openai-node wait at most about a minute too.
 */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * HTTP answers worth another attempt: every 429 (the spec: retryable), a 408 and a 409 (the
 * server's timeout, a conflict of the moment) and every 5xx — the spec keeps a model server's own
 * status (CDN and proxy ones too: 520–524, 529 overloaded), so the gateway's list of statuses is
 * not all a call meets; the AI SDK's own providers retry the same set. Except the 5xx a resend
 * cannot change: 501 (the server does not implement the request) and 505 (nor its HTTP version).
 */
export const isRetryableStatus = (status: number): boolean =>
  status === 429 ||
  status === 408 ||
  status === 409 ||
  (status >= 500 && status <= 599 && status !== 501 && status !== 505);

/**
 * A retryable status that says the model's side failed or could not take the call (a 502 to 504,
 * a 408, a 409, a model server's or its proxy's 520–529): the statuses a steered call moves to its
 * next model on and a circuit breaker counts (steering/failover-reason.ts, circuit-breaker.ts),
 * derived from the retry rule above so the three never disagree. Not a 429 (read by its code: a
 * busy model moves on, the key's own limit does not; full is not broken) nor a 500 (retried on the
 * same model, docs §4.7 rule 3).
 */
export const isServerFailureStatus = (status: number): boolean =>
  status !== 429 && status !== 500 && isRetryableStatus(status);
/** Failures without an HTTP error status, by code (`network_error` before the first byte, ...). */
const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  'model_busy',
  'client_concurrency_exceeded',
  'all_providers_failed',
  'provider_unavailable',
  'request_timeout',
  'network_error',
  // A lazily loaded part of core that failed to load (a chunk request failing in a browser): the
  // next call loads it again (errors/load-lazily.ts); core itself does not retry it within a call.
  'client_code_unavailable',
]);

/** A failure as the policy reads it: the error's own fields (`code`: a `GatewayErrorCode`). */
export interface Failure {
  code: string;
  status?: number;
  retryAfterMs?: number;
  /** A stall timeout's phase (`timeout` errors of `firstChunkTimeoutMs` / `chunkTimeoutMs`). */
  stall?: { phase: 'first-chunk' | 'between-chunks' };
}

/** What the policy needs beyond the error's fields, known only where the transport makes it. */
export interface FailureContext {
  /** The client's longest acceptable `Retry-After` (default `DEFAULT_MAX_RETRY_AFTER_MS`). */
  maxRetryAfterMs?: number;
  /** A 2xx stream whose body failed or ended before its first bytes: it counts as no answer (§5.5). */
  beforeFirstBytes?: boolean;
  /**
   * A 2xx whose body reported a failure instead of any content (a whole body that is an error
   * object, a stream whose first event is one): no answer was given, so it is retried by its code
   * as the same failure without an answer would be (§5.3, §10.5).
   */
  reportedInstead?: boolean;
}

/**
 * Whether a failure is retryable. Without an answer (no status), by its code. Once a 2xx answer
 * has begun, never: a failure in its body or stream reaches the caller as it is (§5.3), except a
 * stream lost before its first bytes, which counts as no answer. An HTTP error answer, by its
 * status; one whose `Retry-After` asks for longer than `maxRetryAfterMs` is not retryable
 * (waiting that long is the caller's decision: it gets the wait in `retryAfterMs`), one without a
 * readable `Retry-After` is retried after back-off.
 */
export function isRetryableFailure(failure: Failure, context: FailureContext = {}): boolean {
  const { code, status, retryAfterMs } = failure;
  // Nothing came before the first chunk: no answer, like a lost connection. Silence after it is
  // final (part of the answer was delivered).
  if (failure.stall) return failure.stall.phase === 'first-chunk';
  if (status === undefined) return RETRYABLE_CODES.has(code);
  const noAnswer = context.beforeFirstBytes === true || context.reportedInstead === true;
  if (status >= 200 && status < 300 && !noAnswer) return false;
  const maxRetryAfterMs = context.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  // Whatever the status (a 2xx that reported its failure instead of content too): an answer that
  // asks for a longer wait than the client takes is not one to resend now (rv-fix2 F7), as the
  // AI SDK adapter reads the same answer.
  const waitTaken = retryAfterMs === undefined || retryAfterMs <= maxRetryAfterMs;
  if (status < 400) return RETRYABLE_CODES.has(code) && waitTaken;
  return isRetryableStatus(status) && waitTaken;
}

/**
 * The answer's own failures once it had begun (§5.3) — a stream cut or ended without a
 * `finish_reason`, the provider failing or sending what cannot be read mid-stream, a body cut
 * short. Core does not resend them within the call (part of the answer may have reached the
 * caller), but nothing in them is the request's fault, so a new call plausibly succeeds.
 */
const ANSWER_FAILURE_CODES: readonly string[] = [
  'stream_incomplete',
  'provider_request_failed',
  'provider_protocol_error',
  'invalid_response',
];

/**
 * Whether a NEW call, the same request sent again by the caller (a framework's retry: LangChain's
 * retryability mark), plausibly succeeds where this one failed. Unlike `isRetryable` (core's own
 * retry within a call, never once an answer has begun), yes for a failure of the answer itself
 * and for a deadline (`timeout`: a new call has a new one); an HTTP error answer as `isRetryable`
 * says; no for the request's own problems (validation, capability, auth, unknown model, context
 * overflow, an off-schema answer), an abort, an answer too large.
 */
export function isWorthNewCall(failure: Failure & { isRetryable: boolean }): boolean {
  if (failure.isRetryable || failure.code === 'timeout') return true;
  const errorAnswer = failure.status !== undefined && failure.status >= 300;
  const { code } = failure;
  return !errorAnswer && (RETRYABLE_CODES.has(code) || ANSWER_FAILURE_CODES.includes(code));
}
