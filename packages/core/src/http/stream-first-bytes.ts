// docs/gateway-protocol.md §5.5 (a stream lost before its first bytes is retried as a lost
// connection), §5.3 (a JSON error answered instead of a stream).
import type { CallScope } from '../call/call-scope';
import { describeCause, GatewayError, gatewayFailure, isGatewayError } from '../errors/errors';
import { invalidResponse } from '../errors/invalid-response';
import { isJsonObject } from '../protocol/json-object';
import { readErrorBody } from './answer-errors';
import { type AttemptAnswer, type AttemptRequest, ownAbort } from './attempt-policy';
import { parseErrorResponse } from './parse-error-response';
import { reportedFailure } from './reported-failure';

/** What reading a stream's first bytes needs of its attempt. */
export interface StreamAttempt {
  path: string;
  request: AttemptRequest;
  scope: CallScope;
  maxErrorBodyBytes: number;
  redact: (text: string) => string;
  apiKey: string;
}

/**
 * A stream's first bytes, read before its answer is handed over (send-once.ts): a body that fails
 * or ends before them is a retryable error, and so is one the attempt's own signal aborted (a
 * stall).
 */
export async function readFirstBytes(
  response: Response,
  attempt: StreamAttempt,
): Promise<AttemptAnswer | GatewayError> {
  const { scope, request } = attempt;
  const asked = { requestedModel: request.requestedModel };
  const notAStream = notAStreamKind(response.headers.get('content-type') ?? '');
  if (notAStream !== undefined) {
    const body = await readErrorBody(response, attempt.maxErrorBodyBytes).catch(() => '');
    const reported = reportedInstead(response, body, attempt, asked.requestedModel);
    if (reported) throw reported;
    throw invalidResponse(`Asked for a stream, the gateway answered with ${notAStream}`, {
      status: response.status,
      body: attempt.redact(body),
      requestedModel: asked.requestedModel,
    });
  }
  const reader = response.body?.getReader();
  if (!reader) return lostStream(response, asked.requestedModel);
  // Some fetch handlers only close (or never end) a body on abort: cancel the read ourselves.
  const signal = request.signal ?? scope.signal;
  const onAbort = () => reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const first = await reader.read();
    if (scope.aborted) throw scope.error(asked);
    const stalled = ownAbort(request);
    if (stalled) return stalled;
    if (first.done) return lostStream(response, asked.requestedModel);
    return { response, reader, chunks: [first.value] };
  } catch (cause) {
    if (scope.aborted) throw scope.error(asked);
    // (A stalled read may reject with the stall itself: it is the attempt's outcome.)
    const stalled = ownAbort(request);
    if (stalled) return stalled;
    if (isGatewayError(cause)) throw cause;
    return lostStream(response, asked.requestedModel, cause);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The failure a JSON body reports instead of a stream (`{"error": …}`), read by the reader of a
 * whole answer's (`reportedFailure`, §5.3): the same body gives the same code, words and type
 * either way (TGI's `{"error": "<words>", "error_type"}` included). Its status, raw body, parsed
 * data and headers are kept as an error answer's are (the key redacted). Undefined: no failure.
 */
function reportedInstead(
  response: Response,
  body: string,
  attempt: StreamAttempt,
  requestedModel: string | undefined,
): GatewayError | undefined {
  const read = parseErrorResponse(response.status, response.headers, body, {
    requestedModel,
    secret: attempt.apiKey,
  });
  const data = isJsonObject(read.data) ? read.data : undefined;
  const reported = data?.error == null ? undefined : reportedFailure(data, read.body ?? '');
  if (reported === undefined) return undefined;
  const { status, responseHeaders, retryAfterMs, servedModel } = read;
  const kept = { status, body: read.body, data, responseHeaders, retryAfterMs, servedModel };
  return new GatewayError({ ...kept, requestedModel, ...reported });
}

/**
 * What a successful answer's type says it is when it cannot be an event stream: JSON, or an HTML
 * page (a proxy's or a login page, which would otherwise read as a stream ended before any event).
 * Other types are read as a stream: some servers label theirs `text/plain` or not at all.
 */
function notAStreamKind(contentType: string): string | undefined {
  if (contentType.includes('application/json')) return 'JSON';
  if (contentType.includes('text/html')) return `an HTML page (${contentType})`;
  return undefined;
}

/** A stream that failed or ended before its first byte: retryable, like a lost connection. */
function lostStream(response: Response, requestedModel?: string, cause?: unknown): GatewayError {
  return gatewayFailure(
    {
      code: 'network_error',
      status: response.status,
      message: `The stream ended before its first byte${cause === undefined ? '' : `: ${describeCause(cause)}`}`,
      requestedModel,
      cause,
    },
    { beforeFirstBytes: true },
  );
}
