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
import { unwatchEnd, watchEnd } from './read-bounded-body';
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
}

/**
 * Sends one request and returns its 2xx answer (a stream's with its first bytes read), or the
 * error a retry may follow: a gateway error answer (its status mapped, its body read within its
 * bounds: answer-errors.ts), a network error before the first byte, the attempt's own abort. Throws
 * what ends the call at once (the call's own abort, a stream answered with JSON). `onHeaders`: a
 * stream's 2xx answer, told as its headers come (the call's hook: not part of the data sent).
 */
export async function sendOnce(
  sending: Sending,
  config: SendConfig,
  onHeaders?: StreamHeadersHook['onHeaders'],
): Promise<AttemptAnswer | GatewayError> {
  const { spec, request, scope } = sending;
  const requestedModel = request.requestedModel;
  let response: Response;
  try {
    response = await fetchedUnlessAborted(sending, config);
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
      onHeaders?.({ status: response.status, headers: response.headers });
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

/**
 * The fetch's answer, or its signal's reason as soon as that aborts: a custom fetch may not listen
 * to its signal (a wrapper, a mock, a polyfill), and the call's deadline or abort must not wait for
 * it. The fetch given up on may still have its request at the gateway, which counts it: its
 * settling is kept in `answerStatus.abandoned` (the key's slot is kept until then, a bound at
 * most: slot-source.ts), and a Response it still brings has its body cancelled, freeing the connection.
 */
function fetchedUnlessAborted(
  { spec, request, headers, scope, answerStatus }: Sending,
  config: SendConfig,
): Promise<Response> {
  const signal = request.signal ?? scope.signal;
  // Called as a plain function: a runtime's own fetch refuses another `this` (browsers, workerd).
  const fetchImpl = config.fetch;
  const sent = fetchImpl(`${config.baseURL}${spec.path}`, {
    method: spec.method,
    headers,
    body: request.body,
    signal,
  });
  // (A custom fetch may return a non-promise: awaited as before. A native promise is not copied.)
  const settling = Promise.resolve(sent);
  // Watched as a body's read is (read-bounded-body.ts): the call's scope, unless the attempt has a
  // signal of its own; the race is the only way to stop waiting.
  const end = request.signal ?? scope;
  return new Promise((resolve, reject) => {
    const giveUp = () => {
      answerStatus.abandoned = settling.then(cancelBody, ignoreFailure);
      reject(signal.reason);
    };
    watchEnd(end, giveUp);
    // (Unwatched before the answer goes on: its error body's read watches the scope next.)
    settling.then(
      (response) => {
        unwatchEnd(end, giveUp);
        resolve(response);
      },
      (error: unknown) => {
        unwatchEnd(end, giveUp);
        reject(error);
      },
    );
  });
}

/** Frees the connection of an answer no one will read (a fetch given up on). */
function cancelBody(response: Response | undefined): void {
  try {
    response?.body?.cancel().catch(ignoreFailure);
  } catch {
    // (A body of a custom fetch's own making may not be a stream: nothing to free.)
  }
}

/** An abandoned fetch's failure is no one's: the call ended with its own error. */
function ignoreFailure(): void {}
