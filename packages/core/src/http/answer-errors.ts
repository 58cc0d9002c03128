// docs/gateway-protocol.md §10.1 (error body), §10.3 (bodies that are not the gateway's).
// The errors of a request that gave no usable 2xx answer: an error answer (read up to
// `ERROR_JSON_READ_BYTES` when it starts as JSON, else up to `maxErrorBodyBytes`, then parsed:
// parse-error-response.ts; read under the attempt's clock), a body
// over `maxResponseBytes`, a gateway not reached. A stream lost before its first byte:
// stream-first-bytes.ts.
import type { CallScope } from '../call/call-scope';
import { describeCause, GatewayError, isGatewayError } from '../errors/errors';
import { isRetryableStatus } from '../errors/retryable-failure';
import { corsHint } from './cors-hint';
import { cutNote } from './kept-error-body';
import { parseErrorResponse } from './parse-error-response';
import { readBoundedBody } from './read-bounded-body';

/** What the answer's errors name: the request's path and model. */
interface Asked {
  path: string;
  requestedModel?: string;
  /**
   * The attempt's own signal (its first-content clock, following the call's): the body is read
   * under it, so a body that trickles ends as the attempt's stall and the policy goes on, as a
   * stream's first bytes do (stream-first-bytes.ts). Unset: the call's.
   */
  signal?: AbortSignal;
}

/** The bounds an error answer's body is read within (`SendConfig`'s). */
export interface ErrorBodyBounds {
  /** Most bytes of its raw body kept on the error. */
  maxErrorBodyBytes: number;
  /** Most bytes of a JSON body read for its code (unset: `maxErrorBodyBytes`). */
  maxResponseBytes?: number;
}

/**
 * The error of a non-2xx answer, from its body (the key redacted). Its code, words and type are
 * read from the JSON up to `ERROR_JSON_READ_BYTES` (`errorBodyLimit`), so they do not depend on
 * the length of the server's words; its raw body is kept up to `maxErrorBodyBytes`, the cut
 * marked, its data only when whole. A retryable status's body is read under the attempt's own
 * signal: a read it ended (a stall) returns that stall, the attempt's failure, whose next step is
 * the attempt policy's; any other status's under the call's, its error its status's.
 */
export async function errorFromAnswer(
  response: Response,
  asked: Asked,
  scope: CallScope,
  bounds: ErrorBodyBounds,
  apiKey: string,
  maxRetryAfterMs: number,
): Promise<GatewayError> {
  // A status no attempt retries (401, 403, 400...) is read under the call's signal only: a stall
  // on its body must not turn an auth error into a retried one.
  const attempt = isRetryableStatus(response.status) ? asked.signal : undefined;
  let text: string;
  try {
    text = await readErrorBody(response, errorBodyLimit(bounds), attempt ?? scope.signal);
  } catch (cause) {
    const reason = attempt?.reason;
    if (!scope.aborted && attempt?.aborted && isGatewayError(reason)) return reason;
    const what = `The gateway answered HTTP ${response.status} but its body`;
    return unreadBody(what, response, asked, scope, cause);
  }
  return parseErrorResponse(response.status, response.headers, text, {
    requestedModel: asked.requestedModel,
    secret: apiKey,
    maxRetryAfterMs,
    maxBodyBytes: bounds.maxErrorBodyBytes,
  });
}

/**
 * Most bytes of an error body that starts as JSON read for its code (1 MiB, or `maxErrorBodyBytes`
 * when larger; never past `maxResponseBytes`). A gateway's error object with words past 1 MiB is
 * not seen in practice; reading on to `maxResponseBytes` (32 MiB by default) would let one error
 * answer take that memory and time on every retry. (A 2xx's JSON failure is read within
 * `maxResponseBytes`, as its whole answer is: stream-first-bytes.ts.)
 */
export const ERROR_JSON_READ_BYTES = 1024 * 1024;

/**
 * How far an error body (an error status's, a 2xx's reporting a failure) is read, from its first
 * bytes: one that starts as JSON up to `json` bytes (an error status's: `ERROR_JSON_READ_BYTES`
 * within `maxResponseBytes`; a 2xx's: its caller's), for its code is read from the JSON; any
 * other up to the kept bound (`maxErrorBodyBytes`), as nothing in it is read but its start.
 */
export function errorBodyLimit(
  bounds: ErrorBodyBounds,
  json = errorJsonBytes(bounds),
): (first: Uint8Array) => number {
  const { maxErrorBodyBytes } = bounds;
  return (first) =>
    /^\s*[[{]/.test(decoder.decode(first.subarray(0, 2048)))
      ? Math.max(json, maxErrorBodyBytes)
      : maxErrorBodyBytes;
}

/** `ERROR_JSON_READ_BYTES`, or `maxErrorBodyBytes` when larger, never past `maxResponseBytes`. */
function errorJsonBytes(bounds: ErrorBodyBounds): number {
  const { maxErrorBodyBytes, maxResponseBytes = maxErrorBodyBytes } = bounds;
  return Math.min(Math.max(ERROR_JSON_READ_BYTES, maxErrorBodyBytes), maxResponseBytes);
}

const decoder = new TextDecoder();

/**
 * `network_error` for a body that failed while read (`what` could not be read), or the call's own
 * end when that is why, or the refusal of a body that is not a web stream (`webBody`).
 */
export function unreadBody(
  what: string,
  response: Response,
  asked: { requestedModel?: string },
  scope: CallScope,
  cause: unknown,
): GatewayError {
  if (scope.aborted) return scope.error({ requestedModel: asked.requestedModel });
  // (A body that is not a web stream: the `fetch` option's fault, told as such: `webBody`.)
  if (isGatewayError(cause) && cause.code === 'configuration_error') return cause;
  return new GatewayError({
    code: 'network_error',
    status: response.status,
    message: `${what} could not be read: ${describeCause(cause)}`,
    requestedModel: asked.requestedModel,
    cause,
  });
}

/**
 * An error body's first `limit` bytes; a longer one is cut and says so at its end, the cut marked
 * (`…`) so that a start of the key the cut leaves is redacted with the body (redact-secret.ts).
 */
export async function readErrorBody(
  response: Response,
  limit: number | ((first: Uint8Array) => number),
  signal?: AbortSignal,
): Promise<string> {
  const { text, truncated, bytes } = await readBoundedBody(response, limit, signal);
  return truncated ? `${text}${cutNote(bytes)}` : text;
}

/** `response_too_large` for a body over `maxResponseBytes`. */
export function tooLarge(
  response: Response,
  asked: Asked,
  limit: number,
  declared?: number,
): GatewayError {
  return new GatewayError({
    code: 'response_too_large',
    status: response.status,
    message: `The ${asked.path} answer is larger than maxResponseBytes (${limit} bytes)${
      declared === undefined ? '' : `: Content-Length ${declared}`
    }; it was not read further`,
    requestedModel: asked.requestedModel,
  });
}

/** `network_error` for a request that reached no gateway (fetch threw). */
export function unreachable(
  baseURL: string,
  requestedModel: string | undefined,
  cause: unknown,
): GatewayError {
  return new GatewayError({
    code: 'network_error',
    message: `Could not reach the gateway at ${baseURL}: ${describeCause(cause)}${corsHint()}`,
    requestedModel,
    cause,
  });
}
