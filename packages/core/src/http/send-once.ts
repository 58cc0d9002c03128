// docs/gateway-protocol.md §2 (one request: its headers, its status), §5.5 (a stream's first
// bytes), §10 (an error answer read within its bounds).
import type { CallScope } from '../call/call-scope';
import type { GatewayError } from '../errors/errors';
import { invalidResponse } from '../errors/invalid-response';
import { errorFromAnswer, unreachable } from './answer-errors';
import {
  type AnswerStatus,
  type AttemptAnswer,
  type AttemptRequest,
  ownAbort,
} from './attempt-policy';
import type { RequestSpec, StreamHeadersHook } from './request-types';
import { readFirstBytes } from './stream-first-bytes';

const noResponse = (requestedModel: string | undefined) =>
  invalidResponse('The custom `fetch` resolved to no Response', { requestedModel });

/** What sending needs of the client: where, how, and the limits of what it reads. */
export interface SendConfig {
  baseURL: string;
  fetch: typeof fetch;
  apiKey: string;
  maxErrorBodyBytes: number;
  /** Most bytes of a JSON error body read for its failure (unset: `maxErrorBodyBytes`). */
  maxResponseBytes?: number;
  maxRetryAfterMs: number;
  redact: (text: string) => string;
  /** Called with every error response (the catalog refreshes on some codes). */
  onErrorResponse?: (error: GatewayError) => void;
}

/** One attempt as it is sent: the call's request, this attempt's part of it, and the headers. */
export interface Sending {
  spec: RequestSpec;
  request: AttemptRequest;
  headers: Headers | Record<string, string>;
  scope: CallScope;
  /** Written as the answer comes (its status), read by the policy and the attempt's events. */
  answerStatus: AnswerStatus;
  /** A stream's 2xx answer, told as its headers come (the call's `onHeaders`). */
  onHeaders?: StreamHeadersHook['onHeaders'];
}

/**
 * Sends one request and returns its 2xx answer (a stream's with its first bytes read), or the
 * error a retry may follow: a gateway error answer (its status mapped, its body read within its
 * bounds: answer-errors.ts), a network error before the first byte, the attempt's own abort. Throws
 * what ends the call at once (the call's own abort, a stream answered with JSON).
 */
export async function sendOnce(
  sending: Sending,
  config: SendConfig,
): Promise<AttemptAnswer | GatewayError> {
  const { spec, request, headers, scope } = sending;
  const requestedModel = request.requestedModel;
  // Called as a plain function: a runtime's own fetch refuses another `this` (browsers, workerd).
  const fetchImpl = config.fetch;
  let response: Response;
  try {
    response = await fetchImpl(`${config.baseURL}${spec.path}`, {
      method: spec.method,
      headers,
      body: request.body,
      signal: request.signal ?? scope.signal,
    });
  } catch (cause) {
    if (scope.aborted) throw scope.error({ requestedModel });
    return ownAbort(request) ?? unreachable(config.baseURL, requestedModel, cause);
  }
  // A custom fetch that forgot to return (a mock): our error, not a TypeError reading `status`.
  if (typeof response?.status !== 'number') return noResponse(requestedModel);
  sending.answerStatus.status = response.status;
  if (response.ok) {
    if (!spec.stream) return { response };
    try {
      sending.onHeaders?.({ status: response.status, headers: response.headers });
    } catch {
      // An observer's failure is the caller's, not the answer's (as `onResponse`'s): a throw here
      // left the body unread and uncancelled, holding the gateway's slot.
    }
    const { maxErrorBodyBytes, maxResponseBytes, maxRetryAfterMs, redact, apiKey } = config;
    const answer = sending.answerStatus;
    const limits = { maxErrorBodyBytes, maxResponseBytes, maxRetryAfterMs };
    const attempt = { path: spec.path, request, scope, ...limits, redact, apiKey, answer };
    return readFirstBytes(response, attempt);
  }
  const error = await errorFromAnswer(
    response,
    { path: spec.path, requestedModel, signal: request.signal },
    scope,
    config,
    config.apiKey,
    config.maxRetryAfterMs,
  );
  // (A stall while its body was read is the attempt's failure, not the gateway's answer.)
  if (error !== ownAbort(request)) config.onErrorResponse?.(error);
  return error;
}
