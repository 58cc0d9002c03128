// docs/gateway-protocol.md §5.3 (an error event in a 200 stream), §5.5 (nothing is replayed once
// the answer began; a stream lost before any content is retried), §10.5 (retried as the same
// failure answered with its status).
import type { CallScope } from '../../call/call-scope';
import {
  describeCause,
  type GatewayError,
  gatewayFailure,
  isGatewayError,
} from '../../errors/errors';
import { completeAnswerFailure } from '../../errors/response-headers';
import { ERROR_JSON_READ_BYTES } from '../../http/answer-errors';
import type { AttemptAnswer, AttemptPolicy } from '../../http/attempt-policy';
import { READ_SLICE_BYTES } from '../../http/body-read-ahead';
import { reportedInsteadOfContent } from '../../http/reported-instead';
import { answeringModel } from '../../protocol/answering-model';
import { ChatStreamDecoder } from './chat-stream-decoder';

/** The client's bounds a stream's first event is read with. */
export interface FirstEventLimits {
  maxErrorBodyBytes: number;
  /** The longest `Retry-After` taken (a failure asking for longer is not retried). */
  maxRetryAfterMs?: number;
}

/**
 * The policy of a plain (not steered) stream: `policy`'s, and its answer taken once its first
 * event came (`firstEventFailure`): a stream that reports a failure before any content fails
 * its attempt, retried only when that failure's status would be. Read under the call's `scope`.
 */
export function acceptingFirstEvent(
  policy: AttemptPolicy,
  scope: CallScope,
  limits: FirstEventLimits,
): AttemptPolicy {
  return {
    nextAttempt: () => policy.nextAttempt?.(),
    request: (attempt, events, answer) => policy.request(attempt, events, answer),
    released: (request) => policy.released?.(request),
    next: (failure, waits, remainingMs) => policy.next(failure, waits, remainingMs),
    failed: (error) => policy.failed?.(error),
    taken: (request) => policy.taken?.(request),
    accept: (answer, request) => firstEventFailure(answer, scope, limits, request.requestedModel),
  };
}

/**
 * Reads a stream's bytes until its first content (the decoder's `answered`: a text, reasoning,
 * refusal or tool-call piece, or a finish; role-only and empty chunks are none, so an error event
 * after one is found however the bytes split across reads), keeping them in `answer.chunks` for
 * the stream that decodes them again; at most `ERROR_JSON_READ_BYTES` of them: resolves to the
 * failure it reported instead of any content (an error event, an event that cannot be read),
 * whatever its code — the attempt's failure, as a whole answer's and a steered stream's are: its
 * events say failed, a breaker counts it, and only a retryable one (`model_busy`, …:
 * errors/retryable-failure.ts) is sent again. A body cut or ended before any content (after
 * comments or role-only chunks: nothing reached the caller) is a retryable `network_error`, as one
 * lost before its first bytes is (§5.5), unless an event was left unended (data that may have been
 * content: the stream says `stream_incomplete`). Else to undefined: the answer is handed over, and
 * the stream reports what it holds (content, then an error after it) as it always did. Ends with
 * the call (`scope`).
 */
export async function firstEventFailure(
  answer: AttemptAnswer,
  scope: CallScope,
  limits: FirstEventLimits,
  requestedModel: string | undefined,
): Promise<GatewayError | undefined> {
  const reader = answer.reader;
  if (reader === undefined) return undefined;
  const { maxErrorBodyBytes, maxRetryAfterMs } = limits;
  const decoder = new ChatStreamDecoder({ assemble: false, maxErrorBodyBytes });
  const onAbort = () => reader.cancel(scope.signal.reason).catch(() => {});
  scope.signal.addEventListener('abort', onAbort, { once: true });
  let found: GatewayError | undefined;
  try {
    found = await readToFirstEvent(answer, reader, decoder, scope);
  } catch (cause) {
    // (Content decoded before the failure came first: the stream hands it out, then the failure.)
    if (!scope.aborted && decoder.answered === 0) {
      // (`[DONE]` before any content ended the stream as its body's end does.)
      found = !isGatewayError(cause)
        ? lostBeforeContent(answer, decoder, cause)
        : cause.code === 'stream_incomplete'
          ? lostBeforeContent(answer, decoder)
          : reportedInsteadOfContent(cause, answer.response.headers, maxRetryAfterMs);
    }
  } finally {
    scope.signal.removeEventListener('abort', onAbort);
  }
  if (scope.aborted) throw scope.error({ requestedModel });
  if (found === undefined) return undefined;
  const { headers } = answer.response;
  // (Named as the stream would name it: the answering model, the header's, else the chunks'.)
  const servedModel = answeringModel(headers, decoder.model, requestedModel);
  return completeAnswerFailure(found, headers, { requestedModel, servedModel });
}

/**
 * Feeds `decoder` the bytes `answer.chunks` holds, then reads on until the first content, the
 * body's end or `ERROR_JSON_READ_BYTES` held (past that the stream is handed over, and reads on as
 * it always did). Resolves to the failure of a body that ended before any content, else undefined.
 */
async function readToFirstEvent(
  answer: AttemptAnswer,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  decoder: ChatStreamDecoder,
  scope: CallScope,
): Promise<GatewayError | undefined> {
  const chunks = answer.chunks ?? [];
  answer.chunks = chunks;
  const text = new TextDecoder();
  let held = 0;
  for (const chunk of chunks) {
    feedSliced(decoder, text, chunk);
    held += chunk.byteLength;
  }
  // (Bytes with no content in them — comments, role-only or empty chunks — are held at most up
  // to an error body's read.)
  while (decoder.answered === 0 && held < ERROR_JSON_READ_BYTES) {
    const next = await reader.read();
    if (scope.aborted) return undefined;
    if (next.done) {
      // The gateway finished this request: refusing its answer cuts nothing.
      const lost = lostBeforeContent(answer, decoder);
      if (lost !== undefined) answer.readToEnd = true;
      return lost;
    }
    chunks.push(next.value);
    held += next.value.byteLength;
    feedSliced(decoder, text, next.value);
  }
  return undefined;
}

/**
 * A body that ended (`cause` undefined) or was cut before any content: a retryable `network_error`,
 * as a stream lost before its first bytes (nothing reached the caller); undefined when an event
 * was left unended (its data may have been content: the stream reports `stream_incomplete`).
 */
function lostBeforeContent(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  cause?: unknown,
): GatewayError | undefined {
  if (decoder.heldDataChars > 0) return undefined;
  const how = cause === undefined ? 'ended' : `was cut (${describeCause(cause)})`;
  return gatewayFailure(
    {
      code: 'network_error',
      status: answer.response.status,
      message: `The stream ${how} before any content`,
      cause,
    },
    { beforeFirstBytes: true },
  );
}

/** A chunk decoded a slice at a time (a body handed over in one large chunk is never decoded whole). */
function feedSliced(decoder: ChatStreamDecoder, text: TextDecoder, chunk: Uint8Array): void {
  for (let at = 0; at < chunk.byteLength; at += READ_SLICE_BYTES) {
    decoder.feed(text.decode(chunk.subarray(at, at + READ_SLICE_BYTES), { stream: true }));
  }
}
