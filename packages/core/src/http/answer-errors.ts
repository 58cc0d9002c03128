// docs/gateway-protocol.md §10.1 (error body), §10.3 (bodies that are not the gateway's).
// The errors of a request that gave no usable 2xx answer: an error answer (read whole when it
// starts as JSON, else up to `maxErrorBodyBytes`, then parsed: parse-error-response.ts), a body
// over `maxResponseBytes`, a gateway not reached. A stream lost before its first byte:
// stream-first-bytes.ts.
import type { CallScope } from '../call/call-scope';
import { describeCause, GatewayError } from '../errors/errors';
import { corsHint } from './cors-hint';
import { cutNote } from './kept-error-body';
import { parseErrorResponse } from './parse-error-response';
import { readBoundedBody } from './read-bounded-body';

/** What the answer's errors name: the request's path and model. */
interface Asked {
  path: string;
  requestedModel?: string;
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
 * read from the whole JSON (`errorBodyLimit`), so they do not depend on the length of the server's
 * words; its raw body is kept up to `maxErrorBodyBytes`, the cut marked, its data only when whole.
 */
export async function errorFromAnswer(
  response: Response,
  asked: Asked,
  scope: CallScope,
  bounds: ErrorBodyBounds,
  apiKey: string,
  maxRetryAfterMs: number,
): Promise<GatewayError> {
  let text: string;
  try {
    text = await readErrorBody(response, errorBodyLimit(bounds), scope.signal);
  } catch (cause) {
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
 * How far an error body (an error status's, a 2xx's reporting a failure) is read, from its first
 * bytes: one that starts as JSON within the answer's bound (`maxResponseBytes`, memory a success
 * answer may take anyway), for its code is read from the whole JSON; any other up to the kept
 * bound (`maxErrorBodyBytes`), as nothing in it is read but its start.
 */
export function errorBodyLimit(bounds: ErrorBodyBounds): (first: Uint8Array) => number {
  const { maxErrorBodyBytes, maxResponseBytes = maxErrorBodyBytes } = bounds;
  return (first) =>
    /^\s*[[{]/.test(decoder.decode(first.subarray(0, 2048)))
      ? Math.max(maxResponseBytes, maxErrorBodyBytes)
      : maxErrorBodyBytes;
}

const decoder = new TextDecoder();

/**
 * `network_error` for a body that failed while read (`what` could not be read), or the call's own
 * end when that is why.
 */
export function unreadBody(
  what: string,
  response: Response,
  asked: { requestedModel?: string },
  scope: CallScope,
  cause: unknown,
): GatewayError {
  if (scope.aborted) return scope.error({ requestedModel: asked.requestedModel });
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
