// docs/gateway-protocol.md §5.5 (a stream lost before its first bytes is retried as a lost
// connection), §5.3 (a JSON error answered instead of a stream).
import type { CallScope } from '../call/call-scope';
import { describeCause, GatewayError, gatewayFailure, isGatewayError } from '../errors/errors';
import { invalidResponse } from '../errors/invalid-response';
import { errorBodyLimit, readErrorBody } from './answer-errors';
import {
  type AnswerStatus,
  type AttemptAnswer,
  type AttemptRequest,
  ownAbort,
} from './attempt-policy';
import { keptErrorBody } from './kept-error-body';
import { parseErrorResponse } from './parse-error-response';
import { webBody } from './read-bounded-body';
import { reportedFailure } from './reported-failure';
import { reportedInsteadOfContent } from './reported-instead';

/** What reading a stream's first bytes needs of its attempt. */
export interface StreamAttempt {
  path: string;
  request: AttemptRequest;
  scope: CallScope;
  maxErrorBodyBytes: number;
  /** Most bytes of a JSON body read for the failure it reports (unset: `maxErrorBodyBytes`). */
  maxResponseBytes?: number;
  /** The client's longest acceptable `Retry-After`, for a failure reported instead of a stream. */
  maxRetryAfterMs?: number;
  redact: (text: string) => string;
  apiKey: string;
  /** The attempt's answer as it comes: a body read to its end for its failure is told here. */
  answer: AnswerStatus;
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
  // A body labelled JSON or HTML is read as a stream when it starts as one (as the AI SDK's and
  // openai-node's readers read it): its first bytes decide. One labelled a stream (or not at all)
  // that starts as JSON instead is read as JSON too: a bare `{"error": …}` keeps its failure.
  const contentType = response.headers.get('content-type') ?? '';
  const labelled = notAStreamKind(contentType);
  const body = webBody(response);
  if (isGatewayError(body)) return body;
  const reader = body?.getReader();
  if (!reader) {
    if (labelled) return notAStream(response, labelled, attempt);
    return lostStream(response, asked.requestedModel);
  }
  // Some fetch handlers only close (or never end) a body on abort: cancel the read ourselves.
  const signal = request.signal ?? scope.signal;
  const onAbort = () => reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  // The start is read until it tells whether it is a stream (a stream's first read: `data:`).
  let start = '';
  let stream: boolean | undefined;
  try {
    do {
      const next = await reader.read();
      if (scope.aborted) throw scope.error(asked);
      const stalled = ownAbort(request);
      if (stalled) return stalled;
      if (next.done) break;
      chunks.push(next.value);
      // (Its first 2 KiB tell: a body handed over in one large chunk is not decoded whole here.)
      start += new TextDecoder().decode(next.value.subarray(0, 2048));
      stream = startsAsEventStream(start);
    } while (stream === undefined);
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
  if (labelled && !stream) return notAStream(response, labelled, attempt, reader, chunks);
  // (Labelled a stream, a body starting as JSON holds no event the decoder could read: an object,
  // or Google's one-item list of one.)
  if (stream === false && /^[[{]/.test(start.trimStart())) {
    const kind = `JSON labelled ${contentType === '' ? 'with no content type' : contentType}`;
    return notAStream(response, kind, attempt, reader, chunks);
  }
  if (chunks.length === 0) return lostStream(response, asked.requestedModel);
  return { response, reader, chunks };
}

/**
 * Whether a body's start reads as an event stream (a field line or a comment, after blank lines);
 * undefined: the next bytes tell.
 */
export function startsAsEventStream(start: string): boolean | undefined {
  const text = start.trimStart();
  if (/^(?::|(?:data|event|id|retry)[:\r\n])/.test(text)) return true;
  // Blanks, or a field's name cut by the read (past 1 KiB of blanks: no stream).
  return /^[a-z]{0,5}$/.test(text) && start.length <= 1024 ? undefined : false;
}

/**
 * A 2xx body labelled other than a stream that does not start as one: the JSON failure it reports
 * (`reportedInstead`), else `invalid_response` with its body (read up to `maxErrorBodyBytes`;
 * `chunks`: its bytes `reader` read already); returned: the attempt's stall while it is read.
 */
async function notAStream(
  response: Response,
  kind: string,
  attempt: StreamAttempt,
  reader?: ReadableStreamDefaultReader<Uint8Array>,
  chunks: Uint8Array[] = [],
): Promise<GatewayError> {
  const requestedModel = attempt.request.requestedModel;
  const whole = reader
    ? new Response(
        new ReadableStream<Uint8Array>({
          pull: async (controller) => {
            const next = chunks.length > 0 ? { value: chunks.shift() } : await reader.read();
            if (next.value) controller.enqueue(next.value);
            else controller.close();
          },
          cancel: (reason) => reader.cancel(reason),
        }),
        response,
      )
    : response;
  // Read under the attempt's signal (its first-content clock, the call's deadline): a body that
  // never ends fails the attempt as a stall or the call at its deadline, whatever fetch does.
  const signal = attempt.request.signal ?? attempt.scope.signal;
  // A body that starts as JSON is read within the answer's bound, not the kept body's, as the
  // same 200 to chat() is read whole: its failure's code is read from the whole JSON, so it does
  // not depend on the length of the server's words (the body kept cut: `reportedInstead`).
  const { maxErrorBodyBytes, maxResponseBytes = maxErrorBodyBytes } = attempt;
  const limit = errorBodyLimit(attempt, maxResponseBytes);
  const text = await readErrorBody(whole, limit, signal).catch(() => '');
  // (A stall is the attempt's outcome, as before the first bytes; the call's end ends it.)
  const stalled = ownAbort(attempt.request);
  if (stalled) return stalled;
  if (attempt.scope.aborted) throw attempt.scope.error({ requestedModel });
  // Read (within maxErrorBodyBytes, as an error status's body): the request finished, its slot
  // comes back at once, not held as a cut one's.
  attempt.answer.readToEnd = true;
  const reported = reportedInstead(response, text, attempt, requestedModel);
  // (The attempt's failure, as the same body to chat() is: its policy says what follows.)
  if (reported) return reported;
  throw invalidResponse(`Asked for a stream, the gateway answered with ${kind}`, {
    status: response.status,
    body: attempt.redact(keptErrorBody(text, maxErrorBodyBytes)),
    requestedModel,
  });
}

/**
 * The failure a JSON body reports instead of a stream (`{"error": …}`), read by the reader of a
 * whole answer's (`reportedFailure`, §5.3): the same body gives the same code, words and type
 * either way (TGI's `{"error": "<words>", "error_type"}` included). Its status, raw body, parsed
 * data and headers are kept as an error answer's are (the key redacted). Undefined: no failure.
 */
function reportedInstead(
  response: Response,
  text: string,
  attempt: StreamAttempt,
  requestedModel: string | undefined,
): GatewayError | undefined {
  const read = parseErrorResponse(response.status, response.headers, text, {
    requestedModel,
    secret: attempt.apiKey,
  });
  const reported = reportedFailure(read.data, read.body ?? '');
  if (reported === undefined) return undefined;
  const { status, responseHeaders, retryAfterMs, servedModel } = read;
  // Kept as an error answer's body is: up to `maxErrorBodyBytes`, its data only when kept whole.
  const body = keptErrorBody(read.body ?? '', attempt.maxErrorBodyBytes);
  const data = body === read.body ? read.data : undefined;
  const kept = { status, body, data, responseHeaders, retryAfterMs, servedModel };
  const error = new GatewayError({ ...kept, requestedModel, ...reported });
  return reportedInsteadOfContent(error, response.headers, attempt.maxRetryAfterMs);
}

/**
 * What a successful answer's type says it is when it cannot be an event stream: JSON, or an HTML
 * page (a proxy's or a login page, which would otherwise read as a stream ended before any event),
 * unless its body starts as a stream. Other types are read as a stream: some servers label theirs
 * `text/plain` or not at all.
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
