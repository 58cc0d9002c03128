// docs/gateway-protocol.md §4.7 (which failures move a call to its next model at once), §10.5.
/**
 * Which failed attempts of a steered call move to its next model: a steering decision, asked only
 * by the steering module (its chunk loads with a call that steers), on top of the retry policy
 * (errors/retryable-failure.ts).
 */
import {
  type Failure,
  isRetryableFailure,
  isServerFailureStatus,
} from '../errors/retryable-failure';
import type { FailoverReason } from '../protocol/chat-route';

/**
 * The gateway refusing this model (unknown, not allowed, lacking a capability the catalog
 * claimed): another model may take the call.
 */
const MODEL_REFUSALS: ReadonlySet<string> = new Set([
  'model_not_found',
  'model_not_allowed',
  'unshielded_access_required',
  'unsupported_model_capability',
]);

/**
 * A stream's error event from the provider (the gateway's codes, or an engine's own words), or a
 * held structured stream cut or ended without a finish_reason (chat/stream/structured-start.ts),
 * or a 2xx answer that cannot be read (`invalid_response`: a whole body that is not JSON, read
 * within its attempt, http/reported-in-answer.ts). A stream answered as another type (JSON, an
 * HTML page, text that is no event stream) is the gateway's or a proxy's page: it ends the call.
 */
const ANSWER_FAILURES_BEFORE_CONTENT: ReadonlySet<string> = new Set([
  'provider_request_failed',
  'provider_protocol_error',
  'upstream_error',
  'stream_incomplete',
  'invalid_response',
]);

/**
 * Why a failed attempt of a call with `fallbackModels` moves to the next listed model at once
 * (no retry wait), or undefined when it does not: "this model cannot take the call now, another
 * may". That is a stall before the first chunk, a 502/503/504 or another status the retry policy
 * reads as the server's failure (`isServerFailureStatus`: 408, 409, 520–529; whatever the body), a failure retryable by code without an answer (busy, unavailable, the gateway's time
 * limit, a connection lost before the first byte) — except `client_concurrency_exceeded`, the
 * key's limit, the same for every model —, a refusal of the model, and a 2xx answer failing
 * before its content (a stream's error or unreadable event, a whole body that is not JSON). Not a caller error, a 500
 * or a stall after the first chunk: those follow the retry rules on the same model. Asked
 * only of attempts that failed before any content reached the caller (the transport's loop).
 */
export function failoverReason(failure: Failure): FailoverReason | undefined {
  const { code, status, stall } = failure;
  if (stall) return stall.phase === 'first-chunk' ? 'first_chunk_stall' : undefined;
  if (code === 'client_concurrency_exceeded') return undefined;
  // A structured answer that failed its check: another model may keep its word (§4.8).
  if (code === 'invalid_structured_output') return code;
  if (isRetryableFailure({ code }) || MODEL_REFUSALS.has(code)) return code as FailoverReason;
  if (status !== undefined && isServerFailureStatus(status)) {
    return code === 'provider_request_failed' || code === 'provider_protocol_error'
      ? code
      : 'upstream_error';
  }
  // A 2xx answer failing before any content reached the caller (an error event, an event that
  // cannot be read, a held stream ended short, a whole body that is not JSON): the provider failed
  // as a 502 says, only after the headers (§4.7 rule 3). Not retryable (§10.5): the walk moves
  // on, never to the same model.
  if (
    status !== undefined &&
    status >= 200 &&
    status < 300 &&
    ANSWER_FAILURES_BEFORE_CONTENT.has(code)
  ) {
    return code as FailoverReason;
  }
  return undefined;
}
